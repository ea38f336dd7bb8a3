/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Force laws as objects and their generic impact engine (include/impactfit/law.h), against exact
 * results derived here and against impact.h's engine (an independent method: power series start,
 * scaled variables, its own event location):
 *   - the power law against impact.h over n ∈ {1, 1.5, 2, 2.5}, m ∈ {0, n/2, n}, conditions A and C;
 *   - Kelvin–Voigt (n = 1, m = 0): e = exp(−πξ/√(1−ξ²)) under A, exp(−2ξ acos ξ/√(1−ξ²)) under C;
 *   - undamped Hertz: e = 1, δ_max = [(n+1) M v²/(2k)]^(1/(n+1));
 *   - MuJoCo's impedance law with d0 = dwidth (constant impedance d): Kelvin–Voigt with k = M d² K,
 *     c = M d B (the exact e above), and with a varying d against a fixed-step RK4 in long double
 *     written here, with the switches (δ = midpoint·width, δ = width) crossed inside its steps;
 *   - the approach-damper with n = 1, m = 0: a damped quarter cycle to δ_max (closed form), then an
 *     undamped return: e = exp(−ξ/√(1−ξ²) · atan2(√(1−ξ²), ξ));
 *   - the inverse against impactfit_kv_e and against inverse.h's ζ. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "impactfit/impactfit.h"
#include "testutil.h"

static impactfit_law_workspace *ws;

static int solve(const impactfit_law *law, double mass, double v, const impactfit_transition *tr,
                 impactfit_law_impact_result *r) {
  impactfit_law_impact_params p = impactfit_law_impact_default_params();
  p.law = *law;
  p.mass = mass;
  p.v = v;
  p.transition = tr;
  impactfit_error err;
  int s = impactfit_law_impact_solve(ws, &p, r, &err);
  if (s)
    fprintf(stderr, "law solve: %s\n", err.message);
  return s;
}

static void test_power_vs_impact(void) {
  impactfit_impact_workspace *iw = impactfit_impact_alloc();
  const double ns[] = {1.0, 1.5, 2.0, 2.5}, zetas[] = {0.05, 0.4, 2.0};
  const impactfit_transition *trs[] = {impactfit_transition_A, impactfit_transition_C};
  double worst = 0.0;
  for (int a = 0; a < 4; a++)
    for (int b = 0; b < 3; b++)
      for (int z = 0; z < 3; z++)
        for (int t = 0; t < 2; t++) {
          double n = ns[a], m = b == 0 ? 0.0 : (b == 1 ? 0.5 * n : n);
          impactfit_impact_params ip = impactfit_impact_default_params();
          ip.n = n;
          ip.m = m;
          ip.k = 3.7e4;
          ip.mass = 0.02;
          ip.v = 1.7;
          ip.transition = trs[t];
          /* c from ζ: c = ζ M v / δ_m0^(m+1) */
          double d0 = pow((n + 1.0) * ip.mass * ip.v * ip.v / (2.0 * ip.k), 1.0 / (n + 1.0));
          ip.c = zetas[z] * ip.mass * ip.v / pow(d0, m + 1.0);
          impactfit_impact_result ir;
          impactfit_error err;
          int s1 = impactfit_impact_solve(iw, &ip, &ir, &err);
          impactfit_law law = impactfit_law_power_make(ip.k, n, ip.c, m);
          impactfit_law_impact_result lr;
          int s2 = solve(&law, ip.mass, ip.v, trs[t], &lr);
          CHECK(s1 == s2, "power n=%g m=%g zeta=%g %s: status %d vs %d", n, m, zetas[z], trs[t]->name, s1, s2);
          if (s1 || s2)
            continue;
          double tol = 2e-11;
          CHECK_ABS(lr.e_out, ir.e_out, tol * fmax(ir.e_out, 0.01), "e_out n=%g m=%g zeta=%g %s", n, m, zetas[z],
                    trs[t]->name);
          CHECK_REL(lr.delta_max, ir.delta_max, tol, "delta_max n=%g m=%g zeta=%g %s", n, m, zetas[z], trs[t]->name);
          CHECK_REL(lr.t_contact, ir.t_contact, tol, "t_contact n=%g m=%g zeta=%g %s", n, m, zetas[z], trs[t]->name);
          CHECK_REL(lr.f_max, ir.f_max, 1e-10, "f_max n=%g m=%g zeta=%g %s", n, m, zetas[z], trs[t]->name);
          CHECK_ABS(lr.delta_sep, ir.delta_sep, tol * ir.delta_max, "delta_sep n=%g m=%g zeta=%g %s", n, m, zetas[z],
                    trs[t]->name);
          worst = fmax(worst, fabs(lr.e_out - ir.e_out) / fmax(ir.e_out, 0.01));
        }
  printf("power law vs impact.h: worst |de|/max(e, 0.01) = %.3g\n", worst);
  impactfit_impact_free(iw);
}

static void test_kv_exact(void) {
  const double xis[] = {0.01, 0.1, 0.3, 0.6, 0.9};
  for (int i = 0; i < 5; i++)
    for (int t = 0; t < 2; t++) {
      double xi = xis[i], k = 2.0e5, M = 0.3;
      const impactfit_transition *tr = t ? impactfit_transition_C : impactfit_transition_A;
      double s = sqrt(1.0 - xi * xi);
      double want = t ? exp(-2.0 * xi * atan2(s, xi) / s) : exp(-M_PI * xi / s);
      impactfit_law law = impactfit_law_power_make(k, 1.0, 2.0 * xi * sqrt(k * M), 0.0);
      impactfit_law_impact_result r;
      if (solve(&law, M, 0.8, tr, &r) == 0)
        CHECK_ABS(r.e_out, want, 2e-11 * fmax(want, 0.01), "Kelvin-Voigt xi=%g %s", xi, tr->name);
      /* A: the contact lasts half a damped period */
      if (!t)
        CHECK_REL(r.t_contact, M_PI / (sqrt(k / M) * s), 2e-11, "Kelvin-Voigt contact time xi=%g", xi);
    }
  /* undamped Hertz */
  impactfit_law law = impactfit_law_power_make(1e8, 1.5, 0.0, 0.0);
  impactfit_law_impact_result r;
  if (solve(&law, 0.05, 2.0, impactfit_transition_C, &r) == 0) {
    CHECK_ABS(r.e_out, 1.0, 1e-12, "undamped Hertz e");
    CHECK_REL(r.delta_max, pow(2.5 * 0.05 * 4.0 / 2e8, 1.0 / 2.5), 1e-12, "undamped Hertz delta_max");
  }
}

/* the impedance law: params M, B, K, d0, dwidth, width, midpoint, power */
static impactfit_law imp_law(double M, double B, double K, double d0, double dw, double width, double mid, double pw) {
  impactfit_law law = {.type = impactfit_law_impedance};
  double p[9] = {M, B, K, d0, dw, width, mid, pw, 1.0};
  memcpy(law.p, p, sizeof p);
  return law;
}

/* long double RK4 of M δ'' = −max(0, f) from δ = 0, δ' = v with steps of h, to the end under C;
 * the end located by linear interpolation between the two steps around it (error O(h²) there, so h
 * is tiny). */
static double rk4_reference(const impactfit_law *law, double M, double v, long nsteps_per_unit, double unit) {
  long double x = 0.0L, u = v, h = (long double)unit / nsteps_per_unit;
  const double *p = law->p;
  for (long k = 0; k < 100000000L; k++) {
    long double kx[4], ku[4], xs = x, us = u;
    for (int s = 0; s < 4; s++) {
      double dd;
      double d = impactfit_law_impedance_d(p + 3, (double)xs, &dd);
      (void)dd;
      long double f = (long double)p[0] * d * ((long double)p[1] * us + (long double)p[2] * d * xs);
      kx[s] = us;
      ku[s] = -f / M;
      long double c = s == 2 ? 1.0L : 0.5L;
      if (s < 3) {
        xs = x + c * h * kx[s];
        us = u + c * h * ku[s];
      }
    }
    long double xn = x + h / 6 * (kx[0] + 2 * kx[1] + 2 * kx[2] + kx[3]);
    long double un = u + h / 6 * (ku[0] + 2 * ku[1] + 2 * ku[2] + ku[3]);
    double d1 = impactfit_law_impedance_d(p + 3, (double)xn, NULL);
    long double fn = (long double)p[0] * d1 * ((long double)p[1] * un + (long double)p[2] * d1 * xn);
    double d0 = impactfit_law_impedance_d(p + 3, (double)x, NULL);
    long double f0 = (long double)p[0] * d0 * ((long double)p[1] * u + (long double)p[2] * d0 * x);
    if (k > 0 && (fn <= 0 || xn <= 0)) {
      /* interpolate the end (force or δ crossing zero) */
      long double a = fn <= 0 ? f0 / (f0 - fn) : x / (x - xn);
      return (double)(-(u + a * (un - u)) / v);
    }
    x = xn;
    u = un;
  }
  return NAN;
}

static void test_impedance(void) {
  /* constant impedance: exact Kelvin–Voigt under C */
  double M = 1.309e-3, d = 0.9, B = 105.0, K = 2770.0;
  impactfit_law law = imp_law(M, B, K, d, d, 0.001, 0.5, 2.0);
  double k = M * d * d * K, c = M * d * B, xi = c / (2.0 * sqrt(k * M));
  double want;
  impactfit_kv_e(xi, impactfit_transition_C, &want, NULL);
  impactfit_law_impact_result r;
  if (solve(&law, M, 1.0, impactfit_transition_C, &r) == 0)
    CHECK_ABS(r.e_out, want, 2e-11 * want, "impedance, constant d: Kelvin-Voigt xi = %g", xi);
  /* MuJoCo's defaults: the varying impedance, against the long double RK4 */
  double tc = 0.02, dr = 1.0, dmax = 0.95;
  law = imp_law(M, 2.0 / (dmax * tc), 1.0 / (dmax * dmax * tc * tc * dr * dr), 0.9, 0.95, 0.001, 0.5, 2.0);
  const double vs[] = {0.02, 0.1, 1.0};
  for (int i = 0; i < 3; i++) {
    if (solve(&law, M, vs[i], impactfit_transition_C, &r))
      continue;
    double ref = rk4_reference(&law, M, vs[i], 400000, r.t_contact);
    CHECK_ABS(r.e_out, ref, 2e-9, "impedance (MuJoCo defaults) v = %g: law engine vs long double RK4", vs[i]);
    CHECK(r.delta_max < 0.0005 || r.switches >= 1, "impedance v = %g: the knots were crossed (%d)", vs[i], r.switches);
    printf("impedance v = %g: e = %.15g (RK4 reference %.15g), delta_max = %.6g m, %d switches\n", vs[i], r.e_out, ref,
           r.delta_max, r.switches);
  }
  /* e depends on the speed with a varying impedance, not with a constant one */
  impactfit_law_impact_result r1, r2;
  if (!solve(&law, M, 0.05, impactfit_transition_C, &r1) && !solve(&law, M, 2.0, impactfit_transition_C, &r2))
    CHECK(fabs(r1.e_out - r2.e_out) > 1e-4, "varying impedance: e(0.05) %g vs e(2) %g", r1.e_out, r2.e_out);
  /* d(δ) itself: d0 at 0, dwidth at and beyond width, midpoint value halfway, derivative by differences */
  const double s[5] = {0.9, 0.95, 0.001, 0.5, 2.0};
  CHECK_ABS(impactfit_law_impedance_d(s, 0.0, NULL), 0.9, 0.0, "d(0)");
  CHECK_ABS(impactfit_law_impedance_d(s, 0.002, NULL), 0.95, 0.0, "d(beyond width)");
  CHECK_ABS(impactfit_law_impedance_d(s, 0.0005, NULL), 0.925, 1e-15, "d(midpoint)");
  for (double x = 1e-4; x < 0.001; x += 1.7e-4) {
    double dd, h = 1e-9;
    impactfit_law_impedance_d(s, x, &dd);
    double fd = (impactfit_law_impedance_d(s, x + h, NULL) - impactfit_law_impedance_d(s, x - h, NULL)) / (2 * h);
    CHECK_REL(dd, fd, 1e-6, "dd/ddelta at %g", x);
  }
}

static void test_approach_damper(void) {
  const double xis[] = {0.05, 0.3, 0.7};
  for (int i = 0; i < 3; i++) {
    double xi = xis[i], k = 1e4, M = 0.2, s = sqrt(1.0 - xi * xi);
    impactfit_law law = impactfit_law_power_make(k, 1.0, 2.0 * xi * sqrt(k * M), 0.0);
    law.type = impactfit_law_approach_damper;
    double want = exp(-xi / s * atan2(s, xi));
    impactfit_law_impact_result r;
    for (int t = 0; t < 2; t++)
      if (solve(&law, M, 0.5, t ? impactfit_transition_C : impactfit_transition_A, &r) == 0) {
        CHECK_ABS(r.e_out, want, 2e-11, "approach-damper xi = %g %s", xi, t ? "C" : "A");
        CHECK_REL(r.delta_max, want * 0.5 / sqrt(k / M), 2e-11, "approach-damper delta_max xi = %g", xi);
        CHECK(r.switches == 1, "approach-damper: one switch (got %d)", r.switches);
      }
  }
}

static void test_inverse(void) {
  /* Kelvin–Voigt under C: c for e, against the exact e of the returned c */
  const double es[] = {0.05, 0.3, 0.7, 0.95};
  for (int i = 0; i < 4; i++) {
    double k = 5e3, M = 0.1, v = 0.7;
    impactfit_law_impact_params p = impactfit_law_impact_default_params();
    p.law = impactfit_law_power_make(k, 1.0, 0.0, 0.0);
    p.mass = M;
    p.v = v;
    double c;
    impactfit_law_impact_result r;
    impactfit_error err;
    int s = impactfit_law_solve_param(ws, &p, 2, es[i], 1e-6, 1e6, 1e-10, &c, &r, &err);
    CHECK(s == 0, "law inverse e = %g: %s", es[i], err.message);
    if (s)
      continue;
    double e_exact;
    impactfit_kv_e(c / (2.0 * sqrt(k * M)), impactfit_transition_C, &e_exact, NULL);
    CHECK_ABS(e_exact, es[i], 1.05e-10 * fmin(es[i], 1 - es[i]), "law inverse KV e = %g: exact e of the returned c",
              es[i]);
  }
  /* Hertz with a linear damper: the same ζ as inverse.h */
  impactfit_inverse_workspace *iw = impactfit_inverse_alloc();
  impactfit_inverse_params ip = impactfit_inverse_default_params();
  ip.n = 1.5;
  ip.surrogate_guess = 0;
  impactfit_inverse_result ir;
  if (impactfit_inverse_solve(iw, &ip, 0.6, 0.0, &ir, NULL) == 0) {
    impactfit_law_impact_params p = impactfit_law_impact_default_params();
    p.law = impactfit_law_power_make(1.25, 1.5, 0.0, 0.0); /* k = (n+1)/2: δ_m0 = 1, c = ζ */
    double c;
    if (impactfit_law_solve_param(ws, &p, 2, 0.6, 1e-4, 1e4, 1e-11, &c, NULL, NULL) == 0)
      CHECK_REL(c, ir.zeta, 1e-9, "law inverse vs inverse.h zeta (n = 1.5, m = 0, e = 0.6)");
  }
  impactfit_inverse_free(iw);
  /* unreachable: ENOROOT naming the range */
  impactfit_law_impact_params p = impactfit_law_impact_default_params();
  p.law = impactfit_law_power_make(1.0, 1.0, 0.0, 0.0);
  double c;
  impactfit_error err;
  int s = impactfit_law_solve_param(ws, &p, 2, 0.2, 1e-3, 1e-2, 0.0, &c, NULL, &err);
  CHECK(s == IMPACTFIT_ENOROOT && strstr(err.message, "ranges over"), "unreachable e: %d %s", s, err.message);
}

static void test_errors(void) {
  impactfit_law_impact_params p = impactfit_law_impact_default_params();
  impactfit_law_impact_result r;
  impactfit_error err;
  p.law.p[0] = -1.0;
  CHECK(impactfit_law_impact_solve(ws, &p, &r, &err) == IMPACTFIT_EINVAL && strstr(err.message, "k must be > 0"),
        "negative k: %s", err.message);
  p = impactfit_law_impact_default_params();
  p.v = NAN;
  CHECK(impactfit_law_impact_solve(ws, &p, &r, &err) == IMPACTFIT_EINVAL, "NaN v");
  p = impactfit_law_impact_default_params();
  p.transition = impactfit_transition_B;
  CHECK(impactfit_law_impact_solve(ws, &p, &r, &err) == IMPACTFIT_EINVAL && strstr(err.message, "A or C"),
        "condition B refused: %s", err.message);
  p = impactfit_law_impact_default_params();
  p.law.type = NULL;
  CHECK(impactfit_law_impact_solve(ws, &p, &r, &err) == IMPACTFIT_EINVAL, "no law type");
  /* under A a strong damper holds the bodies together: ENOSEP, not a hang */
  p = impactfit_law_impact_default_params();
  p.law = impactfit_law_power_make(1.0, 1.0, 50.0, 0.0);
  p.transition = impactfit_transition_A;
  CHECK(impactfit_law_impact_solve(ws, &p, &r, &err) == IMPACTFIT_ENOSEP, "overdamped under A: ENOSEP (%s)",
        err.message);
  CHECK(impactfit_law_type_from_name("impedance") == impactfit_law_impedance, "lookup by name");
  CHECK(impactfit_law_type_from_name("nope") == NULL, "unknown name");
}

int main(void) {
  ws = impactfit_law_alloc();
  test_power_vs_impact();
  test_kv_exact();
  test_impedance();
  test_approach_damper();
  test_inverse();
  test_errors();
  impactfit_law_free(ws);
  return tu_report("test_law");
}
