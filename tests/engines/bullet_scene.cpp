/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Bullet 3.24 (Debian's libbullet-dev, the double build bullet-float64) as the oracle of the user's scene (issue
 * 33): drop tests under gravity (src/law/drop.c with Bullet's steppers of src/engines/bullet.c) and friction's
 * part in the normal response.
 *  (1) A sphere (r 0.1 m, 0.5 kg) released from rest 1 m above a btStaticPlaneShape, g = 9.81, up to 15 apexes
 *      above 2 mm, in a btDiscreteDynamicsWorld stepped as stepSimulation(dt, 1, dt) with deactivation off (a
 *      body below 0.8 m/s for 2 s is put to sleep, mid-air included): the restitution model at dt 1/240 and 1/60
 *      (the 0.2 m/s restitution threshold ends the sequence) and the contact stiffness and damping model (kp
 *      1e4 N/m, dt 1e-3),
 *      impactfit's input for e = 0.75, 0.5, 0.9 (drop_harness.h's checks).
 *  (2) Friction: the same drop with setFriction 0.5 and 1 and setRollingFriction 0.1 on both bodies gives the
 *      apexes of friction 0 bit for bit (head-on, no tangential motion: the friction rows' impulses are 0).
 *  (3) The registry's drop answer (impactfit_code_drop, drop_harness.h's dh_registry) into (1)'s drop: restitution
 *      at the default 1/60 s and 1/240 s, contact stiffness and damping at 1e-3 and 1e-4. */
#include <btBulletDynamicsCommon.h>

#include "drop_harness.h"

static double G = 9.81, FRICTION = 0.0, ROLLING = 0.0;

static int bt_drop(const hz_case *c, double value, double h, long nsteps, double min_h, int n, double *apex) {
  const hz_body_pair *b = &c->bodies.b;
  double dt = c->dt;
  btDefaultCollisionConfiguration config;
  btCollisionDispatcher dispatcher(&config);
  btDbvtBroadphase broadphase;
  btSequentialImpulseConstraintSolver solver;
  btDiscreteDynamicsWorld world(&dispatcher, &broadphase, &solver, &config);
  world.setGravity(btVector3(0, 0, -G));
  btSphereShape s1(b->r1);
  btStaticPlaneShape plane(btVector3(0, 0, 1), 0);
  btVector3 inertia;
  s1.calculateLocalInertia(b->m1, inertia);
  btRigidBody::btRigidBodyConstructionInfo i1(b->m1, nullptr, &s1, inertia);
  btRigidBody body(i1);
  btRigidBody::btRigidBodyConstructionInfo ip(0, nullptr, &plane);
  btRigidBody ground(ip);
  btTransform t;
  t.setIdentity();
  t.setOrigin(btVector3(0, 0, b->r1 + h));
  body.setWorldTransform(t);
  body.setFriction(FRICTION);
  ground.setFriction(FRICTION);
  body.setRollingFriction(ROLLING);
  ground.setRollingFriction(ROLLING);
  body.setActivationState(DISABLE_DEACTIVATION);
  if (strcmp(c->model, "restitution") == 0) {
    body.setRestitution(value);
    ground.setRestitution(1); /* the combined restitution is the product */
  } else {
    body.setContactStiffnessAndDamping(hz_get1(c, "kp", NAN), value);
  }
  world.addRigidBody(&body);
  world.addRigidBody(&ground);
  int found = 0;
  double g2 = h, g1 = h;
  for (long k = 0; k < nsteps && found < n; k++) {
    world.stepSimulation(dt, 1, dt);
    double g0 = body.getWorldTransform().getOrigin().z() - b->r1;
    if (k >= 1 && g1 > g2 && g1 >= g0 && g1 > min_h && g1 > 0.0)
      apex[found++] = g1;
    g2 = g1;
    g1 = g0;
  }
  world.removeRigidBody(&ground);
  world.removeRigidBody(&body);
  return found;
}

static dh_case drop_case(const char *model, double dt, double e) {
  dh_case d;
  memset(&d, 0, sizeof d);
  d.code = "bullet";
  d.c.model = model;
  d.c.integrator = NULL;
  d.c.dt = dt;
  d.c.v = sqrt(2.0 * 9.81);
  d.c.bodies = hz_make_bodies(0);
  d.c.bodies.b.r1 = 0.1;
  d.c.bodies.b.m1 = 0.5;
  d.g = 9.81;
  d.h = 1.0;
  d.min_h = 0.002;
  d.bounces = 15;
  d.samples = 16;
  d.e = e;
  if (strcmp(model, "restitution") == 0) {
    d.lo = 0.05;
    d.hi = 1.0;
  } else {
    hz_set1(&d.c, "kp", 1e4);
    d.lo = 1e-2;
    d.hi = 1e3;
  }
  return d;
}

int main(void) {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  printf("bullet_scene: Bullet %d, btScalar %zu bytes\n", btGetVersion(), sizeof(btScalar));
  dh_header("(1) drop tests: r 0.1 m, 0.5 kg, released from rest 1 m above a plane, g = 9.81, apexes above 2 mm, at "
            "most 15");
  const double es[3] = {0.75, 0.5, 0.9};
  impactfit_drop_stats S;
  double v0 = NAN;
  for (int i = 0; i < 3; i++) {
    dh_case d = drop_case("restitution", 1.0 / 240, es[i]);
    double v = dh_run(&d, bt_drop, &S);
    if (i == 0)
      v0 = v;
  }
  {
    dh_case d = drop_case("restitution", 1.0 / 60, 0.75);
    dh_run(&d, bt_drop, &S);
    dh_case k = drop_case("contact stiffness damping", 1e-3, 0.75); /* h^2 kp/M = 0.02 */
    dh_run(&k, bt_drop, &S);
  }
  printf("(2) friction: the apexes of (1)'s first case with setFriction 0.5 and 1, setRollingFriction 0.1, against "
         "friction 0 (bit for bit)\n");
  if (!std::isnan(v0)) {
    dh_case d = drop_case("restitution", 1.0 / 240, 0.75);
    double ref[IMPACTFIT_DROP_MAX_BOUNCES], got[IMPACTFIT_DROP_MAX_BOUNCES];
    int nref = bt_drop(&d.c, v0, 1.0, 100000, 0.002, 15, ref);
    const double fr[3] = {0.5, 1.0, 0.5}, ro[3] = {0.0, 0.0, 0.1};
    for (int m = 0; m < 3; m++) {
      FRICTION = fr[m];
      ROLLING = ro[m];
      int n = bt_drop(&d.c, v0, 1.0, 100000, 0.002, 15, got);
      int same = n == nref;
      for (int k = 0; k < n && k < nref; k++)
        same &= got[k] == ref[k];
      printf("    friction %-4g rolling %-4g %2d apexes, %s\n", fr[m], ro[m], n,
             same ? "identical to friction 0" : "DIFFERENT");
      char w[96];
      snprintf(w, sizeof w, "Bullet friction %g rolling %g: the apexes vs friction 0", fr[m], ro[m]);
      HZ_CHECK_ABS((double)same, 1.0, 0.0, w);
    }
    FRICTION = ROLLING = 0.0;
  }
  /* (3) the registry's drop answer */
  dh_registry_header("(3) the registry's drop answer (impactfit_code_drop, the request `impactfit engine --code bullet "
                     "--drop 1 --peak 0.002 --e E` builds),\n    its value into the engine: (1)'s drop");
  int exact = 0;
  const double er[4] = {0.75, 0.5, 0.6, 0.9};
  for (int i = 0; i < 4; i++) { /* the restitution model at Bullet's default step 1/60 s */
    dh_case d = drop_case("restitution", 1.0 / 60, er[i]);
    exact += dh_registry(&d, bt_drop, nullptr) == 1;
  }
  {
    dh_case d = drop_case("restitution", 1.0 / 240, 0.75); /* 3 bounces determined: solved on the mean */
    dh_registry(&d, bt_drop, nullptr);
  }
  const double ek[5] = {0.75, 0.5, 0.6, 0.8, 0.9};
  for (int i = 0; i < 5; i++) { /* the soft contact: kp 1e4 at dt 1e-3 (e up to 0.76), 1e5 at 1e-4 */
    dh_case d = drop_case("contact stiffness damping", i < 3 ? 1e-3 : 1e-4, ek[i]);
    if (i >= 3)
      hz_set1(&d.c, "kp", 1e5);
    exact += dh_registry(&d, bt_drop, nullptr) == 1;
  }
  printf("    %d cases solved on the release give the asked e within 1e-4 in the engine\n", exact);
  HZ_CHECK_ABS((double)exact, 6.0, 0.0, "Bullet: the registry's drop answers whose fit is the asked e in the engine");
  if (hz_fail) {
    fprintf(stderr, "bullet_scene: %d of %d checks failed\n", hz_fail, hz_checks);
    return 1;
  }
  printf("bullet_scene: all %d checks passed\n", hz_checks);
  return 0;
}
