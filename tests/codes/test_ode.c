/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ODE 0.16.2 in the code registry (src/codes/ode.c; the engine itself: tests/engines/ode_impacts.c):
 *  - dWorldStep with the manual's erp = hk/(hk + c), cfm = 1/(hk + c) is backward Euler of the spring–damper:
 *    with D = 1 + h(hk + c)/M, u' = (u − (hk/M) x)/D, x' = x + h u' (solved from u' = u − (h/M)(k x' + c u'),
 *    not from the ERP/CFM row), while the row pushes, i.e. while k x + (hk + c) u > 0 at the step start; after
 *    the first step where it would pull, the bodies fly apart at that speed. Per phase with this map iterated,
 *    and the exact mean: e(φ) is linear in φ between the roots (linear in φ) of the row's sign and of x_k, so
 *    the trapezoid rule on those pieces is exact. The map's determinant is 1/D < 1 at every h: stable at any step;
 *  - the default hard contact (erp 0.2, cfm 1e-10, bounce 0): e = erp φ up to cfm M/h; with bounce b ≥ erp:
 *    e = b at every phase; with b < erp: e = max(erp φ, b), mean erp/2 + b²/(2 erp);
 *  - dWorldQuickStep's n SOR sweeps from λ = 0 with relaxation w on one row: λ_n = (1 − (1 − w)^n) λ* when
 *    dWorldStep's λ* > 0, 0 when λ* ≤ 0 (w ∈ (0, 2));
 *  - dt → 0: the mean over the phase tends to law.h's continuous-time e of clamped Kelvin–Voigt at first order;
 *  - the registry: ODE's models, the inverse's round trip, the unreachable e of issue 24. */
#include <stdlib.h>

#include "codes_test.h"

static ct_request ode_request(const char *model, const char *integrator, double dt) {
  ct_request r = ct_make(ct_find("ode", NULL, model, NULL));
  r.q.integrator = integrator;
  r.q.dt = dt;
  return r;
}

static int cmp_d(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

/* backward Euler of clamped k x + c u at phase φ: e, and the roots in φ of the sign changes of the first
 * `kmax` steps (the row's push and x_k) */
typedef struct {
  double h, k, c, M, v, D;
} bek;

static void bek_state(const bek *B, double phi, int n, double *x, double *u, int *end) {
  double X = phi * B->v * B->h, U = B->v;
  *end = -1;
  for (int i = 0; i < n; i++) {
    if (X < 0.0 || B->k * X + (B->h * B->k + B->c) * U <= 0.0) { /* no contact, or the row would pull */
      *end = i;
      break;
    }
    U = (U - B->h * B->k / B->M * X) / B->D;
    X = X + B->h * U;
  }
  *x = X;
  *u = U;
}

static double bek_e(const bek *B, double phi) {
  double x, u;
  int end;
  bek_state(B, phi, 1000000, &x, &u, &end);
  return -u / B->v;
}

static void test_ode_backward_euler(double k, double c, double h) {
  const double v = 1.0;
  ct_request rq = ode_request("spring-damper", "step", h);
  ct_set1(&rq, "kp", k);
  impactfit_stepper st;
  impactfit_error err;
  CHECK(impactfit_code_stepper(ct_q(&rq), c, &st, &err) == 0, "ode: stepper k %g c %g h %g", k, c, h);
  const double M = CT_M5; /* a sphere on a plane: M = m1 */
  bek B = {h, k, c, M, v, 1.0 + h * (h * k + c) / M};
  for (int i = 0; i < 16; i++) {
    double phi = (i + 0.41) / 16.0;
    impactfit_step_impact o;
    CHECK(impactfit_step_impact_at(&st, v, phi, &o, &err) == 0, "ode: impact at %g", phi);
    CHECK_ABS(o.e, bek_e(&B, phi), 1e-12, "ode: k %g c %g h %g: e(%g) vs backward Euler", k, c, h, phi);
  }
  /* the exact mean: roots in φ of x_j(φ) and of the row k x_j + (hk + c) u_j, both linear in φ */
  double br[512];
  int nb = 0;
  br[nb++] = 0.0;
  for (int j = 0; j < 200 && nb < 508; j++) {
    /* the linear map's state after j unclamped steps, at φ = 0 and 1 */
    double X0 = 0.0, U0 = v, X1 = v * h, U1 = v;
    for (int i = 0; i < j; i++) {
      U0 = (U0 - h * k / M * X0) / B.D;
      X0 += h * U0;
      U1 = (U1 - h * k / M * X1) / B.D;
      X1 += h * U1;
    }
    double g0 = k * X0 + (h * k + c) * U0, g1 = k * X1 + (h * k + c) * U1;
    if (g0 != g1) {
      double r = g0 / (g0 - g1);
      if (r > 0.0 && r < 1.0)
        br[nb++] = r;
    }
    if (X0 != X1) {
      double r = X0 / (X0 - X1);
      if (r > 0.0 && r < 1.0)
        br[nb++] = r;
    }
  }
  br[nb++] = 1.0;
  qsort(br, (size_t)nb, sizeof br[0], cmp_d);
  double mean = 0.0;
  for (int i = 0; i + 1 < nb; i++) {
    double a = br[i], b = br[i + 1];
    if (b - a < 1e-15)
      continue;
    /* e is linear on (a, b): the values just inside the ends */
    double ea = bek_e(&B, a + 1e-9 * (b - a)), eb = bek_e(&B, b - 1e-9 * (b - a));
    mean += 0.5 * (ea + eb) * (b - a);
  }
  impactfit_step_stats S;
  CHECK(impactfit_step_phase_stats(&st, v, &S, &err) == 0, "ode: phase statistics");
  CHECK_ABS(S.e_mean, mean, 1e-10, "ode: k %g c %g h %g: mean over the phase vs the exact piecewise-linear mean", k, c,
            h);
  CHECK(S.stable, "ode: backward Euler is stable (h^2 k/M = %g)", h * h * k / M);
  printf("ode backward Euler: k %g c %g h %g (h^2 k/M %.3g): mean %.15f (exact %.15f), %d pieces\n", k, c, h,
         h * h * k / M, S.e_mean, mean, S.pieces);
}

static void test_ode_hard(void) {
  impactfit_error err;
  for (int j = 0; j < 3; j++) {
    double b = j == 0 ? 0.0 : j == 1 ? 0.3 : 0.9;
    impactfit_stepper st;
    if (b == 0.0) { /* the world's defaults typed as a soft contact, bounce off */
      ct_request rq = ode_request("erp-cfm", "step", 1e-3);
      ct_set1(&rq, "cfm", 1e-10);
      CHECK(impactfit_code_stepper(ct_q(&rq), 0.2, &st, &err) == 0, "ode hard: stepper");
    } else {
      ct_request rq = ode_request("bounce", "step", 1e-3);
      ct_set(&rq, "bounce", 2, 0.0, 0.0);
      CHECK(impactfit_code_stepper(ct_q(&rq), b, &st, &err) == 0, "ode hard: stepper");
    }
    for (int i = 0; i < 8; i++) {
      double phi = (i + 0.5) / 8.0;
      impactfit_step_impact o;
      CHECK(impactfit_step_impact_at(&st, 1.0, phi, &o, &err) == 0, "ode hard: impact");
      CHECK_ABS(o.e, b == 0.0 ? 0.2 * phi : b, 1e-8, "ode hard: bounce %g: e(%g) = %s", b, phi,
                b == 0.0 ? "0.2 phi" : "bounce");
    }
  }
}

/* the default hard contact with bounce b < erp = 0.2: e(φ) = max(0.2 φ, b), so the mean is 0.1 + b²/0.4 and the
 * bounce for a mean e in (0.1, 0.2) is sqrt(0.4 (e − 0.1)) */
static void test_ode_bounce_mean(void) {
  impactfit_error err;
  for (int j = 0; j < 3; j++) {
    double e = 0.12 + 0.03 * j;
    ct_request rq = ode_request("bounce", "step", 1e-2);
    ct_set(&rq, "bounce", 2, 0.0, 0.0);
    rq.q.e = e;
    impactfit_code_answer a = {0};
    CHECK(ct_solve(&rq, &a, &err) == 0 && a.reachable, "ode bounce mean: solves %g", e);
    CHECK_ABS(a.value, sqrt(0.4 * (e - 0.1)), 1e-8, "ode bounce mean: bounce for e %g = sqrt(0.4 (e - 0.1))", e);
    CHECK_ABS(a.e_naive, 0.1 + e * e / 0.4, 1e-9, "ode bounce mean: bounce = e gives 0.1 + e^2/0.4 (e %g)", e);
    impactfit_code_answer_free(&a);
  }
}

static void test_ode_quickstep(void) {
  const double iters[3] = {1, 5, 20}, ws[3] = {0.7, 1.0, 1.3};
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++) {
      ct_request rq = ode_request("erp-cfm", "step", 1e-3);
      ct_set1(&rq, "cfm", 0.5);
      impactfit_stepper ex, qs;
      impactfit_error err;
      impactfit_code_stepper(ct_q(&rq), 0.4, &ex, &err);
      rq.q.integrator = "quickstep";
      ct_set(&rq, "quickstep", 2, iters[a], ws[b]);
      CHECK(impactfit_code_stepper(ct_q(&rq), 0.4, &qs, &err) == 0 && qs.type != ex.type, "ode quickstep: stepper");
      for (int i = 0; i < 4; i++) {
        /* pushing (λ* > 0) and pulling (λ* < 0) states */
        impactfit_step_state s0 = {.x = 1e-4 * (i + 1), .u = i < 2 ? 0.3 : -0.9}, s1 = s0;
        ex.type->step(&ex, &s0);
        qs.type->step(&qs, &s1);
        double want = s0.f > 0.0 ? (1.0 - pow(1.0 - ws[b], iters[a])) * s0.f : 0.0;
        CHECK_ABS(s1.f, want, 1e-13 * fabs(s0.f) + 1e-300,
                  "ode quickstep: %g sweeps, w %g: lambda = (1 - (1 - w)^n) lambda* (state %d)", iters[a], ws[b], i);
      }
    }
}

static void test_ode_limit(void) {
  const double k = 1e3, c = 0.05;
  ct_request rq = ode_request("spring-damper", "step", 1e-5);
  ct_set1(&rq, "kp", k);
  double d[3], ec = NAN;
  impactfit_error err;
  for (int j = 0; j < 3; j++) {
    rq.q.dt = 1e-5 / (1 << j);
    impactfit_stepper st;
    impactfit_step_stats S;
    CHECK(impactfit_code_stepper(ct_q(&rq), c, &st, &err) == 0 && impactfit_step_phase_stats(&st, 1.0, &S, &err) == 0,
          "ode limit: stats at %g", rq.q.dt);
    d[j] = S.e_mean - S.e_continuous;
    ec = S.e_continuous;
  }
  /* law.h's engine on the same law, independently of the stepper */
  impactfit_law_impact_params lp = impactfit_law_impact_default_params();
  lp.law = impactfit_law_power_make(k, 1.0, c, 0.0);
  lp.mass = CT_M5;
  lp.v = 1.0;
  lp.transition = impactfit_transition_C;
  impactfit_law_impact_result r;
  CHECK(impactfit_law_impact_solve(NULL, &lp, &r, &err) == 0, "ode limit: law");
  CHECK_ABS(ec, r.e_out, 1e-12, "ode limit: the stepper's continuous law is clamped Kelvin-Voigt k %g c %g", k, c);
  printf("ode limit: mean - continuous e at dt 1e-5, 5e-6, 2.5e-6: %.3e %.3e %.3e (e = %.9f)\n", d[0], d[1], d[2], ec);
  CHECK(fabs(d[0] / d[1] - 2.0) < 0.1 && fabs(d[1] / d[2] - 2.0) < 0.1, "ode limit: first order");
  CHECK(fabs(2.0 * d[2] - d[1]) < 0.02 * fabs(d[1]), "ode limit: extrapolated to dt = 0 (%.3g of %.3g)",
        2.0 * d[2] - d[1], d[1]);
}

static void test_ode_registry(void) {
  const impactfit_code_model *md;
  impactfit_error err;
  const char *models[3] = {"spring-damper", "erp-cfm", "bounce"};
  for (int i = 0; i < 3; i++)
    CHECK(impactfit_code_model_find("ode", NULL, models[i], NULL, &md, &err) == 0 && md->run_min &&
              strcmp(md->versions, "0.16.2") == 0 && strstr(md->source, "contact.cpp:141-213") && md->law == NULL,
          "ode registry: %s", models[i]);
  const char *ints[2] = {"step", "quickstep"};
  impactfit_code_answer a = {0}, f = {0};
  for (int k = 0; k < 2; k++)
    for (int j = 1; j <= 9; j += 4) {
      ct_request rq = ode_request("spring-damper", ints[k], 1e-4);
      ct_set1(&rq, "kp", 1e3);
      rq.q.e = 0.1 * j;
      int s = ct_solve(&rq, &a, &err);
      if (j == 9) { /* 0.9 at h = 1e-4: the mean reaches only 0.875 */
        CHECK(s == 0 && !a.reachable && a.e_reach_max < 0.9, "ode registry: e 0.9 unreachable at 1e-4 (%g)",
              a.e_reach_max);
        continue;
      }
      CHECK(s == 0 && a.reachable, "ode registry: %s e %g solves", ints[k], rq.q.e);
      rq.q.e = NAN;
      rq.q.value = a.value;
      CHECK(ct_solve(&rq, &f, &err) == 0, "ode registry: forward");
      CHECK_ABS(f.e, 0.1 * j, 1e-9, "ode registry: %s forward at the inverse's kd gives e %g", ints[k], 0.1 * j);
      CHECK(strstr(a.input, "dContactSoftERP | dContactSoftCFM") && strstr(a.input, "soft_erp"),
            "ode registry: paste text %.300s", a.input);
    }
  /* issue 24: kp = 1e3 N/m, M = 1.309 g, h = 1e-3: no kd gives a mean e above 0.4028 */
  ct_request rq = ode_request("spring-damper", "step", 1e-3);
  ct_set1(&rq, "kp", 1e3);
  rq.q.e = 0.45;
  CHECK(ct_solve(&rq, &a, &err) == 0 && !a.reachable && a.e_reach_max < 0.4028 && a.e_reach_max > 0.4026,
        "ode registry: 0.45 unreachable, the mean at most 0.4027 (%g)", a.e_reach_max);
  CHECK(strncmp(a.note, "NOT REACHABLE", 13) == 0 && a.input[0] == 0, "ode registry: said first, nothing to paste");
  impactfit_code_answer_free(&a);
  impactfit_code_answer_free(&f);
}

/* issue 34: an unreachable e (kp 1e3 N/m at dt 1e-3 s: the mean e tops out at 0.4027) reports the true range of
 * the means over the search range (the upper end, kd = 10 times critical, gives 0.0214, as ODE does) and the
 * step's stability there (ODE's backward Euler is unconditionally stable), not "stable": 0; the note says it
 * first */
static void test_ode_unreachable(void) {
  ct_request r = ct_make(ct_find("ode", NULL, "spring-damper", NULL));
  ct_set1(&r, "kp", 1000.0);
  r.q.dt = 1e-3;
  r.q.e = 0.45;
  impactfit_code_answer a = {0};
  impactfit_error err;
  CHECK(ct_solve(&r, &a, &err) == 0 && !a.reachable, "ode kp 1e3 dt 1e-3: e = 0.45 out of reach (%s)", err.message);
  CHECK(a.e_reach_min < 0.03 && fabs(a.e_reach_max - 0.4027) < 1e-3, "the reachable means [%g, %g]: to 0.0214",
        a.e_reach_min, a.e_reach_max);
  CHECK(a.stable == 1, "ODE's step is stable: stable = %d on an unreachable answer", a.stable);
  CHECK(strncmp(a.note, "NOT REACHABLE", 13) == 0 && !*a.input, "said first, nothing to paste: %.80s", a.note);
  /* the range against a scan of the search range (kd from 1e-6 to 10 times critical, 2 sqrt(kp M); M the sphere's
   * mass on the fixed wall), its ends included: 121 forward answers' means, log-uniform in kd. The answer's range
   * holds every mean of the scan (to rounding) and is within 1e-4 of the scan's extremes */
  double crit = 2.0 * sqrt(1000.0 * CT_M5), lo = 1e-6 * crit, hi = 10.0 * crit, smin = INFINITY, smax = -INFINITY;
  r.q.e = NAN;
  int bad = 0;
  for (int i = 0; i <= 120; i++) {
    impactfit_code_answer f = {0};
    r.q.value = i == 120 ? hi : lo * pow(hi / lo, i / 120.0);
    if (ct_solve(&r, &f, &err) || !isfinite(f.e))
      bad++;
    else
      smin = fmin(smin, f.e), smax = fmax(smax, f.e);
    impactfit_code_answer_free(&f);
  }
  CHECK(bad == 0, "the scan's forward answers: %d failed", bad);
  CHECK(a.e_reach_min <= smin + 1e-12 && smin - a.e_reach_min <= 1e-4, "e_reach_min %.10g vs the scan's %.10g",
        a.e_reach_min, smin);
  CHECK(a.e_reach_max >= smax - 1e-12 && a.e_reach_max - smax <= 1e-4, "e_reach_max %.10g vs the scan's %.10g",
        a.e_reach_max, smax);
  printf("test_ode: kp 1e3 dt 1e-3: e_reach_range [%.10g, %.10g], the scan's [%.10g, %.10g]\n", a.e_reach_min,
         a.e_reach_max, smin, smax);
  impactfit_code_answer_free(&a);
}

/* Under gravity (drop tests): the contact's steps taken at once by the affine map about its fixed point (the body at
 * rest on the row, x = g h^2 (1 - q)/(q erp)) agree with the same steps one by one; a body that settles on the row
 * ends its impact there (e = 0) after few evaluations: kd 22 at 1e-3 s and 0.1 m/s stepped its 811 steps of decay
 * one by one, and such answers took 0.3-0.9 s */
static void test_ode_gravity_runs(void) {
  static const double kds[3] = {1.0, 5.0, 22.0}, hs[2] = {1e-3, 1e-5};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 2; j++) {
      ct_request rq = ode_request("spring-damper", NULL, hs[j]);
      ct_set1(&rq, "kp", 1e3);
      long n; /* in contact, the row pushing */
      double d = ct_gravity_run(&rq, kds[i], 2e-3, 0.3, 0.0, 400, &n);
      /* at 1e-3 s the map of kd 1 and 5 is refused (none at once), as without gravity */
      int want = j == 1 || i == 2;
      CHECK(want ? n >= 50 && d <= 1e-12 : n == 0,
            "ode gravity kd %g h %g: %ld steps at once, off the steps by %.3g (want %s)", kds[i], hs[j], n, d,
            want ? "50 or more, within 1e-12" : "none");
    }
  ct_request rq = ode_request("spring-damper", NULL, 1e-3);
  ct_set1(&rq, "kp", 1e3);
  rq.q.gravity = 9.81;
  impactfit_stepper st;
  impactfit_error err;
  impactfit_step_impact o;
  CHECK(impactfit_code_stepper(ct_q(&rq), 22.0, &st, &err) == 0 &&
            impactfit_step_impact_at(&st, 0.1, 0.3, &o, &err) == 0,
        "ode gravity rest: %s", err.message);
  CHECK(o.e == 0.0 && o.work <= 100, "ode gravity rest: e %.3g, work %ld (at most 100)", o.e, o.work);
}

int main(void) {
  test_ode_gravity_runs();
  test_ode_unreachable();
  test_ode_backward_euler(1e3, 0.05, 1e-3);
  test_ode_backward_euler(1e3, 1e-9, 1e-3);
  test_ode_backward_euler(1e3, 0.5, 1e-4);
  test_ode_backward_euler(1e5, 0.3, 1e-3);
  test_ode_hard();
  test_ode_bounce_mean();
  test_ode_quickstep();
  test_ode_limit();
  test_ode_registry();
  return tu_report("test_ode");
}
