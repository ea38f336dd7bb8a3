/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The scale-invariant family m = (n − 1)/2 (inverse.h) and the DEM damping formulas (dem.h).
 *
 * Exact reference (derivation in inverse.h): with y = x^((n+1)/2) and ds = x^((n−1)/2) dτ the scaled
 * impact x'' + ζ x^((n−1)/2) x' + ((n+1)/2) x^n = 0 becomes y_ss + ζ y_s + ((n+1)/2)² y = 0 with
 * y_s = ((n+1)/2) x', a Kelvin–Voigt oscillator of damping ratio ξ = ζ/(n+1), whose restitution is
 * exp(−πξ/√(1−ξ²)) when contact ends at zero displacement (A, and B: tests/test_impact.c shows A = B
 * for the linear element) and exp(−2ξ acos ξ/√(1−ξ²)) / exp(−2ξ acosh ξ/√(ξ²−1)) at zero force
 * (C, D). The formulas are evaluated here independently of the library's implementation. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impactfit/generated/dem_damping.h"
#include "impactfit/impactfit.h"
#include "testutil.h"

static double kv_A(double xi) { return exp(-M_PI * xi / sqrt(1 - xi * xi)); }
static double kv_C(double xi) {
  if (xi < 1)
    return exp(-2 * xi * acos(xi) / sqrt(1 - xi * xi));
  if (xi == 1)
    return exp(-2.0);
  return exp(-2 * xi * acosh(xi) / sqrt(xi * xi - 1));
}

static impactfit_impact_workspace *ws;

static void test_engine_against_kv(void) {
  double ns[] = {1.0, 1.2, 1.5, 2.0, 3.0};
  const impactfit_transition *trs[] = {impactfit_transition_A, impactfit_transition_B, impactfit_transition_C,
                                       impactfit_transition_D};
  double e0;
  CHECK(impactfit_scale_invariant_e(0.5, 1.0, trs[0], &e0, NULL) == IMPACTFIT_EINVAL, "n < 1 (m < 0): EINVAL");
  for (size_t i = 0; i < 5; i++)
    for (int t = 0; t < 4; t++)
      for (int k = 0; k < 24; k++) {
        double n = ns[i], xi = 0.01 * pow(1.3, k), zeta = (n + 1) * xi; /* ξ from 0.01 to 4.2 */
        impactfit_impact_params p = impactfit_impact_scaled_params(n, 0.5 * (n - 1), zeta);
        p.transition = trs[t];
        p.locate_extrema = 0;
        impactfit_impact_result r;
        impactfit_error err;
        int st = impactfit_impact_solve(ws, &p, &r, &err);
        if (t < 2 && xi >= 1.0) {
          CHECK(st == IMPACTFIT_ENOSEP, "n=%g %s xi=%g: no separation for xi >= 1", n, trs[t]->name, xi);
          continue;
        }
        double want = t < 2 ? kv_A(xi) : kv_C(xi);
        CHECK(st == 0, "n=%g %s xi=%g solved (%s)", n, trs[t]->name, xi, err.message);
        if (!st)
          CHECK_REL(r.e_out, want, 3e-11, "engine vs Kelvin-Voigt map: n=%g %s xi=%g", n, trs[t]->name, xi);
        double e;
        if (!impactfit_scale_invariant_e(n, zeta, trs[t], &e, NULL))
          CHECK_REL(e, want, 1e-14, "impactfit_scale_invariant_e: n=%g %s xi=%g", n, trs[t]->name, xi);
      }
}

static void test_inverse_against_kv(void) {
  impactfit_inverse_workspace *iv = impactfit_inverse_alloc();
  double ns[] = {1.5, 2.0};
  const impactfit_transition *trs[] = {impactfit_transition_A, impactfit_transition_C};
  for (int i = 0; i < 2; i++)
    for (int t = 0; t < 2; t++)
      for (int k = 1; k <= 19; k++) {
        double e = 0.05 * k, n = ns[i], z, zc;
        impactfit_inverse_params p = impactfit_inverse_default_params();
        p.n = n;
        p.m = 0.5 * (n - 1);
        p.transition = trs[t];
        impactfit_inverse_result r;
        int st = impactfit_inverse_solve(iv, &p, e, 0.0, &r, NULL);
        CHECK(st == 0, "inverse n=%g %s e=%g", n, trs[t]->name, e);
        impactfit_scale_invariant_zeta(n, e, trs[t], &zc, NULL);
        /* the closed form's own inverse, checked against the forward formula */
        z = zc / (n + 1);
        CHECK_REL(t == 0 ? kv_A(z) : kv_C(z), e, 1e-13, "closed-form inverse n=%g %s e=%g", n, trs[t]->name, e);
        if (!st)
          CHECK_REL(r.zeta, zc, 2e-9, "general inverse solver = closed form, n=%g m=%g %s e=%g", n, p.m, trs[t]->name,
                    e);
      }
  impactfit_inverse_free(iv);
}

/* The DEM formulas: hertz-beta and linear-log are the exact inverse under A (ξ = −β); under C their
 * error is e − kv_C(ξ(e)), known in closed form. tsuji and flores are compared with themselves only
 * through the audit's consistency (max over the grid equals the max of the per-point errors). */
static void test_dem_formulas(void) {
  const impactfit_dem_formula *hb = impactfit_dem_formula_from_name("hertz-beta");
  const impactfit_dem_formula *li = impactfit_dem_formula_from_name("linear-log");
  CHECK(hb && li && impactfit_dem_formula_from_name("tsuji") && impactfit_dem_formula_from_name("flores") &&
            !impactfit_dem_formula_from_name("nosuch") && impactfit_dem_formula_count() == 4,
        "formula lookup");
  for (int k = 1; k <= 9; k++) {
    double e = 0.1 * k, L = log(e), beta = L / sqrt(L * L + M_PI * M_PI);
    CHECK_REL(hb->prefactor(e), -sqrt(5.0) * beta, 1e-15, "hertz-beta a(%g)", e);
    CHECK_REL(li->prefactor(e), -2 * beta, 1e-15, "linear-log a(%g)", e);
  }
  const impactfit_dem_formula *fs[2] = {hb, li};
  for (int f = 0; f < 2; f++) {
    impactfit_dem_audit_row ra, rc;
    int s1 = impactfit_dem_audit(ws, fs[f], impactfit_transition_A, 0.01, 0.99, 99, &ra, NULL);
    int s2 = impactfit_dem_audit(ws, fs[f], impactfit_transition_C, 0.01, 0.99, 99, &rc, NULL);
    CHECK(s1 == 0 && s2 == 0, "%s audited", fs[f]->name);
    CHECK_ABS(ra.e_max, 0.0, 1e-12, "%s is exact when the contact ends at delta = 0", fs[f]->name);
    double pmax = 0.0, pat = 0.0;
    for (int i = 0; i < 99; i++) {
      double e = 0.01 + 0.98 * i / 98.0, L = log(e), xi = -L / sqrt(L * L + M_PI * M_PI);
      double d = fabs(kv_C(xi) - e);
      if (d > pmax) {
        pmax = d;
        pat = e;
      }
    }
    CHECK_REL(rc.e_max, pmax, 1e-9, "%s with the force clamped: max |e_out - e| = closed form", fs[f]->name);
    CHECK_ABS(rc.e_at_max, pat, 1e-12, "%s with the force clamped: where", fs[f]->name);
  }
  double z;
  impactfit_error err;
  CHECK(impactfit_dem_zeta(hb, 0.0, &z, &err) == IMPACTFIT_EINVAL &&
            impactfit_dem_zeta(hb, 1.5, &z, &err) == IMPACTFIT_EINVAL,
        "dem zeta: e outside (0, 1]");
  impactfit_dem_audit_row row;
  CHECK(impactfit_dem_audit(ws, hb, impactfit_transition_A, 0.5, 0.2, 10, &row, &err) == IMPACTFIT_EINVAL,
        "audit: reversed grid");
}

/* The exact prefactors against the Kelvin–Voigt closed forms: a = ξ √(2(n+1)) with kv_A(ξ) = e or
 * kv_C(ξ) = e; a[0] and a[2] equal the hertz-beta and linear-log formulas. */
static void test_exact_prefactors_inverse(void) {
  const impactfit_dem_formula *hb = impactfit_dem_formula_from_name("hertz-beta");
  const impactfit_dem_formula *li = impactfit_dem_formula_from_name("linear-log");
  impactfit_inverse_workspace *iv = impactfit_inverse_alloc();
  for (int k = 0; k < 12; k++) {
    double e = k == 0 ? 0.01 : (k == 11 ? 0.99 : 0.09 * k), a[4] = {0, 0, 0, 0};
    impactfit_error err;
    impactfit_error_clear(&err);
    int st = impactfit_dem_exact_prefactors(k % 2 ? iv : NULL, e, a, &err);
    CHECK(st == 0, "exact prefactors at e = %g: %s", e, err.message);
    for (int c = 0; c < 4 && !st; c++) {
      double n = c < 2 ? 1.5 : 1.0, xi = a[c] / sqrt(2.0 * (n + 1.0));
      CHECK_REL((c % 2) ? kv_C(xi) : kv_A(xi), e, 1e-9, "prefactor %d reproduces e = %g (Kelvin-Voigt)", c, e);
    }
    if (!st) {
      CHECK_REL(a[0], hb->prefactor(e), 2e-9, "exact Hertz prefactor under A = hertz-beta, e = %g", e);
      CHECK_REL(a[2], li->prefactor(e), 2e-9, "exact linear prefactor under A = linear-log, e = %g", e);
      CHECK(a[1] > a[0] && a[3] > a[2], "clamped (C) needs more damping than tensile (A), e = %g", e);
    }
  }
  double a[4];
  CHECK(impactfit_dem_exact_prefactors(iv, 0.0, a, NULL) == IMPACTFIT_EINVAL &&
            impactfit_dem_exact_prefactors(iv, 1.5, a, NULL) == IMPACTFIT_EINVAL,
        "exact prefactors: e outside (0, 1]");
  impactfit_inverse_free(iv);
}

/* The committed generated header: its prefactors reproduce e in a simulation (issue: <= 1e-8). */
static void test_generated_header(void) {
  unsigned long long s = 2024;
  double worst = 0.0;
  for (int q = 0; q < 100; q++) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    double e = 0.001 + 0.998 * (double)(s >> 11) / 9007199254740992.0;
    double a[4] = {impactfit_dem_hertz_prefactor_tensile(e), impactfit_dem_hertz_prefactor_clamped(e),
                   impactfit_dem_linear_prefactor_tensile(e), impactfit_dem_linear_prefactor_clamped(e)};
    for (int c = 0; c < 4; c++) {
      double n = c < 2 ? 1.5 : 1.0;
      /* dimensional: c = a √(mass k) for some k, mass, v */
      impactfit_impact_params p = impactfit_impact_default_params();
      p.n = n;
      p.m = 0.5 * (n - 1);
      p.k = 3e7;
      p.mass = 0.02;
      p.v = 1.3;
      p.c = a[c] * sqrt(p.mass * p.k);
      p.transition = (c % 2) ? impactfit_transition_C : impactfit_transition_A;
      impactfit_impact_result r;
      double d = impactfit_impact_solve(ws, &p, &r, NULL) ? 1.0 : fabs(r.e_out - e);
      if (d > worst)
        worst = d;
    }
  }
  CHECK_ABS(worst, 0.0, 1e-10, "dem_damping.h prefactors reproduce e (100 random e, 4 cases)");
  CHECK(isnan(impactfit_dem_hertz_prefactor_clamped(0.0)) && isnan(impactfit_dem_linear_prefactor_tensile(1.5)) &&
            isnan(impactfit_dem_xi_clamped(-0.5)),
        "dem_damping.h: NaN outside (0, 1]");
}

/* kv_C in long double: the closed form's 0/0 at ξ = 1 costs digits in double near ξ = 1 */
static double kv_C_long(double x) {
  long double xi = x;
  if (xi < 1)
    return (double)expl(-2 * xi * acosl(xi) / sqrtl((1 - xi) * (1 + xi)));
  if (xi == 1)
    return exp(-2.0);
  return (double)expl(-2 * xi * acoshl(xi) / sqrtl((xi - 1) * (xi + 1)));
}

/* impactfit_dem_damping_ratio and impactfit_dem_exact_prefactor against the closed forms: the
 * tensile ξ in closed form, the clamped ξ put back into e(ξ) (kv_C_long, acosl/acoshl), ξ = 1 at
 * e = e^−2; the committed header's functions against them; its text against the generator. */
static void test_exact_prefactors(void) {
  impactfit_error err;
  double worst_t = 0.0, worst_c = 0.0, worst_h = 0.0;
  for (int i = 1; i <= 2000; i++) {
    double e = i / 2000.0 - (i == 2000 ? 0.0 : 0.25 / 2000.0);
    for (int c = 0; c < 2; c++) {
      double n = c ? 1.0 : 1.5, at, ac, xt, xc;
      if (impactfit_dem_exact_prefactor(n, e, 0, &at, &err) || impactfit_dem_exact_prefactor(n, e, 1, &ac, &err) ||
          impactfit_dem_damping_ratio(e, 0, &xt, &err) || impactfit_dem_damping_ratio(e, 1, &xc, &err)) {
        CHECK(0, "exact prefactor at e = %g: %s", e, err.message);
        return;
      }
      double L = log(e), k = sqrt(2.0 * (n + 1.0));
      worst_t = fmax(worst_t, fabs(at - k * (-L / sqrt(M_PI * M_PI + L * L))) / fmax(at, 1e-300));
      worst_c = fmax(worst_c, fabs(kv_C_long(ac / k) - e) / e);
      CHECK(at == k * xt && ac == k * xc, "a = sqrt(2(n+1)) xi exactly (e = %g)", e);
      double h[2] = {c ? impactfit_dem_linear_prefactor_tensile(e) : impactfit_dem_hertz_prefactor_tensile(e),
                     c ? impactfit_dem_linear_prefactor_clamped(e) : impactfit_dem_hertz_prefactor_clamped(e)};
      worst_h = fmax(worst_h, fmax(fabs(h[0] - at) / fmax(at, 1e-300), fabs(h[1] - ac) / fmax(ac, 1e-300)));
    }
  }
  CHECK_ABS(worst_t, 0.0, 4e-16, "tensile prefactor = sqrt(2(n+1)) (-ln e)/sqrt(pi^2 + ln^2 e) (2000 e, n = 1, 1.5)");
  CHECK_ABS(worst_c, 0.0, 1e-14, "clamped prefactor: e(xi) of the Kelvin-Voigt oscillator gives e back");
  CHECK_ABS(worst_h, 0.0, 0.0, "dem_damping.h's functions = the library's, bit for bit");
  double xi;
  CHECK(impactfit_dem_damping_ratio(exp(-2.0), 1, &xi, &err) == 0 && fabs(xi - 1.0) <= 1e-14,
        "clamped: xi = 1 at e = e^-2 (got %.17g)", xi);
  CHECK(impactfit_dem_damping_ratio(1.0, 1, &xi, &err) == 0 && xi >= 0.0 && xi < 1e-50,
        "xi = 0 at e = 1 (to the bisection's 200 halvings; got %g)", xi);
  double a;
  CHECK(impactfit_dem_exact_prefactor(1.5, 0.0, 1, &a, &err) == IMPACTFIT_EINVAL &&
            impactfit_dem_exact_prefactor(1.5, 1.5, 0, &a, &err) == IMPACTFIT_EINVAL &&
            impactfit_dem_exact_prefactor(1.5, NAN, 0, &a, &err) == IMPACTFIT_EINVAL &&
            impactfit_dem_exact_prefactor(0.5, 0.5, 0, &a, &err) == IMPACTFIT_EINVAL &&
            impactfit_dem_exact_prefactor(1.5, 0.5, 0, NULL, &err) == IMPACTFIT_EINVAL,
        "exact prefactor: e outside (0, 1], n < 1, no result");
  /* the committed header is what the generator writes */
  char *text = NULL, *file = NULL;
  size_t len = 0, flen = 0;
  CHECK(impactfit_dem_damping_header(&text, &len, &err) == 0, "dem_damping.h generated");
  FILE *f = fopen(IMPACTFIT_SOURCE_DIR "/include/impactfit/generated/dem_damping.h", "rb");
  if (f) {
    file = malloc(1 << 16);
    flen = file ? fread(file, 1, 1 << 16, f) : 0;
    fclose(f);
  }
  CHECK(text && file && flen == len && memcmp(text, file, len) == 0,
        "include/impactfit/generated/dem_damping.h is what impactfit_dem_damping_header writes (%zu, %zu bytes)", len,
        flen);
  free(text);
  free(file);
}

int main(void) {
  ws = impactfit_impact_alloc();
  if (!ws)
    return 2;
  test_engine_against_kv();
  test_inverse_against_kv();
  test_dem_formulas();
  test_generated_header();
  test_exact_prefactors();
  test_exact_prefactors_inverse();
  impactfit_impact_free(ws);
  return tu_report("test_dem");
}
