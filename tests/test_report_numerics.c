/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The numerics the report topics share with the library, against derived results:
 * impactfit_fit_result_sd (a straight line's prediction variance σ²(1/N + (x − x̄)²/Sxx)),
 * impactfit_fit_result_distance (explicit inverses of the covariance), impactfit_fit_trapezoid_weights
 * (the trapezoid rule is exact for linear and bilinear integrands), impactfit_kv_e (the closed forms
 * and simulated impacts of the engine) and the published c_opt closed forms (Eqs. 46–47 at n = 1
 * are Eq. 57; Eq. 49 against its special forms). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "impactfit/impactfit.h"
#include "testutil.h"

/* ---- standard deviation of a fitted value ---- */
static void test_sd_line(void) {
  enum { N = 12 };
  double x[N], y[N];
  for (int i = 0; i < N; i++) {
    x[i] = 0.5 * i;
    y[i] = 2.0 + 0.5 * x[i] + 0.1 * sin(3.0 * i); /* a line with a deterministic scatter */
  }
  impactfit_fit_spec sp = impactfit_fit_default_spec();
  sp.form = impactfit_fit_polynomial;
  sp.degree = 1;
  impactfit_fit_model *m = NULL;
  impactfit_fit_result r;
  CHECK(!impactfit_fit_model_create(&sp, &m, NULL), "line model");
  CHECK(!impactfit_fit_run(m, N, x, NULL, y, &r, NULL), "line fit");
  impactfit_fit_model_free(m);
  /* the textbook prediction variance of ordinary least squares */
  double xm = 0.0, sxx = 0.0, ss = 0.0;
  for (int i = 0; i < N; i++)
    xm += x[i] / N;
  for (int i = 0; i < N; i++) {
    double ri = r.value[0] + r.value[1] * x[i] - y[i];
    sxx += (x[i] - xm) * (x[i] - xm);
    ss += ri * ri;
  }
  double s2 = ss / (N - 2);
  const double xs[] = {-3.0, 0.0, xm, 2.5, 10.0};
  for (size_t k = 0; k < sizeof xs / sizeof xs[0]; k++) {
    double g[2] = {1.0, xs[k]};
    double want = sqrt(s2 * (1.0 / N + (xs[k] - xm) * (xs[k] - xm) / sxx));
    CHECK_REL(impactfit_fit_result_sd(&r, g), want, 1e-10, "sd of a + b x at x = %g", xs[k]);
  }
  /* the constant alone: its standard error; the slope alone: s/√Sxx */
  double g1[2] = {0.0, 1.0};
  CHECK_REL(impactfit_fit_result_sd(&r, g1), sqrt(s2 / sxx), 1e-10, "sd of the slope");
  double gz[2] = {0.0, 0.0};
  CHECK(impactfit_fit_result_sd(&r, gz) == 0.0, "zero gradient");
  double gn[2] = {NAN, 1.0};
  CHECK(isnan(impactfit_fit_result_sd(&r, gn)), "NaN gradient gives NaN");
}

/* ---- Mahalanobis distance ---- */
static impactfit_fit_result cov3(void) {
  impactfit_fit_result r;
  memset(&r, 0, sizeof r);
  r.n_params = 4;
  const double v[4] = {1.0, -2.0, 0.5, 7.0}, se[4] = {0.1, 0.4, 2.0, 1.0};
  const double c[4][4] = {{1, 0.3, -0.5, 0}, {0.3, 1, 0.2, 0}, {-0.5, 0.2, 1, 0}, {0, 0, 0, 1}};
  for (int i = 0; i < 4; i++) {
    r.value[i] = v[i];
    r.se[i] = se[i];
    for (int j = 0; j < 4; j++)
      r.corr[i][j] = c[i][j];
  }
  return r;
}

static void test_distance(void) {
  impactfit_fit_result r = cov3();
  const double p[4] = {1.13, -2.5, 1.9, 6.0};
  double d[4];
  for (int i = 0; i < 4; i++)
    d[i] = p[i] - r.value[i];
  CHECK_REL(impactfit_fit_result_distance(&r, p, 1), fabs(d[0]) / r.se[0], 1e-15, "k = 1");
  /* k = 2: C⁻¹ of a 2 × 2 covariance by its adjugate */
  double c00 = r.se[0] * r.se[0], c11 = r.se[1] * r.se[1], c01 = r.corr[0][1] * r.se[0] * r.se[1];
  double det = c00 * c11 - c01 * c01;
  double q2 = (c11 * d[0] * d[0] - 2.0 * c01 * d[0] * d[1] + c00 * d[1] * d[1]) / det;
  CHECK_REL(impactfit_fit_result_distance(&r, p, 2), sqrt(q2), 1e-13, "k = 2 against the adjugate inverse");
  /* k = 3: C⁻¹ by the adjugate (cofactors) */
  double C[3][3], A[3][3];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      C[i][j] = r.corr[i][j] * r.se[i] * r.se[j];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      A[j][i] = C[i1][j1] * C[i2][j2] - C[i1][j2] * C[i2][j1]; /* cofactor, transposed */
    }
  double det3 = C[0][0] * A[0][0] + C[0][1] * A[1][0] + C[0][2] * A[2][0];
  double q3 = 0.0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      q3 += d[i] * A[i][j] / det3 * d[j];
  CHECK_REL(impactfit_fit_result_distance(&r, p, 3), sqrt(q3), 1e-12, "k = 3 against the adjugate inverse");
  /* an uncorrelated fourth constant adds its own (Δ/se)² */
  CHECK_REL(impactfit_fit_result_distance(&r, p, 4), sqrt(q3 + d[3] * d[3]), 1e-12, "k = 4, block diagonal");
  /* the fitted constants themselves are at distance 0 */
  CHECK_ABS(impactfit_fit_result_distance(&r, r.value, 3), 0.0, 1e-15, "distance of the constants");
  /* undefined cases */
  CHECK(isnan(impactfit_fit_result_distance(&r, p, 0)), "k = 0");
  CHECK(isnan(impactfit_fit_result_distance(&r, p, 5)), "k > n_params");
  impactfit_fit_result b = r;
  b.corr[0][1] = b.corr[1][0] = 1.0;
  CHECK(isnan(impactfit_fit_result_distance(&b, p, 2)), "perfectly correlated pair");
  b = r;
  b.corr[0][1] = b.corr[1][0] = 0.9;
  b.corr[0][2] = b.corr[2][0] = 0.9;
  b.corr[1][2] = b.corr[2][1] = -0.9; /* not positive definite */
  CHECK(isnan(impactfit_fit_result_distance(&b, p, 3)), "indefinite correlation matrix");
  b = r;
  b.se[1] = 0.0;
  CHECK(isnan(impactfit_fit_result_distance(&b, p, 2)), "zero standard error");
}

/* ---- trapezoid weights ---- */
static void test_trapezoid(void) {
  /* a non-uniform 1-D grid in shuffled order: Σ w f = ∫ f for f linear */
  const double x[] = {0.5, 0.0, 1.3, 0.1, 0.6};
  double w[5];
  CHECK(!impactfit_fit_trapezoid_weights(x, NULL, 5, w, NULL), "1-D weights");
  const double want[] = {0.25, 0.05, 0.35, 0.25, 0.4}; /* ½(next − previous), ½ h at the ends */
  double s = 0.0, s1 = 0.0;
  for (int i = 0; i < 5; i++) {
    CHECK_REL(w[i], want[i], 1e-14, "weight of x = %g", x[i]);
    s += w[i];
    s1 += w[i] * (3.0 * x[i] + 1.0);
  }
  CHECK_REL(s, 1.3, 1e-14, "weights sum to the range");
  CHECK_REL(s1, 1.5 * 1.3 * 1.3 + 1.3, 1e-14, "integral of 3x + 1 over [0, 1.3]");
  /* a 3 × 4 product grid, each point twice (repeated values are one grid line), in an order that
   * is neither axis first: Σ w f = ∫∫ f for f = x y (bilinear) times 2 */
  const double gx[3] = {1.0, 1.5, 3.0}, gy[4] = {-1.0, 0.0, 0.5, 2.0};
  double px[24], py[24], pw[24];
  for (int k = 0; k < 24; k++) {
    int i = (k * 7) % 12; /* a permutation of 0..11, each twice */
    px[k] = gx[i % 3];
    py[k] = gy[i / 3];
  }
  CHECK(!impactfit_fit_trapezoid_weights(px, py, 24, pw, NULL), "2-D weights");
  double sxy = 0.0, sw = 0.0;
  for (int k = 0; k < 24; k++) {
    sxy += pw[k] * px[k] * py[k];
    sw += pw[k];
  }
  CHECK_REL(sw, 2.0 * 2.0 * 3.0, 1e-14, "2-D weights sum to twice the area");
  CHECK_REL(sxy, 2.0 * (9.0 - 1.0) / 2.0 * (4.0 - 1.0) / 2.0, 1e-14, "integral of x y, twice");
  /* one distinct value: factor 1 */
  const double one[3] = {2.0, 2.0, 2.0};
  CHECK(!impactfit_fit_trapezoid_weights(one, NULL, 3, w, NULL) && w[0] == 1.0 && w[2] == 1.0, "one value");
  impactfit_error err;
  const double bad[2] = {0.0, NAN};
  CHECK(impactfit_fit_trapezoid_weights(bad, NULL, 2, w, &err) == IMPACTFIT_EINVAL, "NaN refused");
  CHECK(impactfit_fit_trapezoid_weights(NULL, NULL, 2, w, &err) == IMPACTFIT_EINVAL, "NULL refused");
  CHECK(impactfit_fit_trapezoid_weights(NULL, NULL, 0, NULL, &err) == 0, "n = 0");
}

/* ---- Kelvin–Voigt restitution ---- */
static double simulate(double xi, const impactfit_transition *tr, impactfit_impact_workspace *ws) {
  impactfit_impact_params p = impactfit_impact_default_params();
  p.n = 1.0;
  p.m = 0.0;
  p.c = 2.0 * xi; /* k = mass = 1 */
  p.transition = tr;
  impactfit_impact_result res;
  return impactfit_impact_solve(ws, &p, &res, NULL) ? NAN : res.e_out;
}

static void test_kv(void) {
  const impactfit_transition *C = impactfit_transition_C, *A = impactfit_transition_A;
  double e = NAN;
  CHECK(!impactfit_kv_e(1.0, C, &e, NULL), "xi = 1");
  CHECK_REL(e, exp(-2.0), 1e-15, "C at xi = 1: e^-2");
  CHECK(!impactfit_kv_e(0.0, C, &e, NULL) && e == 1.0, "xi = 0: e = 1");
  const double xs[] = {0.01, 0.3, 0.9, 1.5, 3.0, 40.0};
  for (size_t k = 0; k < sizeof xs / sizeof xs[0]; k++) {
    double xi = xs[k];
    double want = xi < 1.0 ? exp(-2.0 * xi * acos(xi) / sqrt(1.0 - xi * xi))
                           : exp(-2.0 * xi * acosh(xi) / sqrt(xi * xi - 1.0));
    CHECK(!impactfit_kv_e(xi, C, &e, NULL), "C at %g", xi);
    CHECK_REL(e, want, 1e-13, "C at xi = %g: the closed form", xi);
    if (xi < 1.0) {
      CHECK(!impactfit_kv_e(xi, A, &e, NULL), "A at %g", xi);
      CHECK_REL(e, exp(-M_PI * xi / sqrt(1.0 - xi * xi)), 1e-14, "A at xi = %g: half a damped period", xi);
    }
  }
  /* continuous and decreasing through ξ = 1 (no 0/0 there) */
  double lo, hi;
  impactfit_kv_e(1.0 - 1e-9, C, &lo, NULL);
  impactfit_kv_e(1.0 + 1e-9, C, &hi, NULL);
  CHECK(lo > exp(-2.0) && hi < exp(-2.0) && hi - lo > -1e-8, "monotone and continuous through xi = 1");
  CHECK(!impactfit_kv_e(1e200, C, &e, NULL) && e >= 0.0 && isfinite(e), "huge xi");
  /* against simulated impacts of the engine (an independent integration) */
  impactfit_impact_workspace *ws = impactfit_impact_alloc();
  CHECK(ws != NULL, "workspace");
  const double sx[] = {0.05, 0.4, 1.0, 2.5};
  for (size_t k = 0; ws && k < sizeof sx / sizeof sx[0]; k++) {
    impactfit_kv_e(sx[k], C, &e, NULL);
    CHECK_REL(simulate(sx[k], C, ws), e, 1e-9, "C at xi = %g: simulated", sx[k]);
    if (sx[k] < 1.0) {
      impactfit_kv_e(sx[k], A, &e, NULL);
      CHECK_REL(simulate(sx[k], A, ws), e, 1e-9, "A at xi = %g: simulated", sx[k]);
    }
  }
  impactfit_impact_free(ws);
  impactfit_error err;
  CHECK(impactfit_kv_e(1.0, A, &e, &err) == IMPACTFIT_ENOSEP, "A: no separation at xi = 1");
  CHECK(impactfit_kv_e(-0.1, C, &e, &err) == IMPACTFIT_EINVAL, "negative xi");
  CHECK(impactfit_kv_e(NAN, C, &e, &err) == IMPACTFIT_EINVAL, "NaN xi");
  CHECK(impactfit_kv_e(0.5, NULL, &e, &err) == IMPACTFIT_EINVAL, "no transition");
  /* the scale-invariant family at n = 1 is the same function of ζ = 2ξ */
  double e2;
  impactfit_kv_e(0.7, C, &e, NULL);
  impactfit_scale_invariant_e(1.0, 1.4, C, &e2, NULL);
  CHECK(e == e2, "scale-invariant family at n = 1");
}

/* ---- published c_opt closed forms ---- */
static void test_copt_formula(void) {
  const impactfit_copt_formula *f = impactfit_copt_formula_poursina2020;
  CHECK(f && strcmp(f->name, "poursina2020") == 0, "the object");
  /* Eqs. 46–47 at n = 1 are Eq. 57's constants: 0.3331 − 1.48 + 3.077 − 2.306 + 1.794 = 1.4181 and
   * 1.285 − 1.725 = −0.44 */
  CHECK_REL(impactfit_copt_formula_alpha(f, 1.0), 1.4181, 1e-14, "alpha(1)");
  CHECK_REL(impactfit_copt_formula_beta(f, 1.0), -0.44, 1e-14, "beta(1)");
  CHECK_REL(f->eq57.alpha, impactfit_copt_formula_alpha(f, f->eq57.n), 1e-14, "Eq. 57 = Eqs. 46-47 at n = 1 (alpha)");
  CHECK_REL(f->eq57.beta, impactfit_copt_formula_beta(f, f->eq57.n), 1e-14, "Eq. 57 = Eqs. 46-47 at n = 1 (beta)");
  /* at n = 3/2 they round to Eq. 52's: α = 1.94957, β = −0.29995 by hand */
  CHECK_ABS(impactfit_copt_formula_alpha(f, 1.5), 0.3331 * 5.0625 - 1.48 * 3.375 + 3.077 * 2.25 - 2.306 * 1.5 + 1.794,
            1e-13, "alpha(1.5) expanded");
  CHECK_ABS(impactfit_copt_formula_alpha(f, 1.5), f->eq52.alpha, 5e-4, "alpha(1.5) ~ Eq. 52");
  CHECK_ABS(impactfit_copt_formula_beta(f, 1.5), f->eq52.beta, 1e-3, "beta(1.5) ~ Eq. 52");
  /* Eq. 49 in its special forms: n = 1, c = α(e^β − 1)√(k mass); n = 3/2, k^0.4 v^0.2 mass^0.6 */
  double k = 4.0, mass = 9.0, v = 7.0, e = 0.6;
  CHECK_REL(impactfit_copt_closed_c(1.4181, -0.44, 1.0, e, k, mass, v), 1.4181 * (pow(e, -0.44) - 1.0) * 6.0, 1e-14,
            "Eq. 57 form");
  CHECK_REL(impactfit_copt_closed_c(1.95, -0.3, 1.5, e, k, mass, v),
            1.95 * (pow(e, -0.3) - 1.0) * pow(k, 0.4) * pow(v, 0.2) * pow(mass, 0.6), 1e-14, "Eq. 52 form");
  CHECK(impactfit_copt_closed_c(1.4181, -0.44, 1.0, 1.0, k, mass, v) == 0.0, "e = 1: no damping");
  /* Eq. 57 gives e to a few 1e-3 at e = 0.7 (the report's audit: at most 3.4e-3 on [1e-4, 1]) */
  double c = impactfit_copt_closed_c(f->eq57.alpha, f->eq57.beta, 1.0, 0.7, 1.0, 1.0, 1.0), eo;
  CHECK(!impactfit_kv_e(c / 2.0, impactfit_transition_C, &eo, NULL), "Eq. 57 e");
  CHECK_ABS(eo, 0.7, 3.4e-3, "Eq. 57 reproduces e = 0.7");
}

int main(void) {
  test_sd_line();
  test_distance();
  test_trapezoid();
  test_kv();
  test_copt_formula();
  return tu_report("test_report_numerics");
}
