/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Exact damping ratio of the Hunt–Crossley model, ε(e), and its inverse e(ε) (include/impactfit/hc.h).
 *
 * The relation (1 + ε)/(1 − eε) = exp(ε(1 + e)) is, with ℓ(x) = ln(1 + x) − x,
 *     ℓ(ε) = ℓ(−y),   y = e ε ∈ [0, 1).
 * Both sides behave like −x²/2 near 0, so the relation has a double root at ε = 0 that the
 * physical root merges with as e → 1. Dividing it out: with q(x) = ℓ(x)/(−x²/2) (q(0) = 1),
 *     ln q(ε) − ln q(−y) = 2 ln e,                                                      (*)
 * a simple root for every e in (0, 1). The unknown is w = ln(1 − y) = ln u:
 *     y = −expm1(w),  ε = y/e,  ℓ(−y) = w + y,
 * so u (which is below 1e-300 for e < 0.0014) never has to be formed as 1 − eε, and y and ε
 * keep full relative precision at both ends. ln q is evaluated without cancellation: by its
 * Taylor series for |x| < 1/2 (as log1p of q − 1), and from ln(x − ln(1 + x)) resp. ln(−(w + y))
 * beyond (at most a factor 5 of cancellation there).
 * φ(w) = ln q(ε) − ln q(−y) − 2 ln e is increasing in w on (−∞, 0] (as w falls, y and ε grow, q(ε)
 * falls and q(−y) grows), from −∞ to φ(0) = −2 ln e > 0, so the root is unique. It is bracketed
 * by bounds of ε (Hunt–Crossley's 3(1−e)/2 ≤ ε ≤ min(8(1−e)/(5e), 1/e)), widened to
 * [−(1+e)/e − 1, 0] if rounding spoils them, and found by a safeguarded Newton iteration inside the
 * bracket (newton_bracketed below), started from a guess within about 1 %. The inverse e(ε) solves
 * the same equation (*) at fixed ε (see below).
 *
 * Why our own root finder rather than GSL's: gsl_root_fsolver_alloc allocates, and ε(e) has no
 * workspace argument (it is called inside sweep loops, once per point: no allocation there, see
 * docs/CONVENTIONS.md); GSL's derivative-based solvers keep no bracket. The iteration here keeps a
 * bracket, takes Newton steps with the analytic φ' (quadratic convergence: typically 3–5
 * evaluations from the guess, against Brent's 8–12 from the bracket) and bisects whenever a step
 * would leave the bracket; the derivative only steers the steps, so the root is as accurate as φ
 * itself (tested against 60-digit values to 1e-15 relative in tests/test_hc.c).
 */
#include "hc_impl.h"

#include <float.h>
#include <math.h>

#include <gsl/gsl_math.h> /* M_PI, M_LN2 (not in strict C11) */

#include "../common/common_impl.h"

/* q(x) − 1 for |x| < 1/2: −2 (ln(1+x) − x + x²/2)/x² = 2 Σ_{k≥3} (−1)^k x^(k−2)/k, summed from the
 * smallest term up. */
static double qm1_series(double x) {
  double terms[64];
  int nt = 0;
  double xp = 1.0; /* x^(k−2) */
  for (int k = 3; k < 3 + 64; k++) {
    xp *= x;
    double t = 2.0 * ((k & 1) ? -1.0 : 1.0) * xp / k;
    terms[nt++] = t;
    if (fabs(xp) <= 1e-18 * fabs(x))
      break;
  }
  double s = 0.0;
  for (int i = nt - 1; i >= 0; i--)
    s += terms[i];
  return s;
}

/* ln q(x) for x ≥ 0: q(x) = 2 (x − ln(1+x))/x² = (2/x)(1 − ln(1+x)/x). */
static double lnq_pos(double x) {
  if (x < 0.5)
    return log1p(qm1_series(x));
  return M_LN2 - log(x) + log1p(-log1p(x) / x);
}

/* ln q(−y) for 0 ≤ y < 1 with w = ln(1 − y): q(−y) = −2 (w + y)/y². */
static double lnq_neg(double y, double w) {
  if (y < 0.5)
    return log1p(qm1_series(-y));
  return log(-2.0 * (w + y)) - 2.0 * log(y);
}

/* d/dx (q(x) − 1) for |x| < 1/2: 2 Σ_{k≥3} (−1)^k (k−2) x^(k−3)/k (only steers Newton steps). */
static double dqm1_series(double x) {
  double s = 0.0, xp = 1.0; /* x^(k−3) */
  for (int k = 3; k < 3 + 64; k++) {
    double t = 2.0 * ((k & 1) ? -1.0 : 1.0) * (k - 2) * xp / k;
    s += t;
    if (fabs(t) <= 1e-17 * fabs(s))
      break;
    xp *= x;
  }
  return s;
}

/* (ln q)'(x) for x ≥ 0: x/((1+x)(x − ln(1+x))) − 2/x beyond 1/2. */
static double dlnq_pos(double x) {
  if (x < 0.5)
    return dqm1_series(x) / (1.0 + qm1_series(x));
  return x / ((1.0 + x) * (x - log1p(x))) - 2.0 / x;
}

/* d/dw ln q(−y) with y = −expm1(w), w = ln(1 − y): (1 − y)(ln q)'(−y), i.e. y/(y + w) + 2(1 − y)/y
 * beyond y = 1/2 (1 − y = e^w may underflow there: harmless in this form). */
static double dlnq_neg_dw(double y, double w) {
  if (y < 0.5)
    return (1.0 - y) * dqm1_series(-y) / (1.0 + qm1_series(-y));
  return y / (y + w) + 2.0 * exp(w) / y;
}

/* Root of f inside [lo, hi], where f(lo) and f(hi) have opposite signs: Newton steps from x0 with
 * the derivative f returns through *df, bisection whenever a step leaves the bracket or is not
 * finite; the bracket shrinks with every evaluation. Stops when a step or the bracket is below
 * 4 units of rounding of x (then the next Newton step would be smaller still) or f = 0. No
 * allocation (see the file comment). ENOCONV after 200 evaluations (not observed: bisection alone
 * needs about 64 + log2(range) for a double). */
static int newton_bracketed(double (*f)(double x, void *ctx, double *df), void *ctx, double lo, double hi, double x0,
                            double *root) {
  double flo = f(lo, ctx, NULL);
  double x = (x0 > lo && x0 < hi) ? x0 : 0.5 * (lo + hi);
  for (int it = 0; it < 200; it++) {
    double d = 0.0, fx = f(x, ctx, &d);
    if (fx == 0.0) {
      *root = x;
      return IMPACTFIT_OK;
    }
    if (!isfinite(fx))
      return IMPACTFIT_ENOCONV;
    if ((fx < 0.0) == (flo < 0.0))
      lo = x;
    else
      hi = x;
    double xn = x - fx / d;
    if (!(xn > lo && xn < hi)) /* also catches d = 0 and non-finite d */
      xn = 0.5 * (lo + hi);
    double tol = 4.0 * DBL_EPSILON * fabs(xn);
    if (fabs(xn - x) <= tol || fabs(hi - lo) <= tol) {
      *root = xn;
      return IMPACTFIT_OK;
    }
    x = xn;
  }
  return IMPACTFIT_ENOCONV;
}

/* ---- ε(e) ---- */

typedef struct eps_ctx {
  double e, lne;
} eps_ctx;

/* (*) as a function of w at fixed e; *df = φ'(w) = (ln q)'(ε) dε/dw − d ln q(−y)/dw with
 * dε/dw = −e^w/e. */
static double phi_eps(double w, void *vp, double *df) {
  const eps_ctx *c = vp;
  double y = -expm1(w), eps = y / c->e;
  if (df)
    *df = -dlnq_pos(eps) * exp(w) / c->e - dlnq_neg_dw(y, w);
  return lnq_pos(eps) - lnq_neg(y, w) - 2.0 * c->lne;
}

/* A starting point within about 1 % of ε (the bracket makes any start safe; a close one saves
 * iterations): the series 3/2 s + 3/2 s² + 27/20 s³ + 6/5 s⁴ (s = 1 − e) near e = 1; near e = 0
 * w ≈ ln(1 + 1/e) − (1 + e)/e (the fixed point ε = (1 − u)/e started at ε = 1/e); between them the
 * Ramaswamy–Humbert form with impactfit's minimax constants (max 0.8 % on [0.01, 1]). */
static double guess_w(double e) {
  double s = 1.0 - e, eps;
  if (e < 0.02)
    return log1p(1.0 / e) - (1.0 + e) / e;
  if (s < 0.15)
    eps = s * (1.5 + s * (1.5 + s * (1.35 + s * 1.2)));
  else {
    double p = 0.69575 * (exp(-1.3319 * e) - exp(-1.3319));
    eps = (3.0 + 2.0 * p) * (1.0 - e * e) / (2.0 * e) / ((3.0 + 2.0 * p) / (3.0 - 2.0 * p) + e);
  }
  double y = e * eps;
  return y < 1.0 ? log1p(-y) : log1p(1.0 / e) - (1.0 + e) / e;
}

int impactfit_hc_eps(double e, double *eps, impactfit_error *err) {
  if (!eps)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no output given");
  if (!(isfinite(e) && e > 0.0 && e <= 1.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "coefficient of restitution e must be in (0, 1] (got %.17g)", e);
  if (e == 1.0) {
    *eps = 0.0;
    return IMPACTFIT_OK;
  }
  if (!isfinite(1.0 / e))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "e = %g is too small: the damping ratio 1/e is not representable", e);
  if (e < 1e-15) {
    /* u = 1 − eε ≤ (1 + 1/e) exp(−(1+e)(1−u)/e) < exp(−1e14): ε = (1 − u)/e is 1/e in double
     * precision (and w = ln u would not be resolved next to its bracket −(1+e)/e). */
    *eps = 1.0 / e;
    return IMPACTFIT_OK;
  }
  eps_ctx c = {e, log(e)};
  /* Bracket from 3(1−e)/2 ≤ ε ≤ min(8(1−e)/(5e), 1/e), in w = ln(1 − eε). */
  double s = 1.0 - e;
  double hi = log1p(-1.5 * e * s);
  double lo = (1.6 * s < 1.0) ? log1p(-1.6 * s) : -(1.0 + e) / e;
  if (!(phi_eps(hi, &c, NULL) > 0.0))
    hi = 0.0; /* φ(0) = −2 ln e > 0 exactly */
  if (!(phi_eps(lo, &c, NULL) < 0.0))
    lo = -(1.0 + e) / e - 1.0; /* u ≥ exp(−(1+e)/e) since ε ≤ 1/e */
  if (!(phi_eps(lo, &c, NULL) < 0.0) || !(phi_eps(hi, &c, NULL) > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOCONV, "hc_eps: no bracket for e = %.17g", e);
  double w = 0.0;
  int st = newton_bracketed(phi_eps, &c, lo, hi, guess_w(e), &w);
  if (st)
    return IMPACTFIT__FAIL(err, st, "hc_eps: root finder failed for e = %.17g", e);
  double r = -expm1(w) / e;
  if (!isfinite(r) || r < 0.0)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENONFINITE, "hc_eps: non-finite result for e = %.17g", e);
  *eps = r;
  return IMPACTFIT_OK;
}

/* ---- e(ε) ----
 * For ε ≤ 1 the unknown is s = 1 − e (then 2 ln e = 2 log1p(−s) keeps its relative precision as
 * e → 1, where ln y − ln ε would cancel); for ε > 1 it is w = ln(1 − y) as above, since u = 1 − y
 * may be far below rounding. Both forms of (*) are monotone in their unknown. */

typedef struct e_ctx {
  double eps, lnq_eps, ln_eps;
} e_ctx;

/* (*) at fixed ε ≤ 1 as a function of s = 1 − e (y = ε(1 − s)); the derivative (Newton steps
 * only) is −ε (ln q)'(−y) + 2/(1 − s), with (ln q)'(−y) = d ln q(−y)/dw / (1 − y). */
static double phi_e_s(double s, void *vp, double *df) {
  const e_ctx *c = vp;
  double y = c->eps * (1.0 - s), w = log1p(-y);
  if (df)
    *df = -c->eps * dlnq_neg_dw(y, w) / (1.0 - y) + 2.0 / (1.0 - s);
  return c->lnq_eps - lnq_neg(y, w) - 2.0 * log1p(-s);
}

/* (*) at fixed ε > 1 as a function of w, e = y/ε; derivative −d ln q(−y)/dw + 2 e^w/y. */
static double phi_e_w(double w, void *vp, double *df) {
  const e_ctx *c = vp;
  double y = -expm1(w);
  if (df)
    *df = -dlnq_neg_dw(y, w) + 2.0 * exp(w) / y;
  return c->lnq_eps - lnq_neg(y, w) - 2.0 * (log(y) - c->ln_eps);
}

int impactfit_hc_e(double eps, double *e, impactfit_error *err) {
  if (!e)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no output given");
  if (!(isfinite(eps) && eps >= 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "damping ratio eps must be a finite number >= 0 (got %.17g)", eps);
  if (eps == 0.0) {
    *e = 1.0;
    return IMPACTFIT_OK;
  }
  if (eps > 1e15) {
    /* e = (1 − u)/ε with u ≤ (1 + ε) exp(−ε) < exp(−1e15 + 35): e is 1/ε in double precision. */
    *e = 1.0 / eps;
    return IMPACTFIT_OK;
  }
  e_ctx c = {eps, lnq_pos(eps), log(eps)};
  /* Bounds: e ≥ 1 − 2ε/3 (ε ≥ 3(1−e)/2), e ≤ 8/(5ε + 8) (ε ≤ 8(1−e)/(5e)); for ε > 1 also
   * u ≤ (1+ε) e^(−ε) and u ≥ exp(−ε(1+e)) ≥ e^(−2ε), with u = 1 − eε = e^w. */
  double root = NAN, r; /* set by newton_bracketed unless it fails */
  int st;
  if (eps <= 1.0) {
    double lo = 5.0 * eps / (5.0 * eps + 8.0), hi = 2.0 * eps / 3.0;
    for (int i = 0; i < 2100 && !(phi_e_s(lo, &c, NULL) < 0.0); i++)
      lo *= 0.5;
    for (int i = 0; i < 60 && !(phi_e_s(hi, &c, NULL) > 0.0) && hi < 1.0; i++)
      hi = fmin(2.0 * hi, 1.0 - DBL_EPSILON);
    if (!(phi_e_s(lo, &c, NULL) < 0.0) || !(phi_e_s(hi, &c, NULL) > 0.0))
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENOCONV, "hc_e: no bracket for eps = %.17g", eps);
    /* start: s ≈ 2ε/3 − ε²/3 (inverting the series of ε(s) to second order), inside the bracket */
    st = newton_bracketed(phi_e_s, &c, lo, hi, eps * (2.0 - eps) / 3.0, &root);
    r = 1.0 - root;
  } else {
    double hi = log1p(eps) - eps, lo = -2.0 * eps, yhi = 1.6 * eps / (eps + 1.6);
    if (yhi < 1.0)
      lo = fmax(lo, log1p(-yhi));
    for (int i = 0; i < 2100 && !(phi_e_w(hi, &c, NULL) > 0.0); i++)
      hi *= 0.5;
    for (int i = 0; i < 2100 && !(phi_e_w(lo, &c, NULL) < 0.0) && isfinite(lo); i++)
      lo *= 2.0;
    if (!(phi_e_w(lo, &c, NULL) < 0.0) || !(phi_e_w(hi, &c, NULL) > 0.0))
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENOCONV, "hc_e: no bracket for eps = %.17g", eps);
    /* start: u = 1 − eε ≈ (1 + ε) e^(−ε(1 + e)) with e ≈ 1/(1 + ε) (within the bounds above) */
    st = newton_bracketed(phi_e_w, &c, lo, hi, log1p(eps) - eps * (1.0 + 1.0 / (1.0 + eps)), &root);
    r = -expm1(root) / eps;
  }
  if (st)
    return IMPACTFIT__FAIL(err, st, "hc_e: root finder failed for eps = %.17g", eps);
  if (!isfinite(r) || r <= 0.0 || r > 1.0)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENONFINITE, "hc_e: restitution not representable for eps = %.17g", eps);
  *e = r;
  return IMPACTFIT_OK;
}

int impactfit_hc_lambda(double eps, double k, double v, double *lambda, impactfit_error *err) {
  if (!(eps >= 0.0 && isfinite(eps) && k > 0.0 && isfinite(k) && v > 0.0 && isfinite(v)))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "lambda = eps k / v needs eps >= 0, k > 0, v > 0 (finite), got eps = %g, k = %g, v = %g",
                           eps, k, v);
  double x = eps * k / v;
  if (!isfinite(x))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "lambda = eps k / v is not representable (eps = %g, k = %g, v = %g)",
                           eps, k, v);
  *lambda = x;
  return IMPACTFIT_OK;
}
