/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Double-double arithmetic for the reference integrator (ref_impact.c): a number is the unevaluated
 * sum hi + lo of two doubles with |lo| ≤ ulp(hi)/2, about 106 significant bits (relative rounding
 * error below 2^-104 ≈ 5e-32 per operation). The algorithms are the classical error-free
 * transformations: Knuth's two-sum (the rounding error of a + b), Dekker's splitting and product
 * (the rounding error of a·b without a fused multiply-add), and Dekker's long division (T. J. Dekker,
 * "A floating-point technique for extending the available precision", Numer. Math. 18 (1971)
 * 224–242; D. E. Knuth, TAOCP vol. 2, §4.2.2). They are exact only without contraction of a·b + c
 * into one rounding and without -ffast-math: the project compiles with -ffp-contract=off.
 *
 * Why not a library: the only maintained C implementation (QD, D. H. Bailey) is C++ with a C layer
 * of out-of-line calls, slower than these few inline lines in the reference's inner loops; the
 * transcendental functions the reference needs (powers) come from libquadmath (ref_impact.c). The
 * reference's tests compare it with the __float128 integrator it replaced (ref_impact_q.c).
 *
 * Range: that of double. Values beyond about 1e300 overflow in the splitting; the reference keeps
 * its Taylor coefficients scaled to O(1) (ref_impact.c).
 */
#ifndef IMPACTFIT_REF_DD_H
#define IMPACTFIT_REF_DD_H

#include <math.h>

typedef struct dd {
  double hi, lo;
} dd;

static inline dd dd_make(double hi, double lo) {
  dd r = {hi, lo};
  return r;
}
static inline dd dd_d(double a) { return dd_make(a, 0.0); }

/* s + e = a + b exactly (any a, b) */
static inline dd dd_two_sum(double a, double b) {
  double s = a + b, bb = s - a;
  return dd_make(s, (a - (s - bb)) + (b - bb));
}
/* the same for |a| ≥ |b| */
static inline dd dd_quick_two_sum(double a, double b) {
  double s = a + b;
  return dd_make(s, b - (s - a));
}
/* a = hi + lo with 26-bit halves */
static inline void dd_split(double a, double *hi, double *lo) {
  double t = 134217729.0 * a; /* 2^27 + 1 */
  *hi = t - (t - a);
  *lo = a - *hi;
}
/* p + e = a·b exactly (barring overflow and underflow) */
static inline dd dd_two_prod(double a, double b) {
  double p = a * b, ah, al, bh, bl;
  dd_split(a, &ah, &al);
  dd_split(b, &bh, &bl);
  return dd_make(p, ((ah * bh - p) + ah * bl + al * bh) + al * bl);
}

static inline dd dd_add(dd a, dd b) {
  dd s = dd_two_sum(a.hi, b.hi), t = dd_two_sum(a.lo, b.lo);
  s.lo += t.hi;
  s = dd_quick_two_sum(s.hi, s.lo);
  s.lo += t.lo;
  return dd_quick_two_sum(s.hi, s.lo);
}
static inline dd dd_neg(dd a) { return dd_make(-a.hi, -a.lo); }
static inline dd dd_sub(dd a, dd b) { return dd_add(a, dd_neg(b)); }
static inline dd dd_mul(dd a, dd b) {
  dd p = dd_two_prod(a.hi, b.hi);
  p.lo += a.hi * b.lo + a.lo * b.hi;
  return dd_quick_two_sum(p.hi, p.lo);
}
static inline dd dd_mul_d(dd a, double b) {
  dd p = dd_two_prod(a.hi, b);
  p.lo += a.lo * b;
  return dd_quick_two_sum(p.hi, p.lo);
}
static inline dd dd_div(dd a, dd b) {
  double q1 = a.hi / b.hi;
  dd r = dd_sub(a, dd_mul_d(b, q1));
  double q2 = r.hi / b.hi;
  r = dd_sub(r, dd_mul_d(b, q2));
  double q3 = r.hi / b.hi;
  dd q = dd_quick_two_sum(q1, q2);
  return dd_add(q, dd_d(q3));
}
static inline dd dd_div_d(dd a, double b) { return dd_div(a, dd_d(b)); }

static inline int dd_gt(dd a, dd b) { return a.hi > b.hi || (a.hi == b.hi && a.lo > b.lo); }
static inline int dd_lt(dd a, dd b) { return dd_gt(b, a); }
static inline int dd_sign(dd a) { return (a.hi > 0.0) ? 1 : (a.hi < 0.0 ? -1 : (a.lo > 0.0) - (a.lo < 0.0)); }
static inline dd dd_abs(dd a) { return (dd_sign(a) < 0) ? dd_neg(a) : a; }
static inline double dd_to_d(dd a) { return a.hi + a.lo; }
static inline int dd_isfinite(dd a) { return isfinite(a.hi) && isfinite(a.lo); }

#endif
