/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ODE 0.16.2 (Debian's libode-dev, double precision) as the oracle of impactfit's ODE entries
 * (src/codes/ode.c): sphere–plane and sphere–sphere impacts, no gravity, no friction, run the way an
 * ODE user runs them (dCollide at the step start, one contact joint per contact point, dWorldStep or
 * dWorldQuickStep, the joint group emptied), checked against impactfit's stepper for the same phase
 * (|Δe| ≤ 1e-6), against the asked e (the mean over the phase at the user's step, and every phase at a
 * resolving step, within 1e-5), and the ODE bullets. Prints the tables of docs/engines/ODE.md. */
#include <ode/ode.h>

#include "harness.h"

/* ---------------------------------------------------------------- the engine */

static double ode_e(const hz_case *c, double value, double phi, int J) {
  const hz_body_pair *b = &c->bodies.b;
  double h = c->dt, v = c->v;
  dWorldID w = dWorldCreate();
  dJointGroupID group = dJointGroupCreate(0);
  dBodyID b1 = dBodyCreate(w), b2 = NULL;
  dMass mass;
  dMassSetSphereTotal(&mass, b->m1, b->r1);
  dBodySetMass(b1, &mass);
  dGeomID g1 = dCreateSphere(0, b->r1), g2;
  dGeomSetBody(g1, b1);
  if (b->plane) {
    g2 = dCreatePlane(0, 0, 0, 1, 0);
    dBodySetPosition(b1, 0, 0, b->r1 + (J - phi) * v * h);
    dBodySetLinearVel(b1, 0, 0, -v);
  } else {
    b2 = dBodyCreate(w);
    dMassSetSphereTotal(&mass, b->m2, b->r2);
    dBodySetMass(b2, &mass);
    g2 = dCreateSphere(0, b->r2);
    dGeomSetBody(g2, b2);
    dBodySetPosition(b1, -(b->r1 + b->r2 + (J - phi) * v * h), 0, 0);
    dBodySetLinearVel(b1, v, 0, 0);
    dBodySetPosition(b2, 0, 0, 0);
  }
  /* the contact's surface, converted here with the manual's formulas (not impactfit's code) */
  int mode = 0;
  double erp = 0.0, cfm = 0.0, bounce = 0.0, bvel = -1.0;
  const double *bn = hz_get(c, "bounce");
  if (bn) {
    bounce = bn[0];
    bvel = bn[1];
  }
  if (strcmp(c->model, "spring-damper") == 0) {
    double kp = hz_get1(c, "kp", NAN);
    erp = h * kp / (h * kp + value);
    cfm = 1.0 / (h * kp + value);
    mode = dContactSoftERP | dContactSoftCFM;
  } else if (strcmp(c->model, "erp-cfm") == 0) {
    erp = value;
    cfm = hz_get1(c, "cfm", NAN);
    mode = dContactSoftERP | dContactSoftCFM;
  } else { /* bounce: the world's ERP/CFM */
    bounce = value;
    bvel = bn ? bn[1] : 0.0;
    if (hz_get(c, "erp"))
      dWorldSetERP(w, hz_get1(c, "erp", 0.2));
    if (hz_get(c, "cfm"))
      dWorldSetCFM(w, hz_get1(c, "cfm", 1e-10));
  }
  if (bvel >= 0.0 && bounce > 0.0)
    mode |= dContactBounce;
  if (hz_get(c, "max_vel"))
    dWorldSetContactMaxCorrectingVel(w, hz_get1(c, "max_vel", 0));
  if (hz_get(c, "surface_layer"))
    dWorldSetContactSurfaceLayer(w, hz_get1(c, "surface_layer", 0));
  int quick = c->integrator && strcmp(c->integrator, "quickstep") == 0;
  if (quick && hz_get(c, "quickstep")) {
    dWorldSetQuickStepNumIterations(w, (int)hz_get(c, "quickstep")[0]);
    dWorldSetQuickStepW(w, hz_get(c, "quickstep")[1]);
  }
  double e = NAN, last = NAN;
  int same = 0;
  for (long k = 0; k < 4000000L; k++) {
    dContact ct;
    memset(&ct, 0, sizeof ct);
    if (dCollide(g1, g2, 1, &ct.geom, sizeof ct)) {
      ct.surface.mode = mode;
      ct.surface.mu = 0;
      ct.surface.soft_erp = erp;
      ct.surface.soft_cfm = cfm;
      ct.surface.bounce = bounce;
      ct.surface.bounce_vel = bvel;
      dJointID j = dJointCreateContact(w, group, &ct);
      dJointAttach(j, b1, b2);
    }
    if (quick)
      dWorldQuickStep(w, h);
    else
      dWorldStep(w, h);
    dJointGroupEmpty(group);
    /* apart: ODE's own test of the next dCollide, so that it finds no contact (0.16.2: dCollideSpherePlane,
     * ode/src/sphere.cpp:240, a contact at depth = r - z >= 0; dCollideSpheres, ode/src/collision_util.cpp:45,
     * none at d > r1 + r2, where d = sqrt(dx^2) = |dx| exactly on this axis) */
    double gap, vrel;
    int apart;
    if (b->plane) {
      gap = dBodyGetPosition(b1)[2] - b->r1;
      vrel = dBodyGetLinearVel(b1)[2];
      apart = gap > 0.0;
    } else {
      double dx = dBodyGetPosition(b2)[0] - dBodyGetPosition(b1)[0];
      gap = dx - b->r1 - b->r2;
      vrel = dBodyGetLinearVel(b2)[0] - dBodyGetLinearVel(b1)[0];
      apart = dx > b->r1 + b->r2;
    }
    /* apart and separating: with no gravity, no damping and no other joint every later step is free flight,
     * which leaves the velocity as it is: this is the final e (a slow rebound, e ~ 1e-6, is not followed for
     * millions of steps) */
    if (apart && vrel > 0.0) {
      e = vrel / v;
      break;
    }
    if (!b->plane && gap < -(b->r1 + b->r2)) /* the centres passed each other: not an impact */
      break;
    same = vrel == last ? same + 1 : 0; /* at rest on the contact */
    last = vrel;
    if (same > 1000 && fabs(vrel) < 1e-9 * v) {
      e = 0.0;
      break;
    }
  }
  dGeomDestroy(g1);
  dGeomDestroy(g2);
  dJointGroupDestroy(group);
  dWorldDestroy(w);
  return e;
}

/* ---------------------------------------------------------------- the comparisons */

static const double phases[4] = {0.1370, 0.3910, 0.6420, 0.8830};
static const double asked[5] = {0.1, 0.3, 0.5, 0.7, 0.9};
static long engine_runs = 0;

/* the engine against impactfit's stepper at the phases; returns the largest |Δe| */
static double per_phase(const hz_case *c, double value, const char *what) {
  impactfit_stepper st;
  if (hz_stepper("ode", c, value, &st)) {
    hz_fail++;
    return NAN;
  }
  int J = hz_steps_ahead(&st, c->v);
  double worst = 0.0;
  for (int i = 0; i < 4; i++) {
    if (hz_near_jump(&st, c->v, phases[i]))
      continue;
    double em = hz_model_e(&st, c->v, phases[i], NULL), ee = ode_e(c, value, phases[i], J);
    engine_runs++;
    char buf[256];
    snprintf(buf, sizeof buf, "%s %s %s %s v %g dt %g phi %g", what, c->model, c->integrator, c->bodies.name, c->v,
             c->dt, phases[i]);
    HZ_CHECK_ABS(ee, em, 1e-6, buf);
    worst = fmax(worst, fabs(ee - em));
  }
  return worst;
}

/* one case and one asked e: solve, naive and corrected against the engine phase by phase, and the
 * engine's mean at the corrected value against the asked e when `mean` */
static void one(hz_case *c, double e, int mean) {
  impactfit_code_request q;
  impactfit_code_answer a;
  impactfit_error err;
  if (hz_request("ode", c, e, &q))
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
    if (a.e_max - a.e_min < 1e-5) /* a resolving step: every phase gives the asked e */
      for (int i = 0; i < 4; i++) {
        impactfit_stepper st;
        hz_stepper("ode", c, a.value, &st);
        double ee = ode_e(c, a.value, phases[i], hz_steps_ahead(&st, c->v));
        engine_runs++;
        char buf[256];
        snprintf(buf, sizeof buf, "asked e at a resolving step %s %s %s v %g dt %g e %g phi %g", c->model,
                 c->integrator, c->bodies.name, c->v, c->dt, e, phases[i]);
        HZ_CHECK_ABS(ee, e, 1e-5, buf);
      }
    if (mean) {
      impactfit_stepper st;
      hz_stepper("ode", c, a.value, &st);
      em = hz_engine_mean(ode_e, c, &st, a.value, 1, &engine_runs);
      char buf[256];
      snprintf(buf, sizeof buf, "mean of the engine's e %s %s %s v %g dt %g e %g", c->model, c->integrator,
               c->bodies.name, c->v, c->dt, e);
      HZ_CHECK_ABS(em, e, 1e-5, buf);
    }
  }
  printf("%-13s %-9s %-7s %4.1f %7.0e %4.2f | %11.5g %7.4f | %11.5g %7.4f [%6.4f %6.4f] %7.4f | %8.1e %8.1e\n",
         c->model, c->integrator, c->bodies.name, c->v, c->dt, e, a.naive_value, a.e_naive, a.reachable ? a.value : NAN,
         a.reachable ? a.e : NAN, a.reachable ? a.e_min : a.e_reach_min, a.reachable ? a.e_max : a.e_reach_max, em, dn,
         dc);
}

static void header(const char *title) {
  printf("\n%s\n%-13s %-9s %-7s %4s %7s %4s | %11s %7s | %11s %7s %15s %7s | %8s %8s\n", title, "model", "int",
         "bodies", "v", "dt", "e", "naive", "e_naive", "corrected", "e_mean", "[min max]", "engine", "dnaive", "dcorr");
}

/* every body pair at every speed for the first integrator and step, three pairs (plane at 1 m/s, equal
 * spheres at 0.5, unequal at 2) for the others; sphere pairs whose centres could pass each other within a
 * step (v dt > (r1 + r2)/2) are left out (neither the engine nor impactfit treats that as an impact) */
static void sweep(hz_case *c, const double *dts, int ndt, const char *const *ints, int nint, int mean_every) {
  static const double speeds[3] = {0.5, 1.0, 2.0};
  int count = 0;
  for (int ii = 0; ii < nint; ii++)
    for (int d = 0; d < ndt; d++)
      for (int bi = 0; bi < 3; bi++)
        for (int vi = 0; vi < 3; vi++) {
          if ((ii || d) && vi != (bi == 0 ? 1 : bi == 1 ? 0 : 2))
            continue;
          c->integrator = ints[ii];
          c->dt = dts[d];
          c->bodies = hz_make_bodies(bi);
          c->v = speeds[vi];
          if (!c->bodies.b.plane && c->v * c->dt > 0.5 * (c->bodies.b.r1 + c->bodies.b.r2)) {
            printf("%-13s %-9s %-7s %4.1f %7.0e      | left out: v dt > (r1 + r2)/2\n", c->model, c->integrator,
                   c->bodies.name, c->v, c->dt);
            continue;
          }
          for (int k = 0; k < 5; k++)
            one(c, asked[k], mean_every && count++ % mean_every == 0);
        }
}

/* ---------------------------------------------------------------- the bullets */

static void bullets(void) {
  printf("\nissue 24, ODE bullets (5 mm sphere, 1.309 g, plane, 1 m/s)\n");
  dWorldID w = dWorldCreate();
  printf("world defaults: ERP %g, CFM %g (dReal of %d bytes)\n", (double)dWorldGetERP(w), (double)dWorldGetCFM(w),
         (int)sizeof(dReal));
  HZ_CHECK_ABS((double)dWorldGetCFM(w), 1e-10, 1e-25, "world CFM of the double build");
  HZ_CHECK_ABS((double)dWorldGetERP(w), 0.2, 1e-16, "world ERP");
  dWorldDestroy(w);

  /* the default hard contact: e = 0.2 phi */
  hz_case c;
  memset(&c, 0, sizeof c);
  c.model = "bounce";
  c.integrator = "step";
  c.dt = 1e-3;
  c.v = 1.0;
  c.bodies = hz_make_bodies(0);
  double bv[2] = {0.0, 0.0}; /* bounce 0: no effect */
  hz_set(&c, "bounce", 2, bv);
  printf("default contact, no bounce, dt 1e-3: phi -> e (engine), e/phi\n");
  for (int k = 1; k <= 8; k++) {
    double phi = (k - 0.5) / 8, e = ode_e(&c, 0.0, phi, 2);
    engine_runs++;
    printf("  %.4f  %.10f  %.10f\n", phi, e, e / phi);
    HZ_CHECK_ABS(e, 0.2 * phi, 1e-8, "default contact e = 0.2 phi");
  }
  impactfit_stepper st;
  hz_stepper("ode", &c, 1e-12, &st);
  double m = hz_engine_mean(ode_e, &c, &st, 0.0, 1, &engine_runs);
  printf("  mean over phi (engine) %.10f\n", m);
  HZ_CHECK_ABS(m, 0.1, 1e-8, "default contact mean e");

  /* bounce acts only above bounce_vel: bounce 0.6 with bounce_vel 0.7 m/s gives e = 0.2 phi at 0.5 m/s and
   * 0.6 at 1 m/s (engine, impactfit's stepper and the closed forms) */
  printf("default contact, bounce 0.6, bounce_vel 0.7 m/s, dt 1e-3: v, phi -> e (engine, impactfit)\n");
  double bb7[2] = {0.6, 0.7};
  hz_set(&c, "bounce", 2, bb7);
  for (int vi = 0; vi < 2; vi++) {
    c.v = vi ? 1.0 : 0.5;
    hz_stepper("ode", &c, 0.6, &st);
    for (int k = 0; k < 3; k++) {
      double phi = 0.2 + 0.3 * k, e = ode_e(&c, 0.6, phi, hz_steps_ahead(&st, c.v)),
             em = hz_model_e(&st, c.v, phi, NULL);
      engine_runs++;
      printf("  v %.1f phi %.2f  %.10f  %.10f\n", c.v, phi, e, em);
      HZ_CHECK_ABS(e, em, 1e-6, "bounce_vel: engine vs impactfit");
      HZ_CHECK_ABS(e, vi ? 0.6 : 0.2 * phi, 1e-8, "bounce_vel: below it e = 0.2 phi, above it e = bounce");
    }
  }
  c.v = 1.0;

  /* a spring of 1e3 N/m at dt 1e-3: no kd reaches a mean above 0.4027 */
  memset(&c, 0, sizeof c);
  c.model = "spring-damper";
  c.integrator = "step";
  c.dt = 1e-3;
  c.v = 1.0;
  c.bodies = hz_make_bodies(0);
  hz_set1(&c, "kp", 1e3);
  printf("spring-damper kp = 1e3 N/m, dt 1e-3: kd -> mean e (engine, impactfit)\n");
  double prev = 1.0;
  for (int i = 0; i < 5; i++) {
    static const double kds[5] = {1e-9, 1e-3, 1e-2, 1e-1, 1.0};
    hz_stepper("ode", &c, kds[i], &st);
    impactfit_step_stats S;
    impactfit_error err;
    impactfit_step_phase_stats(&st, 1.0, &S, &err);
    double me = hz_engine_mean(ode_e, &c, &st, kds[i], 2, &engine_runs);
    printf("  %8.1e  %.6f  %.6f\n", kds[i], me, S.e_mean);
    HZ_CHECK_ABS(me, S.e_mean, 1e-6, "spring-damper mean e, engine vs impactfit");
    hz_check(me < prev && me < 0.4028, "FAIL %s: %.12g vs %.12g (%.3g %.3g)\n", "mean e falls with kd, below 0.4028",
             me, prev, 0.0);
    prev = me;
  }
  impactfit_code_request q;
  impactfit_code_answer a;
  impactfit_error err;
  hz_request("ode", &c, 0.45, &q);
  impactfit_code_solve(&q, &a, &err);
  printf("  asked 0.45: reachable %d, the mean ranges over [%.4f, %.4f]\n", a.reachable, a.e_reach_min, a.e_reach_max);
  hz_check(!a.reachable && a.e_reach_max < 0.4028, "FAIL %s: %.12g %.12g (%.3g %.3g)\n", "0.45 unreachable",
           a.e_reach_max, 0.4028, 0.0);

  /* bounce lowers e when the contact is soft */
  printf("spring-damper kp = 1e3, kd = 0.08, dt 1e-3 and 1e-4: bounce -> mean e (engine)\n");
  for (int d = 0; d < 2; d++) {
    c.dt = d ? 1e-4 : 1e-3;
    double last = 2.0;
    for (int i = 0; i < 3; i++) {
      static const double bs[3] = {0.0, 0.5, 0.9};
      double bb[2] = {bs[i], 0.0};
      hz_set(&c, "bounce", 2, bb);
      hz_stepper("ode", &c, 0.08, &st);
      double me = hz_engine_mean(ode_e, &c, &st, 0.08, 2, &engine_runs);
      printf("  dt %g bounce %.1f  mean e %.6f\n", c.dt, bs[i], me);
      hz_check(me < last, "FAIL %s: %.12g vs %.12g (%.3g %.3g)\n", "bounce lowers e on a soft contact", me, last, 0.0);
      last = me;
    }
  }
}

/* check (b): at a resolving step (impactfit's spread of e over the phase below 1e-5) the engine gives the
 * asked e at every phase, with the kd impactfit_code_solve returns */
static void resolving(void) {
  printf("\nresolving step: spring-damper kp = 1e3 N/m, dt 2e-8 s (engine e at two phases against the asked e)\n");
  static const struct {
    int bodies;
    double e;
  } rs[4] = {{0, 0.1}, {0, 0.5}, {0, 0.9}, {2, 0.5}};
  hz_case c;
  memset(&c, 0, sizeof c);
  c.model = "spring-damper";
  c.integrator = "step";
  c.dt = 2e-8;
  c.v = 1.0;
  hz_set1(&c, "kp", 1e3);
  for (int r = 0; r < 4; r++) {
    c.bodies = hz_make_bodies(rs[r].bodies);
    impactfit_code_request q;
    impactfit_code_answer a;
    impactfit_error err;
    hz_request("ode", &c, rs[r].e, &q);
    q.tol = 1e-9;
    if (impactfit_code_solve(&q, &a, &err) || !a.reachable) {
      fprintf(stderr, "FAIL resolving solve: %s\n", err.message);
      hz_fail++;
      continue;
    }
    hz_check(a.e_max - a.e_min < 1e-5, "FAIL %s: spread %.12g (%.12g %.3g %.3g)\n", "dt 2e-8 resolves",
             a.e_max - a.e_min, 0.0, 0.0);
    impactfit_stepper st;
    hz_stepper("ode", &c, a.value, &st);
    int J = hz_steps_ahead(&st, c.v);
    for (int i = 0; i < 2; i++) {
      double phi = i ? 0.77 : 0.23, ee = ode_e(&c, a.value, phi, J);
      engine_runs++;
      printf("  %-7s e %.1f kd %.10g: phi %.2f engine %.8f |e - asked| %.1e (spread of impactfit's e %.1e)\n",
             c.bodies.name, rs[r].e, a.value, phi, ee, fabs(ee - rs[r].e), a.e_max - a.e_min);
      HZ_CHECK_ABS(ee, rs[r].e, 1e-5, "resolving step, asked e");
    }
  }
}

/* the table of docs/engines/ODE.md: the engine's mean e over the phase with the naive and the corrected
 * input (sphere on a plane, 1 m/s), against impactfit's means (1e-6) and the asked e (1e-5) */
static void doc_table(void) {
  static const struct {
    const char *model, *integrator;
    double dt, e;
  } rows[] = {{"spring-damper", "step", 1e-3, 0.1},
              {"spring-damper", "step", 1e-3, 0.3},
              {"spring-damper", "step", 1e-3, 0.5},
              {"spring-damper", "step", 1e-4, 0.1},
              {"spring-damper", "step", 1e-4, 0.3},
              {"spring-damper", "step", 1e-4, 0.5},
              {"spring-damper", "step", 1e-4, 0.7},
              {"spring-damper", "step", 1e-5, 0.9},
              {"spring-damper", "quickstep", 1e-4, 0.5},
              {"bounce", "step", 1e-2, 0.1},
              {"bounce", "step", 1e-2, 0.5}};
  printf("\ndocs/engines/ODE.md table (plane, 5 mm, 1.309 g, v 1 m/s; spring-damper kp = 1e3 N/m, bounce on the "
         "default contact with bounce_vel 0): engine means over the phase\n");
  printf("%-13s %-9s %7s %4s | %-9s %9s %9s | %-9s %9s %9s\n", "model", "int", "dt", "e", "naive", "engine",
         "impactfit", "corrected", "engine", "impactfit");
  for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
    hz_case c;
    memset(&c, 0, sizeof c);
    c.model = rows[r].model;
    c.integrator = rows[r].integrator;
    c.dt = rows[r].dt;
    c.v = 1.0;
    c.bodies = hz_make_bodies(0);
    if (strcmp(c.model, "spring-damper") == 0)
      hz_set1(&c, "kp", 1e3);
    else {
      double bv[2] = {0.0, 0.0};
      hz_set(&c, "bounce", 2, bv);
    }
    impactfit_code_request q;
    impactfit_code_answer a;
    impactfit_error err;
    hz_request("ode", &c, rows[r].e, &q);
    if (impactfit_code_solve(&q, &a, &err)) {
      fprintf(stderr, "FAIL table solve: %s\n", err.message);
      hz_fail++;
      continue;
    }
    impactfit_stepper st;
    hz_stepper("ode", &c, a.naive_value, &st);
    double mn = hz_engine_mean(ode_e, &c, &st, a.naive_value, 2, &engine_runs), mc = NAN;
    HZ_CHECK_ABS(mn, a.e_naive, 1e-6, "table: the engine's mean with the naive input vs impactfit's");
    if (a.reachable) {
      hz_stepper("ode", &c, a.value, &st);
      mc = hz_engine_mean(ode_e, &c, &st, a.value, 2, &engine_runs);
      HZ_CHECK_ABS(mc, rows[r].e, 1e-5, "table: the engine's mean with the corrected input vs the asked e");
      printf("%-13s %-9s %7.0e %4.1f | %-9.4g %9.6f %9.6f | %-9.4g %9.6f %9.6f\n", c.model, c.integrator, c.dt,
             rows[r].e, a.naive_value, mn, a.e_naive, a.value, mc, a.e);
    } else
      printf("%-13s %-9s %7.0e %4.1f | %-9.4g %9.6f %9.6f | unreachable: the mean e ranges over [%.4f, %.4f]\n",
             c.model, c.integrator, c.dt, rows[r].e, a.naive_value, mn, a.e_naive, a.e_reach_min, a.e_reach_max);
  }
}

int main(void) {
  dInitODE2(0);
  if (sizeof(dReal) != sizeof(double)) {
    printf("ode_impacts: SKIP: this ODE is built in single precision\n");
    return 77;
  }
  hz_case c;
  memset(&c, 0, sizeof c);
  static const char *const both[2] = {"step", "quickstep"}, *const step_only[1] = {"step"};

  header("spring-damper, kp = 1e3 N/m (bounce off)");
  c.model = "spring-damper";
  hz_set1(&c, "kp", 1e3);
  static const double dts_sd[3] = {1e-3, 1e-2, 1e-4};
  sweep(&c, dts_sd, 3, both, 2, 9);

  header("erp-cfm, cfm = 2 m/N");
  memset(&c, 0, sizeof c);
  c.model = "erp-cfm";
  hz_set1(&c, "cfm", 2.0);
  sweep(&c, dts_sd, 3, both, 2, 0);

  header("bounce: the default hard contact (erp 0.2, cfm 1e-10), bounce_vel 0");
  memset(&c, 0, sizeof c);
  c.model = "bounce";
  static const double dts_b[2] = {1e-2, 1e-3};
  sweep(&c, dts_b, 2, both, 2, 9);

  header("quickstep with 5 iterations, w = 1.3 (the SOR error 0.3^5 = 2.4e-3 per step, modelled)");
  memset(&c, 0, sizeof c);
  c.model = "spring-damper";
  hz_set1(&c, "kp", 1e3);
  double qs[2] = {5, 1.3};
  hz_set(&c, "quickstep", 2, qs);
  static const double dts_q[1] = {1e-4};
  static const char *const quick[1] = {"quickstep"};
  sweep(&c, dts_q, 1, quick, 1, 0);

  header("max_vel 0.3 m/s and surface layer 1e-5 m on the soft contact");
  memset(&c, 0, sizeof c);
  c.model = "spring-damper";
  hz_set1(&c, "kp", 1e3);
  hz_set1(&c, "max_vel", 0.3);
  hz_set1(&c, "surface_layer", 1e-5);
  sweep(&c, dts_q, 1, step_only, 1, 0);

  doc_table();
  bullets();
  resolving();
  printf("\node_impacts: %ld engine impacts\n", engine_runs);
  if (hz_fail) {
    fprintf(stderr, "ode_impacts: %d of %d checks failed\n", hz_fail, hz_checks);
    return 1;
  }
  printf("ode_impacts: all %d checks passed\n", hz_checks);
  return 0;
}
