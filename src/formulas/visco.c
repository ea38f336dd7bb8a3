/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Published closed forms of the restitution itself (include/impactfit/formulas.h): the Lambert-W
 * form of the exact Hunt–Crossley e(ε) (Carvalho & Martins 2019), the viscoelastic-sphere series of
 * the Pöschel group, and Chatterjee, James & Brogliato's forms with an external load. */
#include <math.h>
#include <string.h>

#include <gsl/gsl_integration.h>
#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_sf_lambert.h>

#include "../common/common_impl.h"
#include "impactfit/formulas.h"

/* ---- Carvalho & Martins: e(ε) with the Lambert W function ---- */

int impactfit_hc_e_lambert(double eps, double *e, impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  if (!e)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no output given");
  if (!(isfinite(eps) && eps >= 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "damping ratio eps must be finite and >= 0 (got %.17g)", eps);
  if (eps == 0.0) {
    *e = 1.0;
    return IMPACTFIT_OK;
  }
  double z = -(1.0 + eps) * exp(-(1.0 + eps));
  if (z < -exp(-1.0)) /* rounding can push the argument past the branch point for tiny eps */
    z = -exp(-1.0);
  gsl_sf_result w;
  int st = gsl_sf_lambert_W0_e(z, &w);
  if (st)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOCONV, "Lambert W0(%.17g): %s", z, gsl_strerror(st));
  *e = (1.0 + w.val) / eps;
  return IMPACTFIT_OK;
}

/* ---- viscoelastic spheres ---- */

/* (5/4)^(3/5): ζ = c δ_m0^(3/2)/(mass v) with c = (3/2) A ρ and δ_m0 = (5 mass v²/(4ρ))^(2/5) gives
 * ζ = (3/2) A (5/4)^(3/5) (ρ/mass)^(2/5) v^(1/5) = (5/4)^(3/5) β v^(1/5). */
static double visco_scale(void) { return pow(1.25, 0.6); }

double impactfit_visco_zeta_from_x(double x) { return visco_scale() * x; }
double impactfit_visco_x_from_zeta(double zeta) { return zeta / visco_scale(); }

int impactfit_visco_x(double A, double k, double mass, double v, double *x, impactfit_error *err) {
  if (!x)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no output given");
  if (!(isfinite(A) && A >= 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "dissipative constant A must be finite and >= 0 (got %.17g)", A);
  if (!(isfinite(k) && k > 0.0 && isfinite(mass) && mass > 0.0 && isfinite(v) && v > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "k, mass and v must be finite and > 0 (got %.17g, %.17g, %.17g)", k,
                           mass, v);
  double r = 1.5 * A * pow(k / mass, 0.4) * pow(v, 0.2);
  if (!isfinite(r))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "the scaled damping is not representable");
  *x = r;
  return IMPACTFIT_OK;
}

double impactfit_visco_c1(void) {
  return gsl_sf_gamma(0.6) * sqrt(IMPACTFIT__PI) / (pow(2.0, 0.2) * pow(5.0, 0.4) * gsl_sf_gamma(2.1));
}

double impactfit_visco_c2(void) {
  double c1 = impactfit_visco_c1();
  return 0.6 * c1 * c1;
}

double impactfit_visco_e_series(int order, double x) {
  if (!(x >= 0.0) || (order != 1 && order != 2))
    return NAN;
  double r = 1.0 - impactfit_visco_c1() * x;
  if (order == 2)
    r += impactfit_visco_c2() * x * x;
  return r;
}

/* ---- Chatterjee, James & Brogliato ---- */

int impactfit_cjb_scaled(const impactfit_impact_params *p, double *gamma, double *gtil, impactfit_error *err) {
  if (!p || !gamma || !gtil)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no parameters or output given");
  double a = p->n, b = p->m + 1.0;
  if (!(isfinite(a) && a >= 1.0 && isfinite(p->m) && p->m >= 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "their model needs n >= 1 and m >= 0 (alpha = n, beta = m + 1; got n = %.17g, m = %.17g)", a,
                           p->m);
  if (!(p->k > 0.0 && p->mass > 0.0 && p->v > 0.0 && p->c >= 0.0 && p->accel >= 0.0 && isfinite(p->k) &&
        isfinite(p->mass) && isfinite(p->v) && isfinite(p->c) && isfinite(p->accel)))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "k, mass, v must be finite and > 0, c and accel finite and >= 0");
  double gamma0 = p->c / (b * p->k), km = p->k / p->mass;
  double g = gamma0 * pow(km, 1.0 - b / (a + 1.0)) * pow(p->v, 2.0 * b / (a + 1.0) - 1.0);
  double gt = pow(1.0 / km, 1.0 / (a + 1.0)) * pow(p->v, -2.0 * a / (a + 1.0)) * p->accel;
  if (!isfinite(g) || !isfinite(gt))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "the scaled parameters are not representable");
  *gamma = g;
  *gtil = gt;
  return IMPACTFIT_OK;
}

typedef struct cjb_ctx {
  double a, b, g, um;
  int sq; /* 1: the integrand of I (√h), 0: of Q (1/√h) */
} cjb_ctx;

/* D(u) = 1 + 2(g̃u − u^(α+1)/(α+1)) = (u_m − u) h(u): h from the quotient away from u_m, from the
 * first two Taylor terms of D about u_m close to it (where the quotient cancels). */
static double cjb_h(double u, const cjb_ctx *c) {
  double d = c->um - u;
  if (d > 1e-6 * c->um) {
    double D = 1.0 + 2.0 * (c->g * u - pow(u, c->a + 1.0) / (c->a + 1.0));
    return D / d;
  }
  double d1 = 2.0 * (c->g - pow(c->um, c->a)); /* D'(u_m) < 0 */
  double d2 = -2.0 * c->a * pow(c->um, c->a - 1.0);
  return -d1 + 0.5 * d2 * d;
}

static double cjb_integrand(double u, void *ctx) {
  const cjb_ctx *c = ctx;
  double h = cjb_h(u, c);
  double w = (c->b == 1.0) ? 1.0 : pow(u, c->b - 1.0);
  return c->sq ? w * sqrt(h) : w / sqrt(h);
}

/* u_m: the root of u^(α+1)/(α+1) − g̃ u − 1/2 = 0 beyond the static point g̃^(1/α), by bisection
 * to the last bit (the function increases there). */
static double cjb_um(double a, double g) {
  double lo = (g > 0.0) ? pow(g, 1.0 / a) : 0.0, hi = lo + 1.0;
  while (pow(hi, a + 1.0) / (a + 1.0) - g * hi - 0.5 < 0.0)
    hi *= 2.0;
  for (int i = 0; i < 200; i++) {
    double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi)
      break;
    if (pow(mid, a + 1.0) / (a + 1.0) - g * mid - 0.5 < 0.0)
      lo = mid;
    else
      hi = mid;
  }
  return 0.5 * (lo + hi);
}

int impactfit_cjb_coefficients(double alpha, double beta, double gtil, impactfit_cjb_coeffs *out,
                               impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  if (!out)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no output given");
  if (!(isfinite(alpha) && alpha >= 1.0 && isfinite(beta) && beta >= 1.0 && alpha <= 20.0 && beta <= 20.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "alpha and beta must be in [1, 20] (got %.17g, %.17g)", alpha, beta);
  if (!(isfinite(gtil) && gtil >= 0.0 && gtil <= 1e6))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "the load gtil must be in [0, 1e6] (got %.17g)", gtil);
  impactfit_cjb_coeffs c;
  memset(&c, 0, sizeof c);
  double K = 0.5 * (alpha + 1.0);
  c.C0 = beta * pow(K, (beta - alpha - 1.0) / (alpha + 1.0)) * gsl_sf_beta(beta / (alpha + 1.0), 1.5);
  c.C1 = beta * pow(K, (beta - alpha) / (alpha + 1.0)) * gsl_sf_beta((beta + 1.0) / (alpha + 1.0), 0.5);
  c.u_m = cjb_um(alpha, gtil);
  gsl_integration_workspace *w = gsl_integration_workspace_alloc(200);
  gsl_integration_qaws_table *tI = gsl_integration_qaws_table_alloc(0.0, 0.5, 0, 0);
  gsl_integration_qaws_table *tQ = gsl_integration_qaws_table_alloc(0.0, -0.5, 0, 0);
  int st = (w && tI && tQ) ? 0 : IMPACTFIT_ENOMEM;
  if (!st) {
    cjb_ctx ctx = {.a = alpha, .b = beta, .g = gtil, .um = c.u_m, .sq = 1};
    gsl_function F = {cjb_integrand, &ctx};
    double abserr, I2, Q;
    int g1 = gsl_integration_qaws(&F, 0.0, c.u_m, tI, 1e-14, 1e-12, 200, w, &I2, &abserr);
    ctx.sq = 0;
    int g2 = g1 ? g1 : gsl_integration_qaws(&F, 0.0, c.u_m, tQ, 1e-14, 1e-12, 200, w, &Q, &abserr);
    if (g1 || g2)
      st = IMPACTFIT__FAIL(err, IMPACTFIT_ENOCONV, "quadrature of I, Q: %s", gsl_strerror(g1 ? g1 : g2));
    else {
      c.I = 2.0 * I2;
      c.Q = Q;
      c.gamma_c = 2.0 / (beta * (c.Q - 0.5 * c.I));
    }
  } else
    IMPACTFIT__FAIL(err, st, "out of memory");
  gsl_integration_qaws_table_free(tI);
  gsl_integration_qaws_table_free(tQ);
  gsl_integration_workspace_free(w);
  if (!st)
    *out = c;
  return st;
}

int impactfit_cjb_e(int order, double alpha, double beta, double gamma, double gtil, double *e, impactfit_error *err) {
  if (!e)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no output given");
  if (order < 1 || order > 3)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "order must be 1, 2 or 3 (got %d)", order);
  if (order == 3 && !(alpha == 1.5 && beta == 1.5))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "the Schwager-Poschel constant is for alpha = beta = 3/2 only");
  if (!(isfinite(gamma) && gamma >= 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "gamma must be finite and >= 0 (got %.17g)", gamma);
  impactfit_cjb_coeffs c;
  int st = impactfit_cjb_coefficients(alpha, beta, gtil, &c, err);
  if (st)
    return st;
  double r;
  if (order == 1)
    r = fmax(0.0, 1.0 - gamma * c.C0 - gamma * gtil * c.C1);
  else if (order == 3) /* their constant as printed in ConstCORCoeffs.m (= (3/5) C₁² to 8 digits) */
    r = fmax(0.0, 1.0 - gamma * c.C0 - gamma * gtil * c.C1 + 2.25 * 0.7982665553 * gamma * gamma);
  else if (gamma > c.gamma_c)
    r = sqrt(fmax(0.0, 1.0 - 2.0 * beta * c.I * gamma + 2.0 * beta * beta * c.I * c.Q * gamma * gamma));
  else
    r = 1.0 - beta * c.I * gamma + beta * beta * c.I * (c.Q - 0.5 * c.I) * gamma * gamma;
  *e = r;
  return IMPACTFIT_OK;
}

/* ---- measured expansions ---- */

#include <gsl/gsl_multifit.h>

/* Least squares of y on the k basis values in X (rows), GSL multifit_linear; c: k coefficients. */
static int lsq(const double *X, const double *y, size_t n, size_t k, double *c, impactfit_error *err) {
  gsl_matrix *A = gsl_matrix_alloc(n, k), *cov = gsl_matrix_alloc(k, k);
  gsl_vector *b = gsl_vector_alloc(n), *x = gsl_vector_alloc(k);
  gsl_multifit_linear_workspace *w = gsl_multifit_linear_alloc(n, k);
  int st = (A && cov && b && x && w) ? 0 : IMPACTFIT_ENOMEM;
  if (!st) {
    for (size_t i = 0; i < n; i++) {
      gsl_vector_set(b, i, y[i]);
      for (size_t j = 0; j < k; j++)
        gsl_matrix_set(A, i, j, X[i * k + j]);
    }
    double chisq;
    if (gsl_multifit_linear(A, b, x, cov, &chisq, w))
      st = IMPACTFIT_ENOCONV;
    else
      for (size_t j = 0; j < k; j++)
        c[j] = gsl_vector_get(x, j);
  }
  gsl_multifit_linear_free(w);
  gsl_vector_free(x);
  gsl_vector_free(b);
  gsl_matrix_free(cov);
  gsl_matrix_free(A);
  return st ? IMPACTFIT__FAIL(err, st, "least squares of the expansion failed") : 0;
}

/* e of the scaled impact (n, m, ζ) with scaled load `accel` under tr at rtol 1e-14; under C with a
 * load, at the crossing of δ = 0. */
static int e_at(impactfit_impact_workspace *ws, double n, double m, double zeta, double accel,
                const impactfit_transition *tr, double *e, impactfit_error *err) {
  impactfit_impact_params p = impactfit_impact_scaled_params(n, m, zeta);
  p.transition = tr;
  p.accel = accel;
  p.rtol = 1e-14;
  p.locate_extrema = 0;
  impactfit_impact_result r;
  int st = impactfit_impact_solve(ws, &p, &r, err);
  if (st)
    return st;
  double q = r.e_out * r.e_out - 2.0 * accel * r.delta_sep;
  *e = (accel > 0.0 && tr == impactfit_transition_C) ? sqrt(fmax(q, 0.0)) : r.e_out;
  return 0;
}

int impactfit_visco_expansion(impactfit_impact_workspace *ws, const impactfit_transition *tr, double c[3],
                              impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  if (!ws || !c || (tr != impactfit_transition_A && tr != impactfit_transition_C))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no workspace or output given, or a condition other than A, C");
  enum { N = 16, K = 6 };
  double X[N * K], y[N], f[K];
  for (size_t i = 0; i < N; i++) {
    double x = 5e-4 * pow(20.0, (double)i / (N - 1)), e;
    int st = e_at(ws, 1.5, 0.5, impactfit_visco_zeta_from_x(x), 0.0, tr, &e, err);
    if (st)
      return st;
    y[i] = (1.0 - e) / x;
    /* 1, x, x^(3/2), x², x^(5/2), x³ */
    for (size_t j = 0; j < K; j++)
      X[i * K + j] = j ? pow(x, 0.5 * (double)(j + 1)) : 1.0;
  }
  int st = lsq(X, y, N, K, f, err);
  if (st)
    return st;
  c[0] = f[0];
  c[1] = -f[1];
  c[2] = -f[2];
  return 0;
}

int impactfit_cjb_slope(impactfit_impact_workspace *ws, double alpha, double beta, double gtil,
                        const impactfit_transition *tr, double *slope, impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  if (!ws || !slope || (tr != impactfit_transition_A && tr != impactfit_transition_C))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no workspace or output given, or a condition other than A, C");
  if (!(alpha >= 1.0 && alpha <= 20.0 && beta >= 1.0 && beta <= 20.0 && gtil >= 0.0 && gtil <= 100.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "alpha, beta in [1, 20] and gtil in [0, 100] (got %g, %g, %g)", alpha,
                           beta, gtil);
  enum { N = 10, K = 4 };
  double X[N * K], y[N], f[K], n = alpha, m = beta - 1.0, K2 = 0.5 * (alpha + 1.0);
  /* scaled problem (k = K, mass = v = 1): ζ = β γ K^(β/(α+1)), accel = g̃ K^(1/(α+1)) */
  double zs = beta * pow(K2, beta / (alpha + 1.0)), as = gtil * pow(K2, 1.0 / (alpha + 1.0));
  for (size_t i = 0; i < N; i++) {
    double g = 1e-4 * pow(100.0, (double)i / (N - 1)), e;
    int st = e_at(ws, n, m, zs * g, as, tr, &e, err);
    if (st)
      return st;
    y[i] = (1.0 - e) / g;
    X[i * K] = 1.0;
    X[i * K + 1] = g;
    X[i * K + 2] = g * sqrt(g);
    X[i * K + 3] = g * g;
  }
  int st = lsq(X, y, N, K, f, err);
  if (st)
    return st;
  *slope = f[0];
  return 0;
}

/* ---- the approach-only damper ---- */

#include "impactfit/dem.h"

int impactfit_approach_damper_prefactor(double n, double e, double *a, impactfit_error *err) {
  if (!a)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no output given");
  if (!(isfinite(n) && n >= 1.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "spring exponent n must be >= 1 (got %.17g)", n);
  if (!(isfinite(e) && e > 0.0 && e <= 1.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "restitution e must be in (0, 1] (got %.17g)", e);
  if (e == 1.0) {
    *a = 0.0;
    return IMPACTFIT_OK;
  }
  double xi;
  int st = impactfit_dem_damping_ratio(e * e, 1, &xi, err);
  if (st)
    return st;
  *a = sqrt(2.0 * (n + 1.0)) * xi;
  return IMPACTFIT_OK;
}
