/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Generalised power series near δ = 0; see series.h for the derivation.
 *
 * Why our own code: no library offers series with non-integer exponent lattices. The recurrence is a
 * direct transcription of the coefficient matching in series.h, and tests/test_series.c checks it
 * against the closed-form undamped and Kelvin–Voigt solutions and against direct integration. */
#include "series.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int idx3(const impactfit__series *s, int j, int l, int q) {
  if (j < 0 || l < 0 || q < 0 || j + l + q > s->order || q > s->qmax)
    return -1;
  int N1 = s->order + 1;
  return s->index[(j * N1 + l) * N1 + q];
}

void impactfit__series_free(impactfit__series *s) {
  if (!s)
    return;
  free(s->j);
  free(s->l);
  free(s->q);
  free(s->e);
  free(s->c);
  free(s->s);
  free(s->ope);
  free(s->kap);
  free(s->ibe);
  free(s->top);
  free(s->ltop);
  free(s->index);
  free(s->pair_start);
  free(s->pair_b);
  free(s->pair_r);
  free(s->pair_db);
  free(s->work);
  free(s);
}

impactfit__series *impactfit__series_alloc(int order, int with_gamma) {
  impactfit__series *s = calloc(1, sizeof *s);
  if (!s)
    return NULL;
  s->order = order;
  s->qmax = with_gamma ? order : 0;
  s->n = s->m = NAN;
  int N1 = order + 1;
  size_t cap = (size_t)N1 * N1 * N1;
  s->index = malloc(cap * sizeof *s->index);
  s->j = malloc(cap * sizeof *s->j);
  s->l = malloc(cap * sizeof *s->l);
  s->q = malloc(cap * sizeof *s->q);
  s->top = malloc(cap * sizeof *s->top);
  s->ltop = malloc(cap * sizeof *s->ltop);
  if (!s->index || !s->j || !s->l || !s->q || !s->top || !s->ltop) {
    impactfit__series_free(s);
    return NULL;
  }
  for (size_t i = 0; i < cap; i++)
    s->index[i] = -1;
  /* Enumerate the simplex by total degree so that every recurrence reads earlier entries only. */
  size_t k = 0;
  for (int d = 0; d <= order; d++)
    for (int j = d; j >= 0; j--)
      for (int l = d - j; l >= 0; l--) {
        int q = d - j - l;
        if (q > s->qmax)
          continue;
        s->index[(j * N1 + l) * N1 + q] = (int)k;
        s->j[k] = j;
        s->l[k] = l;
        s->q[k] = q;
        if (d == order)
          s->top[s->ntop++] = (int)k;
        k++;
      }
  s->count = k;
  s->e = malloc(k * sizeof *s->e);
  s->c = malloc(k * sizeof *s->c);
  s->s = malloc(k * sizeof *s->s);
  s->ope = malloc(k * sizeof *s->ope);
  s->kap = malloc(k * sizeof *s->kap);
  s->ibe = malloc(k * sizeof *s->ibe);
  s->work = malloc(6 * k * sizeof *s->work);
  if (!s->e || !s->c || !s->s || !s->ope || !s->kap || !s->ibe || !s->work) {
    impactfit__series_free(s);
    return NULL;
  }
  /* the index pairs of every convolution, once: the recurrences then run over flat lists */
  size_t npairs = 0;
  for (size_t a = 0; a < k; a++)
    npairs += (size_t)(s->j[a] + 1) * (s->l[a] + 1) * (s->q[a] + 1);
  s->pair_start = malloc((k + 1) * sizeof *s->pair_start);
  s->pair_b = malloc(npairs * sizeof *s->pair_b);
  s->pair_r = malloc(npairs * sizeof *s->pair_r);
  s->pair_db = malloc(npairs * sizeof *s->pair_db);
  if (!s->pair_start || !s->pair_b || !s->pair_r || !s->pair_db) {
    impactfit__series_free(s);
    return NULL;
  }
  size_t np = 0;
  for (size_t a = 0; a < k; a++) {
    s->pair_start[a] = (int)np;
    int ja = s->j[a], la = s->l[a], qa = s->q[a];
    for (int j = 0; j <= ja; j++)
      for (int l = 0; l <= la; l++)
        for (int q = 0; q <= qa; q++) {
          s->pair_b[np] = idx3(s, j, l, q);
          s->pair_r[np] = idx3(s, ja - j, la - l, qa - q);
          s->pair_db[np] = j + l + q;
          np++;
        }
  }
  s->pair_start[k] = (int)np;
  return s;
}

/* Coefficient a of the product A·B of two series on the simplex. */
static double conv(const impactfit__series *s, const double *A, const double *B, int a) {
  double sum = 0.0;
  for (int k = s->pair_start[a]; k < s->pair_start[a + 1]; k++)
    sum += A[s->pair_b[k]] * B[s->pair_r[k]];
  return sum;
}

/* Coefficient a of P = V^p (V_0 = 1), given P at all lower indices (Miller's recurrence). */
static double power_coef(const impactfit__series *s, const double *V, const double *P, double p, int a) {
  int da = s->j[a] + s->l[a] + s->q[a];
  double sum = 0.0;
  for (int k = s->pair_start[a]; k < s->pair_start[a + 1]; k++) {
    int db = s->pair_db[k];
    if (db == 0)
      continue;
    sum += (p * db - (da - db)) * V[s->pair_b[k]] * P[s->pair_r[k]];
  }
  return sum / da;
}

void impactfit__series_set(impactfit__series *s, double n, double m) {
  if (s->n == n && s->m == m)
    return;
  s->n = n;
  s->m = m;
  size_t K = s->count;
  double *V = s->c, *P = s->work, *Q = P + K, *D = Q + K, *R = D + K, *DD = R + K;
  double alpha = n + 1.0, beta = m + 1.0;
  for (size_t a = 0; a < K; a++)
    s->e[a] = s->j[a] * alpha + s->l[a] * beta + s->q[a];
  V[0] = P[0] = Q[0] = D[0] = R[0] = DD[0] = 1.0;
  size_t start = 1;
  for (int d = 1; d <= s->order; d++) {
    size_t end = start;
    while (end < K && s->j[end] + s->l[end] + s->q[end] == d)
      end++;
    /* c_a from the equation, using P, R of lower degree. */
    for (size_t a = start; a < end; a++) {
      int j = s->j[a], l = s->l[a], q = s->q[a];
      double rhs = 0.0;
      int ip = idx3(s, j - 1, l, q), ir = idx3(s, j, l - 1, q);
      if (ip >= 0)
        rhs -= P[ip];
      if (ir >= 0)
        rhs -= R[ir];
      if (j == 0 && l == 0 && q == 1)
        rhs += 1.0;
      V[a] = rhs / ((1.0 + s->e[a]) * s->e[a]);
      D[a] = (1.0 + s->e[a]) * V[a];
    }
    /* Integer powers by products (Miller's recurrence cancels in its highest terms: for p = 1 it
     * loses ~6 digits by degree 12, harmless there but avoidable). */
    for (size_t a = start; a < end; a++) {
      P[a] = (n == 1.0) ? V[a] : (n == 2.0) ? conv(s, V, V, (int)a) : power_coef(s, V, P, n, (int)a);
      Q[a] = (m == 0.0) ? 0.0 : (m == 1.0) ? V[a] : (m == 2.0) ? conv(s, V, V, (int)a) : power_coef(s, V, Q, m, (int)a);
    }
    for (size_t a = start; a < end; a++) {
      R[a] = (m == 0.0) ? D[a] : conv(s, Q, D, (int)a); /* Q = V^0 = 1 */
      DD[a] = conv(s, D, D, (int)a);
    }
    start = end;
  }
  /* Damping-work series S = Q · D · D. */
  for (size_t a = 0; a < K; a++)
    s->s[a] = (m == 0.0) ? DD[a] : conv(s, Q, DD, (int)a);
  for (size_t a = 0; a < K; a++) {
    s->ope[a] = 1.0 + s->e[a];
    s->kap[a] = 1.0 + s->j[a] * (n - 1.0) + s->l[a] * m - s->q[a];
    s->ibe[a] = 1.0 / (beta + s->e[a]);
  }
  for (size_t t = 0; t < s->ntop; t++) {
    int a = s->top[t];
    s->ltop[t] = (s->c[a] == 0.0) ? -INFINITY : log(fabs(s->c[a]) * (1.0 + s->e[a]));
  }
}

void impactfit__series_point_set(impactfit__series_point *pt, const impactfit__series *s, double K, double zeta,
                                 double gamma, double w) {
  pt->w = w;
  pt->g[0] = K * pow(w, s->n - 1.0);
  pt->g[1] = zeta * (s->m == 0.0 ? 1.0 : pow(w, s->m));
  pt->g[2] = gamma / w;
  pt->zeta_abs = fabs(zeta);
}

/* The rule below, on every top term (kept for series larger than the engine's). */
static double radius_rule(const impactfit__series *s, const impactfit__series_point *pt, const double lg[3],
                          double ltol) {
  double alpha = s->n + 1.0, beta = s->m + 1.0, r = INFINITY, lr = INFINITY;
  for (size_t t = 0; t < s->ntop; t++) {
    int a = s->top[t];
    int j = s->j[a], l = s->l[a], q = s->q[a];
    if (s->c[a] == 0.0 || (l > 0 && pt->g[1] == 0.0) || (q > 0 && pt->g[2] == 0.0))
      continue;
    double lgsum = (j ? j * lg[0] : 0.0) + (l ? l * lg[1] : 0.0) + (q ? q * lg[2] : 0.0);
    double ltau = (ltol - s->ltop[t] - lgsum) / (j * alpha + l * beta + q);
    if (ltau < lr) {
      r = exp(ltau);
      lr = log(r);
    }
  }
  return r;
}

/* The rule: in the order of the top terms, r = exp(ltau) whenever ltau < log(r) (log taken once per
 * new r). Its result is exp(ltau) of a term within the rounding of log(exp(·)) of the smallest ltau,
 * so the rule is run on those terms only (ltau within a margin far above that rounding of the
 * minimum): the same r to the bit, with one exp and log per call instead of one per decreasing term
 * (the arrival series is tried after every step of a restitution phase: issue 34). A term above the
 * margin that the full rule selects before them leaves log(r) above every one of them, which is the
 * same as starting them from r = ∞. */
double impactfit__series_radius(const impactfit__series *s, const impactfit__series_point *pt, double tol) {
  return impactfit__series_radius_arg(s, pt, tol, NULL);
}

int impactfit__series_beyond_bound(const impactfit__series *s, double lk, double lz, double lg, double lw, double ltol,
                                   double lx, size_t term) {
  if (term >= s->ntop)
    return 0;
  int a = s->top[term];
  int j = s->j[a], l = s->l[a], q = s->q[a];
  /* no bound from a zero term or a zero g (ln = -inf), as the radius skips those terms */
  if (s->c[a] == 0.0 || (l > 0 && !(lz > -INFINITY)) || (q > 0 && !(lg > -INFINITY)))
    return 0;
  double l0 = lk + (s->n - 1.0) * lw, l1 = lz + s->m * lw, l2 = lg - lw;
  /* ln g within the normal doubles (an underflowing g is 0 to the bound, an overflowing one inf) */
  if ((j && !(fabs(l0) < 700.0)) || (l && !(fabs(l1) < 700.0)) || (q && !(fabs(l2) < 700.0)))
    return 0;
  double lgsum = (j ? j * l0 : 0.0) + (l ? l * l1 : 0.0) + (q ? q * l2 : 0.0);
  double e = j * (s->n + 1.0) + l * (s->m + 1.0) + q;
  double lt = (ltol - s->ltop[term] - lgsum) / e;
  return lx >= lt + 4e-9 * (1.0 + fabs(lt));
}

double impactfit__series_radius_arg(const impactfit__series *s, const impactfit__series_point *pt, double tol,
                                    size_t *term) {
  if (term)
    *term = 0;
  double alpha = s->n + 1.0, beta = s->m + 1.0;
  double lg[3] = {log(fabs(pt->g[0])), pt->g[1] != 0.0 ? log(fabs(pt->g[1])) : 0.0,
                  pt->g[2] != 0.0 ? log(fabs(pt->g[2])) : 0.0};
  double ltol = log(tol), lmin = INFINITY;
  double lt[256]; /* ntop ≤ (order + 1)(order + 2)/2: 13 and 45 for the engine's two series */
  size_t nt = s->ntop;
  if (nt > sizeof lt / sizeof lt[0])
    return radius_rule(s, pt, lg, ltol);
  for (size_t t = 0; t < nt; t++) {
    int a = s->top[t];
    int j = s->j[a], l = s->l[a], q = s->q[a];
    lt[t] = INFINITY;
    if (s->c[a] == 0.0 || (l > 0 && pt->g[1] == 0.0) || (q > 0 && pt->g[2] == 0.0))
      continue;
    /* |c_a| (1+e_a) g1^j g2^l g3^q τ^(e_a) ≤ tol */
    double lc = s->ltop[t];
    double lgsum = (j ? j * lg[0] : 0.0) + (l ? l * lg[1] : 0.0) + (q ? q * lg[2] : 0.0);
    double e = j * alpha + l * beta + q;
    lt[t] = (ltol - lc - lgsum) / e;
    if (lt[t] < lmin)
      lmin = lt[t];
  }
  if (!(lmin < INFINITY))
    return INFINITY;
  if (lmin == -INFINITY)
    return 0.0; /* the rule's exp(−∞) */
  double margin = 1e-9 * (1.0 + fabs(lmin)), r = INFINITY, lr = INFINITY;
  for (size_t t = 0; t < nt; t++)
    if (lt[t] <= lmin + margin && lt[t] < lr) {
      r = exp(lt[t]);
      lr = log(r);
      if (term)
        *term = t;
    }
  return r;
}

void impactfit__series_eval(const impactfit__series *s, const impactfit__series_point *pt, double tau, double *x,
                            double *xd, double *work, double *dx_dw, double *dxd_dw) {
  int N = s->order;
  double u1[64], u2[64], u3[64];
  double alpha = s->n + 1.0, beta = s->m + 1.0;
  double lt = (tau > 0.0) ? log(tau) : -INFINITY;
  /* τ^(m+1) once (the work's factor too), and τ^(n+1) from it where m = n (the same doubles) */
  double tb = exp(beta * lt), ta = alpha == beta ? tb : exp(alpha * lt);
  double v1 = pt->g[0] * ta, v2 = pt->g[1] * tb, v3 = pt->g[2] * tau;
  u1[0] = u2[0] = u3[0] = 1.0;
  for (int i = 1; i <= N; i++) {
    u1[i] = u1[i - 1] * v1;
    u2[i] = u2[i - 1] * v2;
  }
  for (int i = 1; i <= s->qmax; i++) /* the γ terms' powers (none without gravity: q = 0) */
    u3[i] = u3[i - 1] * v3;
  double sx = 0.0, sxd = 0.0, sw = 0.0, sdx = 0.0, sdxd = 0.0;
  int deriv = (dx_dw || dxd_dw);
  /* Sum from the highest degree down so that the small terms are added first. The common cases
   * (no derivatives; without γ terms u3[0] = 1, so the product is the same double without it) have
   * loops of their own: the same sums in the same order, fewer operations (issue 34). */
  if (!deriv && !s->qmax && work) {
    for (size_t a = s->count; a-- > 0;) {
      double u = u1[s->j[a]] * u2[s->l[a]];
      double t = s->c[a] * u;
      sx += t;
      sxd += s->ope[a] * t;
      sw += s->s[a] * u * s->ibe[a];
    }
  } else if (!deriv && !s->qmax) {
    for (size_t a = s->count; a-- > 0;) {
      double t = s->c[a] * (u1[s->j[a]] * u2[s->l[a]]);
      sx += t;
      sxd += s->ope[a] * t;
    }
  } else {
    for (size_t a = s->count; a-- > 0;) {
      double u = u1[s->j[a]] * u2[s->l[a]] * u3[s->q[a]];
      double t = s->c[a] * u;
      sx += t;
      sxd += s->ope[a] * t;
      if (deriv) {
        sdx += s->kap[a] * t;
        sdxd += s->ope[a] * s->kap[a] * t;
      }
      if (work)
        sw += s->s[a] * u * s->ibe[a];
    }
  }
  double w = pt->w;
  if (x)
    *x = w * tau * sx;
  if (xd)
    *xd = w * sxd;
  if (dx_dw)
    *dx_dw = tau * sdx;
  if (dxd_dw)
    *dxd_dw = sdxd;
  if (work) {
    /* W = |ζ| w^(m+2) τ^(m+1) Σ s_a u^a / (m+1+e_a) */
    double wm = (s->m == 0.0) ? 1.0 : pow(w, s->m);
    *work = pt->zeta_abs * wm * w * w * tb * sw;
  }
}
