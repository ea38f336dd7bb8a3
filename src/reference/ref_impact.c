/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The reference impact solver of the tests and the accuracy report (ref_impact.h): a Taylor-series
 * integrator in double-double arithmetic (ref_dd.h, about 106 bits), with its powers from libquadmath.
 *
 * Inside a step from a state with x ≠ 0 the solution is the Taylor polynomial of degree ORDER whose
 * coefficients follow from the equation: with b = |x| (one sign throughout the step),
 *     P = b^n, Q = b^m by the power recurrence  p_k = Σ_{j=1..k} ((a+1) j − k) b_j p_{k−j} / (k b_0),
 *     R = Q·x' (Cauchy product),  x_{k+1} = x'_k/(k+1),  x'_{k+1} = (−K sgn(x) P_k − ζ R_k)/(k+1),
 * and the force f = K sgn(x) P + ζ R is a polynomial too. The coefficients are those of the
 * polynomial in σ = s/H (H: the previous step), c_k H^k: the recurrences are homogeneous in that
 * scaling, so only the two derivative relations take the factor H, and the coefficients stay within
 * the range of double next to δ = 0, where the radius of convergence shrinks to the distance from
 * δ = 0. The step length is a fraction of the radius that the last coefficients show (their ORDER-th
 * root at the absolute tolerance TOL), so the steps shrink geometrically next to δ = 0, where |x|^n
 * and |x|^m are singular.
 *
 * δ = 0 itself is passed by a first-order generalised expansion (the leading terms of the engine's
 * kind of series, derived afresh): leaving x = 0 at speed w,
 *     x = wτ [1 − u1/((n+1)(n+2)) − u2/((m+1)(m+2))],  x' = w [1 − u1/(n+1) − u2/(m+1)],
 *     u1 = K w^(n−1) τ^(n+1),  u2 = ζ w^m τ^(m+1),
 * used only where u1, u2 ≤ U (1e-13), so that the neglected terms (of order u²) are below 1e-26;
 * arriving at x = 0 the same expansion in reversed time (ζ → −ζ) is matched to the state by a
 * fixed-point iteration on (w, σ). These few evaluations per contact are done in __float128. Events
 * are sign changes of x', f', f and x at nine points of each step, located by bisection–Newton on the
 * step's own polynomials.
 *
 * The algorithm is that of the __float128 integrator it replaced (ref_impact_q.c, kept for the
 * tests, which compare the two); double-double arithmetic makes it about ten times faster.
 */
#include "ref_impact.h"

#include <math.h>
#include <quadmath.h>
#include <string.h>

#include "ref_dd.h"

typedef __float128 q;

#define ORDER 30
#define TOL 1e-28
#define U_START 1e-13Q
#define NSUB 8

typedef struct sys {
  double n, m, z;
  dd n1, m1, K; /* n + 1, m + 1, (n + 1)/2 exactly */
  double Kd;    /* K rounded */
  q nq, mq, Kq;
} sys;

static q to_q(dd a) { return (q)a.hi + (q)a.lo; }
static dd from_q(q a) {
  double hi = (double)a;
  return dd_make(hi, (double)(a - (q)hi));
}

static q qpow(q b, q a) {
  if (a == 0)
    return 1;
  if (b == 0)
    return 0;
  return powq(b, a);
}

/* b^a for b > 0 in double-double (through __float128) */
static dd ddpow(dd b, double a) {
  if (a == 0.0)
    return dd_d(1.0);
  return from_q(powq(to_q(b), (q)a));
}

/* 1/k in double-double, k = 1 .. ORDER + 1 (inv[0] unused) */
static dd inv[ORDER + 2];
static void inv_init(void) {
  if (inv[1].hi == 1.0)
    return;
  for (int k = ORDER + 1; k >= 1; k--) /* the table is complete once inv[1] is set */
    inv[k] = dd_div(dd_d(1.0), dd_d((double)k));
}

/* Taylor coefficients of x, x' and f at a state with x ≠ 0, scaled by H^k. 0, or 1 when a
 * coefficient is not finite (H too large for the radius). */
static int taylor(const sys *S, dd x0, dd v0, double H, dd X[ORDER + 1], dd V[ORDER + 1], dd F[ORDER]) {
  int sg = dd_sign(x0);
  dd P[ORDER + 1], Q[ORDER + 1], B[ORDER + 1], JB[ORDER + 1];
  X[0] = x0;
  V[0] = v0;
  dd b0 = dd_abs(x0), ib0 = dd_div(dd_d(1.0), b0);
  B[0] = b0;
  JB[0] = dd_d(0.0);
  int qsame = S->m == S->n, qone = S->m == 0.0;
  for (int k = 0; k < ORDER; k++) {
    if (k == 0) {
      P[0] = ddpow(b0, S->n);
      Q[0] = qone ? dd_d(1.0) : (qsame ? P[0] : ddpow(b0, S->m));
    } else {
      /* Σ ((a+1) j − k) b_j p_(k−j) = (a+1) Σ j b_j p_(k−j) − k Σ b_j p_(k−j) */
      dd sp1 = dd_d(0.0), sp0 = dd_d(0.0), sq1 = dd_d(0.0), sq0 = dd_d(0.0);
      for (int j = 1; j <= k; j++) {
        sp1 = dd_add(sp1, dd_mul(JB[j], P[k - j]));
        sp0 = dd_add(sp0, dd_mul(B[j], P[k - j]));
        if (!qsame && !qone) {
          sq1 = dd_add(sq1, dd_mul(JB[j], Q[k - j]));
          sq0 = dd_add(sq0, dd_mul(B[j], Q[k - j]));
        }
      }
      dd ikb0 = dd_mul(ib0, inv[k]);
      P[k] = dd_mul(dd_sub(dd_mul(S->n1, sp1), dd_mul_d(sp0, (double)k)), ikb0);
      if (qsame)
        Q[k] = P[k];
      else if (qone)
        Q[k] = dd_d(0.0);
      else
        Q[k] = dd_mul(dd_sub(dd_mul(S->m1, sq1), dd_mul_d(sq0, (double)k)), ikb0);
    }
    dd R = dd_d(0.0);
    for (int j = 0; j <= k; j++)
      R = dd_add(R, dd_mul(Q[j], V[k - j]));
    dd Pk = (sg > 0) ? P[k] : dd_neg(P[k]);
    F[k] = dd_add(dd_mul(S->K, Pk), dd_mul_d(R, S->z));
    X[k + 1] = dd_mul(dd_mul_d(V[k], H), inv[k + 1]);
    V[k + 1] = dd_neg(dd_mul(dd_mul_d(F[k], H), inv[k + 1]));
    B[k + 1] = (sg > 0) ? X[k + 1] : dd_neg(X[k + 1]);
    JB[k + 1] = dd_mul_d(B[k + 1], (double)(k + 1));
    if (!dd_isfinite(V[k + 1]) || !dd_isfinite(X[k + 1]))
      return 1;
  }
  return 0;
}

static dd horner(const dd *c, int deg, dd s) {
  dd r = c[deg];
  for (int k = deg - 1; k >= 0; k--)
    r = dd_add(dd_mul(r, s), c[k]);
  return r;
}
static dd horner_d(const dd *c, int deg, double s) {
  double sh, sl; /* s split once for every product */
  dd_split(s, &sh, &sl);
  dd r = c[deg];
  for (int k = deg - 1; k >= 0; k--) {
    double p = r.hi * s, ah, al;
    dd_split(r.hi, &ah, &al);
    dd pr = dd_make(p, ((ah * sh - p) + ah * sl + al * sh) + al * sl);
    pr.lo += r.lo * s;
    r = dd_add(dd_quick_two_sum(pr.hi, pr.lo), c[k]);
  }
  return r;
}
/* The sign of the polynomial c at s: from its value in double where that exceeds the bound of its
 * rounding error (2 deg ε Σ|c_k| s^k), else from its value in double-double. */
static int sign_at(const dd *c, int deg, double s) {
  double r = c[deg].hi, b = fabs(r);
  for (int k = deg - 1; k >= 0; k--) {
    r = r * s + c[k].hi;
    b = b * s + fabs(c[k].hi);
  }
  if (fabs(r) > 2.0 * (deg + 2) * 0x1p-52 * b)
    return (r > 0) - (r < 0);
  return dd_sign(horner_d(c, deg, s));
}


/* A root of the polynomial c (degree deg) in [a, b], where its values change sign. */
static dd poly_root(const dd *c, int deg, dd a, dd b) {
  dd d[ORDER + 1];
  for (int k = 1; k <= deg; k++)
    d[k - 1] = dd_mul_d(c[k], (double)k);
  dd fa = horner(c, deg, a), s = dd_mul_d(dd_add(a, b), 0.5);
  for (int it = 0; it < 400; it++) {
    dd f = horner(c, deg, s);
    if (dd_sign(f) == 0)
      return s;
    if ((dd_sign(f) > 0) == (dd_sign(fa) > 0)) {
      a = s;
      fa = f;
    } else {
      b = s;
    }
    dd df = horner(d, deg - 1, s), sn = dd_sub(s, dd_div(f, df));
    if (!(dd_isfinite(sn) && dd_gt(sn, a) && dd_lt(sn, b)))
      sn = dd_mul_d(dd_add(a, b), 0.5);
    double ds = fabs(dd_to_d(dd_sub(sn, s))), w = dd_to_d(dd_sub(b, a));
    if (ds <= 1e-31 * (fabs(s.hi) + 1e-300) || w <= 1e-31 * fabs(b.hi))
      return sn;
    s = sn;
  }
  return s;
}

/* Leaving x = 0 at speed w: the state at τ (first-order expansion). */
static void start_state(const sys *S, q zeta, q w, q tau, q *x, q *v) {
  q u1 = S->Kq * qpow(w, S->nq - 1) * qpow(tau, S->nq + 1), u2 = zeta * qpow(w, S->mq) * qpow(tau, S->mq + 1);
  *x = w * tau * (1 - u1 / ((S->nq + 1) * (S->nq + 2)) - u2 / ((S->mq + 1) * (S->mq + 2)));
  *v = w * (1 - u1 / (S->nq + 1) - u2 / (S->mq + 1));
}

/* The time τ at which the larger of u1, u2 equals U_START for speed w. */
static q start_tau(const sys *S, q w) {
  q t1 = powq(U_START / (S->Kq * qpow(w, S->nq - 1)), 1 / (S->nq + 1));
  if (S->z > 0) {
    q t2 = powq(U_START / ((q)S->z * qpow(w, S->mq)), 1 / (S->mq + 1));
    if (t2 < t1)
      t1 = t2;
  }
  return t1;
}

/* Arrival at x = 0 from distance xi > 0 at speed s1 > 0 (moving towards 0): is the expansion
 * valid here? If so, the arrival speed w and the remaining time σ. */
static int arrival(const sys *S, q xi, q s1, q *w_out, q *sig_out) {
  /* far from valid (in double, with a margin for its rounding): the usual case, step after step */
  double xd = (double)xi, sd = (double)s1, sgd = xd / sd;
  double u1d = S->Kd * pow(sd, S->n - 1.0) * pow(sgd, S->n + 1.0), u2d = S->z * pow(sd, S->m) * pow(sgd, S->m + 1.0);
  if (u1d > 8e-13 || u2d > 8e-13)
    return 0;
  q w = s1, sig = xi / s1, z = S->z;
  for (int it = 0; it < 60; it++) {
    q u1 = S->Kq * qpow(w, S->nq - 1) * qpow(sig, S->nq + 1);
    q u2 = -z * qpow(w, S->mq) * qpow(sig, S->mq + 1); /* reversed time: ζ → −ζ */
    if (!(fabsq(u1) <= 4 * U_START && fabsq(u2) <= 4 * U_START))
      return 0;
    q wn = s1 / (1 - u1 / (S->nq + 1) - u2 / (S->mq + 1));
    q sn = xi / (wn * (1 - u1 / ((S->nq + 1) * (S->nq + 2)) - u2 / ((S->mq + 1) * (S->mq + 2))));
    int done = fabsq(wn - w) <= 1e-33Q * wn && fabsq(sn - sig) <= 1e-33Q * sn;
    w = wn;
    sig = sn;
    if (done)
      break;
  }
  q u1 = S->Kq * qpow(w, S->nq - 1) * qpow(sig, S->nq + 1), u2 = z * qpow(w, S->mq) * qpow(sig, S->mq + 1);
  if (!(u1 <= U_START && u2 <= U_START))
    return 0;
  *w_out = w;
  *sig_out = sig;
  return 1;
}

static q force_q(const sys *S, q x, q v) {
  q b = fabsq(x), sg = (x > 0) ? 1 : (x < 0 ? -1 : 0);
  return S->Kq * sg * qpow(b, S->nq) + (q)S->z * (S->m == 0 ? 1 : qpow(b, S->mq)) * v;
}

/* The end on the force (B, C, D, m < n) lies at x ≈ (ζ|x'|/K)^(1/(n−m)): is that above 1e-30 x? */
static int force_end_above(const sys *S, dd x, dd v) {
  double a = log(S->z * fabs(v.hi) / S->Kd) / (S->n - S->m), b = log(1e-30 * x.hi);
  if (fabs(a - b) > 1e-3 * (fabs(a) + fabs(b)) + 1e-6) /* clear in double */
    return a > b;
  return powq((q)S->z * fabsq(to_q(v)) / S->Kq, 1 / (S->nq - S->mq)) > 1e-30Q * to_q(x);
}

static void set_out(double *hi, double *lo, dd a) {
  *hi = a.hi;
  *lo = a.lo;
}

/* ---- the integration, as impact.c splits it: a start, steps with their event scan, the contact's end;
 * here the state of one contact in a struct the parts share ---- */

typedef struct run {
  sys S;
  double zeta;
  int end_on_force; /* B, C, D with m < n: the contact may end where the force falls to 0 */
  int pre;          /* B before touching */
  dd t, x, v, fmax, tfmax, xmax, txmax, fmin;
  double H; /* the coefficients' scale: the last step */
  ref_result *out;
} run;

/* Leaving x = 0 at speed w by the start expansion (at the start, and where B touches). */
static void leave_zero(run *R, q w) {
  q tau0 = start_tau(&R->S, w), xq, vq;
  start_state(&R->S, R->zeta, w, tau0, &xq, &vq);
  R->x = from_q(xq);
  R->v = from_q(vq);
  R->t = dd_add(R->t, from_q(tau0));
  R->H = (double)tau0;
}

/* The first state: 0, or 2 when out of range (out->status set). */
static int begin(run *R, char cond) {
  sys *S = &R->S;
  R->t = dd_d(0.0);
  R->v = dd_d(1.0);
  R->tfmax = R->xmax = R->txmax = dd_d(0.0);
  R->pre = 0;
  /* B with m < n starts where the extended force is zero, at x0 = −(ζ/K)^(1/(n−m)) < 0; a gap below
   * the smallest normal double (ζ < K, m just below n) is a start at x = 0 */
  q x0 = (cond == 'B' && S->m < S->n && S->z > 0) ? -powq((q)S->z / S->Kq, 1 / (S->nq - S->mq)) : 0;
  if (x0 < -0x1p-1022Q) {
    if (!(x0 > -1e6Q)) { /* a gap of more than 1e6 δ_m0 before touching: out of range */
      R->out->status = 2;
      return 2;
    }
    R->x = from_q(x0);
    R->pre = 1;
    R->fmax = R->fmin = dd_d(0.0); /* the force starts at 0 */
    R->H = 1.0;
  } else {
    R->fmax = R->fmin = dd_d(S->m == 0 ? R->zeta : 0.0); /* m = 0: the jump ζ at the start */
    q tau0 = start_tau(S, 1), xq, vq;
    start_state(S, R->zeta, 1, tau0, &xq, &vq);
    R->x = from_q(xq);
    R->v = from_q(vq);
    R->t = from_q(tau0);
    R->H = (double)tau0;
  }
  return 0;
}

/* The arrival at x = 0 by the expansion, once it is valid: 0 (not here), 1 (the contact ended: out set),
 * 2 (B touched: the contact goes on into x > 0). (B, C, D with m < n end where f = K x^(n−m) + ζ x'
 * falls to 0, at x ≈ (ζ|x'|/K)^(1/(n−m)) > 0: the Taylor steps go there unless that point is below
 * 1e-30 x, i.e. at x = 0 to 1e-30.) */
static int try_arrival(run *R) {
  const sys *S = &R->S;
  int sx = dd_sign(R->x), sv = dd_sign(R->v);
  int force_first = R->end_on_force && !R->pre && sx > 0 && force_end_above(S, R->x, R->v);
  if (!((sx > 0 && sv < 0) || (sx < 0 && sv > 0)) || force_first)
    return 0;
  q w, sig;
  if (!arrival(S, fabsq(to_q(R->x)), fabsq(to_q(R->v)), &w, &sig))
    return 0;
  if (R->pre) { /* B touches; the contact goes on into x > 0 with speed w */
    R->t = dd_add(R->t, from_q(sig));
    R->pre = 0;
    leave_zero(R, w);
    return 2;
  }
  if (S->m == 0 && dd_lt(dd_d(-R->zeta * (double)w), R->fmin)) /* m = 0: the force ends with the jump −ζw */
    R->fmin = dd_neg(from_q((q)R->zeta * w));
  if (S->z > 0 && S->m > 0 && S->m < S->n) {
    /* a tensile minimum inside the arrival piece: f ≈ K (wσ)^n − ζ (wσ)^m w is stationary at
     * σ* = (ζ m w^(m+1−n) / (K n))^(1/(n−m)); f there from the expansion's state */
    q ss = powq((q)S->z * S->mq * qpow(w, S->mq + 1 - S->nq) / (S->Kq * S->nq), 1 / (S->nq - S->mq));
    if (ss < sig) {
      q X, Xs;
      start_state(S, -(q)R->zeta, w, ss, &X, &Xs); /* reversed time */
      dd f = from_q(force_q(S, X, -Xs));
      if (dd_lt(f, R->fmin))
        R->fmin = f;
    }
  }
  R->out->status = 0;
  set_out(&R->out->e_out, &R->out->e_out_lo, from_q(w));
  set_out(&R->out->t_contact, &R->out->t_contact_lo, dd_add(R->t, from_q(sig)));
  R->out->x_sep = 0;
  return 1;
}

/* The step in σ: 0.7 of the radius at TOL, at most 16 (the scale grows by at most 16 a step) and h ≤ 1. */
static double step_length(const dd *X, const dd *V, double H) {
  double sh = 16.0;
  for (int k = ORDER - 1; k <= ORDER; k++) {
    double cx = fabs(X[k].hi), cv = fabs(V[k].hi);
    if (cx > 0) {
      double r = exp((log(TOL) - log(cx)) / k);
      if (r < sh)
        sh = r;
    }
    if (cv > 0) {
      double r = exp((log(TOL) - log(cv)) / k);
      if (r < sh)
        sh = r;
    }
  }
  if (sh * H > 1.0)
    sh = 1.0 / H;
  return sh * 0.7;
}

/* the step's polynomials */
typedef struct polys {
  dd X[ORDER + 1], V[ORDER + 1], F[ORDER], FD[ORDER];
} polys;

/* The earliest terminating event in (sa, sb] of a step: its kind (0 none, 1 x = 0, 2 f = 0, 3 B touches)
 * and *s_end; the signs of x, x' and f at sa and of x, f at sb. */
static int end_event(const run *R, const polys *P, dd sa, dd sb, int sxa, int sxb, int sva, int sfa, int sfb,
                     dd *s_end) {
  int kind = 0;
  *s_end = dd_d(-1.0);
  if (!R->pre && sxa > 0 && sxb <= 0) {
    *s_end = poly_root(P->X, ORDER, sa, sb);
    kind = 1;
  }
  if (!R->pre && R->end_on_force && sxa > 0 && sva < 0 && sfa > 0 && sfb <= 0) {
    dd s2 = poly_root(P->F, ORDER - 1, sa, sb);
    if (kind == 0 || dd_lt(s2, *s_end)) {
      *s_end = s2;
      kind = 2;
    }
  }
  if (kind == 1 && R->end_on_force && sva < 0 && sfa > 0) {
    /* x reaches 0 while f = |x|^m (K|x|^(n−m) + ζx') > 0 at the interval's start: since the
     * bracket tends to ζx' < 0 as x → 0⁺, f changed sign before x = 0, twice inside this
     * interval when m > 0 (f = 0 again at x = 0; with integer exponents the steps do not shrink
     * there). Find a point before the x root where f < 0, then the force's root before it. */
    dd w = dd_sub(*s_end, sa);
    for (int j = 1; j <= 100; j++) {
      dd sn = dd_sub(*s_end, dd_mul_d(w, ldexp(1.0, -j)));
      if (dd_sign(horner(P->F, ORDER - 1, sn)) < 0) {
        *s_end = poly_root(P->F, ORDER - 1, sa, sn);
        kind = 2;
        break;
      }
    }
  }
  if (R->pre && sxa < 0 && sxb >= 0) { /* B touches inside a step (integer exponents) */
    *s_end = poly_root(P->X, ORDER, sa, sb);
    kind = 3;
  }
  if (R->pre && R->end_on_force && sfa > 0 && sfb <= 0) {
    dd s2 = poly_root(P->F, ORDER - 1, sa, sb);
    /* f = |x|^m h vanishes at the touch too (m > 0): an end on the force is one clearly before it */
    if (kind == 0 || dd_lt(s2, dd_sub(*s_end, dd_d(1e-20 * (fabs(s_end->hi) + 1e-300))))) {
      *s_end = s2;
      kind = 2;
    }
  }
  return kind;
}

/* Maximum penetration and force extrema in [sa, le] (le just before lim where the interval ends
 * early, svb and sdb the signs of x' and f' there), and the force at lim (fl). */
static void scan_extrema(run *R, const polys *P, dd sa, dd lim, dd le, int sva, int svb, int sda, int sdb, dd fl) {
  if (!R->pre && sva > 0 && svb <= 0) {
    dd s = poly_root(P->V, ORDER, sa, le);
    if (!dd_gt(s, lim)) {
      dd xm = horner(P->X, ORDER, s);
      if (dd_gt(xm, R->xmax)) {
        R->xmax = xm;
        R->txmax = dd_add(R->t, dd_mul_d(s, R->H));
      }
    }
  }
  if ((sda > 0 && sdb <= 0) || (sda < 0 && sdb >= 0)) {
    dd s = poly_root(P->FD, ORDER - 2, sa, le);
    if (!dd_gt(s, lim)) {
      dd fm = horner(P->F, ORDER - 1, s);
      if (dd_gt(fm, R->fmax)) {
        R->fmax = fm;
        R->tfmax = dd_add(R->t, dd_mul_d(s, R->H));
      }
      if (dd_lt(fm, R->fmin))
        R->fmin = fm;
    }
  }
  if (dd_gt(fl, R->fmax)) {
    R->fmax = fl;
    R->tfmax = dd_add(R->t, dd_mul_d(lim, R->H));
  }
  if (dd_lt(fl, R->fmin))
    R->fmin = fl;
}

/* Events at NSUB + 1 points of the step of length sh (σ; time t + H σ): 0 (none), 1 (the contact ended:
 * out set), 3 (B touched: t, x, v at the touch). */
static int scan_step(run *R, const polys *P, double sh) {
  dd sa = dd_d(0.0), fa = P->F[0];
  int sxa = dd_sign(R->x), sva = dd_sign(R->v), sda = dd_sign(P->FD[0]);
  for (int i = 1; i <= NSUB; i++) {
    double sbd = sh * i / NSUB;
    dd sb = dd_d(sbd);
    dd fb = horner_d(P->F, ORDER - 1, sbd);
    int sxb = sign_at(P->X, ORDER, sbd), svb = sign_at(P->V, ORDER, sbd), sdb = sign_at(P->FD, ORDER - 2, sbd);
    int sfa = dd_sign(fa), sfb = dd_sign(fb);
    dd s_end;
    int kind = end_event(R, P, sa, sb, sxa, sxb, sva, sfa, sfb, &s_end);
    dd lim = kind ? s_end : sb;
    /* maximum penetration and force extrema before the end: searched in [sa, le], le just before
     * lim where the interval ends early, with the signs there (with integer exponents the step's
     * polynomials go on past δ = 0, where x' and f' may change sign again; at δ = 0 itself f' may
     * vanish, e.g. n = 3, m = 2, and its rounded sign mean nothing) */
    dd le = lim;
    if (kind) {
      le = dd_sub(lim, dd_mul_d(dd_sub(lim, sa), 0x1p-24));
      svb = dd_sign(horner(P->V, ORDER, le));
      sdb = dd_sign(horner(P->FD, ORDER - 2, le));
    }
    scan_extrema(R, P, sa, lim, le, sva, svb, sda, sdb, kind ? horner(P->F, ORDER - 1, s_end) : fb);
    if (kind) {
      dd xe = horner(P->X, ORDER, s_end), ve = horner(P->V, ORDER, s_end);
      if (kind == 3) {
        R->t = dd_add(R->t, dd_mul_d(s_end, R->H));
        R->x = dd_d(0.0);
        R->v = ve;
        return 3;
      }
      R->out->status = 0;
      set_out(&R->out->e_out, &R->out->e_out_lo, dd_neg(ve));
      set_out(&R->out->t_contact, &R->out->t_contact_lo, dd_add(R->t, dd_mul_d(s_end, R->H)));
      if (kind == 2)
        set_out(&R->out->x_sep, &R->out->x_sep_lo, xe);
      return 1;
    }
    sa = sb;
    sxa = sxb;
    sva = svb;
    fa = fb;
    sda = sdb;
  }
  return 0;
}

int ref_impact(double n, double m, double zeta, char cond, long max_steps, ref_result *out) {
  memset(out, 0, sizeof *out);
  inv_init();
  run R;
  memset(&R, 0, sizeof R);
  sys *S = &R.S;
  S->n = n;
  S->m = m;
  S->z = zeta;
  S->n1 = dd_two_sum(n, 1.0);
  S->m1 = dd_two_sum(m, 1.0);
  S->K = dd_mul_d(S->n1, 0.5);
  S->nq = n;
  S->mq = m;
  S->Kq = to_q(S->K);
  S->Kd = S->K.hi;
  R.zeta = zeta;
  R.out = out;
  R.end_on_force = (cond == 'B' || cond == 'C' || cond == 'D') && S->m < S->n && S->z > 0;
  if (begin(&R, cond))
    return 2;
  long steps = 0;
  for (;;) {
    if (++steps > max_steps) {
      out->status = 1;
      out->t_contact = dd_to_d(R.t); /* the time reached */
      out->steps = steps;
      return 1;
    }
    int a = try_arrival(&R);
    if (a == 1)
      break;
    if (a == 2)
      continue;
    polys P;
    int tries = 0;
    while (taylor(S, R.x, R.v, R.H, P.X, P.V, P.F) && ++tries < 40)
      R.H *= 1e-4;
    if (tries == 40) { /* not finite at any scale */
      out->status = 2;
      return 2;
    }
    for (int k = 0; k + 1 < ORDER; k++)
      P.FD[k] = dd_mul_d(P.F[k + 1], (double)(k + 1));
    double sh = step_length(P.X, P.V, R.H);
    int ev = scan_step(&R, &P, sh);
    if (ev == 1)
      break;
    if (ev == 3) { /* restart at x = 0 with speed v by the start expansion */
      R.pre = 0;
      leave_zero(&R, to_q(R.v));
      continue;
    }
    R.x = horner_d(P.X, ORDER, sh);
    R.v = horner_d(P.V, ORDER, sh);
    R.t = dd_add(R.t, dd_two_prod(R.H, sh));
    R.H *= sh;
    if (!(dd_isfinite(R.x) && dd_isfinite(R.v))) {
      out->status = 2;
      return 2;
    }
  }
  set_out(&out->f_max, &out->f_max_lo, R.fmax);
  out->f_min = dd_to_d(R.fmin);
  out->t_fmax = dd_to_d(R.tfmax);
  set_out(&out->x_max, &out->x_max_lo, R.xmax);
  out->t_xmax = dd_to_d(R.txmax);
  out->steps = steps;
  return 0;
}
