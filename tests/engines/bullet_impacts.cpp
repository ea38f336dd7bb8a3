/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Bullet 3.24 (Debian's libbullet-dev) as the oracle of impactfit's Bullet entries (src/codes/bullet.c):
 * sphere–plane (btStaticPlaneShape) and sphere–sphere impacts of btRigidBody spheres in a
 * btDiscreteDynamicsWorld with the default btSequentialImpulseConstraintSolver, no gravity, no friction,
 * stepped as stepSimulation(dt, 1, dt); checked against impactfit's stepper for the same phase
 * (|Δe| ≤ 1e-6 in the double build, bullet-float64), against the asked e (the engine's mean over the
 * phase at the user's step, and every phase at a resolving step, within 1e-5), and the issue's Bullet
 * bullets. Built twice: against bullet-float64 (the checks) and against the single-precision bullet
 * (BULLET_SINGLE: reports how far single precision lands from impactfit's double model). */
#include <btBulletDynamicsCommon.h>

#include <ctime>

#include "harness.h"

#ifdef BT_USE_DOUBLE_PRECISION
#define PRECISION "double"
static const double per_phase_tol = 1e-6;
#else
#define PRECISION "single"
/* single precision: the gap is read from a coordinate z ~ r = 5 mm whose float spacing is 4.7e-10 m, against
 * v dt down to 5e-5 m here: the phase is off by up to ~1e-5 and e(phi) has slopes up to 1; velocities carry
 * float's 6e-8. Measured: at most 5.4e-6 (docs/engines/BULLET.md). */
static const double per_phase_tol = 1e-4;
#endif

/* ---------------------------------------------------------------- the engine */

/* what the harness sets on the bodies and the solver for a case and the free parameter's value, with its
 * own code: the product rule is met by giving the other body restitution 1 */
static int bt_trace = 0; /* > 0: print the first bt_trace steps (debugging) */
/* fixed steps per stepSimulation call: 1 is stepSimulation(dt, 1, dt); 4 at dt = 1/240 s is a game loop's
 * stepSimulation(1/60, 4, 1/240) (60 frames a second, four substeps each) */
static int bt_substeps = 1;

static double bt_e(const hz_case *c, double value, double phi, int J) {
  const hz_body_pair *b = &c->bodies.b;
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

  /* The end, read from the engine's state after each step: the step applied no impulse (the relative velocity
   * is unchanged: nothing else acts) and
   *  - the bodies touch or have a gap and separate: no row acts again (a row's target at a gap g is r - g/h with
   *    r = 0 when separating, and its warm start is the last step's impulse, 0): e = their speed / v;
   *  - the state did not change (at rest for good): e = the separating speed, if any;
   *  - stopped short of the surface, the body approaches so slowly that it would not close the gap within 1e4
   *    steps (rows before touching act only when the gap would close within the step): the bodies stick, e = 0.
   * impactfit's stepper ends its impacts by the same three rules (src/law/stepper.c). */
  double e = NAN, lastv = NAN, lastgap = NAN;
  for (long k = 0; k < 2000000L; k++) {
    world.stepSimulation((btScalar)(h * bt_substeps), bt_substeps, (btScalar)h);
    double gap, vrel;
    if (b->plane) {
      gap = body1.getWorldTransform().getOrigin().z() - b->r1;
      vrel = body1.getLinearVelocity().z();
    } else {
      gap = body2.getWorldTransform().getOrigin().x() - body1.getWorldTransform().getOrigin().x() - b->r1 - b->r2;
      vrel = body2.getLinearVelocity().x() - body1.getLinearVelocity().x();
    }
    if (k < bt_trace) {
      printf("  %3ld gap %.15e vrel %.15e", k, gap, vrel);
      for (int m = 0; m < dispatcher.getNumManifolds(); m++) {
        btPersistentManifold *pm = dispatcher.getManifoldByIndexInternal(m);
        for (int q = 0; q < pm->getNumContacts(); q++)
          printf(" [pt %d d %.6e imp %.6e life %d]", q, (double)pm->getContactPoint(q).getDistance(),
                 (double)pm->getContactPoint(q).m_appliedImpulse, pm->getContactPoint(q).getLifeTime());
      }
      printf("\n");
    }
    int quiet = vrel == lastv;
    if (quiet && gap >= 0.0 && vrel > 0.0) {
      e = vrel / v;
      break;
    }
    if (quiet && gap == lastgap) {
      e = vrel > 0.0 ? vrel / v : 0.0;
      break;
    }
    if (quiet && gap > 0.0 && vrel < 0.0 && gap > 1e4 * -vrel * h) {
      e = 0.0;
      break;
    }
    if (!b->plane && gap < -(b->r1 + b->r2)) /* the centres passed each other: not an impact */
      break;
    lastv = vrel;
    lastgap = gap;
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

static void one_(hz_case *c, double e, int mean);
static void one(hz_case *c, double e, int mean) {
  clock_t t0 = clock();
  one_(c, e, mean);
  double t = (double)(clock() - t0) / CLOCKS_PER_SEC;
  if (t > 0.3)
    printf("   ^ %.2f s\n", t);
}
static void one_(hz_case *c, double e, int mean) {
  impactfit_code_request q;
  impactfit_code_answer a;
  impactfit_error err;
  if (hz_request("bullet", c, e, &q))
    return;
  if (impactfit_code_solve(&q, &a, &err)) {
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
         c->bodies.name, c->v, c->dt, e, a.naive_value, a.e_naive, a.reachable ? a.value : NAN, a.reachable ? a.e : NAN,
         a.reachable ? a.e_min : a.e_reach_min, a.reachable ? a.e_max : a.e_reach_max, em, dn, dc);
}

static void header(const char *title) {
  printf("\n%s\n%-11s %-7s %4s %8s %4s | %11s %7s | %11s %7s %15s %7s | %8s %8s\n", title, "model", "bodies", "v", "dt",
         "e", "naive", "e_naive", "corrected", "e_mean", "[min max]", "engine", "dnaive", "dcorr");
}

/* dt: the default 1/60 s (all speeds and bodies; two 5 mm spheres pass through each other at this step, which
 * the table says), 1/240 s as four substeps of a 1/60 s frame (all), 1e-3 and 1e-4 s (one speed per body) */
static void sweep(hz_case *c, int mean_every) {
  static const double speeds[3] = {0.5, 1.0, 2.0};
  static const double dts[4] = {1.0 / 60.0, 1.0 / 240.0, 1e-3, 1e-4};
  int count = 0;
  for (int d = 0; d < 4; d++)
    for (int bi = 0; bi < 3; bi++)
      for (int vi = 0; vi < 3; vi++) {
        if (d >= 2 && vi != (bi == 0 ? 1 : bi == 1 ? 0 : 2))
          continue;
        c->dt = dts[d];
        bt_substeps = d == 1 ? 4 : 1;
        c->bodies = hz_make_bodies(bi);
        c->v = speeds[vi];
        if (!c->bodies.b.plane && c->v * c->dt > 0.5 * (c->bodies.b.r1 + c->bodies.b.r2)) {
          printf("%-11s %-7s %4.1f %8.2e      | left out: v dt > (r1 + r2)/2, the spheres pass through\n", c->model,
                 c->bodies.name, c->v, c->dt);
          continue;
        }
        for (int k = 0; k < 5; k++)
          one(c, asked[k], mean_every && count++ % mean_every == 0);
      }
  bt_substeps = 1;
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
    for (int k = 1; k <= 8; k++) { /* the issue's eight phases, k/8 */
      double phi = k / 8.0, ee = bt_e(&c, 0.5, phi, J), em = hz_model_e(&st, 1.0, phi, NULL);
      engine_runs++;
      printf("  %.4f  %.10f  %.10f\n", phi, ee, em);
      HZ_CHECK_ABS(ee, em, 1e-9, "restitution 0.5 per phase");
      lo = fmin(lo, ee);
      hi = fmax(hi, ee);
    }
    double me = hz_engine_mean(bt_e, &c, &st, 0.5, 1, &engine_runs);
    printf("  8 phases [%.4f, %.4f], mean over phi (engine) %.10f\n", lo, hi, me);
    if (d == 0) {
      /* the closed form (derived by hand from the row, docs/engines/BULLET.md): with tau = thr/(v h) the
       * breaking distance in steps, e = r + erp2 phi while the step before the first contact step starts
       * beyond the breaking distance (phi < 1 - tau), and r - (1 - phi) when that step's gap row already
       * stops the body at the surface (phi > 1 - tau); mean r + erp2 (1 - tau)^2/2 - tau^2/2, one impact's
       * range (r - tau, r + erp2 (1 - tau)) */
      double tau = 0.02 * sqrt(3.0) * 0.005 / 1e-3, cf = 0.5 + 0.2 * (1 - tau) * (1 - tau) / 2 - tau * tau / 2;
      double e_lo = 0.5 - tau, e_hi = 0.5 + 0.2 * (1 - tau);
      double below = bt_e(&c, 0.5, 1 - tau - 1e-9, J), above = bt_e(&c, 0.5, 1 - tau + 1e-9, J);
      engine_runs += 2;
      impactfit_step_stats S;
      impactfit_error err;
      impactfit_step_phase_stats(&st, 1.0, &S, &err);
      printf("  closed form: mean %.10f, range (%.6f, %.6f); engine at phi = 1 - tau -/+ 1e-9: %.6f %.6f; "
             "impactfit mean %.10f range [%.6f, %.6f]\n",
             cf, e_lo, e_hi, below, above, S.e_mean, S.e_min, S.e_max);
      HZ_CHECK_ABS(me, cf, 1e-9, "restitution 0.5 mean (engine), closed form");
      HZ_CHECK_ABS(S.e_mean, cf, 1e-11, "restitution 0.5 mean (impactfit), closed form");
      HZ_CHECK_ABS(below, e_hi, 1e-8, "restitution 0.5, engine just below 1 - tau");
      HZ_CHECK_ABS(above, e_lo, 1e-8, "restitution 0.5, engine just above 1 - tau");
      HZ_CHECK_ABS(S.e_min, e_lo, 1e-9, "restitution 0.5, impactfit's smallest e");
      HZ_CHECK_ABS(S.e_max, e_hi, 1e-9, "restitution 0.5, impactfit's largest e");
      HZ_CHECK_ABS(lo, 0.375, 1e-9, "restitution 0.5, smallest of the issue's 8 phases");
      HZ_CHECK_ABS(hi, 0.65, 1e-9, "restitution 0.5, largest of the issue's 8 phases");
      HZ_CHECK_ABS(me, 0.55, 5e-3, "restitution 0.5 at h = 1e-3, the issue's mean 0.55");
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
  printf("   e   ground  |  e(h) engine mean for h = 4e-5, 2e-5, 1e-5  | extrapolated | continuous | "
         "(e(2h) - e0)/(e(h) - e0)\n");
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
      /* the engine's limit h -> 0 by Richardson extrapolation of its means (e = e0 + a h + b h^2) */
      double ex = (8.0 * em[2] - 6.0 * em[1] + em[0]) / 3.0;
      printf("  %.1f  %5s  |  %.6f %.6f %.6f  |  %.6f  |  %.6f  |  %.3f %.3f\n", asked[k], g ? "0.1" : "0", em[0],
             em[1], em[2], ex, S.e_continuous, r1, r2);
      hz_check(r1 > 1.8 && r1 < 2.2 && r2 > 1.8 && r2 < 2.2, "FAIL %s: %.12g %.12g (%.3g %.3g)\n", "first order in h",
               r1, r2, 0.0);
      HZ_CHECK_ABS(ex, S.e_continuous, 3e-5, "the engine's extrapolated limit = impactfit's continuous e");
      if (!g) {
        static const double issue[5] = {0.253, 0, 0.550, 0, 0.902};
        HZ_CHECK_ABS(ex, issue[k], 5e-4, "the damping-ratio kd as h -> 0 (issue's figure)");
      }
    }
  }
}

/* every phase at a resolving step */
static void resolving(void) {
  printf("\nresolving step: contact stiffness damping kp = 1e3 N/m, the other body's damping set to 0, dt 1e-5 s\n");
  hz_case c;
  memset(&c, 0, sizeof c);
  c.model = "contact stiffness damping";
  c.dt = 1e-5;
  c.v = 1.0;
  hz_set1(&c, "kp", 1e3);
  double o[2] = {1e30, 0.0};
  hz_set(&c, "other", 2, o);
  static const double es[3] = {0.1, 0.5, 0.9};
  /* the plane only: between two spheres (no row before touching) the spread over the phase is 3e-3 at 1e-5 s and
   * falls below 1e-5 only near 3e-8 s (17 s for one inverse); their checks are the engine's mean over the phase
   * at the user's dt (the sweeps above) */
  for (int bi = 0; bi < 1; bi++)
    for (int k = 0; k < 3; k++) {
      c.bodies = hz_make_bodies(bi);
      impactfit_code_request q;
      impactfit_code_answer a;
      impactfit_error err;
      hz_request("bullet", &c, es[k], &q);
      if (impactfit_code_solve(&q, &a, &err) || !a.reachable) {
        fprintf(stderr, "FAIL resolving solve %s e %g: %s\n", c.bodies.name, es[k], a.note);
        hz_fail++;
        continue;
      }
      HZ_CHECK_ABS(a.e_max - a.e_min, 0.0, 1e-5, "a resolving step: impactfit's single-impact spread");
      impactfit_stepper st;
      hz_stepper("bullet", &c, a.value, &st);
      int J = hz_steps_ahead(&st, c.v);
      double worst = 0.0;
      for (int i = 0; i < 4; i++) {
        double ee = bt_e(&c, a.value, phases[i], J);
        engine_runs++;
        HZ_CHECK_ABS(ee, es[k], 1e-5, "resolving step, the engine gives the asked e");
        worst = fmax(worst, fabs(ee - es[k]));
      }
      printf("  %-7s e %.1f: kd %.10g (naive %.6g gives %.4f), engine at 4 phases within %.2e of e\n", c.bodies.name,
             es[k], a.value, a.naive_value, a.e_naive, worst);
    }
}
#endif

static void cpu(const char *what) {
  static clock_t t0 = 0;
  clock_t t = clock();
  printf("[cpu %s: %.2f s]\n", what, (double)(t - t0) / CLOCKS_PER_SEC);
  t0 = t;
}

int main(void) {
  hz_case c;
  memset(&c, 0, sizeof c);
  header("restitution (" PRECISION ")");
  c.model = "restitution";
  sweep(&c, 7);
  cpu("restitution");

  header("contact stiffness damping, kp = 1e3 N/m, the plane's default damping 0.1 N s/m (" PRECISION ")");
  memset(&c, 0, sizeof c);
  c.model = "contact stiffness damping";
  hz_set1(&c, "kp", 1e3);
  sweep(&c, 7);
  cpu("contact stiffness damping");

#ifdef BT_USE_DOUBLE_PRECISION
  header("restitution with sor 0.7 and the split impulse from 1 mm (double)");
  memset(&c, 0, sizeof c);
  c.model = "restitution";
  double so[3] = {10, 0.7, 0.85}, sp[2] = {1, -1e-3};
  hz_set(&c, "solver", 3, so);
  hz_set(&c, "splitImpulse", 2, sp);
  c.dt = 1e-3;
  for (int bi = 0; bi < 3; bi++)
    for (int vi = 0; vi < 3; vi++) {
      static const double speeds[3] = {0.5, 1.0, 2.0};
      c.bodies = hz_make_bodies(bi);
      c.v = speeds[vi];
      /* the plane at restitution below 0.3: the unfinished warm start (sor < 1) leaves rebounds of 1e-8 v in
       * an accumulation of step sequences near the sticking phase, which impactfit's phase statistics resolve
       * piece by piece (about 1.7 s each; docs/engines/BULLET.md): left out here to keep the test short */
      for (int k = bi == 0 ? 2 : 0; k < 5; k++)
        one(&c, asked[k], 0);
    }
  cpu("sor 0.7");
  bullets();
  cpu("the issue's bullets");
  resolving();
  cpu("resolving step");
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
