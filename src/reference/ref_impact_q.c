/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The __float128 reference impact solver (ref_impact.h, ref_impact_q): a Taylor-series integrator in
 * __float128. The reference of the accuracy report was this until it became the same algorithm in
 * double-double arithmetic (ref_impact.c, about ten times faster); the tests compare the two.
 *
 * Inside a step from a state with x ≠ 0 the solution is the Taylor polynomial of degree ORDER whose
 * coefficients follow from the equation: with b = |x| (one sign throughout the step),
 *     P = b^n, Q = b^m by the power recurrence  p_k = Σ_{j=1..k} ((a+1) j − k) b_j p_{k−j} / (k b_0),
 *     R = Q·x' (Cauchy product),  x_{k+1} = x'_k/(k+1),  x'_{k+1} = (−K sgn(x) P_k − ζ R_k)/(k+1),
 * and the force f = K sgn(x) P + ζ R is a polynomial too. The step length is a fraction of the
 * radius the last coefficients show (ratio ORDER-th root of TOL), so it shrinks geometrically next
 * to δ = 0, where |x|^n and |x|^m are singular.
 *
 * δ = 0 itself is passed by a first-order generalised expansion (the leading terms of the engine's
 * kind of series, derived afresh): leaving x = 0 at speed w,
 *     x = wτ [1 − u1/((n+1)(n+2)) − u2/((m+1)(m+2))],  x' = w [1 − u1/(n+1) − u2/(m+1)],
 *     u1 = K w^(n−1) τ^(n+1),  u2 = ζ w^m τ^(m+1),
 * used only where u1, u2 ≤ U (1e-13), so that the neglected terms (of order u²) are below 1e-26;
 * arriving at x = 0 the same expansion in reversed time (ζ → −ζ) is matched to the state by a
 * fixed-point iteration on (w, σ). Events are sign changes of x', f', f and x at nine points of each
 * step, located by bisection–Newton on the step's own polynomials.
 */
#include "ref_impact.h"

#include <math.h>
#include <quadmath.h>
#include <string.h>

typedef __float128 q;

#define ORDER 30
#define TOL 1e-28Q
#define U_START 1e-13Q
#define NSUB 8

typedef struct sys {
  q n, m, K, z;
} sys;

static q qpow(q b, q a) {
  if (a == 0)
    return 1;
  if (b == 0)
    return 0;
  return powq(b, a);
}

/* Taylor coefficients of x, x' and f at a state with x ≠ 0. */
static void taylor(const sys *S, q x0, q v0, q X[ORDER + 1], q V[ORDER + 1], q F[ORDER]) {
  q sg = (x0 > 0) ? 1 : -1;
  q P[ORDER + 1], Q[ORDER + 1];
  X[0] = x0;
  V[0] = v0;
  q b0 = fabsq(x0);
  for (int k = 0; k < ORDER; k++) {
    if (k == 0) {
      P[0] = qpow(b0, S->n);
      Q[0] = (S->m == 0) ? 1 : (S->m == S->n ? P[0] : qpow(b0, S->m));
    } else {
      q sp = 0, sq = 0;
      for (int j = 1; j <= k; j++) {
        q bj = sg * X[j];
        sp += ((S->n + 1) * j - k) * bj * P[k - j];
        sq += ((S->m + 1) * j - k) * bj * Q[k - j];
      }
      P[k] = sp / (k * b0);
      Q[k] = (S->m == 0) ? 0 : sq / (k * b0);
    }
    q R = 0;
    for (int j = 0; j <= k; j++)
      R += Q[j] * V[k - j];
    F[k] = S->K * sg * P[k] + S->z * R;
    X[k + 1] = V[k] / (k + 1);
    V[k + 1] = -F[k] / (k + 1);
  }
}

static q horner(const q *c, int deg, q s) {
  q r = c[deg];
  for (int k = deg - 1; k >= 0; k--)
    r = r * s + c[k];
  return r;
}

/* A root of the polynomial c (degree deg) in [a, b], where its values change sign. */
static q poly_root(const q *c, int deg, q a, q b) {
  q d[ORDER + 1];
  for (int k = 1; k <= deg; k++)
    d[k - 1] = k * c[k];
  q fa = horner(c, deg, a), s = 0.5Q * (a + b);
  for (int it = 0; it < 400; it++) {
    q f = horner(c, deg, s);
    if (f == 0)
      return s;
    if ((f > 0) == (fa > 0)) {
      a = s;
      fa = f;
    } else {
      b = s;
    }
    q df = horner(d, deg - 1, s), sn = s - f / df;
    if (!(sn > a && sn < b))
      sn = 0.5Q * (a + b);
    if (fabsq(sn - s) <= 1e-33Q * (fabsq(s) + 1e-300Q) || b - a <= 1e-33Q * fabsq(b))
      return sn;
    s = sn;
  }
  return s;
}

/* Leaving x = 0 at speed w: the state at τ (first-order expansion). */
static void start_state(const sys *S, q w, q tau, q *x, q *v) {
  q u1 = S->K * qpow(w, S->n - 1) * qpow(tau, S->n + 1), u2 = S->z * qpow(w, S->m) * qpow(tau, S->m + 1);
  *x = w * tau * (1 - u1 / ((S->n + 1) * (S->n + 2)) - u2 / ((S->m + 1) * (S->m + 2)));
  *v = w * (1 - u1 / (S->n + 1) - u2 / (S->m + 1));
}

/* The time τ at which the larger of u1, u2 equals U_START for speed w. */
static q start_tau(const sys *S, q w) {
  q t1 = powq(U_START / (S->K * qpow(w, S->n - 1)), 1 / (S->n + 1));
  if (S->z > 0) {
    q t2 = powq(U_START / (S->z * qpow(w, S->m)), 1 / (S->m + 1));
    if (t2 < t1)
      t1 = t2;
  }
  return t1;
}

/* Arrival at x = 0 from distance xi > 0 at speed s1 > 0 (moving towards 0): is the expansion
 * valid here? If so, the arrival speed w and the remaining time σ. */
static int arrival(const sys *S, q xi, q s1, q *w_out, q *sig_out) {
  q w = s1, sig = xi / s1;
  for (int it = 0; it < 60; it++) {
    q u1 = S->K * qpow(w, S->n - 1) * qpow(sig, S->n + 1);
    q u2 = -S->z * qpow(w, S->m) * qpow(sig, S->m + 1); /* reversed time: ζ → −ζ */
    if (!(fabsq(u1) <= 4 * U_START && fabsq(u2) <= 4 * U_START))
      return 0;
    q wn = s1 / (1 - u1 / (S->n + 1) - u2 / (S->m + 1));
    q sn = xi / (wn * (1 - u1 / ((S->n + 1) * (S->n + 2)) - u2 / ((S->m + 1) * (S->m + 2))));
    int done = fabsq(wn - w) <= 1e-33Q * wn && fabsq(sn - sig) <= 1e-33Q * sn;
    w = wn;
    sig = sn;
    if (done)
      break;
  }
  q u1 = S->K * qpow(w, S->n - 1) * qpow(sig, S->n + 1), u2 = S->z * qpow(w, S->m) * qpow(sig, S->m + 1);
  if (!(u1 <= U_START && u2 <= U_START))
    return 0;
  *w_out = w;
  *sig_out = sig;
  return 1;
}

static q force(const sys *S, q x, q v) {
  q b = fabsq(x), sg = (x > 0) ? 1 : (x < 0 ? -1 : 0);
  return S->K * sg * qpow(b, S->n) + S->z * (S->m == 0 ? 1 : qpow(b, S->m)) * v;
}

static void set_out(double *hi, double *lo, q a) {
  *hi = (double)a;
  *lo = (double)(a - (q)*hi);
}

/* ---- the integration, split as in ref_impact.c: a start, steps with their event scan, the end ---- */

typedef struct run {
  sys S;
  int end_on_force; /* B, C, D with m < n: the contact may end where the force falls to 0 */
  int pre;          /* B before touching */
  q t, x, v, fmax, tfmax, xmax, txmax, fmin;
  ref_result *out;
} run;

/* The first state: 0, or 2 when out of range (out->status set). */
static int begin(run *R, char cond) {
  sys *S = &R->S;
  R->t = 0;
  R->v = 1;
  R->tfmax = R->xmax = R->txmax = 0;
  R->pre = 0;
  /* B with m < n starts where the extended force is zero, at x0 = −(ζ/K)^(1/(n−m)) < 0; a gap below
   * the smallest normal double (ζ < K, m just below n) is a start at x = 0 */
  q x0 = (cond == 'B' && S->m < S->n && S->z > 0) ? -powq(S->z / S->K, 1 / (S->n - S->m)) : 0;
  if (x0 < -0x1p-1022Q) {
    R->x = x0;
    if (!(R->x > -1e6Q)) { /* a gap of more than 1e6 δ_m0 before touching: out of range */
      R->out->status = 2;
      return 2;
    }
    R->pre = 1;
    R->fmax = R->fmin = 0; /* the force starts at 0 */
  } else {
    R->fmax = R->fmin = force(S, 0, 1) * (S->m == 0 ? 1 : 0); /* m = 0: the jump ζ at the start */
    q tau0 = start_tau(S, 1);
    start_state(S, 1, tau0, &R->x, &R->v);
    R->t = tau0;
  }
  return 0;
}

/* The arrival at x = 0 by the expansion, once it is valid: 0 (not here), 1 (the contact ended: out set),
 * 2 (B touched: the contact goes on into x > 0). (B, C, D with m < n end where f = K x^(n−m) + ζ x'
 * falls to 0, at x ≈ (ζ|x'|/K)^(1/(n−m)) > 0: the Taylor steps go there unless that point is below
 * 1e-30 x, i.e. at x = 0 to 1e-30.) */
static int try_arrival(run *R) {
  const sys *S = &R->S;
  q x = R->x, v = R->v;
  int force_first = R->end_on_force && !R->pre && x > 0 && powq(S->z * fabsq(v) / S->K, 1 / (S->n - S->m)) > 1e-30Q * x;
  if (!((x > 0 && v < 0) || (x < 0 && v > 0)) || force_first)
    return 0;
  q w, sig;
  if (!arrival(S, fabsq(x), fabsq(v), &w, &sig))
    return 0;
  if (R->pre) { /* B touches; the contact goes on into x > 0 with speed w */
    R->t += sig;
    R->pre = 0;
    q tau0 = start_tau(S, w);
    start_state(S, w, tau0, &R->x, &R->v);
    R->t += tau0;
    return 2;
  }
  if (S->m == 0 && -S->z * w < R->fmin) /* m = 0: the force ends with the jump −ζw */
    R->fmin = -S->z * w;
  if (S->z > 0 && S->m > 0 && S->m < S->n) {
    /* a tensile minimum inside the arrival piece: f ≈ K (wσ)^n − ζ (wσ)^m w is stationary at
     * σ* = (ζ m w^(m+1−n) / (K n))^(1/(n−m)); f there from the expansion's state */
    q ss = powq(S->z * S->m * qpow(w, S->m + 1 - S->n) / (S->K * S->n), 1 / (S->n - S->m));
    if (ss < sig) {
      sys Sr = *S;
      Sr.z = -S->z; /* reversed time */
      q X, Xs;
      start_state(&Sr, w, ss, &X, &Xs);
      q f = force(S, X, -Xs);
      if (f < R->fmin)
        R->fmin = f;
    }
  }
  R->out->status = 0;
  set_out(&R->out->e_out, &R->out->e_out_lo, w);
  set_out(&R->out->t_contact, &R->out->t_contact_lo, R->t + sig);
  R->out->x_sep = 0;
  return 1;
}

/* the step: 0.7 of the radius at TOL, at most 1 */
static q step_length(const q *X, const q *V) {
  q h = 1;
  for (int k = ORDER - 1; k <= ORDER; k++) {
    q cx = fabsq(X[k]), cv = fabsq(V[k]);
    if (cx > 0) {
      q r = powq(TOL / cx, 1.0Q / k);
      if (r < h)
        h = r;
    }
    if (cv > 0) {
      q r = powq(TOL / cv, 1.0Q / k);
      if (r < h)
        h = r;
    }
  }
  return h * 0.7Q;
}

/* the step's polynomials */
typedef struct polys {
  q X[ORDER + 1], V[ORDER + 1], F[ORDER], FD[ORDER];
} polys;

/* The earliest terminating event in (sa, sb]: its kind (0 none, 1 x = 0, 2 f = 0, 3 B touches) and
 * *s_end (−1 for none); the values of x, x' and f at sa and of x, f at sb. */
static int end_event(const run *R, const polys *P, q sa, q sb, q xa, q xb, q va, q fa, q fb, q *s_end) {
  int kind = 0;
  *s_end = -1;
  if (!R->pre && xa > 0 && xb <= 0) {
    *s_end = poly_root(P->X, ORDER, sa, sb);
    kind = 1;
  }
  if (!R->pre && R->end_on_force && xa > 0 && va < 0 && fa > 0 && fb <= 0) {
    q s2 = poly_root(P->F, ORDER - 1, sa, sb);
    if (*s_end < 0 || s2 < *s_end) {
      *s_end = s2;
      kind = 2;
    }
  }
  if (kind == 1 && R->end_on_force && va < 0 && fa > 0) {
    /* x reaches 0 while f > 0 at the interval's start: f changed sign before x = 0, twice inside
     * this interval when m > 0 (as in ref_impact.c) */
    q w = *s_end - sa;
    for (int j = 1; j <= 100; j++) {
      q sn = *s_end - w * ldexpq(1, -j);
      if (horner(P->F, ORDER - 1, sn) < 0) {
        *s_end = poly_root(P->F, ORDER - 1, sa, sn);
        kind = 2;
        break;
      }
    }
  }
  if (R->pre && xa < 0 && xb >= 0) { /* B touches inside a step (integer exponents) */
    q s2 = poly_root(P->X, ORDER, sa, sb);
    *s_end = s2;
    kind = 3;
  }
  if (R->pre && R->end_on_force && fa > 0 && fb <= 0) {
    q s2 = poly_root(P->F, ORDER - 1, sa, sb);
    /* f = |x|^m h vanishes at the touch too (m > 0): an end on the force is one clearly before it */
    if (*s_end < 0 || s2 < *s_end - 1e-20Q * fabsq(*s_end)) {
      *s_end = s2;
      kind = 2;
    }
  }
  return kind;
}

/* Maximum penetration and force extrema in [sa, le] (le just before lim where the interval ends early;
 * vb and fdb x' and f' there), and the force fl at lim. */
static void scan_extrema(run *R, const polys *P, q sa, q lim, q le, q va, q vb, q fda, q fdb, q fl) {
  if (!R->pre && va > 0 && vb <= 0) {
    q s = poly_root(P->V, ORDER, sa, le);
    if (s <= lim) {
      q xm = horner(P->X, ORDER, s);
      if (xm > R->xmax) {
        R->xmax = xm;
        R->txmax = R->t + s;
      }
    }
  }
  if ((fda > 0 && fdb <= 0) || (fda < 0 && fdb >= 0)) {
    q s = poly_root(P->FD, ORDER - 2, sa, le);
    if (s <= lim) {
      q fm = horner(P->F, ORDER - 1, s);
      if (fm > R->fmax) {
        R->fmax = fm;
        R->tfmax = R->t + s;
      }
      if (fm < R->fmin)
        R->fmin = fm;
    }
  }
  if (fl > R->fmax) {
    R->fmax = fl;
    R->tfmax = R->t + lim;
  }
  if (fl < R->fmin)
    R->fmin = fl;
}

/* Events at NSUB + 1 points of the step of length h: 0 (none), 1 (the contact ended: out set), 3 (B
 * touched: t, x, v at the touch). */
static int scan_step(run *R, const polys *P, q h) {
  q sa = 0, xa = R->x, va = R->v, fa = P->F[0], fda = P->FD[0];
  for (int i = 1; i <= NSUB; i++) {
    q sb = h * i / NSUB;
    q xb = horner(P->X, ORDER, sb), vb = horner(P->V, ORDER, sb), fb = horner(P->F, ORDER - 1, sb),
      fdb = horner(P->FD, ORDER - 2, sb);
    q s_end;
    int kind = end_event(R, P, sa, sb, xa, xb, va, fa, fb, &s_end);
    q lim = (s_end >= 0) ? s_end : sb;
    /* maximum penetration and force extrema before the end: searched in [sa, lim], with the values
     * at lim where the interval ends early (as in ref_impact.c) */
    q le = lim; /* just before lim where the interval ends early (as in ref_impact.c) */
    if (s_end >= 0) {
      le = lim - (lim - sa) * 0x1p-24Q;
      vb = horner(P->V, ORDER, le);
      fdb = horner(P->FD, ORDER - 2, le);
    }
    scan_extrema(R, P, sa, lim, le, va, vb, fda, fdb, (s_end >= 0) ? horner(P->F, ORDER - 1, s_end) : fb);
    if (s_end >= 0) {
      q xe = horner(P->X, ORDER, s_end), ve = horner(P->V, ORDER, s_end);
      if (kind == 3) {
        R->t += s_end;
        R->x = 0;
        R->v = ve;
        return 3;
      }
      R->out->status = 0;
      set_out(&R->out->e_out, &R->out->e_out_lo, -ve);
      set_out(&R->out->t_contact, &R->out->t_contact_lo, R->t + s_end);
      if (kind != 1)
        set_out(&R->out->x_sep, &R->out->x_sep_lo, xe);
      return 1;
    }
    sa = sb;
    xa = xb;
    va = vb;
    fa = fb;
    fda = fdb;
  }
  return 0;
}

int ref_impact_q(double n, double m, double zeta, char cond, long max_steps, ref_result *out) {
  memset(out, 0, sizeof *out);
  run R;
  memset(&R, 0, sizeof R);
  R.S = (sys){n, m, 0.5Q * ((q)n + 1), zeta};
  R.out = out;
  const sys *S = &R.S;
  R.end_on_force = (cond == 'B' || cond == 'C' || cond == 'D') && S->m < S->n && S->z > 0;
  if (begin(&R, cond))
    return 2;
  long steps = 0;
  for (;;) {
    if (++steps > max_steps) {
      out->status = 1;
      out->t_contact = (double)R.t; /* the time reached */
      out->steps = steps;
      return 1;
    }
    int a = try_arrival(&R);
    if (a == 1)
      break;
    if (a == 2)
      continue;
    polys P;
    taylor(S, R.x, R.v, P.X, P.V, P.F);
    for (int k = 0; k + 1 < ORDER; k++)
      P.FD[k] = (k + 1) * P.F[k + 1];
    q h = step_length(P.X, P.V);
    int ev = scan_step(&R, &P, h);
    if (ev == 1)
      break;
    if (ev == 3) { /* restart at x = 0 with speed v by the start expansion */
      R.pre = 0;
      q w = R.v, tau0 = start_tau(S, w);
      start_state(S, w, tau0, &R.x, &R.v);
      R.t += tau0;
      continue;
    }
    R.x = horner(P.X, ORDER, h);
    R.v = horner(P.V, ORDER, h);
    R.t += h;
    if (!(isfinite((double)R.x) && isfinite((double)R.v))) {
      out->status = 2;
      return 2;
    }
  }
  set_out(&out->f_max, &out->f_max_lo, R.fmax);
  out->f_min = (double)R.fmin;
  out->t_fmax = (double)R.tfmax;
  set_out(&out->x_max, &out->x_max_lo, R.xmax);
  out->t_xmax = (double)R.txmax;
  out->steps = steps;
  return 0;
}
