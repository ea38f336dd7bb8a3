/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Bullet 3.24 (Debian's libbullet-dev) as the oracle of impactfit's Bullet entries (src/engines/bullet.c):
 * sphere–plane (btStaticPlaneShape) and sphere–sphere impacts of btRigidBody spheres in a
 * btDiscreteDynamicsWorld with the default btSequentialImpulseConstraintSolver, no gravity, no friction,
 * stepped as stepSimulation(dt, 1, dt); checked against impactfit's stepper for the same phase
 * (|Δe| ≤ 1e-6 in the double build, bullet-float64), against the asked e (the engine's mean over the
 * phase at the user's step, and every phase at a resolving step, within 1e-5), and the issue's Bullet
 * bullets. Built twice: against bullet-float64 (the checks) and against the single-precision bullet
 * (BULLET_SINGLE: reports how far single precision lands from impactfit's double model). */
#include <btBulletDynamicsCommon.h>

#include "harness.h"

#ifdef BT_USE_DOUBLE_PRECISION
#define PRECISION "double"
static const double per_phase_tol = 1e-6;
#else
#define PRECISION "single"
static const double per_phase_tol = 5e-3; /* single precision: see docs/engines/BULLET.md */
#endif

/* ---------------------------------------------------------------- the engine */

/* what the harness sets on the bodies and the solver for a case and the free parameter's value, with its
 * own code: the product rule is met by giving the other body restitution 1 */
static double bt_e(const hz_case *c, double value, double phi, int J) {
  const impactfit_engine_bodies *b = &c->bodies.b;
  double h = c->dt, v = c->v;
  btScalar saved_threshold = gContactBreakingThreshold;
  gContactBreakingThreshold = (btScalar)hz_get1(c, "gContactBreakingThreshold", 0.02);
  btDefaultCollisionConfiguration config;
  btCollisionDispatcher dispatcher(&config);
  btDbvtBroadphase broadphase;
  btSequentialImpulseConstraintSolver solver;
  btDiscreteDynamicsWorld world(&dispatcher, &broadphase, &solver, &config);
  world.setGravity(btVector3(0, 0, 0));
  btContactSolverInfo &info = world.getSolverInfo();
  if (hz_get(c, "erp2"))
    info.m_erp2 = (btScalar)hz_get1(c, "erp2", 0.2);
  if (hz_get(c, "globalCfm"))
    info.m_globalCfm = (btScalar)hz_get1(c, "globalCfm", 0.0);
  if (hz_get(c, "restitutionVelocityThreshold"))
    info.m_restitutionVelocityThreshold = (btScalar)hz_get1(c, "restitutionVelocityThreshold", 0.2);
  if (const double *sp = hz_get(c, "splitImpulse")) {
    info.m_splitImpulse = sp[0] != 0.0;
    info.m_splitImpulsePenetrationThreshold = (btScalar)sp[1];
  }
  if (const double *so = hz_get(c, "solver")) {
    info.m_numIterations = (int)so[0];
    info.m_sor = (btScalar)so[1];
    info.m_warmstartingFactor = (btScalar)so[2];
    if (so[2] == 0.0)
      info.m_solverMode &= ~SOLVER_USE_WARMSTARTING;
  }

  btSphereShape s1(b->r1);
  btStaticPlaneShape plane(btVector3(0, 0, 1), 0);
  btSphereShape s2(b->plane ? 1.0 : b->r2);
  btVector3 inertia1, inertia2;
  s1.calculateLocalInertia(b->m1, inertia1);
  btRigidBody::btRigidBodyConstructionInfo i1(b->m1, nullptr, &s1, inertia1);
  btRigidBody body1(i1);
  btRigidBody *other;
  btRigidBody::btRigidBodyConstructionInfo ip(0, nullptr, &plane);
  btRigidBody ground(ip);
  s2.calculateLocalInertia(b->plane ? 1.0 : b->m2, inertia2);
  btRigidBody::btRigidBodyConstructionInfo i2(b->plane ? 1.0 : b->m2, nullptr, &s2, inertia2);
  btRigidBody body2(i2);
  btTransform t;
  t.setIdentity();
  if (b->plane) {
    other = &ground;
    t.setOrigin(btVector3(0, 0, b->r1 + (J - phi) * v * h));
    body1.setWorldTransform(t);
    body1.setLinearVelocity(btVector3(0, 0, -v));
  } else {
    other = &body2;
    t.setOrigin(btVector3(-(b->r1 + b->r2 + (J - phi) * v * h), 0, 0));
    body1.setWorldTransform(t);
    body1.setLinearVelocity(btVector3(v, 0, 0));
    t.setOrigin(btVector3(0, 0, 0));
    body2.setWorldTransform(t);
  }
  body1.setFriction(0);
  other->setFriction(0);
  body1.setActivationState(DISABLE_DEACTIVATION);
  other->setActivationState(DISABLE_DEACTIVATION);
  if (strcmp(c->model, "restitution") == 0) {
    body1.setRestitution((btScalar)value);
    other->setRestitution(1);
  } else { /* contact stiffness damping */
    double r = hz_get1(c, "restitution", 0.0);
    if (r > 0.0) {
      body1.setRestitution((btScalar)r);
      other->setRestitution(1);
    }
    body1.setContactStiffnessAndDamping((btScalar)hz_get1(c, "kp", NAN), (btScalar)value);
    if (const double *o = hz_get(c, "other"))
      other->setContactStiffnessAndDamping((btScalar)o[0], (btScalar)o[1]);
  }
  world.addRigidBody(&body1);
  world.addRigidBody(other);

  double e = NAN, last = NAN, thr = gContactBreakingThreshold * sqrt(3.0) * (b->plane ? b->r1 : fmin(b->r1, b->r2));
  int same = 0;
  for (long k = 0; k < 4000000L; k++) {
    world.stepSimulation((btScalar)h, 1, (btScalar)h);
    double gap, vrel;
    if (b->plane) {
      gap = body1.getWorldTransform().getOrigin().z() - b->r1;
      vrel = body1.getLinearVelocity().z();
    } else {
      gap = body2.getWorldTransform().getOrigin().x() - body1.getWorldTransform().getOrigin().x() - b->r1 - b->r2;
      vrel = body2.getLinearVelocity().x() - body1.getLinearVelocity().x();
    }
    if (gap > thr + 2.0 * v * h && vrel > 0.0) {
      e = vrel / v;
      break;
    }
    if (!b->plane && gap < -(b->r1 + b->r2)) /* the centres passed each other: not an impact */
      break;
    same = vrel == last ? same + 1 : 0; /* at rest */
    last = vrel;
    if (same > 1000 && fabs(vrel) < 1e-9 * v) {
      e = 0.0;
      break;
    }
  }
  world.removeRigidBody(other);
  world.removeRigidBody(&body1);
  gContactBreakingThreshold = saved_threshold;
  return e;
}

/* ---------------------------------------------------------------- the comparisons */

static const double phases[4] = {0.1370, 0.3910, 0.6420, 0.8830};
static const double asked[5] = {0.1, 0.3, 0.5, 0.7, 0.9};
static long engine_runs = 0;
static double worst_seen = 0.0;

static double per_phase(const hz_case *c, double value, const char *what) {
  impactfit_stepper st;
  if (hz_stepper("bullet", c, value, &st)) {
    hz_fail++;
    return NAN;
  }
  int J = hz_steps_ahead(&st, c->v);
  double worst = 0.0;
  for (int i = 0; i < 4; i++) {
    if (hz_near_jump(&st, c->v, phases[i]))
      continue;
    double em = hz_model_e(&st, c->v, phases[i], NULL), ee = bt_e(c, value, phases[i], J);
    engine_runs++;
    char buf[256];
    snprintf(buf, sizeof buf, "%s %s %s %s v %g dt %g phi %g", what, c->model, PRECISION, c->bodies.name, c->v, c->dt,
             phases[i]);
    HZ_CHECK_ABS(ee, em, per_phase_tol, buf);
    worst = fmax(worst, fabs(ee - em));
  }
  worst_seen = fmax(worst_seen, worst);
  return worst;
}

static void one(hz_case *c, double e, int mean) {
  impactfit_engine_request q;
  impactfit_engine_answer a;
  impactfit_error err;
  if (hz_request("bullet", c, e, &q))
    return;
  if (impactfit_engine_solve(&q, &a, &err)) {
    fprintf(stderr, "FAIL solve %s: %s\n", c->model, err.message);
    hz_fail++;
    return;
  }
  double dn = NAN, dc = NAN, em = NAN;
  if (!isnan(a.naive_value))
    dn = per_phase(c, a.naive_value, "naive");
  if (a.reachable) {
    dc = per_phase(c, a.value, "corrected");
#ifdef BT_USE_DOUBLE_PRECISION
    if (a.e_max - a.e_min < 1e-5) /* a resolving step: every phase gives the asked e */
      for (int i = 0; i < 4; i++) {
        impactfit_stepper st;
        hz_stepper("bullet", c, a.value, &st);
        double ee = bt_e(c, a.value, phases[i], hz_steps_ahead(&st, c->v));
        engine_runs++;
        char buf[256];
        snprintf(buf, sizeof buf, "asked e at a resolving step %s %s v %g dt %g e %g phi %g", c->model, c->bodies.name,
                 c->v, c->dt, e, phases[i]);
        HZ_CHECK_ABS(ee, e, 1e-5, buf);
      }
    if (mean) {
      impactfit_stepper st;
      hz_stepper("bullet", c, a.value, &st);
      em = hz_engine_mean(bt_e, c, &st, a.value, 1, &engine_runs);
      char buf[256];
      snprintf(buf, sizeof buf, "mean of the engine's e %s %s v %g dt %g e %g", c->model, c->bodies.name, c->v, c->dt,
               e);
      HZ_CHECK_ABS(em, e, 1e-5, buf);
    }
#else
    (void)mean;
#endif
  }
  printf("%-11s %-7s %4.1f %8.2e %4.2f | %11.5g %7.4f | %11.5g %7.4f [%6.4f %6.4f] %7.4f | %8.1e %8.1e\n", c->model,
         c->bodies.name, c->v, c->dt, e, a.naive_value, a.e_naive, a.reachable ? a.value : NAN,
         a.reachable ? a.e_mean : NAN, a.reachable ? a.e_min : a.e_reach_min, a.reachable ? a.e_max : a.e_reach_max, em,
         dn, dc);
}

static void header(const char *title) {
  printf("\n%s\n%-11s %-7s %4s %8s %4s | %11s %7s | %11s %7s %15s %7s | %8s %8s\n", title, "model", "bodies", "v", "dt",
         "e", "naive", "e_naive", "corrected", "e_mean", "[min max]", "engine", "dnaive", "dcorr");
}

static void sweep(hz_case *c, const double *dts, int ndt, int mean_every) {
  static const double speeds[3] = {0.5, 1.0, 2.0};
  int count = 0;
  for (int d = 0; d < ndt; d++)
    for (int bi = 0; bi < 3; bi++)
      for (int vi = 0; vi < 3; vi++) {
        if (d && vi != (bi == 0 ? 1 : bi == 1 ? 0 : 2))
          continue;
        c->dt = dts[d];
        c->bodies = hz_make_bodies(bi);
        c->v = speeds[vi];
        if (!c->bodies.b.plane && c->v * c->dt > 0.5 * (c->bodies.b.r1 + c->bodies.b.r2)) {
          printf("%-11s %-7s %4.1f %8.2e      | left out: v dt > (r1 + r2)/2\n", c->model, c->bodies.name, c->v,
                 c->dt);
          continue;
        }
        for (int k = 0; k < 5; k++)
          one(c, asked[k], mean_every && count++ % mean_every == 0);
      }
}

#ifdef BT_USE_DOUBLE_PRECISION
/* ---------------------------------------------------------------- the issue's bullets */

static void bullets(void) {
  printf("\nissue 24, Bullet bullets (5 mm sphere, 1.309 g, plane, 1 m/s)\n");
  hz_case c;
  memset(&c, 0, sizeof c);
  c.model = "restitution";
  c.v = 1.0;
  c.bodies = hz_make_bodies(0);
  impactfit_stepper st;
  for (int d = 0; d < 2; d++) {
    c.dt = d ? 1e-4 : 1e-3;
    hz_stepper("bullet", &c, 0.5, &st);
    int J = hz_steps_ahead(&st, 1.0);
    double lo = 1, hi = 0;
    printf("restitution 0.5, dt %g: phi -> e (engine, impactfit)\n", c.dt);
    for (int k = 1; k <= 8; k++) {
      double phi = (k - 0.5) / 8, ee = bt_e(&c, 0.5, phi, J), em = hz_model_e(&st, 1.0, phi, NULL);
      engine_runs++;
      printf("  %.4f  %.10f  %.10f\n", phi, ee, em);
      HZ_CHECK_ABS(ee, em, 1e-9, "restitution 0.5 per phase");
      lo = fmin(lo, ee);
      hi = fmax(hi, ee);
    }
    double me = hz_engine_mean(bt_e, &c, &st, 0.5, 1, &engine_runs);
    printf("  8 phases [%.4f, %.4f], mean over phi (engine) %.10f\n", lo, hi, me);
    if (d == 0) {
      /* the closed form: e = r + erp2 phi before the breaking distance tau = thr/(v h) reaches the last step
       * start, r - (1 - phi) after: mean r + erp2 (1 - tau)^2/2 - tau^2/2 */
      double tau = 0.02 * sqrt(3.0) * 0.005 / 1e-3, cf = 0.5 + 0.2 * (1 - tau) * (1 - tau) / 2 - tau * tau / 2;
      printf("  closed form %.10f\n", cf);
      HZ_CHECK_ABS(me, cf, 1e-9, "restitution 0.5 mean, closed form");
      HZ_CHECK_ABS(lo, 0.375, 1e-9, "restitution 0.5, smallest of 8 phases");
      HZ_CHECK_ABS(hi, 0.65, 1e-9, "restitution 0.5, largest of 8 phases");
    } else {
      HZ_CHECK_ABS(hi, 0.0, 1e-12, "restitution 0.5 at h = 1e-4: e = 0");
    }
  }

  /* contact stiffness and damping: the damping-ratio kd, e as h -> 0, first order in h */
  memset(&c, 0, sizeof c);
  c.model = "contact stiffness damping";
  c.v = 1.0;
  c.bodies = hz_make_bodies(0);
  hz_set1(&c, "kp", 1e3);
  printf("contact stiffness damping kp = 1e3 N/m, kd = 2 zeta sqrt(kp m), zeta the damping-ratio formula's\n");
  printf("   e   ground  |  e(h) engine mean for h = 4e-5, 2e-5, 1e-5  | continuous | (e(2h) - e0)/(e(h) - e0)\n");
  for (int k = 0; k < 5; k += 2) {
    double L = log(asked[k]), zeta = -L / sqrt(HZ_PI * HZ_PI + L * L), kd = 2 * zeta * sqrt(1e3 * c.bodies.b.m1);
    for (int g = 0; g < 2; g++) {
      double o[2] = {1e30, g ? 0.1 : 0.0};
      hz_set(&c, "other", 2, o);
      double em[3];
      for (int i = 0; i < 3; i++) {
        c.dt = 4e-5 / (1 << i);
        hz_stepper("bullet", &c, kd, &st);
        em[i] = hz_engine_mean(bt_e, &c, &st, kd, 1, &engine_runs);
      }
      impactfit_step_stats S;
      impactfit_error err;
      impactfit_step_phase_stats(&st, 1.0, &S, &err);
      double r1 = (em[0] - S.e_continuous) / (em[1] - S.e_continuous),
             r2 = (em[1] - S.e_continuous) / (em[2] - S.e_continuous);
      printf("  %.1f  %5s  |  %.6f %.6f %.6f  |  %.6f  |  %.3f %.3f\n", asked[k], g ? "0.1" : "0", em[0], em[1], em[2],
             S.e_continuous, r1, r2);
      hz_check(r1 > 1.8 && r1 < 2.2 && r2 > 1.8 && r2 < 2.2, "FAIL %s: %.12g %.12g (%.3g %.3g)\n",
               "first order in h", r1, r2, 0.0);
      if (!g) {
        static const double issue[5] = {0.253, 0, 0.550, 0, 0.902};
        HZ_CHECK_ABS(S.e_continuous, issue[k], 5e-4, "the damping-ratio kd as h -> 0 (issue's figure)");
        HZ_CHECK_ABS(em[2], S.e_continuous, 3e-3, "engine at h = 1e-5 near the continuous limit");
      }
    }
  }
}

/* every phase at a resolving step */
static void resolving(void) {
  printf("\nresolving step: contact stiffness damping kp = 1e3 N/m, dt 5e-8 s (|e - asked| at two phases)\n");
  hz_case c;
  memset(&c, 0, sizeof c);
  c.model = "contact stiffness damping";
  c.dt = 5e-8;
  c.v = 1.0;
  c.bodies = hz_make_bodies(0);
  hz_set1(&c, "kp", 1e3);
  impactfit_engine_request q;
  impactfit_engine_answer a;
  impactfit_error err;
  hz_request("bullet", &c, 0.5, &q);
  q.tol = 1e-7;
  if (impactfit_engine_solve(&q, &a, &err) || !a.reachable) {
    fprintf(stderr, "FAIL resolving solve: %s\n", err.message);
    hz_fail++;
    return;
  }
  impactfit_stepper st;
  hz_stepper("bullet", &c, a.value, &st);
  int J = hz_steps_ahead(&st, c.v);
  for (int i = 0; i < 2; i++) {
    double phi = i ? 0.77 : 0.23, ee = bt_e(&c, a.value, phi, J);
    engine_runs++;
    printf("  e 0.5 kd %.10g: phi %.2f engine %.8f (spread of impactfit's e %.2e)\n", a.value, phi, ee,
           a.e_max - a.e_min);
    HZ_CHECK_ABS(ee, 0.5, 1e-5, "resolving step, asked e");
  }
}
#endif

int main(void) {
  hz_case c;
  memset(&c, 0, sizeof c);
  header("restitution (" PRECISION ")");
  c.model = "restitution";
  static const double dts_r[3] = {1.0 / 60.0, 1e-3, 1e-4};
  sweep(&c, dts_r, 3, 7);

  header("contact stiffness damping, kp = 1e3 N/m, the plane's default damping 0.1 N s/m (" PRECISION ")");
  memset(&c, 0, sizeof c);
  c.model = "contact stiffness damping";
  hz_set1(&c, "kp", 1e3);
  static const double dts_s[3] = {1.0 / 60.0, 1e-3, 1e-4};
  sweep(&c, dts_s, 3, 7);

#ifdef BT_USE_DOUBLE_PRECISION
  header("restitution with sor 0.7 and the split impulse from 1 mm (double)");
  memset(&c, 0, sizeof c);
  c.model = "restitution";
  double so[3] = {10, 0.7, 0.85}, sp[2] = {1, -1e-3};
  hz_set(&c, "solver", 3, so);
  hz_set(&c, "splitImpulse", 2, sp);
  static const double dts_x[1] = {1e-3};
  sweep(&c, dts_x, 1, 0);
  bullets();
  resolving();
#endif
  printf("\nbullet_impacts (%s): %ld engine impacts, largest |e_engine - e_impactfit| per phase %.3g\n", PRECISION,
         engine_runs, worst_seen);
  if (hz_fail) {
    fprintf(stderr, "bullet_impacts (%s): %d of %d checks failed\n", PRECISION, hz_fail, hz_checks);
    return 1;
  }
  printf("bullet_impacts (%s): all %d checks passed\n", PRECISION, hz_checks);
  return 0;
}
