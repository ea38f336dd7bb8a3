/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ODE 0.16.2 (Debian's libode-dev, double precision) as the oracle of the user's scene (issue 33): drop tests
 * under gravity (src/law/drop.c with ODE's steppers of src/engines/ode.c) and the friction pyramid's part in the
 * normal response.
 *  (1) A sphere (r 0.1 m, 0.5 kg) released from rest 1 m above a plane, g = 9.81, up to 15 apexes above 2 mm,
 *      run as an ODE user runs it (dCollide at the step start, a contact joint, dWorldStep, the group emptied):
 *      the spring-damper model (kp 1e4 N/m at dt 1e-3, 1e5 at 1e-4) and the hard contact with dContactBounce
 *      (bounce_vel 0.1 m/s, dt 1e-3), impactfit's input for e = 0.75, 0.5, 0.9 (drop_harness.h's checks).
 *  (2) Friction: the same drops with surface.mu = 0.5, 1 and dInfinity (two friction rows, box limits, and with
 *      dContactApprox1: the pyramid scaled by the normal force) give the apexes of mu = 0 bit for bit: head-on
 *      with no tangential motion the friction rows' right-hand side is 0 and J_t M⁻¹ J_nᵀ = 0 for a sphere (the
 *      contact point on the line through its centre), so their force is 0 and the normal row is unchanged.
 *  (3) The registry's drop answer (impactfit_code_drop, drop_harness.h's dh_registry) into (1)'s drop: the bounce
 *      model at dt 1e-2 and 1e-3, the spring-damper (solved on the mean), one case without a peak threshold. */
#include <ode/ode.h>

#include "drop_harness.h"

static double G = 9.81;
static double MU = 0.0; /* surface.mu of the engine's contacts */
static int APPROX1 = 0; /* 1: dContactApprox1 (the friction pyramid scaled by the normal force) */

static int ode_drop(const hz_case *c, double value, double h, long nsteps, double min_h, int n, double *apex) {
  const hz_body_pair *b = &c->bodies.b;
  double dt = c->dt;
  dWorldID w = dWorldCreate();
  dWorldSetGravity(w, 0, 0, -G);
  dJointGroupID group = dJointGroupCreate(0);
  dBodyID b1 = dBodyCreate(w);
  dMass mass;
  dMassSetSphereTotal(&mass, b->m1, b->r1);
  dBodySetMass(b1, &mass);
  dGeomID g1 = dCreateSphere(0, b->r1), g2 = dCreatePlane(0, 0, 0, 1, 0);
  dGeomSetBody(g1, b1);
  dBodySetPosition(b1, 0, 0, b->r1 + h);
  /* the contact's surface from the value, with the manual's formulas (not impactfit's code) */
  int mode = 0;
  double erp = 0.0, cfm = 0.0, bounce = 0.0, bvel = -1.0;
  if (strcmp(c->model, "spring-damper") == 0) {
    double kp = hz_get1(c, "kp", NAN);
    erp = dt * kp / (dt * kp + value);
    cfm = 1.0 / (dt * kp + value);
    mode = dContactSoftERP | dContactSoftCFM;
  } else { /* bounce, the world's ERP and CFM */
    bounce = value;
    bvel = hz_get(c, "bounce")[1];
    mode = dContactBounce;
  }
  if (MU != 0.0 && APPROX1)
    mode |= dContactApprox1;
  int found = 0;
  double g2v = h, g1v = h;
  for (long k = 0; k < nsteps && found < n; k++) {
    dContact ct;
    memset(&ct, 0, sizeof ct);
    if (dCollide(g1, g2, 1, &ct.geom, sizeof ct)) {
      ct.surface.mode = mode;
      ct.surface.mu = MU;
      ct.surface.soft_erp = erp;
      ct.surface.soft_cfm = cfm;
      ct.surface.bounce = bounce;
      ct.surface.bounce_vel = bvel;
      dJointID j = dJointCreateContact(w, group, &ct);
      dJointAttach(j, b1, NULL);
    }
    dWorldStep(w, dt);
    dJointGroupEmpty(group);
    double g0 = dBodyGetPosition(b1)[2] - b->r1;
    if (k >= 1 && g1v > g2v && g1v >= g0 && g1v > min_h && g1v > 0.0)
      apex[found++] = g1v;
    g2v = g1v;
    g1v = g0;
  }
  dGeomDestroy(g1);
  dGeomDestroy(g2);
  dJointGroupDestroy(group);
  dWorldDestroy(w);
  return found;
}

static dh_case drop_case(const char *model, double dt, double e) {
  dh_case d;
  memset(&d, 0, sizeof d);
  d.code = "ode";
  d.c.model = model;
  d.c.integrator = "step";
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
  if (strcmp(model, "spring-damper") == 0) {
    hz_set1(&d.c, "kp", dt < 1e-3 ? 1e5 : 1e4); /* h^2 kp/M = 0.02: backward Euler's own damping is small */
    d.lo = 1e-2;
    d.hi = 1e3;
  } else {
    double bn[2] = {0.5, 0.1}; /* the value replaces bounce[0] */
    hz_set(&d.c, "bounce", 2, bn);
    d.lo = 0.05;
    d.hi = 1.0;
  }
  return d;
}

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  dInitODE();
  printf("ode_scene: ODE %s\n", dGetConfiguration());
  dh_header("(1) drop tests: r 0.1 m, 0.5 kg, released from rest 1 m above a plane, g = 9.81, apexes above 2 mm, at "
            "most 15");
  const double es[3] = {0.75, 0.5, 0.9};
  double value[3] = {NAN, NAN, NAN};
  impactfit_drop_stats S;
  for (int i = 0; i < 3; i++) { /* e 0.9 needs dt 1e-4: backward Euler's own damping caps e at 0.79 at 1e-3 */
    dh_case d = drop_case("spring-damper", i == 2 ? 1e-4 : 1e-3, es[i]);
    value[i] = dh_run(&d, ode_drop, &S);
  }
  {
    for (int i = 0; i < 3; i++) {
      dh_case b = drop_case("bounce", 1e-3, es[i]);
      dh_run(&b, ode_drop, &S);
    }
  }
  /* (2) friction: the apexes with mu = 0 against mu = 0.5, 1, inf, box and pyramid (Approx1) */
  printf("(2) friction rows: the apexes of (1)'s first case with surface.mu = 0.5, 1, dInfinity, without and with "
         "dContactApprox1,\n    against mu = 0 (bit for bit)\n");
  if (!isnan(value[0])) {
    dh_case d = drop_case("spring-damper", 1e-3, 0.75);
    double ref[IMPACTFIT_DROP_MAX_BOUNCES], got[IMPACTFIT_DROP_MAX_BOUNCES];
    MU = 0.0;
    int nref = ode_drop(&d.c, value[0], 1.0, 100000, 0.002, 15, ref);
    const double mus[3] = {0.5, 1.0, dInfinity};
    for (int a = 0; a < 2; a++)
      for (int m = 0; m < 3; m++) {
        MU = mus[m];
        APPROX1 = a;
        int n = ode_drop(&d.c, value[0], 1.0, 100000, 0.002, 15, got);
        int same = n == nref;
        for (int k = 0; k < n && k < nref; k++)
          same &= got[k] == ref[k];
        printf("    mu %-8g %-8s %2d apexes, %s\n", mus[m], a ? "Approx1" : "box", n,
               same ? "identical to mu = 0" : "DIFFERENT");
        char w[96];
        snprintf(w, sizeof w, "ODE mu %g %s: the apexes vs mu = 0", mus[m], a ? "Approx1" : "box");
        HZ_CHECK_ABS((double)same, 1.0, 0.0, w);
      }
    MU = 0.0;
    APPROX1 = 0;
  }
  /* (3) the registry's drop answer */
  dh_registry_header("(3) the registry's drop answer (impactfit_code_drop, the request `impactfit engine --code ode "
                     "--drop 1 "
                     "--peak 0.002 --e E` builds),\n    its value into the engine: (1)'s drop");
  int exact = 0;
  for (int m = 0; m < 2; m++) /* the hard contact with bounce at dt 1e-2 and 1e-3 */
    for (int i = 0; i < 3; i++) {
      dh_case b = drop_case("bounce", m ? 1e-3 : 1e-2, es[i]);
      exact += dh_registry(&b, ode_drop, NULL) == 1;
    }
  for (int i = 0; i < 3; i++) { /* the spring-damper: solved on the mean (its apexes are not determined to the end) */
    dh_case d = drop_case("spring-damper", i == 2 ? 1e-4 : 1e-3, es[i]);
    dh_registry(&d, ode_drop, NULL);
  }
  {
    dh_case b = drop_case("bounce", 1e-2, 0.75); /* no peak threshold (the CLI's default): the sequence ends at rest */
    b.min_h = 0.0;
    exact += dh_registry(&b, ode_drop, NULL) == 1;
  }
  printf("    %d cases solved on the release give the asked e within 1e-4 in the engine\n", exact);
  HZ_CHECK_ABS((double)exact, 7.0, 0.0, "ODE: the registry's drop answers whose fit is the asked e in the engine");
  dCloseODE();
  if (hz_fail) {
    fprintf(stderr, "ode_scene: %d of %d checks failed\n", hz_fail, hz_checks);
    return 1;
  }
  printf("ode_scene: all %d checks passed\n", hz_checks);
  return 0;
}
