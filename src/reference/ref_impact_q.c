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

/* long: the reference's one integration loop (start series, Taylor steps, the nine-point event scan,
 * arrival at δ = 0), kept whole so that it reads against the description above and shares no
 * structure with the engine it checks */
int ref_impact_q(double n, double m, double zeta, char cond, long max_steps, ref_result *out) {
  memset(out, 0, sizeof *out);
  sys S = {n, m, 0.5Q * ((q)n + 1), zeta};
  int end_on_force = (cond == 'B' || cond == 'C' || cond == 'D') && S.m < S.n && S.z > 0;
  q t = 0, x, v = 1, fmax, tfmax = 0, xmax = 0, txmax = 0, fmin;
  int pre = 0; /* B before touching */
  /* B with m < n starts where the extended force is zero, at x0 = −(ζ/K)^(1/(n−m)) < 0; a gap below
   * the smallest normal double (ζ < K, m just below n) is a start at x = 0 */
  q x0 = (cond == 'B' && S.m < S.n && S.z > 0) ? -powq(S.z / S.K, 1 / (S.n - S.m)) : 0;
  if (x0 < -0x1p-1022Q) {
    x = x0;
    if (!(x > -1e6Q)) { /* a gap of more than 1e6 δ_m0 before touching: out of range */
      out->status = 2;
      return 2;
    }
    pre = 1;
    fmax = fmin = 0; /* the force starts at 0 */
  } else {
    fmax = fmin = force(&S, 0, 1) * (S.m == 0 ? 1 : 0); /* m = 0: the jump ζ at the start */
    q tau0 = start_tau(&S, 1);
    start_state(&S, 1, tau0, &x, &v);
    t = tau0;
  }
  long steps = 0;
  for (;;) {
    if (++steps > max_steps) {
      out->status = 1;
      out->t_contact = (double)t; /* the time reached */
      out->steps = steps;
      return 1;
    }
    /* arrival at x = 0 by the expansion, once it is valid */
    /* (B, C, D with m < n end where f = K x^(n−m) + ζ x' falls to 0, at x ≈ (ζ|x'|/K)^(1/(n−m)) > 0:
     * the Taylor steps go there unless that point is below 1e-30 x, i.e. at x = 0 to 1e-30) */
    int force_first = end_on_force && !pre && x > 0 && powq(S.z * fabsq(v) / S.K, 1 / (S.n - S.m)) > 1e-30Q * x;
    if (((x > 0 && v < 0) || (x < 0 && v > 0)) && !force_first) {
      q w, sig;
      if (arrival(&S, fabsq(x), fabsq(v), &w, &sig)) {
        if (pre) { /* B touches; the contact goes on into x > 0 with speed w */
          t += sig;
          pre = 0;
          q tau0 = start_tau(&S, w);
          start_state(&S, w, tau0, &x, &v);
          t += tau0;
          continue;
        }
        if (S.m == 0 && -S.z * w < fmin) /* m = 0: the force ends with the jump −ζw */
          fmin = -S.z * w;
        if (S.z > 0 && S.m > 0 && S.m < S.n) {
          /* a tensile minimum inside the arrival piece: f ≈ K (wσ)^n − ζ (wσ)^m w is stationary at
           * σ* = (ζ m w^(m+1−n) / (K n))^(1/(n−m)); f there from the expansion's state */
          q ss = powq(S.z * S.m * qpow(w, S.m + 1 - S.n) / (S.K * S.n), 1 / (S.n - S.m));
          if (ss < sig) {
            sys Sr = S;
            Sr.z = -S.z; /* reversed time */
            q X, Xs;
            start_state(&Sr, w, ss, &X, &Xs);
            q f = force(&S, X, -Xs);
            if (f < fmin)
              fmin = f;
          }
        }
        out->status = 0;
        set_out(&out->e_out, &out->e_out_lo, w);
        set_out(&out->t_contact, &out->t_contact_lo, t + sig);
        out->x_sep = 0;
        break;
      }
    }
    q X[ORDER + 1], V[ORDER + 1], F[ORDER], FD[ORDER];
    taylor(&S, x, v, X, V, F);
    for (int k = 0; k + 1 < ORDER; k++)
      FD[k] = (k + 1) * F[k + 1];
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
    h *= 0.7Q;
    /* events at NSUB + 1 points of the step */
    q sa = 0, xa = x, va = v, fa = F[0], fda = FD[0];
    int ended = 0, touched = 0;
    for (int i = 1; i <= NSUB && !ended && !touched; i++) {
      q sb = h * i / NSUB;
      q xb = horner(X, ORDER, sb), vb = horner(V, ORDER, sb), fb = horner(F, ORDER - 1, sb),
        fdb = horner(FD, ORDER - 2, sb);
      /* earliest terminating event in (sa, sb] */
      q s_end = -1;
      int kind = 0; /* 1: x = 0, 2: f = 0 */
      if (!pre && xa > 0 && xb <= 0) {
        s_end = poly_root(X, ORDER, sa, sb);
        kind = 1;
      }
      if (!pre && end_on_force && xa > 0 && va < 0 && fa > 0 && fb <= 0) {
        q s2 = poly_root(F, ORDER - 1, sa, sb);
        if (s_end < 0 || s2 < s_end) {
          s_end = s2;
          kind = 2;
        }
      }
      if (kind == 1 && end_on_force && va < 0 && fa > 0) {
        /* x reaches 0 while f > 0 at the interval's start: f changed sign before x = 0, twice inside
         * this interval when m > 0 (as in ref_impact.c) */
        q w = s_end - sa;
        for (int j = 1; j <= 100; j++) {
          q sn = s_end - w * ldexpq(1, -j);
          if (horner(F, ORDER - 1, sn) < 0) {
            s_end = poly_root(F, ORDER - 1, sa, sn);
            kind = 2;
            break;
          }
        }
      }
      if (pre && xa < 0 && xb >= 0) { /* B touches inside a step (integer exponents) */
        q s2 = poly_root(X, ORDER, sa, sb);
        s_end = s2;
        kind = 3;
      }
      if (pre && end_on_force && fa > 0 && fb <= 0) {
        q s2 = poly_root(F, ORDER - 1, sa, sb);
        /* f = |x|^m h vanishes at the touch too (m > 0): an end on the force is one clearly before it */
        if (s_end < 0 || s2 < s_end - 1e-20Q * fabsq(s_end)) {
          s_end = s2;
          kind = 2;
        }
      }
      q lim = (s_end >= 0) ? s_end : sb;
      /* maximum penetration and force extrema before the end: searched in [sa, lim], with the values
       * at lim where the interval ends early (as in ref_impact.c) */
      q le = lim; /* just before lim where the interval ends early (as in ref_impact.c) */
      if (s_end >= 0) {
        le = lim - (lim - sa) * 0x1p-24Q;
        vb = horner(V, ORDER, le);
        fdb = horner(FD, ORDER - 2, le);
      }
      if (!pre && va > 0 && vb <= 0) {
        q s = poly_root(V, ORDER, sa, le);
        if (s <= lim) {
          q xm = horner(X, ORDER, s);
          if (xm > xmax) {
            xmax = xm;
            txmax = t + s;
          }
        }
      }
      if ((fda > 0 && fdb <= 0) || (fda < 0 && fdb >= 0)) {
        q s = poly_root(FD, ORDER - 2, sa, le);
        if (s <= lim) {
          q fm = horner(F, ORDER - 1, s);
          if (fm > fmax) {
            fmax = fm;
            tfmax = t + s;
          }
          if (fm < fmin)
            fmin = fm;
        }
      }
      q fl = (s_end >= 0) ? horner(F, ORDER - 1, s_end) : fb;
      if (fl > fmax) {
        fmax = fl;
        tfmax = t + lim;
      }
      if (fl < fmin)
        fmin = fl;
      if (s_end >= 0) {
        q xe = horner(X, ORDER, s_end), ve = horner(V, ORDER, s_end);
        if (kind == 3) {
          touched = 1;
          t += s_end;
          x = 0;
          v = ve;
          break;
        }
        out->status = 0;
        set_out(&out->e_out, &out->e_out_lo, -ve);
        set_out(&out->t_contact, &out->t_contact_lo, t + s_end);
        if (kind != 1)
          set_out(&out->x_sep, &out->x_sep_lo, xe);
        ended = 1;
        break;
      }
      sa = sb;
      xa = xb;
      va = vb;
      fa = fb;
      fda = fdb;
    }
    if (ended)
      break;
    if (touched) { /* restart at x = 0 with speed v by the start expansion */
      pre = 0;
      q w = v, tau0 = start_tau(&S, w);
      start_state(&S, w, tau0, &x, &v);
      t += tau0;
      continue;
    }
    x = horner(X, ORDER, h);
    v = horner(V, ORDER, h);
    t += h;
    if (!(isfinite((double)x) && isfinite((double)v))) {
      out->status = 2;
      return 2;
    }
  }
  set_out(&out->f_max, &out->f_max_lo, fmax);
  out->f_min = (double)fmin;
  out->t_fmax = (double)tfmax;
  set_out(&out->x_max, &out->x_max_lo, xmax);
  out->t_xmax = (double)txmax;
  out->steps = steps;
  return 0;
}
