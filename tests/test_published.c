/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The reference table of published formulas and the restitution forms behind it (formulas.h):
 * every measurement against an independent result —
 *  - Carvalho & Martins' Lambert-W e(ε) against the implicit exact relation evaluated here in long
 *    double, and hc.h's solver;
 *  - viscoelastic spheres: C₁ against the first-order perturbation of the undamped Hertz impact
 *    derived here (a Beta function), the scaled damping x against an impact simulated in physical
 *    units, the measured expansion against C₁ and Ramírez et al.'s C₂ = (3/5)C₁²;
 *  - Chatterjee et al.: C₀ against the same perturbation and against π/2 for Kelvin–Voigt, their
 *    quadrature I(g̃) against C₀ and the load coefficient C₁ (a Richardson derivative), their second
 *    order against C₂, the engine's slope against the quadrature, and their γ, g̃ against the
 *    impact in physical units with the load as impact.h's accel;
 *  - the audit: rows recomputed here by a second route (the exact Hunt–Crossley e(ε) instead of the
 *    engine; the Kelvin–Voigt half period written out), exact forms at rounding level under their
 *    authors' condition, every entry documented, bad input. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_gamma.h>

#include "impactfit/impactfit.h"
#include "testutil.h"

static impactfit_impact_workspace *ws;

/* The exact relation (1 + ε)/(1 − eε) = exp(ε(1 + e)) as the residual of its logarithm, in long
 * double: log1p(ε) − log1p(−eε) − ε(1 + e). */
static long double relation(double eps, double e) {
  long double x = eps, y = e;
  return log1pl(x) - log1pl(-y * x) - x * (1 + y);
}

static void test_lambert(void) {
  double eps[] = {0.05, 0.2, 0.5, 1.0, 2.0, 5.0, 20.0}; /* beyond, 1 − eε underflows in the check */
  for (size_t i = 0; i < sizeof eps / sizeof eps[0]; i++) {
    double el, ex;
    CHECK(impactfit_hc_e_lambert(eps[i], &el, NULL) == 0, "lambert(%g)", eps[i]);
    CHECK(impactfit_hc_e(eps[i], &ex, NULL) == 0, "hc_e(%g)", eps[i]);
    CHECK_REL(el, ex, 1e-13, "Lambert form against hc.h at eps = %g", eps[i]);
    /* the residual of the relation at e ± one unit of e's rounding brackets 0 */
    long double r = relation(eps[i], el), d = relation(eps[i], el * (1 + 1e-12)) - r;
    CHECK(fabsl(r) <= fabsl(d), "Lambert form satisfies the relation at eps = %g (residual %Lg)", eps[i], r);
  }
  double e;
  CHECK(impactfit_hc_e_lambert(0.0, &e, NULL) == 0 && e == 1.0, "eps = 0 gives 1");
  /* the documented loss of digits near eps = 0 (formulas.h) */
  double el, ex;
  impactfit_hc_e_lambert(1e-4, &el, NULL);
  impactfit_hc_e(1e-4, &ex, NULL);
  CHECK(fabs(el - ex) > 1e-10 && fabs(el - ex) < 1e-7, "Lambert form at eps = 1e-4 loses digits as documented (%g)",
        fabs(el - ex));
  impactfit_error err;
  CHECK(impactfit_hc_e_lambert(-1.0, &e, &err) == IMPACTFIT_EINVAL, "eps < 0");
  CHECK(impactfit_hc_e_lambert(NAN, &e, &err) == IMPACTFIT_EINVAL, "eps NaN");
  CHECK(impactfit_hc_e_lambert(1.0, NULL, &err) == IMPACTFIT_EINVAL, "no output");
}

/* First order of an impact x'' + ζ x^m x' + ((n+1)/2) x^n = 0, x(0) = 0, x'(0) = 1, perturbed about
 * the undamped one (x'² = 1 − x^(n+1)): the damper dissipates W = ζ ∮ x^m x'² dτ =
 * 2ζ ∫₀¹ x^m √(1 − x^(n+1)) dx = 2ζ B((m+1)/(n+1), 3/2)/(n+1), and e² = 1 − 2W, so
 * 1 − e = 2 B((m+1)/(n+1), 3/2) ζ/(n+1) + O(ζ²). */
static double first_order_zeta(double n, double m) { return 2.0 * gsl_sf_beta((m + 1) / (n + 1), 1.5) / (n + 1); }

static void test_visco(void) {
  double c1 = impactfit_visco_c1(), c2 = impactfit_visco_c2();
  /* x = ζ/(5/4)^(3/5): 1 − e = C₁ x with C₁ = (5/4)^(3/5) × the perturbation's coefficient */
  CHECK_REL(c1, pow(1.25, 0.6) * first_order_zeta(1.5, 0.5), 1e-14, "C1 equals the first-order perturbation");
  CHECK_REL(c1, 1.15344, 1e-5, "C1 as printed by Brilliantov et al. (1.15344, truncated)");
  CHECK_REL(c2, 0.7982665553, 1e-8, "C2 = (3/5) C1^2 and Chatterjee et al.'s printed constant");
  CHECK_REL(impactfit_visco_x_from_zeta(impactfit_visco_zeta_from_x(0.37)), 0.37, 1e-15, "x <-> zeta");
  CHECK(impactfit_visco_e_series(1, 0.1) == 1 - c1 * 0.1 &&
            impactfit_visco_e_series(2, 0.1) == 1 - c1 * 0.1 + c2 * 0.01,
        "the series as written");
  CHECK(isnan(impactfit_visco_e_series(3, 0.1)) && isnan(impactfit_visco_e_series(1, -1)), "series: bad input");
  /* the scaled damping against an impact in physical units: F = k(δ^(3/2) + (3/2) A δ^(1/2) δ') */
  double A = 2e-5, k = 3e9, mass = 0.02, v = 1.7, x;
  CHECK(impactfit_visco_x(A, k, mass, v, &x, NULL) == 0, "visco_x");
  impactfit_impact_params p = impactfit_impact_default_params(), q;
  p.n = 1.5;
  p.m = 0.5;
  p.k = k;
  p.mass = mass;
  p.v = v;
  p.c = 1.5 * A * k;
  p.locate_extrema = 0;
  q = impactfit_impact_scaled_params(1.5, 0.5, impactfit_visco_zeta_from_x(x));
  q.locate_extrema = 0;
  impactfit_impact_result r1, r2;
  CHECK(impactfit_impact_solve(ws, &p, &r1, NULL) == 0 && impactfit_impact_solve(ws, &q, &r2, NULL) == 0, "visco "
                                                                                                          "impacts");
  CHECK_ABS(r1.e_out, r2.e_out, 1e-12, "x = beta v^(1/5) is the scaled damping of the physical impact (e = %.6f)",
            r1.e_out);
  impactfit_error err;
  CHECK(impactfit_visco_x(-1, k, mass, v, &x, &err) == IMPACTFIT_EINVAL && impactfit_visco_x(A, 0, mass, v, &x, &err),
        "visco_x: bad input");
  /* the expansion of the exact e(x) */
  double cA[3], cC[3];
  CHECK(impactfit_visco_expansion(ws, impactfit_transition_A, cA, NULL) == 0 &&
            impactfit_visco_expansion(ws, impactfit_transition_C, cC, NULL) == 0,
        "expansions");
  CHECK_REL(cA[0], c1, 1e-9, "measured C1 under A");
  CHECK_REL(cC[0], c1, 1e-9, "measured C1 under C");
  CHECK_REL(cA[1], c2, 1e-5, "measured C2 under A (Ramirez et al.)");
  CHECK_REL(cC[1], c2, 1e-5, "measured C2 under C (Schwager & Poschel)");
  CHECK_ABS(cA[2], 0.0, 1e-3, "no x^(5/2) term under A");
  CHECK(cC[2] > 0.25 && cC[2] < 0.28, "the x^(5/2) term under C (delayed recovery): %g", cC[2]);
  CHECK(impactfit_visco_expansion(ws, impactfit_transition_B, cA, &err) == IMPACTFIT_EINVAL, "expansion under B");
}

static void test_cjb(void) {
  impactfit_cjb_coeffs c, ch;
  /* C₀: the perturbation in their γ (ζ = β γ K^(β/(α+1)), K = (α+1)/2) */
  double ab[3][2] = {{1.5, 1.5}, {1.5, 1.0}, {2.0, 1.7}};
  for (int i = 0; i < 3; i++) {
    double al = ab[i][0], be = ab[i][1], K = 0.5 * (al + 1);
    CHECK(impactfit_cjb_coefficients(al, be, 0.0, &c, NULL) == 0, "coefficients (%g, %g)", al, be);
    CHECK_REL(c.C0, be * pow(K, be / (al + 1)) * first_order_zeta(al, be - 1), 1e-14,
              "C0 = the first-order perturbation (%g, %g)", al, be);
    CHECK_REL(be * c.I, c.C0, 1e-12, "their quadrature beta I(0) = C0 (%g, %g)", al, be);
    /* C₁ = d(β I)/dg̃ at 0 (Richardson extrapolation of one-sided differences) */
    double h = 1e-3, f0 = be * c.I, f1, f2;
    impactfit_cjb_coefficients(al, be, h, &ch, NULL);
    f1 = be * ch.I;
    impactfit_cjb_coefficients(al, be, h / 2, &ch, NULL);
    f2 = be * ch.I;
    CHECK_REL(2 * (f2 - f0) / (h / 2) - (f1 - f0) / h, c.C1, 1e-6, "C1 = d(beta I)/dg at 0 (%g, %g)", al, be);
  }
  CHECK(impactfit_cjb_coefficients(1.0, 1.0, 0.0, &c, NULL) == 0, "Kelvin-Voigt");
  CHECK_REL(c.C0, M_PI / 2, 1e-14, "Kelvin-Voigt: 1 - e = pi xi = (pi/2) gamma to first order");
  /* their second order at g̃ = 0 and α = β = 3/2 is Ramírez et al.'s C₂ in their variable γ = (2/3) x */
  CHECK(impactfit_cjb_coefficients(1.5, 1.5, 0.0, &c, NULL) == 0, "3/2");
  CHECK_REL(2.25 * c.I * (c.Q - 0.5 * c.I), 2.25 * impactfit_visco_c2(), 1e-10, "their I, Q reproduce C2");
  double e1, e3, g = 0.01;
  impactfit_cjb_e(2, 1.5, 1.5, g, 0.0, &e1, NULL);
  impactfit_cjb_e(3, 1.5, 1.5, g, 0.0, &e3, NULL);
  CHECK_ABS(e1, e3, 1e-11, "order 2 with I, Q = order 2 with the constant at g~ = 0");
  CHECK_REL(1 - e1, 1.5 * impactfit_visco_c1() * g - impactfit_visco_c2() * 2.25 * g * g, 1e-9,
            "order 2 at g~ = 0 is the visco series at x = 3 gamma / 2");
  /* the engine's slope against their quadrature, with a load */
  double s, gl = 0.1;
  for (int i = 0; i < 2; i++) {
    double al = i ? 1.0 : 1.5, be = al;
    impactfit_cjb_coefficients(al, be, gl, &c, NULL);
    for (int t = 0; t < 2; t++) {
      const impactfit_transition *tr = t ? impactfit_transition_C : impactfit_transition_A;
      CHECK(impactfit_cjb_slope(ws, al, be, gl, tr, &s, NULL) == 0, "slope");
      CHECK_REL(s, be * c.I, 1e-7, "engine slope = beta I(0.1), alpha = beta = %g, condition %s", al, tr->name);
    }
  }
  /* their γ, g̃ from impact.h's parameters: the physical impact with its load equals the scaled one */
  impactfit_impact_params p = impactfit_impact_default_params();
  p.n = 1.5;
  p.m = 0.5;
  p.k = 4e8;
  p.mass = 0.3;
  p.v = 0.8;
  p.c = 2e4;
  p.accel = 9.81 + 20.0 / 0.3; /* gravity and a compressive force of 20 N */
  p.transition = impactfit_transition_A;
  p.locate_extrema = 0;
  double gam, gt;
  CHECK(impactfit_cjb_scaled(&p, &gam, &gt, NULL) == 0, "cjb_scaled");
  double K = 1.25, be = 1.5;
  impactfit_impact_params q = impactfit_impact_scaled_params(1.5, 0.5, be * gam * pow(K, be / 2.5));
  q.accel = gt * pow(K, 1.0 / 2.5);
  q.transition = impactfit_transition_A;
  q.locate_extrema = 0;
  impactfit_impact_result r1, r2;
  CHECK(impactfit_impact_solve(ws, &p, &r1, NULL) == 0 && impactfit_impact_solve(ws, &q, &r2, NULL) == 0, "loaded "
                                                                                                          "impacts");
  CHECK_ABS(r1.e_out, r2.e_out, 1e-11, "gamma, g~ describe the loaded physical impact (e = %.6f, g~ = %.4g)", r1.e_out,
            gt);
  impactfit_error err;
  p.n = 0.8;
  CHECK(impactfit_cjb_scaled(&p, &gam, &gt, &err) == IMPACTFIT_EINVAL, "their model needs n >= 1");
  CHECK(impactfit_cjb_coefficients(0.5, 1.5, 0.0, &c, &err) == IMPACTFIT_EINVAL, "alpha < 1");
  CHECK(impactfit_cjb_coefficients(1.5, 1.5, -0.1, &c, &err) == IMPACTFIT_EINVAL, "negative load");
  CHECK(impactfit_cjb_e(3, 1.0, 1.0, 0.1, 0.0, &e1, &err) == IMPACTFIT_EINVAL, "order 3 off 3/2");
  CHECK(impactfit_cjb_e(4, 1.5, 1.5, 0.1, 0.0, &e1, &err) == IMPACTFIT_EINVAL, "order 4");
}

/* The approach-only damper (law.h) with m = (n − 1)/2: its exact prefactor against the law engine,
 * and its e(ξ) against the clamped Kelvin–Voigt restitution (e² = e_C). */
static void test_approach_damper(void) {
  impactfit_law_workspace *lw = impactfit_law_alloc();
  double ns[] = {1.0, 1.5, 2.5}, es[] = {0.05, 0.3, 0.7, 0.95};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++) {
      double n = ns[i], e = es[j], a, k = 3e7, M = 0.04, v = 1.3;
      CHECK(impactfit_approach_damper_prefactor(n, e, &a, NULL) == 0, "prefactor n = %g e = %g", n, e);
      impactfit_law_impact_params p = impactfit_law_impact_default_params();
      p.law = impactfit_law_power_make(k, n, a * sqrt(k * M), 0.5 * (n - 1));
      p.law.type = impactfit_law_approach_damper;
      p.mass = M;
      p.v = v;
      for (int t = 0; t < 2; t++) {
        p.transition = t ? impactfit_transition_C : impactfit_transition_A;
        impactfit_law_impact_result r;
        CHECK(impactfit_law_impact_solve(lw, &p, &r, NULL) == 0, "law impact");
        CHECK_ABS(r.e_out, e, 1e-10, "approach-damper with the exact prefactor: n = %g, e = %g, %s", n, e,
                  p.transition->name);
      }
      /* e(ξ)² is the clamped Kelvin–Voigt e */
      double xi = a / sqrt(2 * (n + 1)), ekv;
      impactfit_kv_e(xi, impactfit_transition_C, &ekv, NULL);
      CHECK_REL(e * e, ekv, 1e-13, "e^2 = e_KV,C(xi) at n = %g, e = %g", n, e);
    }
  double a;
  impactfit_error err;
  CHECK(impactfit_approach_damper_prefactor(1.5, 1.0, &a, NULL) == 0 && a == 0.0, "e = 1: no damping");
  CHECK(impactfit_approach_damper_prefactor(0.5, 0.5, &a, &err) == IMPACTFIT_EINVAL, "n < 1");
  CHECK(impactfit_approach_damper_prefactor(1.5, 0.0, &a, &err) == IMPACTFIT_EINVAL, "e = 0");
  /* the sweep problems law-impact and law-damping: their rows are the library's calls */
  impactfit_sweep_def *d = NULL;
  impactfit_sweep *s = NULL;
  impactfit_table *tb = NULL;
  impactfit_error_clear(&err);
  impactfit_sweep_def_new(impactfit_sweep_problem_from_name("law-damping"), "ld", &d, &err);
  impactfit_sweep_def_option(d, "law", "approach-damper", &err);
  impactfit_sweep_def_fixed(d, "n", 1.5, &err);
  impactfit_sweep_def_fixed(d, "m", 0.25, &err);
  impactfit_sweep_def_fixed(d, "k", 2e8, &err);
  impactfit_sweep_def_fixed(d, "mass", 0.3, &err);
  impactfit_sweep_def_fixed(d, "v", 0.7, &err);
  const double ev[3] = {0.2, 0.5, 0.85};
  impactfit_sweep_def_axis_values(d, "e", ev, 3, &err);
  CHECK(impactfit_sweep_def_build(d, &s, &err) == 0 && impactfit_sweep_run_table(s, NULL, &tb, NULL, &err) == 0,
        "law-damping sweep: %s", err.message);
  for (size_t i = 0; tb && i < 3; i++) {
    double c = impactfit_table_col(tb, (size_t)impactfit_table_find(tb, "c"))[i], a2;
    double eo = impactfit_table_col(tb, (size_t)impactfit_table_find(tb, "e_out"))[i];
    impactfit_approach_damper_prefactor(1.5, ev[i], &a2, NULL);
    CHECK_REL(c, a2 * sqrt(2e8 * 0.3), 1e-9, "law-damping c = the exact prefactor at e = %g", ev[i]);
    CHECK_ABS(eo, ev[i], 1e-10, "law-damping e_out at e = %g", ev[i]);
  }
  impactfit_table_free(tb);
  impactfit_sweep_free(s);
  impactfit_sweep_def_free(d);
  tb = NULL;
  s = NULL;
  impactfit_sweep_def_new(impactfit_sweep_problem_from_name("law-impact"), "li", &d, &err);
  impactfit_sweep_def_option(d, "law", "power", &err);
  impactfit_sweep_def_option(d, "transition", "A", &err);
  impactfit_sweep_def_fixed(d, "n", 1.0, &err);
  impactfit_sweep_def_fixed(d, "m", 0.0, &err);
  const double cv[2] = {0.2, 1.0};
  impactfit_sweep_def_axis_values(d, "c", cv, 2, &err);
  CHECK(impactfit_sweep_def_build(d, &s, &err) == 0 && impactfit_sweep_run_table(s, NULL, &tb, NULL, &err) == 0,
        "law-impact sweep: %s", err.message);
  for (size_t i = 0; tb && i < 2; i++) {
    double eo = impactfit_table_col(tb, (size_t)impactfit_table_find(tb, "e_out"))[i], ekv;
    impactfit_kv_e(cv[i] / 2, impactfit_transition_A, &ekv, NULL); /* ξ = c/(2√(k mass)) */
    CHECK_ABS(eo, ekv, 1e-11, "law-impact power n = 1 under A = Kelvin-Voigt at c = %g", cv[i]);
  }
  impactfit_table_free(tb);
  impactfit_sweep_free(s);
  impactfit_sweep_def_free(d);
  impactfit_law_free(lw);
}

static void test_table(void) {
  size_t n = impactfit_published_count(), audited = 0;
  CHECK(n >= 30, "the table lists %zu formulas", n);
  for (size_t i = 0; i < n; i++) {
    const impactfit_published *f = impactfit_published_at(i);
    CHECK(f && f->name[0] && f->authors[0] && f->reference[0] && f->equation[0] && f->model[0] && f->end[0] &&
              f->expression[0] && f->found[0] && f->alternative[0] && f->doi,
          "entry %zu documented", i);
    CHECK(impactfit_published_from_name(f->name) == f, "lookup %s", f->name);
    for (size_t j = 0; j < i; j++)
      CHECK(strcmp(impactfit_published_at(j)->name, f->name) != 0, "unique name %s", f->name);
    if (f->method) {
      audited++;
      CHECK(impactfit_published_method_name(f)[0] != 0, "%s: method named", f->name);
    } else
      CHECK(strstr(f->found, "not found") || strstr(f->found, "not confirmed") || strstr(f->found, "not audited"),
            "%s: says why it is not audited", f->name);
  }
  CHECK(audited >= 20, "%zu audited", audited);
  CHECK(impactfit_published_at(n) == NULL && impactfit_published_from_name("nosuch") == NULL, "out of range");
  CHECK(impactfit_zhang2021_fit_count() == 6, "six Zhang fits");
  const double zm[6] = {2.0, 1.5, 1.0, 0.65, 0.5, 0.25}; /* topic zhang's order */
  for (size_t i = 0; i < 6; i++)
    CHECK(impactfit_zhang2021_fit_at(i)->m == zm[i], "Zhang fit %zu is m = %g", i, zm[i]);
  const impactfit_zhang2021_fit *z0 = impactfit_zhang2021_fit_at(0), *z1 = impactfit_zhang2021_fit_at(1);
  CHECK_REL(impactfit_zhang2021_alpha(z0, 0.5), 0.9404 + 0.8356 * 0.5 - 2.136 * 0.25 + 1.363 * 0.125, 1e-15,
            "Zhang Eq. (47) as printed");
  CHECK_REL(impactfit_zhang2021_alpha(z1, 0.5), 0.6181 * exp(-1.76) + 0.899 * exp(0.045125), 1e-15,
            "Zhang Eq. (48) as printed");
}

static void test_audit(void) {
  impactfit_inverse_workspace *iws = impactfit_inverse_alloc();
  impactfit_published_audit_params p = impactfit_published_audit_default_params();
  CHECK(p.e_min == 0.01 && p.e_max == 0.99 && p.points == 99 && p.gtil == 0.1 && p.valid_tol == 0.01, "audit defaults");
  p.points = 12;
  impactfit_published_audit_row r;
  impactfit_error err;
  /* exact forms, under their authors' condition */
  const char *exact[][2] = {
      {"antypov-elliott", "A"}, {"feng", "A"}, {"linear-log", "A"}, {"kv-clamped", "C"}, {"carvalho-martins", "A"}};
  for (size_t i = 0; i < 5; i++) {
    const impactfit_published *f = impactfit_published_from_name(exact[i][0]);
    CHECK(impactfit_published_audit(ws, iws, f, impactfit_transition_from_name(exact[i][1]), &p, &r, &err) == 0,
          "audit %s", exact[i][0]);
    CHECK(r.max < 1e-12 && r.points >= 12 && r.failures == 0, "%s exact under %s: %g", exact[i][0], exact[i][1], r.max);
  }
  /* an eps(e) formula recomputed through the exact Hunt–Crossley e(ε) instead of the engine */
  const impactfit_published *hg = impactfit_published_from_name("hu-guo");
  CHECK(impactfit_published_audit(ws, iws, hg, impactfit_transition_C, &p, &r, &err) == 0, "audit hu-guo");
  double mx = 0, at = 0, sum = 0;
  for (size_t i = 0; i < p.points; i++) {
    double e = p.e_min + (p.e_max - p.e_min) * (double)i / (double)(p.points - 1), eo;
    impactfit_hc_e(1.5 * (1 - e) / e, &eo, NULL);
    sum += fabs(eo - e);
    if (fabs(eo - e) > mx)
      mx = fabs(eo - e), at = e;
  }
  CHECK_ABS(r.max, mx, 1e-11, "hu-guo: max recomputed from the exact e(eps)");
  CHECK_ABS(r.mean, sum / (double)p.points, 1e-11, "hu-guo: mean recomputed");
  CHECK(fabs(r.e_at_max - at) < 1e-12, "hu-guo: where");
  /* Norouzi et al. under A: the Kelvin–Voigt half period written out, ξ = a/√(2(n+1)) */
  const impactfit_published *no = impactfit_published_from_name("norouzi");
  CHECK(impactfit_published_audit(ws, iws, no, impactfit_transition_A, &p, &r, &err) == 0, "audit norouzi");
  mx = 0;
  for (size_t i = 0; i < p.points; i++) {
    double e = p.e_min + (p.e_max - p.e_min) * (double)i / (double)(p.points - 1), L = log(e);
    double xi = 2.2664 * fabs(L) / sqrt(10.1354 + L * L) / sqrt(5.0);
    double eo = exp(-M_PI * xi / sqrt(1 - xi * xi));
    mx = fmax(mx, fabs(eo - e));
  }
  CHECK_ABS(r.max, mx, 1e-13, "norouzi under A: recomputed from the half period");
  /* the visco series: the maximum is where the series is evaluated at the exact damping */
  const impactfit_published *kk = impactfit_published_from_name("kuwabara-kono");
  CHECK(impactfit_published_audit(ws, iws, kk, impactfit_transition_C, &p, &r, &err) == 0, "audit kuwabara-kono");
  CHECK_ABS(fabs(impactfit_visco_e_series(1, r.var_at_max) - r.e_at_max), r.max, 1e-15, "kuwabara-kono: the max");
  impactfit_impact_params ip = impactfit_impact_scaled_params(1.5, 0.5, impactfit_visco_zeta_from_x(r.var_at_max));
  impactfit_impact_result res;
  CHECK(impactfit_impact_solve(ws, &ip, &res, NULL) == 0, "visco at the max");
  CHECK_ABS(res.e_out, r.e_at_max, 1e-9, "the audited x gives the exact e");
  CHECK(r.e_valid > 0.7 && r.e_valid < 0.99, "the first order is good to 0.01 near e = 1 only (from %g)", r.e_valid);
  /* bad input */
  const impactfit_published *nf = impactfit_published_from_name("gharib-hurmuzlu");
  CHECK(impactfit_published_audit(ws, iws, nf, impactfit_transition_A, &p, &r, &err) == IMPACTFIT_EINVAL,
        "no method: not audited");
  CHECK(impactfit_published_audit(ws, iws, hg, impactfit_transition_B, &p, &r, &err) == IMPACTFIT_EINVAL, "B");
  impactfit_published_audit_params b = p;
  b.e_max = 1.0;
  CHECK(impactfit_published_audit(ws, iws, hg, impactfit_transition_A, &b, &r, &err) == IMPACTFIT_EINVAL, "e_max 1");
  b = p;
  b.points = 0;
  CHECK(impactfit_published_audit(ws, iws, hg, impactfit_transition_A, &b, &r, &err) == IMPACTFIT_EINVAL, "0 points");
  CHECK(impactfit_published_audit(NULL, iws, hg, impactfit_transition_A, &p, &r, &err) == IMPACTFIT_EINVAL, "no ws");
  /* the inverse workspace may be NULL */
  CHECK(impactfit_published_audit(ws, NULL, kk, impactfit_transition_A, &p, &r, &err) == 0, "own inverse workspace");
  impactfit_inverse_free(iws);
}

int main(void) {
  gsl_set_error_handler_off();
  ws = impactfit_impact_alloc();
  if (!ws)
    return 2;
  test_lambert();
  test_visco();
  test_cjb();
  test_approach_damper();
  test_table();
  test_audit();
  impactfit_impact_free(ws);
  return tu_report("test_published");
}
