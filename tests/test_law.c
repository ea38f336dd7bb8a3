/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Force laws as objects and their impact engines (include/impactfit/law.h), against exact results
 * derived here and against impact.h's engine. The power law's own solver is impact.h's engine; the
 * general engine of law.h (src/law/law_impl.h: impactfit__law_impact_solve_general) is an independent
 * method (no series start, unscaled by ζ, its own event location), so running it on the power law
 * beside impact.h's cross-checks both:
 *   - the power law: the general engine against impact.h over n ∈ {1, 1.5, 2, 2.5}, m ∈ {0, n/2, n},
 *     conditions A and C; impactfit_law_impact_solve on the power law gives impact.h's numbers exactly;
 *   - Kelvin–Voigt (n = 1, m = 0): e = exp(−πξ/√(1−ξ²)) under A, exp(−2ξ acos ξ/√(1−ξ²)) under C, by
 *     both engines;
 *   - undamped Hertz: e = 1, δ_max = [(n+1) M v²/(2k)]^(1/(n+1));
 *   - MuJoCo's impedance law with d0 = dwidth (constant impedance d): Kelvin–Voigt with k = M d² K,
 *     c = M d B (the exact e above), and with a varying d against a fixed-step RK4 in long double
 *     written here, with the switches (δ = midpoint·width, δ = width) crossed inside its steps;
 *   - the approach-damper with n = 1, m = 0: a damped quarter cycle to δ_max (closed form), then an
 *     undamped return: e = exp(−ξ/√(1−ξ²) · atan2(√(1−ξ²), ξ));
 *   - the inverse against impactfit_kv_e and against inverse.h's ζ;
 *   - parameters by name: index, set, get, defaults, order, scales, lookup with a program's own type. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../src/law/law_impl.h"
#include "impactfit/impactfit.h"
#include "testutil.h"

static impactfit_law_workspace *ws;

/* one impact through law; general: by the general engine whatever the law's own solver */
static int solve_by(int general, const impactfit_law *law, double mass, double v, const impactfit_transition *tr,
                    impactfit_law_impact_result *r) {
  impactfit_law_impact_params p = impactfit_law_impact_default_params();
  p.law = *law;
  p.mass = mass;
  p.v = v;
  p.transition = tr;
  impactfit_error err;
  int s = general ? impactfit__law_impact_solve_general(ws, &p, r, &err) : impactfit_law_impact_solve(ws, &p, r, &err);
  if (s)
    fprintf(stderr, "law solve: %s\n", err.message);
  return s;
}

static int solve(const impactfit_law *law, double mass, double v, const impactfit_transition *tr,
                 impactfit_law_impact_result *r) {
  return solve_by(0, law, mass, v, tr, r);
}

/* a law of this type with the named parameters set (names[i] = values[i]) */
static impactfit_law named(const impactfit_law_type *t, int n, const char *const *names, const double *values) {
  impactfit_law law = impactfit_law_make(t);
  impactfit_error err;
  for (int i = 0; i < n; i++)
    CHECK(impactfit_law_set(&law, names[i], values[i], &err) == 0, "set %s: %s", names[i], err.message);
  return law;
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
          impactfit_law_impact_result lr, pr;
          int s2 = solve_by(1, &law, ip.mass, ip.v, trs[t], &lr);
          /* through law.h the power law is impact.h's engine: the same numbers to the last bit */
          int s3 = solve(&law, ip.mass, ip.v, trs[t], &pr);
          CHECK(s3 == s1 &&
                    (s1 || (pr.e_out == ir.e_out && pr.t_contact == ir.t_contact && pr.delta_max == ir.delta_max &&
                            pr.f_max == ir.f_max && pr.delta_sep == ir.delta_sep && pr.rhs_evals == ir.rhs_evals)),
                "power n=%g m=%g zeta=%g %s: law.h gives impact.h's result (status %d vs %d)", n, m, zetas[z],
                trs[t]->name, s3, s1);
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
  printf("power law, general engine vs impact.h: worst |de|/max(e, 0.01) = %.3g\n", worst);
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
      for (int g = 0; g < 2; g++) {
        if (solve_by(g, &law, M, 0.8, tr, &r))
          continue;
        CHECK_ABS(r.e_out, want, 2e-11 * fmax(want, 0.01), "Kelvin-Voigt xi=%g %s (%s engine)", xi, tr->name,
                  g ? "general" : "impact.h");
        /* A: the contact lasts half a damped period */
        if (!t)
          CHECK_REL(r.t_contact, M_PI / (sqrt(k / M) * s), 2e-11, "Kelvin-Voigt contact time xi=%g (%s engine)", xi,
                    g ? "general" : "impact.h");
      }
    }
  /* undamped Hertz */
  impactfit_law law = impactfit_law_power_make(1e8, 1.5, 0.0, 0.0);
  impactfit_law_impact_result r;
  if (solve(&law, 0.05, 2.0, impactfit_transition_C, &r) == 0) {
    CHECK_ABS(r.e_out, 1.0, 1e-12, "undamped Hertz e");
    CHECK_REL(r.delta_max, pow(2.5 * 0.05 * 4.0 / 2e8, 1.0 / 2.5), 1e-12, "undamped Hertz delta_max");
  }
}

/* the impedance law by name */
static const char *const imp_names[8] = {"M", "B", "K", "d0", "dwidth", "width", "midpoint", "power"};
static impactfit_law imp_law(double M, double B, double K, double d0, double dw, double width, double mid, double pw) {
  const double v[8] = {M, B, K, d0, dw, width, mid, pw};
  return named(impactfit_law_impedance, 8, imp_names, v);
}

/* the law's parameter called name */
static double par(const impactfit_law *law, const char *name) {
  double v = NAN;
  impactfit_law_get(law, name, &v, NULL);
  return v;
}

/* long double RK4 of M δ'' = −max(0, f) from δ = 0, δ' = v with steps of h, to the end under C;
 * the end located by linear interpolation between the two steps around it (error O(h²) there, so h
 * is tiny). */
static double rk4_reference(const impactfit_law *law, double M, double v, long nsteps_per_unit, double unit) {
  long double x = 0.0L, u = v, h = (long double)unit / nsteps_per_unit;
  const long double LM = par(law, "M"), LB = par(law, "B"), LK = par(law, "K");
  double solimp[5];
  for (int i = 0; i < 5; i++)
    solimp[i] = par(law, imp_names[3 + i]);
  for (long k = 0; k < 100000000L; k++) {
    long double kx[4], ku[4], xs = x, us = u;
    for (int s = 0; s < 4; s++) {
      double dd;
      double d = impactfit_law_impedance_d(solimp, (double)xs, &dd);
      (void)dd;
      long double f = LM * d * (LB * us + LK * d * xs);
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
    double d1 = impactfit_law_impedance_d(solimp, (double)xn, NULL);
    long double fn = LM * d1 * (LB * un + LK * d1 * xn);
    double d0 = impactfit_law_impedance_d(solimp, (double)x, NULL);
    long double f0 = LM * d0 * (LB * u + LK * d0 * x);
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
    static const char *const names[] = {"k", "n", "c"};
    const double vals[] = {k, 1.0, 2.0 * xi * sqrt(k * M)};
    impactfit_law law = named(impactfit_law_approach_damper, 3, names, vals);
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
    int s = impactfit_law_solve_param(ws, &p, impactfit_law_param_index(impactfit_law_power, "c"), es[i], 1e-6, 1e6,
                                      1e-10, &c, &r, &err);
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
    if (impactfit_law_solve_param(ws, &p, impactfit_law_param_index(impactfit_law_power, "c"), 0.6, 1e-4, 1e4, 1e-11,
                                  &c, NULL, NULL) == 0)
      CHECK_REL(c, ir.zeta, 1e-9, "law inverse vs inverse.h zeta (n = 1.5, m = 0, e = 0.6)");
  }
  impactfit_inverse_free(iw);
  /* unreachable: ENOROOT naming the range */
  impactfit_law_impact_params p = impactfit_law_impact_default_params();
  p.law = impactfit_law_power_make(1.0, 1.0, 0.0, 0.0);
  double c;
  impactfit_error err;
  int s = impactfit_law_solve_param(ws, &p, impactfit_law_param_index(impactfit_law_power, "c"), 0.2, 1e-3, 1e-2, 0.0,
                                    &c, NULL, &err);
  CHECK(s == IMPACTFIT_ENOROOT && strstr(err.message, "ranges over"), "unreachable e: %d %s", s, err.message);
}

static void test_errors(void) {
  impactfit_law_impact_params p = impactfit_law_impact_default_params();
  impactfit_law_impact_result r;
  impactfit_error err;
  impactfit_law_set(&p.law, "k", -1.0, NULL);
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

/* a program's own law, f = k δ (one parameter): found by name beside the built-ins */
static double own_force(const double *p, double delta, double rate, double *fd, double *fr) {
  (void)rate;
  if (fd)
    *fd = p[0];
  if (fr)
    *fr = 0.0;
  return p[0] * delta;
}
static const char *const own_names[] = {"stiff"};
static const char *const own_units[] = {"N/m"};
static const impactfit_law_type own_type = {.name = "own-spring",
                                            .summary = "f = stiff delta",
                                            .n_params = 1,
                                            .param_names = own_names,
                                            .param_units = own_units,
                                            .force = own_force};

static void test_names(void) {
  impactfit_error err;
  /* every built-in: distinct identifier names, a help line and a unit for each, a permutation as order,
   * its damping and unit parameters among its own, defaults NaN or valid in place of the required */
  for (size_t t = 0; t < impactfit_law_type_count(); t++) {
    const impactfit_law_type *ty = impactfit_law_type_at(t);
    int seen[IMPACTFIT_LAW_MAX_PARAMS] = {0};
    CHECK(impactfit_law_type_from_name(ty->name) == ty, "%s: found by its name", ty->name);
    for (int i = 0; i < ty->n_params; i++) {
      CHECK(impactfit_law_param_index(ty, ty->param_names[i]) == i, "%s: %s at %d", ty->name, ty->param_names[i], i);
      CHECK(ty->param_help && ty->param_help[i][0] && ty->param_units[i][0], "%s: %s has help and unit", ty->name,
            ty->param_names[i]);
      int k = impactfit_law_param_at(ty, i);
      CHECK(k >= 0 && k < ty->n_params && !seen[k], "%s: param_order is a permutation (%d)", ty->name, k);
      if (k >= 0 && k < ty->n_params)
        seen[k] = 1;
    }
    CHECK(impactfit_law_param_at(ty, ty->n_params) == -1 && impactfit_law_param_at(ty, -1) == -1, "%s: order bounds",
          ty->name);
    CHECK(ty->damping && impactfit_law_param_index(ty, ty->damping) >= 0, "%s: its damping parameter", ty->name);
    CHECK(!ty->unit_param || impactfit_law_param_index(ty, ty->unit_param) >= 0, "%s: its unit parameter", ty->name);
  }
  /* power: k, n, c, m by name, shown n, m, c, k, k = 1 and m = 0 by default, n and c required */
  const impactfit_law_type *pw = impactfit_law_power;
  CHECK(impactfit_law_param_index(pw, "k") == 0 && impactfit_law_param_index(pw, "n") == 1 &&
            impactfit_law_param_index(pw, "c") == 2 && impactfit_law_param_index(pw, "m") == 3 &&
            impactfit_law_param_index(pw, "K") == -1 && impactfit_law_param_index(pw, NULL) == -1,
        "power: indices by name");
  CHECK(impactfit_law_param_at(pw, 0) == 1 && impactfit_law_param_at(pw, 1) == 3 &&
            impactfit_law_param_at(pw, 2) == 2 && impactfit_law_param_at(pw, 3) == 0,
        "power: shown n, m, c, k");
  impactfit_law law = impactfit_law_make(pw);
  CHECK(law.p[0] == 1.0 && isnan(law.p[1]) && isnan(law.p[2]) && law.p[3] == 0.0, "power: defaults");
  CHECK(impactfit_law_check(&law, &err) == IMPACTFIT_EINVAL, "power: n and c required (%s)", err.message);
  CHECK(impactfit_law_set(&law, "n", 1.5, &err) == 0 && impactfit_law_set(&law, "c", 0.25, &err) == 0 &&
            impactfit_law_check(&law, &err) == 0,
        "power: valid once n and c are set (%s)", err.message);
  impactfit_law ref = impactfit_law_power_make(1.0, 1.5, 0.25, 0.0);
  CHECK(memcmp(law.p, ref.p, sizeof ref.p) == 0 && law.type == ref.type, "power: by name = power_make");
  double v = 0.0;
  CHECK(impactfit_law_get(&law, "c", &v, &err) == 0 && v == 0.25, "get c");
  CHECK(impactfit_law_set(&law, "lambda", 1.0, &err) == IMPACTFIT_EINVAL &&
            strstr(err.message, "no parameter 'lambda'") && strstr(err.message, "n, m, c, k"),
        "unknown parameter: %s", err.message);
  CHECK(impactfit_law_get(&law, "x", &v, &err) == IMPACTFIT_EINVAL, "get unknown");
  CHECK(impactfit_law_set(NULL, "k", 1.0, &err) == IMPACTFIT_EINVAL, "set on NULL");
  /* scales: c's is M v/δ_m0^(m+1) (ζ of impact.h), none for k; the impedance law's B: 2√K */
  ref = impactfit_law_power_make(3.7e4, 1.5, 2.0, 0.75);
  double d0 = pow(2.5 * 0.02 * 1.7 * 1.7 / (2.0 * 3.7e4), 1.0 / 2.5);
  CHECK_REL(impactfit_law_param_scale(&ref, 2, 0.02, 1.7), 0.02 * 1.7 / pow(d0, 1.75), 1e-15, "power: scale of c");
  CHECK(isnan(impactfit_law_param_scale(&ref, 0, 0.02, 1.7)), "power: no scale of k");
  impactfit_law im = imp_law(1.0, 105.0, 2770.0, 0.9, 0.95, 0.001, 0.5, 2.0);
  CHECK_REL(impactfit_law_param_scale(&im, impactfit_law_param_index(impactfit_law_impedance, "B"), 1.0, 1.0),
            2.0 * sqrt(2770.0), 1e-15, "impedance: scale of B");
  im = impactfit_law_make(impactfit_law_impedance);
  CHECK(isnan(par(&im, "M")) && isnan(par(&im, "B")) && isnan(par(&im, "K")) && par(&im, "d0") == 0.9 &&
            par(&im, "dwidth") == 0.95 && par(&im, "width") == 0.001 && par(&im, "midpoint") == 0.5 &&
            par(&im, "power") == 2.0,
        "impedance: M, B, K required, MuJoCo's default solimp");
  /* lookup with a program's own types first */
  const impactfit_law_type *own[] = {&own_type};
  CHECK(impactfit_law_type_from_name_in("own-spring", own, 1) == &own_type, "own type found");
  CHECK(impactfit_law_type_from_name_in("power", own, 1) == impactfit_law_power, "built-ins beside it");
  CHECK(impactfit_law_type_from_name_in("own-spring", NULL, 0) == NULL, "not without it");
  const impactfit_law_type *found = NULL;
  CHECK(impactfit_law_type_find("powr", NULL, 0, &found, &err) == IMPACTFIT_EINVAL && !found &&
            strstr(err.message, "did you mean 'power'") && strstr(err.message, "impedance"),
        "unknown law: %s", err.message);
  /* a law with no solver of its own: impactfit_law_impact_solve is the general engine */
  impactfit_law ow = {.type = &own_type, .p = {4.0}};
  impactfit_law_impact_result r1, r2;
  if (!solve(&ow, 0.25, 1.0, impactfit_transition_C, &r1) && !solve_by(1, &ow, 0.25, 1.0, impactfit_transition_C, &r2))
    CHECK(r1.e_out == r2.e_out && r1.rhs_evals == r2.rhs_evals && fabs(r1.e_out - 1.0) < 1e-12 &&
              fabs(r1.t_contact - M_PI / 4.0) < 1e-11,
          "own spring: the general engine, e = 1, half a period pi sqrt(M/k) (e %.17g, t %.17g)", r1.e_out,
          r1.t_contact);
}

/* The sweep problems law-impact and law-damping by name on MuJoCo's impedance law at its default
 * solimp (a varying impedance), against the long double RK4: the rows are the library's law.h
 * calls, the reference is independent of them. */
static void test_sweeps_by_name(void) {
  double tc = 0.02, dmax = 0.95, M = 1.309e-3;
  char B[32], K[32], Mt[32];
  snprintf(B, sizeof B, "%.17g", 2.0 / (dmax * tc));
  snprintf(K, sizeof K, "%.17g", 1.0 / (dmax * dmax * tc * tc));
  snprintf(Mt, sizeof Mt, "%.17g", M);
  char text[1024];
  snprintf(text, sizeof text,
           "[sweep]\nproblem = law-impact\n[fixed]\nlaw = impedance\nM = %s\nB = %s\nK = %s\nmass = %s\n"
           "[axes]\nv = list 0.02, 0.1, 1\n",
           Mt, B, K, Mt);
  impactfit_sweep *sw = NULL;
  impactfit_table *tb = NULL;
  impactfit_error err;
  int st = impactfit_sweep_parse(text, strlen(text), "imp", &sw, &err);
  CHECK(st == 0, "law-impact of the impedance law: %s", err.message);
  if (!st) {
    const impactfit_sweep_problem *pr = impactfit_sweep_get_problem(sw);
    static const char *const cols[] = {"M",        "B",     "K",      "d0", "dwidth", "width",
                                       "midpoint", "power", "rscale", "g",  "mass",   "v"};
    CHECK(pr->n_params == 12 && pr->n_outputs == 6 && strcmp(pr->outputs[5], "zeta") == 0,
          "the law's parameters, then mass and v (%zu), outputs with zeta", pr->n_params);
    for (size_t i = 0; i < 12 && i < pr->n_params; i++)
      CHECK(strcmp(pr->params[i].name, cols[i]) == 0, "column %zu: %s", i, pr->params[i].name);
    CHECK(impactfit_sweep_run_table(sw, NULL, &tb, NULL, &err) == 0, "run: %s", err.message);
  }
  impactfit_law law = imp_law(M, 2.0 / (dmax * tc), 1.0 / (dmax * dmax * tc * tc), 0.9, 0.95, 0.001, 0.5, 2.0);
  for (size_t i = 0; tb && i < 3; i++) {
    double v = impactfit_table_col(tb, (size_t)impactfit_table_find(tb, "v"))[i];
    double e = impactfit_table_col(tb, (size_t)impactfit_table_find(tb, "e_out"))[i];
    double t = impactfit_table_col(tb, (size_t)impactfit_table_find(tb, "t_contact"))[i];
    double z = impactfit_table_col(tb, (size_t)impactfit_table_find(tb, "zeta"))[i];
    CHECK_ABS(e, rk4_reference(&law, M, v, 400000, t), 2e-9, "law-impact, impedance at v = %g vs long double RK4", v);
    CHECK_REL(z, 1.0 / 0.95 * 0.95, 1e-15, "zeta = B/(2 sqrt K) = MuJoCo's dampratio 1 (v = %g)", v);
  }
  impactfit_table_free(tb);
  impactfit_sweep_free(sw);
  /* law-damping: B for e = 0.3 at v = 0.1 (the default unknown: the law's damping), the RK4's e at it */
  snprintf(text, sizeof text,
           "[sweep]\nproblem = law-damping\n[fixed]\nlaw = impedance\nM = %s\nK = %s\nmass = %s\nv = 0.1\n"
           "[axes]\ne = list 0.3, 0.7\n",
           Mt, K, Mt);
  tb = NULL;
  sw = NULL;
  st = impactfit_sweep_parse(text, strlen(text), "impd", &sw, &err);
  CHECK(st == 0 && impactfit_sweep_run_table(sw, NULL, &tb, NULL, &err) == 0, "law-damping, impedance: %s",
        err.message);
  for (size_t i = 0; tb && i < 2; i++) {
    double e = impactfit_table_col(tb, (size_t)impactfit_table_find(tb, "e"))[i];
    double b = impactfit_table_col(tb, (size_t)impactfit_table_find(tb, "B"))[i];
    double t = impactfit_table_col(tb, (size_t)impactfit_table_find(tb, "t_contact"))[i];
    impactfit_law at = law;
    impactfit_law_set(&at, "B", b, NULL);
    CHECK_ABS(rk4_reference(&at, M, 0.1, 400000, t), e, 2e-9, "law-damping, impedance: RK4's e at the B found (e = %g)",
              e);
  }
  impactfit_table_free(tb);
  impactfit_sweep_free(sw);
  /* the builder takes the law's names before the law is known; an unknown one fails at build */
  impactfit_sweep_def *d = NULL;
  impactfit_sweep_def_new(impactfit_sweep_problem_from_name("law-impact"), "b", &d, &err);
  CHECK(impactfit_sweep_def_option(d, "law", "power", &err) == 0 && impactfit_sweep_def_fixed(d, "n", 1.5, &err) == 0 &&
            impactfit_sweep_def_fixed(d, "zz", 1.0, &err) == 0,
        "def: names checked at build");
  impactfit_sweep_def_axis_values(d, "c", (const double[]){0.1}, 1, &err);
  CHECK(impactfit_sweep_def_build(d, &sw, &err) == IMPACTFIT_EPARSE && strstr(err.message, "unknown parameter 'zz'"),
        "def: unknown name at build: %s", err.message);
  impactfit_sweep_def_free(d);
  /* solve = a parameter without a scale needs its interval: K for e under A at constant impedance is
   * B²/(4 ξ(e)²) exactly (ξ = -ln e/√(π² + ln² e)) */
  snprintf(text, sizeof text,
           "[sweep]\nproblem = law-damping\n[fixed]\nlaw = impedance\nsolve = K\ntransition = A\nM = 1\nB = 30\n"
           "d0 = 0.9\ndwidth = 0.9\nlo = 10\nhi = 1e6\n[axes]\ne = list 0.4\n");
  tb = NULL;
  sw = NULL;
  st = impactfit_sweep_parse(text, strlen(text), "impk", &sw, &err);
  CHECK(st == 0 && impactfit_sweep_run_table(sw, NULL, &tb, NULL, &err) == 0, "law-damping, solve = K: %s",
        err.message);
  if (tb) {
    double xi = -log(0.4) / sqrt(M_PI * M_PI + log(0.4) * log(0.4));
    CHECK_REL(impactfit_table_col(tb, (size_t)impactfit_table_find(tb, "K"))[0], 900.0 / (4.0 * xi * xi), 2e-10,
              "solve = K: the exact K");
  }
  impactfit_table_free(tb);
  impactfit_sweep_free(sw);
}

int main(void) {
  ws = impactfit_law_alloc();
  test_power_vs_impact();
  test_kv_exact();
  test_impedance();
  test_approach_damper();
  test_inverse();
  test_errors();
  test_names();
  test_sweeps_by_name();
  impactfit_law_free(ws);
  return tu_report("test_law");
}
