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
 * falls and q(−y) grows), from −∞ to φ(0) = −2 ln e > 0, so the root is unique. It is found by
 * GSL's Brent solver on a bracket built from bounds of ε (Hunt–Crossley's 3(1−e)/2 ≤ ε ≤
 * min(8(1−e)/(5e), 1/e)), widened to [−(1+e)/e − 1, 0] if rounding spoils it. The inverse e(ε) solves
 * the same equation (*) at fixed ε (see below).
 */
#include "hc_impl.h"

#include <float.h>
#include <math.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>

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

/* ---- ε(e) ---- */

typedef struct eps_ctx {
  double e, lne;
} eps_ctx;

static double phi_eps(double w, void *vp) { /* (*) as a function of w at fixed e */
  const eps_ctx *c = vp;
  double y = -expm1(w), eps = y / c->e;
  return lnq_pos(eps) - lnq_neg(y, w) - 2.0 * c->lne;
}

/* Brent on [lo, hi] (f(lo) < 0 < f(hi) or the reverse) to a few units of rounding in x. */
static int brent(gsl_function *F, double lo, double hi, double *root, int *iters) {
  gsl_root_fsolver *s = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
  if (!s)
    return IMPACTFIT_ENOMEM;
  int st = gsl_root_fsolver_set(s, F, lo, hi);
  int it = 0;
  double r = 0.5 * (lo + hi);
  while (st == GSL_SUCCESS && it < 500) {
    it++;
    st = gsl_root_fsolver_iterate(s);
    if (st != GSL_SUCCESS)
      break;
    r = gsl_root_fsolver_root(s);
    double a = gsl_root_fsolver_x_lower(s), b = gsl_root_fsolver_x_upper(s);
    if (gsl_root_test_interval(a, b, 0.0, 2.0 * DBL_EPSILON) == GSL_SUCCESS)
      break;
  }
  gsl_root_fsolver_free(s);
  if (iters)
    *iters = it;
  if (st != GSL_SUCCESS || it >= 500 || !isfinite(r))
    return IMPACTFIT_ENOCONV;
  *root = r;
  return IMPACTFIT_OK;
}

int impactfit_hc_eps(double e, double *eps, impactfit_error *err) {
  impactfit__gsl_quiet();
  if (!eps)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no output given");
  if (!(isfinite(e) && e > 0.0 && e <= 1.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "coefficient of restitution e must be in (0, 1] (got %g)", e);
  if (e == 1.0) {
    *eps = 0.0;
    return IMPACTFIT_OK;
  }
  if (!isfinite(1.0 / e))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "e = %g is too small: the damping ratio 1/e is not representable", e);
  if (e < 1e-15) {
    /* u = 1 − eε ≤ (1 + 1/e) exp(−(1+e)(1−u)/e) < exp(−1e14): ε = (1 − u)/e is 1/e in double
     * precision (and w = ln u would not be resolved next to its bracket −(1+e)/e). */
    *eps = 1.0 / e;
    return IMPACTFIT_OK;
  }
  eps_ctx c = {e, log(e)};
  gsl_function F = {phi_eps, &c};
  /* Bracket from 3(1−e)/2 ≤ ε ≤ min(8(1−e)/(5e), 1/e), in w = ln(1 − eε). */
  double s = 1.0 - e;
  double hi = log1p(-1.5 * e * s);
  double lo = (1.6 * s < 1.0) ? log1p(-1.6 * s) : -(1.0 + e) / e;
  if (!(phi_eps(hi, &c) > 0.0))
    hi = 0.0; /* φ(0) = −2 ln e > 0 exactly */
  if (!(phi_eps(lo, &c) < 0.0))
    lo = -(1.0 + e) / e - 1.0; /* u ≥ exp(−(1+e)/e) since ε ≤ 1/e */
  if (!(phi_eps(lo, &c) < 0.0) || !(phi_eps(hi, &c) > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOCONV, "hc_eps: no bracket for e = %.17g", e);
  double w;
  int st = brent(&F, lo, hi, &w, NULL);
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

static double phi_e_s(double s, void *vp) { /* (*) at fixed ε ≤ 1 as a function of s = 1 − e */
  const e_ctx *c = vp;
  double y = c->eps * (1.0 - s);
  return c->lnq_eps - lnq_neg(y, log1p(-y)) - 2.0 * log1p(-s);
}

static double phi_e_w(double w, void *vp) { /* (*) at fixed ε > 1 as a function of w, e = y/ε */
  const e_ctx *c = vp;
  double y = -expm1(w);
  return c->lnq_eps - lnq_neg(y, w) - 2.0 * (log(y) - c->ln_eps);
}

int impactfit_hc_e(double eps, double *e, impactfit_error *err) {
  impactfit__gsl_quiet();
  if (!e)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no output given");
  if (!(isfinite(eps) && eps >= 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "damping ratio eps must be a finite number >= 0 (got %g)", eps);
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
  double root, r;
  int st;
  if (eps <= 1.0) {
    gsl_function F = {phi_e_s, &c};
    double lo = 5.0 * eps / (5.0 * eps + 8.0), hi = 2.0 * eps / 3.0;
    for (int i = 0; i < 2100 && !(phi_e_s(lo, &c) < 0.0); i++)
      lo *= 0.5;
    for (int i = 0; i < 60 && !(phi_e_s(hi, &c) > 0.0) && hi < 1.0; i++)
      hi = fmin(2.0 * hi, 1.0 - DBL_EPSILON);
    if (!(phi_e_s(lo, &c) < 0.0) || !(phi_e_s(hi, &c) > 0.0))
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENOCONV, "hc_e: no bracket for eps = %.17g", eps);
    st = brent(&F, lo, hi, &root, NULL);
    r = 1.0 - root;
  } else {
    gsl_function F = {phi_e_w, &c};
    double hi = log1p(eps) - eps, lo = -2.0 * eps, yhi = 1.6 * eps / (eps + 1.6);
    if (yhi < 1.0)
      lo = fmax(lo, log1p(-yhi));
    for (int i = 0; i < 2100 && !(phi_e_w(hi, &c) > 0.0); i++)
      hi *= 0.5;
    for (int i = 0; i < 2100 && !(phi_e_w(lo, &c) < 0.0) && isfinite(lo); i++)
      lo *= 2.0;
    if (!(phi_e_w(lo, &c) < 0.0) || !(phi_e_w(hi, &c) > 0.0))
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENOCONV, "hc_e: no bracket for eps = %.17g", eps);
    st = brent(&F, lo, hi, &root, NULL);
    r = -expm1(root) / eps;
  }
  if (st)
    return IMPACTFIT__FAIL(err, st, "hc_e: root finder failed for eps = %.17g", eps);
  if (!isfinite(r) || r <= 0.0 || r > 1.0)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENONFINITE,
                           "hc_e: restitution not representable for eps = %.17g", eps);
  *e = r;
  return IMPACTFIT_OK;
}
