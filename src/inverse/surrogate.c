/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Chebyshev surrogates of the exact inverse solution (include/impactfit/surrogate.h). */
#include <float.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "../common/common_impl.h"
#include "impactfit/codegen.h"
#include "../common/io_impl.h"
#include "impactfit/inverse.h"
#include "impactfit/surrogate.h"
#include "impactfit/version.h"

#define R_MIN_LOG (-23.025850929940457) /* ln 1e-10: the r piece ends at e = 1 − 1e-10 */
#define MAX_BLOCKS (2 * IMPACTFIT_SURROGATE_MAX_PIECES)
#define MAX_N01 61 /* nodes in n and in m (s) */
#define MAX_N2 121 /* nodes in v */

/* A block: one piece of the m range × one piece of the e range (P = 0: v = ln e, 1: v = ln(1 − e)),
 * a tensor-product Chebyshev series in (n, s, v) whose coefficients are stored row by row
 * (row = (i, j), the index in v fastest), each row truncated to len[row] coefficients. */
typedef struct block {
  double lo[3], hi[3]; /* n, m (legacy layout only; pieces map m to s ∈ [0, 1]), v */
  int N[3];            /* nodes = degree + 1 */
  double *coef;        /* kept coefficients, halving of index 0 folded in */
  unsigned short *len; /* per row; every row has N[2] before truncation */
  size_t kept;
} block;

struct impactfit_surrogate {
  impactfit_surrogate_spec spec;
  char name[64];
  int legacy; /* no pieces and no truncation: the c_opt surrogate's layout, evaluation and header */
  int np;     /* pieces (1 for a specification without pieces) */
  impactfit_surrogate_piece pc[IMPACTFIT_SURROGATE_MAX_PIECES];
  block b[MAX_BLOCKS]; /* block 2j + P */
};

impactfit_surrogate_spec impactfit_surrogate_copt_spec(void) {
  impactfit_surrogate_spec s;
  memset(&s, 0, sizeof s);
  s.name = "copt";
  s.transition = impactfit_transition_C;
  s.n_lo = 1.0;
  s.n_hi = 2.0;
  s.m_lo = s.m_hi = 0.0;
  s.e_lo = 1e-4;
  s.e_split = 0.5;
  s.deg_n = 14;
  s.deg_m = 0;
  s.deg_t = 36;
  s.deg_r = 64;
  s.check_points = 400;
  s.seed = 20201;
  return s;
}

static impactfit_surrogate_piece piece(double lo_const, double lo_n, double hi_const, double hi_n, double grade,
                                       const int deg_t[3], const int deg_r[3]) {
  impactfit_surrogate_piece p;
  memset(&p, 0, sizeof p);
  p.lo_const = lo_const;
  p.lo_n = lo_n;
  p.hi_const = hi_const;
  p.hi_n = hi_n;
  p.grade = grade;
  memcpy(p.deg[0], deg_t, sizeof p.deg[0]);
  memcpy(p.deg[1], deg_r, sizeof p.deg[1]);
  return p;
}

/* The degrees were chosen by measurement (max |e_out − e| on held-out points; the banners of the
 * committed headers state the result):
 *  - C, m ∈ [0, n]: the boundary layer below m = n (see surrogate.h) needs the grading 3 and
 *    degree ~48 in s and in t for e ≤ 1/2 (at fixed n = 1.5: 1e-8 in y along s; 1.5e-8 in e along
 *    t at m = n − 1e-3, against 2e-7 with degree 32); above e = 1/2, y is analytic across m = n
 *    and degree 24 in s suffices. Without the grading, degree 48 in m leaves ~1e-6 in y.
 *  - C, m ∈ [n, 2] and A: analytic in m; A's y varies most (0.2 at m = 0 to 4.8 at m = n for
 *    e = 0.01), hence its higher degree in s below m = n.
 *  - r = ln(1 − e) ∈ [ln 1e-10, ln 1/2]: y has a logarithmic singularity at r = 0 (e = 0), 0.69
 *    past the end of the interval, so degree 64 (48 leaves 1e-6 near e = 1/2); most of its mixed
 *    terms are negligible and dropped (drop = 1e-9).
 * Measured on 10000 held-out points (seed 7): max |e_out − e| = 4.1e-8 (C, at m = 1.94, e = 0.54),
 * 1.8e-8 (A, at m = 0.08, e = 0.010); 30442 and 15133 coefficients stored. */
impactfit_surrogate_spec impactfit_surrogate_zhang_spec(const impactfit_transition *tr) {
  impactfit_surrogate_spec s;
  memset(&s, 0, sizeof s);
  int is_a = (tr == impactfit_transition_A);
  s.name = is_a ? "zhang_a" : "zhang_c";
  s.transition = tr;
  s.n_lo = 1.0;
  s.n_hi = 2.0;
  s.m_lo = 0.0;
  s.m_hi = 2.0;
  s.e_lo = 0.01;
  s.e_split = 0.5;
  s.check_points = 2000;
  s.seed = 20211;
  s.n_pieces = 2;
  if (is_a) {
    const int lo_t[3] = {12, 32, 24}, lo_r[3] = {12, 24, 64}, hi_t[3] = {12, 16, 24}, hi_r[3] = {12, 16, 64};
    s.piece[0] = piece(0.0, 0.0, 0.0, 1.0, 1.0, lo_t, lo_r);
    s.piece[1] = piece(0.0, 1.0, 2.0, 0.0, 1.0, hi_t, hi_r);
  } else {
    const int lo_t[3] = {12, 48, 48}, lo_r[3] = {12, 24, 64}, hi_t[3] = {12, 16, 24}, hi_r[3] = {12, 16, 64};
    s.piece[0] = piece(0.0, 0.0, 0.0, 1.0, 3.0, lo_t, lo_r);
    s.piece[1] = piece(0.0, 1.0, 2.0, 0.0, 1.0, hi_t, hi_r);
  }
  s.drop = 1e-9;
  return s;
}

void impactfit_surrogate_free(impactfit_surrogate *s) {
  if (!s)
    return;
  for (int b = 0; b < MAX_BLOCKS; b++) {
    free(s->b[b].coef);
    free(s->b[b].len);
  }
  free(s);
}

static double node(int k, int N) { return cos(IMPACTFIT__PI * (k + 0.5) / N); }

static double to_unit(double x, double lo, double hi) { return (hi > lo) ? (2.0 * x - lo - hi) / (hi - lo) : 0.0; }

/* Chebyshev polynomials T_0..T_{N−1} at u. */
static void cheb_t(double u, int N, double *T) {
  T[0] = 1.0;
  if (N > 1)
    T[1] = u;
  for (int i = 2; i < N; i++)
    T[i] = 2.0 * u * T[i - 1] - T[i - 2];
}

static double series(const block *b, double u0, double u1, double u2) {
  double Tn[MAX_N01 + 3], Tm[MAX_N01 + 3], Tt[MAX_N2 + 7];
  cheb_t(u0, b->N[0], Tn);
  cheb_t(u1, b->N[1], Tm);
  cheb_t(u2, b->N[2], Tt);
  double y = 0.0;
  const double *c = b->coef;
  for (int i = 0; i < b->N[0]; i++)
    for (int j = 0; j < b->N[1]; j++) {
      int L = b->len[i * b->N[1] + j];
      if (!L)
        continue;
      double a = 0.0;
      for (int k = 0; k < L; k++)
        a += c[k] * Tt[k];
      y += Tn[i] * Tm[j] * a;
      c += L;
    }
  return y;
}

/* The ends of piece j at n. */
static double piece_lo(const impactfit_surrogate_piece *p, double n) { return p->lo_const + p->lo_n * n; }
static double piece_hi(const impactfit_surrogate_piece *p, double n) { return p->hi_const + p->hi_n * n; }

/* m of piece p at n for s ∈ [0, 1], and its inverse. */
static double piece_m(const impactfit_surrogate_piece *p, double n, double s) {
  double lo = piece_lo(p, n), hi = piece_hi(p, n);
  double g = (p->grade == 1.0) ? s : 1.0 - pow(1.0 - s, p->grade);
  return lo + (hi - lo) * g;
}
static double piece_s(const impactfit_surrogate_piece *p, double n, double m) {
  double lo = piece_lo(p, n), hi = piece_hi(p, n);
  double w = (hi > lo) ? (m - lo) / (hi - lo) : 0.0;
  if (w < 0.0)
    w = 0.0;
  if (w > 1.0)
    w = 1.0;
  return (p->grade == 1.0) ? w : 1.0 - pow(1.0 - w, 1.0 / p->grade);
}

static double eval_y(const impactfit_surrogate *s, double n, double m, double e) {
  int P = (e <= s->spec.e_split) ? 0 : 1;
  double v = P ? log1p(-e) : log(e);
  if (P && v < R_MIN_LOG)
    v = R_MIN_LOG;
  if (s->legacy) {
    const block *b = &s->b[P];
    return series(b, to_unit(n, b->lo[0], b->hi[0]), to_unit(m, b->lo[1], b->hi[1]), to_unit(v, b->lo[2], b->hi[2]));
  }
  int j = 0;
  while (j + 1 < s->np && m > piece_hi(&s->pc[j], n))
    j++;
  const block *b = &s->b[2 * j + P];
  double u1 = 2.0 * piece_s(&s->pc[j], n, m) - 1.0;
  return series(b, to_unit(n, b->lo[0], b->hi[0]), u1, to_unit(v, b->lo[2], b->hi[2]));
}

static int in_box(const impactfit_surrogate *s, double n, double m, double e) {
  return n >= s->spec.n_lo && n <= s->spec.n_hi && m >= s->spec.m_lo && m <= s->spec.m_hi && e >= s->spec.e_lo &&
         e <= 1.0;
}

int impactfit_surrogate_zeta(const impactfit_surrogate *s, double n, double m, double e, double *zeta,
                             impactfit_error *err) {
  if (!s || !zeta)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no surrogate given");
  if (!in_box(s, n, m, e))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "(n, m, e) = (%g, %g, %g) is outside the surrogate's box n in [%g, %g], "
                           "m in [%g, %g], e in [%g, 1]",
                           n, m, e, s->spec.n_lo, s->spec.n_hi, s->spec.m_lo, s->spec.m_hi, s->spec.e_lo);
  *zeta = (e == 1.0) ? 0.0 : exp(eval_y(s, n, m, e)) * (1.0 - e);
  return 0;
}

static unsigned long long lcg(unsigned long long *st) {
  *st = *st * 6364136223846793005ULL + 1442695040888963407ULL;
  return *st;
}
static double unif(unsigned long long *st) { return (lcg(st) >> 11) * (1.0 / 9007199254740992.0); }

/* ---- checking a specification ----------------------------------------------------------------- */

static int valid_degrees(int dn, int dm, int dv, int lo_v) {
  return dn >= 0 && dn < MAX_N01 && dm >= 0 && dm < MAX_N01 && dv >= lo_v && dv < MAX_N2;
}

/* long: a flat validation list, one check and one message per field of the specification */
static int check_spec(const impactfit_surrogate_spec *spec, impactfit_error *err) {
  if (!spec->name || !spec->name[0] || strlen(spec->name) >= 64)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "surrogate name must have 1..63 characters");
  for (const char *p = spec->name; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "surrogate name '%s': use [a-z0-9_]", spec->name);
  if (!spec->transition)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no transition condition given");
  if (!(spec->n_lo > 0.0 && spec->n_hi >= spec->n_lo && spec->m_lo >= 0.0 && spec->m_hi >= spec->m_lo &&
        spec->e_lo > 0.0 && spec->e_lo < 1.0 && isfinite(spec->n_hi) && isfinite(spec->m_hi)))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "invalid surrogate box");
  if (!(spec->e_split > spec->e_lo && spec->e_split < 1.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "invalid surrogate split or degree in ln(1 - e)");
  if (!(spec->drop >= 0.0 && spec->drop < 1e-3))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "truncation bound must be in [0, 1e-3) (got %.17g)", spec->drop);
  if (spec->check_points < 0 || spec->check_points > 1000000)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "held-out points: 0 .. 1000000 (got %d)", spec->check_points);
  int fixed_n = (spec->n_hi == spec->n_lo);
  if (spec->n_pieces == 0) {
    if (!valid_degrees(spec->deg_n, spec->deg_m, spec->deg_t, 1) || (fixed_n && spec->deg_n) ||
        (spec->m_hi == spec->m_lo && spec->deg_m))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "invalid surrogate degrees");
    if (spec->deg_r < 1 || spec->deg_r >= MAX_N2)
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "invalid surrogate split or degree in ln(1 - e)");
    return 0;
  }
  if (spec->n_pieces < 0 || spec->n_pieces > IMPACTFIT_SURROGATE_MAX_PIECES)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "pieces in m: 0 .. %d (got %d)", IMPACTFIT_SURROGATE_MAX_PIECES,
                           spec->n_pieces);
  const double ends[2] = {spec->n_lo, spec->n_hi};
  for (int j = 0; j < spec->n_pieces; j++) {
    const impactfit_surrogate_piece *p = &spec->piece[j];
    if (!(p->grade >= 1.0 && p->grade <= 8.0))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "piece %d: grade must be in [1, 8] (got %.17g)", j, p->grade);
    if (!(isfinite(p->lo_const) && isfinite(p->lo_n) && isfinite(p->hi_const) && isfinite(p->hi_n)))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "piece %d: ends must be finite", j);
    int zero_width = 1;
    for (int q = 0; q < 2; q++) {
      double lo = piece_lo(p, ends[q]), hi = piece_hi(p, ends[q]);
      if (!(hi >= lo))
        return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "piece %d: m from %g to %g at n = %g", j, lo, hi, ends[q]);
      if (hi > lo)
        zero_width = 0;
    }
    for (int P = 0; P < 2; P++)
      if (!valid_degrees(p->deg[P][0], p->deg[P][1], p->deg[P][2], 1) || (fixed_n && p->deg[P][0]) ||
          (zero_width && p->deg[P][1]))
        return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "piece %d: invalid degrees for e piece %d", j, P);
    /* tiling: the first starts at m_lo, each ends where the next starts, the last ends at m_hi */
    if (j == 0 && !(p->lo_n == 0.0 && p->lo_const == spec->m_lo))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "the first piece must start at m = m_lo");
    if (j + 1 < spec->n_pieces && !(p->hi_const == spec->piece[j + 1].lo_const && p->hi_n == spec->piece[j + 1].lo_n))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "piece %d must end where piece %d starts", j, j + 1);
    if (j + 1 == spec->n_pieces && !(p->hi_n == 0.0 && p->hi_const == spec->m_hi))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "the last piece must end at m = m_hi");
  }
  return 0;
}

/* ---- building ------------------------------------------------------------------------------- */

/* Drops trailing coefficients of every row: the largest threshold τ such that the coefficients
 * below τ at the ends of the rows sum to at most `drop` in absolute value. Compacts b->coef. */
static void truncate_block(block *b, double drop) {
  int R = b->N[0] * b->N[1], N2 = b->N[2];
  double cmax = 0.0;
  for (size_t i = 0; i < (size_t)R * N2; i++)
    cmax = fmax(cmax, fabs(b->coef[i]));
  double lo = -800.0, hi = log(cmax + DBL_MIN) + 1.0; /* ln τ: dropped(lo) = 0 ≤ drop < dropped(hi) */
  for (int it = 0; it < 200 && drop > 0.0; it++) {
    double mid = 0.5 * (lo + hi), tau = exp(mid), sum = 0.0;
    for (int r = 0; r < R && sum <= drop; r++) {
      const double *c = b->coef + (size_t)r * N2;
      for (int k = N2 - 1; k >= 0 && fabs(c[k]) < tau; k--)
        sum += fabs(c[k]);
    }
    if (sum <= drop)
      lo = mid;
    else
      hi = mid;
  }
  double tau = (drop > 0.0) ? exp(lo) : 0.0;
  size_t w = 0;
  for (int r = 0; r < R; r++) {
    const double *c = b->coef + (size_t)r * N2;
    int L = N2;
    while (L > 0 && fabs(c[L - 1]) < tau)
      L--;
    b->len[r] = (unsigned short)L;
    memmove(b->coef + w, c, (size_t)L * sizeof *c);
    w += (size_t)L;
  }
  b->kept = w;
}

/* Exact y at the nodes of block bi and its Chebyshev coefficients. */
static int build_block(impactfit_surrogate *s, int bi, impactfit_error *err) {
  const impactfit_surrogate_spec *spec = &s->spec;
  block *b = &s->b[bi];
  const impactfit_surrogate_piece *pc = &s->pc[bi / 2];
  int P = bi % 2;
  int N0 = b->N[0], N1 = b->N[1], N2 = b->N[2];
  size_t total = (size_t)N0 * N1 * N2;
  double *F = malloc(total * sizeof *F), *G = malloc(total * sizeof *G);
  b->coef = malloc(total * sizeof *b->coef);
  b->len = malloc((size_t)N0 * N1 * sizeof *b->len);
  if (!F || !G || !b->coef || !b->len) {
    free(F);
    free(G);
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory for %zu coefficients", total);
  }
  /* exact y at the nodes: one continuation run over the e nodes per (n, m) node */
  int fail = 0;
  impactfit_error first;
  impactfit_error_clear(&first);
#pragma omp parallel
  {
    impactfit_inverse_workspace *ws = impactfit_inverse_alloc();
    double e[MAX_N2];
    int kk[MAX_N2];
    impactfit_inverse_result r[MAX_N2];
    int st[MAX_N2];
#pragma omp for schedule(dynamic, 1)
    for (int ij = 0; ij < N0 * N1; ij++) {
      int i = ij / N1, j = ij % N1;
      impactfit_inverse_params p = impactfit_inverse_default_params();
      p.n = (N0 > 1) ? 0.5 * (b->lo[0] + b->hi[0]) + 0.5 * (b->hi[0] - b->lo[0]) * node(i, N0) : b->lo[0];
      if (s->legacy)
        p.m = (N1 > 1) ? 0.5 * (b->lo[1] + b->hi[1]) + 0.5 * (b->hi[1] - b->lo[1]) * node(j, N1) : b->lo[1];
      else
        p.m = piece_m(pc, p.n, (N1 > 1) ? 0.5 + 0.5 * node(j, N1) : 0.0);
      p.transition = spec->transition;
      p.tol = 1e-12;
      p.surrogate_guess = 0; /* independent of the committed surrogate */
      /* the nodes in increasing e, for the continuation: node(k) decreases with k, so e rises
       * with k in the r piece (e = 1 − e^v) and falls with k in the t piece (e = e^v) */
      for (int q = 0; q < N2; q++) {
        int k = (P == 0) ? N2 - 1 - q : q;
        double v = 0.5 * (b->lo[2] + b->hi[2]) + 0.5 * (b->hi[2] - b->lo[2]) * node(k, N2);
        e[q] = (P == 0) ? exp(v) : -expm1(v);
        kk[q] = k;
      }
      impactfit_error e1;
      impactfit_error_clear(&e1);
      if (!ws || impactfit_inverse_solve_run(ws, &p, e, (size_t)N2, r, st, &e1)) {
#pragma omp critical
        {
          if (!fail) {
            first = e1;
            if (!ws)
              IMPACTFIT__FAIL(&first, IMPACTFIT_ENOMEM, "out of memory");
          }
          fail = 1;
        }
        continue;
      }
      for (int q = 0; q < N2; q++)
        F[((size_t)i * N1 + j) * N2 + kk[q]] = log(r[q].zeta) - log1p(-e[q]);
    }
    impactfit_inverse_free(ws);
  }
  if (fail) {
    free(F);
    free(G);
    if (err)
      *err = first;
    return first.status ? first.status : IMPACTFIT_ENOCONV;
  }
  /* c = Π_d (2/N_d) Σ_k f cos(π a (k+½)/N_d), one dimension at a time; index 0 halved */
  int N[3] = {N0, N1, N2};
  double *src = F, *dst = G;
  for (int d = 0; d < 3; d++) {
    size_t stride = (d == 0) ? (size_t)N1 * N2 : (d == 1) ? (size_t)N2 : 1;
    int Nd = N[d];
    for (size_t base = 0; base < total; base++) {
      size_t idx = (base / stride) % (size_t)Nd;
      size_t start = base - idx * stride;
      double sum = 0.0;
      for (int k = 0; k < Nd; k++)
        sum += src[start + k * stride] * cos(IMPACTFIT__PI * idx * (k + 0.5) / Nd);
      double c = (2.0 / Nd) * sum;
      if (idx == 0)
        c *= 0.5;
      dst[base] = c;
    }
    double *tmp = src;
    src = dst;
    dst = tmp;
  }
  memcpy(b->coef, src, total * sizeof *b->coef);
  for (int r = 0; r < N0 * N1; r++)
    b->len[r] = (unsigned short)N2;
  b->kept = total;
  if (spec->drop > 0.0)
    truncate_block(b, spec->drop);
  free(F);
  free(G);
  return 0;
}

/* Held-out points: n uniform; m uniform, or (with pieces, every third point) within 10^(−U(1, 7))
 * of an inner piece boundary (relative to the width of the piece on that side); e uniform in ln e
 * over [e_lo, 1] or in ln(1 − e) over [1e-10, 1 − e_lo], alternately. */
static void held_out_point(const impactfit_surrogate *s, int q, unsigned long long *rs, double *pt) {
  const impactfit_surrogate_spec *spec = &s->spec;
  pt[0] = spec->n_lo + (spec->n_hi - spec->n_lo) * unif(rs);
  pt[1] = spec->m_lo + (spec->m_hi - spec->m_lo) * unif(rs);
  if (!s->legacy && s->np > 1 && q % 3 == 2) {
    int j = (int)(unif(rs) * (s->np - 1)); /* boundary between pieces j and j + 1 */
    if (j > s->np - 2)
      j = s->np - 2;
    double bnd = piece_hi(&s->pc[j], pt[0]), h = pow(10.0, -1.0 - 6.0 * unif(rs));
    if (unif(rs) < 0.5)
      pt[1] = bnd - h * (bnd - piece_lo(&s->pc[j], pt[0]));
    else
      pt[1] = bnd + h * (piece_hi(&s->pc[j + 1], pt[0]) - bnd);
    pt[1] = fmin(fmax(pt[1], spec->m_lo), spec->m_hi);
  }
  if (q % 2 == 0)
    pt[2] = exp(log(spec->e_lo) * unif(rs));
  else
    pt[2] = -expm1(R_MIN_LOG + (log1p(-spec->e_lo) - R_MIN_LOG) * unif(rs));
}

/* The deterministic points of the check at the edges and seams of the box, where a random sample
 * rarely lands and the largest errors sit: n at both ends and the middle; m at both ends and, for
 * each boundary between pieces, on it and 1e-9 of the piece width on both sides; e at e_lo, on both
 * sides of the split (one unit of rounding and 1e-6 away, and on it), 1 − 1e-9 and 1. Then a scan of
 * the split across the box, where the two halves of the series meet: n at SEAM_N equally spaced
 * values; m at SEAM_M equally spaced values and, below each piece boundary, at SEAM_B equally spaced
 * values over the last tenth of the piece (where the Zhang C header's seam error peaks, at m ≈ 0.96 n);
 * one m where the box has one; e at the five points around the split. An independent audit found the
 * Zhang C header's seam 20 % above the figure measured at the ends of m only; on this scan the figure
 * is within 1 % of the seam's maximum on a four times finer one. With pt NULL, returns their number;
 * otherwise writes point q (0 ≤ q < that number). */
#define SEAM_N 17
#define SEAM_M 65
#define SEAM_B 33
static int edge_point(const impactfit_surrogate *s, int q, double *pt) {
  const impactfit_surrogate_spec *spec = &s->spec;
  double es = spec->e_split;
  const double e_list[] = {spec->e_lo,         es - 1e-6, nextafter(es, 0.0), es,
                           nextafter(es, 1.0), es + 1e-6, 1.0 - 1e-9,         1.0};
  const int ne = (int)(sizeof e_list / sizeof e_list[0]);
  int nb = (!s->legacy && s->np > 1) ? s->np - 1 : 0, nm = 2 + 3 * nb, corners = 3 * nm * ne;
  int sm = (spec->m_hi > spec->m_lo) ? SEAM_M + SEAM_B * nb : 1, total = corners + SEAM_N * sm * 5;
  if (!pt)
    return total;
  if (q >= corners) { /* the seam scan */
    int k = q - corners, ie = k % 5, im = (k / 5) % sm, in = k / (5 * sm);
    double n = spec->n_lo + (spec->n_hi - spec->n_lo) * in / (SEAM_N - 1.0), m = spec->m_lo;
    if (sm > 1 && im < SEAM_M) {
      m = spec->m_lo + (spec->m_hi - spec->m_lo) * im / (SEAM_M - 1.0);
    } else if (sm > 1) { /* below boundary j: the last tenth of piece j */
      int j = (im - SEAM_M) / SEAM_B, i = (im - SEAM_M) % SEAM_B;
      double bnd = piece_hi(&s->pc[j], n), w = bnd - piece_lo(&s->pc[j], n);
      m = fmin(fmax(bnd - 0.1 * w * (1.0 - i / (SEAM_B - 1.0)), spec->m_lo), spec->m_hi);
    }
    pt[0] = n;
    pt[1] = m;
    pt[2] = e_list[1 + ie];
    return total;
  }
  int ie = q % ne, im = (q / ne) % nm, in = q / (ne * nm);
  double n = (in == 0) ? spec->n_lo : (in == 1) ? 0.5 * (spec->n_lo + spec->n_hi) : spec->n_hi, m;
  if (im < 2) {
    m = (im == 0) ? spec->m_lo : spec->m_hi;
  } else {
    int j = (im - 2) / 3, side = (im - 2) % 3 - 1; /* −1, 0, +1 */
    double bnd = piece_hi(&s->pc[j], n);
    double w = (side < 0) ? bnd - piece_lo(&s->pc[j], n) : piece_hi(&s->pc[j + 1], n) - bnd;
    m = fmin(fmax(bnd + side * 1e-9 * w, spec->m_lo), spec->m_hi);
  }
  pt[0] = n;
  pt[1] = m;
  pt[2] = e_list[ie];
  return total;
}

int impactfit_surrogate_build(const impactfit_surrogate_spec *spec, impactfit_surrogate **out,
                              impactfit_surrogate_report *report, impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  if (!spec || !out)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no specification given");
  *out = NULL;
  int st = check_spec(spec, err);
  if (st)
    return st;
  impactfit_surrogate *s = calloc(1, sizeof *s);
  if (!s)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  s->spec = *spec;
  strcpy(s->name, spec->name);
  s->spec.name = s->name;
  s->legacy = (spec->n_pieces == 0 && spec->drop == 0.0);
  if (spec->n_pieces == 0) {
    const int dt[3] = {spec->deg_n, spec->deg_m, spec->deg_t}, dr[3] = {spec->deg_n, spec->deg_m, spec->deg_r};
    s->np = 1;
    s->pc[0] = piece(spec->m_lo, 0.0, spec->m_hi, 0.0, 1.0, dt, dr);
  } else {
    s->np = spec->n_pieces;
    memcpy(s->pc, spec->piece, sizeof s->pc);
  }
  s->spec.n_pieces = s->legacy ? 0 : s->np;
  memcpy(s->spec.piece, s->pc, sizeof s->pc);
  for (int j = 0; j < s->np; j++)
    for (int P = 0; P < 2; P++) {
      block *b = &s->b[2 * j + P];
      b->lo[0] = spec->n_lo;
      b->hi[0] = spec->n_hi;
      b->lo[1] = spec->m_lo; /* used by the legacy layout only */
      b->hi[1] = spec->m_hi;
      b->lo[2] = P ? R_MIN_LOG : log(spec->e_lo);
      b->hi[2] = P ? log1p(-spec->e_split) : log(spec->e_split);
      for (int d = 0; d < 3; d++)
        b->N[d] = s->pc[j].deg[P][d] + 1;
    }
  double t0 = omp_get_wtime();
  impactfit_surrogate_report rep;
  memset(&rep, 0, sizeof rep);
  for (int bi = 0; bi < 2 * s->np; bi++) {
    if ((st = build_block(s, bi, err))) {
      impactfit_surrogate_free(s);
      return st;
    }
    rep.solves += (long)s->b[bi].N[0] * s->b[bi].N[1] * s->b[bi].N[2];
    rep.coefficients += (long)s->b[bi].kept;
  }
  /* held-out check: simulate with the surrogate's ζ at random points */
  int MR = spec->check_points > 0 ? spec->check_points : 0;
  int ME = MR ? edge_point(s, 0, NULL) : 0, M = MR + ME;
  double *chk = M ? malloc(6 * (size_t)M * sizeof *chk) : NULL;
  if (M && !chk) {
    impactfit_surrogate_free(s);
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  }
  unsigned long long rs = spec->seed * 2654435761ULL + 1;
  for (int q = 0; q < MR; q++)
    held_out_point(s, q, &rs, &chk[6 * q]);
  for (int q = 0; q < ME; q++)
    edge_point(s, q, &chk[6 * (MR + q)]);
#pragma omp parallel
  {
    impactfit_impact_workspace *iw = impactfit_impact_alloc();
    impactfit_inverse_workspace *ws = impactfit_inverse_alloc();
#pragma omp for schedule(dynamic, 4)
    for (int q = 0; q < M; q++) {
      double n = chk[6 * q], m = chk[6 * q + 1], e = chk[6 * q + 2], z;
      impactfit_surrogate_zeta(s, n, m, e, &z, NULL);
      impactfit_impact_params p = impactfit_impact_scaled_params(n, m, z);
      p.transition = spec->transition;
      p.locate_extrema = 0;
      impactfit_impact_result r;
      impactfit_inverse_params ip = impactfit_inverse_default_params();
      ip.n = n;
      ip.m = m;
      ip.transition = spec->transition;
      ip.tol = 1e-12;
      ip.surrogate_guess = 0;
      impactfit_inverse_result ir;
      int ok = iw && ws && !impactfit_impact_solve(iw, &p, &r, NULL) &&
               !impactfit_inverse_solve(ws, &ip, e, z, &ir, NULL);
      chk[6 * q + 3] = ok ? fabs(r.e_out - e) : INFINITY;
      chk[6 * q + 4] = ok ? ((e == 1.0) ? 0.0 : fabs(z / ir.zeta - 1.0)) : INFINITY;
    }
    impactfit_impact_free(iw);
    impactfit_inverse_free(ws);
  }
  rep.check_points = MR;
  rep.edge_points = ME;
  for (int q = 0; q < M; q++) {
    if (chk[6 * q + 3] > rep.max_e_error || !isfinite(chk[6 * q + 3])) {
      rep.max_e_error = chk[6 * q + 3];
      rep.worst_n = chk[6 * q];
      rep.worst_m = chk[6 * q + 1];
      rep.worst_e = chk[6 * q + 2];
    }
    if (chk[6 * q + 4] > rep.max_zeta_rel || !isfinite(chk[6 * q + 4]))
      rep.max_zeta_rel = chk[6 * q + 4];
  }
  free(chk);
  rep.build_seconds = omp_get_wtime() - t0;
  if (report)
    *report = rep;
  if (M && !isfinite(rep.max_e_error)) {
    impactfit_surrogate_free(s);
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOCONV, "a held-out check point of the surrogate failed");
  }
  *out = s;
  return 0;
}

/* ---- headers -------------------------------------------------------------------------------- */

/* The affine map of var from [lo, hi] onto [-1, 1] as C text (0.0 for a single node). */
static void write_unit(impactfit_codegen *g, const char *var, double lo, double hi, int N) {
  if (N > 1)
    impactfit_codegen_code(g, "(2.0 * %s - (%.17g)) / (%.17g)", var, lo + hi, hi - lo);
  else
    impactfit_codegen_code(g, "0.0");
}

static void banner_use(impactfit_codegen *g) {
  impactfit_codegen_text(g, "Use: c = zeta mass v / delta_m0^(m+1), delta_m0 = [(n+1) mass v^2 / (2k)]^(1/(n+1));\n"
                            "Zhang et al.'s alpha = 3 (1 - e)(m + 1) e^(-(m+1)/(n+1)) / (4 zeta).");
}

/* The c_opt surrogate's layout (no pieces, every coefficient). */
static void write_header_legacy(const impactfit_surrogate *s, const impactfit_surrogate_report *rep,
                                impactfit_codegen *g) {
  const impactfit_surrogate_spec *sp = &s->spec;
  const char *nm = s->name;
  int has_m = s->b[0].N[1] > 1;
  impactfit_codegen_text(g,
                         "\nSurrogate of the exact scaled damping zeta(n, m, e) such that a simulated impact of\n"
                         "  x'' + zeta x^m x' + ((n+1)/2) x^n = 0,  x(0) = 0, x'(0) = 1   (transition %s)\n"
                         "gives e_out = e. Tensor-product Chebyshev series of y = ln zeta - ln(1 - e) in (n, m, ln e)\n"
                         "for e <= %.17g and in (n, m, ln(1 - e)) above (y is not analytic in e at e = 1; see\n"
                         "include/impactfit/surrogate.h), interpolating exact solves (impactfit inverse solver,\n"
                         "tol 1e-12) at the Chebyshev points of the first kind.\n\n",
                         sp->transition->name, sp->e_split);
  impactfit_codegen_text(g, "Box: n in [%.17g, %.17g], m in [%.17g, %.17g], e in [%.17g, 1].", sp->n_lo, sp->n_hi,
                         sp->m_lo, sp->m_hi, sp->e_lo);
  impactfit_codegen_text(g, "Degrees: %d in n, %d in m, %d in ln e, %d in ln(1 - e) (%ld exact solves).", sp->deg_n,
                         sp->deg_m, sp->deg_t, sp->deg_r, rep ? rep->solves : 0L);
  if (rep && rep->check_points)
    impactfit_codegen_text(g,
                           "Checked on %d held-out points (n, m uniform; e uniform in ln e and in ln(1 - e), seed "
                           "%lu)\n"
                           "and %d points on the edges and the seam e = %g of the box, by simulating with the\n"
                           "surrogate's zeta: max |e_out - e| = %.3e (at n = %.6f, m = %.6f, e = %.10g),\n"
                           "max |zeta/zeta_exact - 1| = %.3e.",
                           rep->check_points, sp->seed, rep->edge_points, sp->e_split, rep->max_e_error, rep->worst_n,
                           rep->worst_m, rep->worst_e, rep->max_zeta_rel);
  banner_use(g);
  char name[96];
  for (int P = 0; P < 2; P++) {
    size_t total = (size_t)s->b[P].N[0] * s->b[P].N[1] * s->b[P].N[2];
    snprintf(name, sizeof name, "impactfit_%s_coef%d", nm, P);
    impactfit_codegen_array(g, name, s->b[P].coef, total, NULL);
    impactfit_codegen_code(g, "\n");
  }
  char sig[256];
  snprintf(sig, sizeof sig,
           "double impactfit_%s_series(const double *c, int N0, int N1, int N2, double u0,\n"
           "                                           double u1, double u2)",
           nm);
  impactfit_codegen_function(
      g, "sum_ijk c_ijk T_i(u0) T_j(u1) T_k(u2)", sig,
      "  double T0[64], T1[64], T2[128];\n"
      "  const double u[3] = {u0, u1, u2};\n  double *T[3] = {T0, T1, T2};\n"
      "  const int N[3] = {N0, N1, N2};\n"
      "  for (int d = 0; d < 3; d++) {\n    T[d][0] = 1.0;\n    if (N[d] > 1)\n      T[d][1] = u[d];\n"
      "    for (int i = 2; i < N[d]; i++)\n      T[d][i] = 2.0 * u[d] * T[d][i - 1] - T[d][i - 2];\n  }\n"
      "  double y = 0.0;\n"
      "  for (int i = 0; i < N0; i++)\n    for (int j = 0; j < N1; j++) {\n      double a = 0.0;\n"
      "      for (int k = 0; k < N2; k++)\n        a += c[k] * T2[k];\n      y += T0[i] * T1[j] * a;\n"
      "      c += N2;\n    }\n  return y;\n");
  impactfit_codegen_code(g, "\n");
  char com[96];
  snprintf(com, sizeof com, "zeta(n, %se) on the box above; NaN outside it; 0 at e = 1.", has_m ? "m, " : "");
  snprintf(sig, sizeof sig, "double impactfit_%s_zeta(double n, %sdouble e)", nm, has_m ? "double m, " : "");
  impactfit_codegen_function_begin(g, com, sig);
  if (!has_m)
    impactfit_codegen_code(g, "  const double m = %.17g;\n", sp->m_lo);
  impactfit_codegen_code(g,
                         "  if (!(n >= %.17g && n <= %.17g && m >= %.17g && m <= %.17g && e >= %.17g && e <= 1.0))\n"
                         "    return NAN;\n"
                         "  if (e == 1.0)\n    return 0.0;\n  double y;\n",
                         sp->n_lo, sp->n_hi, sp->m_lo, sp->m_hi, sp->e_lo);
  for (int P = 0; P < 2; P++) {
    const block *b = &s->b[P];
    if (P == 0)
      impactfit_codegen_code(g, "  if (e <= %.17g) {\n    double v = log(e);\n", sp->e_split);
    else
      impactfit_codegen_code(g, "  } else {\n    double v = log1p(-e);\n    if (v < %.17g)\n      v = %.17g;\n",
                             R_MIN_LOG, R_MIN_LOG);
    impactfit_codegen_code(g, "    y = impactfit_%s_series(impactfit_%s_coef%d, %d, %d, %d, ", nm, nm, P, b->N[0],
                           b->N[1], b->N[2]);
    write_unit(g, "n", b->lo[0], b->hi[0], b->N[0]);
    impactfit_codegen_code(g, ",\n        ");
    write_unit(g, "m", b->lo[1], b->hi[1], b->N[1]);
    impactfit_codegen_code(g, ", ");
    write_unit(g, "v", b->lo[2], b->hi[2], b->N[2]);
    impactfit_codegen_code(g, ");\n");
  }
  impactfit_codegen_code(g, "  }\n  return exp(y) * (1.0 - e);\n");
  impactfit_codegen_function_end(g);
  impactfit_codegen_code(g, "\n");
}

/* Pieces and truncated rows: the evaluator reads tables and computes exactly what eval_y computes
 * (same operations in the same order). */
static int write_header_pieces(const impactfit_surrogate *s, const impactfit_surrogate_report *rep,
                               impactfit_codegen *g) {
  const impactfit_surrogate_spec *sp = &s->spec;
  const char *nm = s->name;
  int has_m = sp->m_hi > sp->m_lo, nb = 2 * s->np;
  impactfit_codegen_text(g,
                         "\nSurrogate of the exact scaled damping zeta(n, m, e) such that a simulated impact of\n"
                         "  x'' + zeta x^m x' + ((n+1)/2) x^n = 0,  x(0) = 0, x'(0) = 1   (transition %s)\n"
                         "gives e_out = e. Chebyshev series of y = ln zeta - ln(1 - e), piecewise: in m, pieces\n"
                         "with ends linear in n, in each m = lo + (hi - lo)(1 - (1 - s)^grade), s in [0, 1]; in e,\n"
                         "v = ln e for e <= %.17g and v = ln(1 - e) above (see include/impactfit/surrogate.h). Each\n"
                         "block (m piece x e piece) is a tensor-product series in (n, s, v) interpolating exact "
                         "solves\n"
                         "(impactfit inverse solver, tol 1e-12) at the Chebyshev points of the first kind, stored\n"
                         "without the trailing coefficients whose absolute values sum to at most %.3g per block.\n\n",
                         sp->transition->name, sp->e_split, sp->drop);
  impactfit_codegen_text(g, "Box: n in [%.17g, %.17g], m in [%.17g, %.17g], e in [%.17g, 1].", sp->n_lo, sp->n_hi,
                         sp->m_lo, sp->m_hi, sp->e_lo);
  for (int j = 0; j < s->np; j++) {
    const impactfit_surrogate_piece *p = &s->pc[j];
    impactfit_codegen_text(g,
                           "Piece %d: m from %g + %g n to %g + %g n, grade %g; degrees (n, s, ln e) %d, %d, %d and\n"
                           "  (n, s, ln(1 - e)) %d, %d, %d; %zu and %zu coefficients kept.",
                           j, p->lo_const, p->lo_n, p->hi_const, p->hi_n, p->grade, p->deg[0][0], p->deg[0][1],
                           p->deg[0][2], p->deg[1][0], p->deg[1][1], p->deg[1][2], s->b[2 * j].kept,
                           s->b[2 * j + 1].kept);
  }
  if (rep)
    impactfit_codegen_text(g, "%ld exact solves, %ld coefficients.", rep->solves, rep->coefficients);
  if (rep && rep->check_points)
    impactfit_codegen_text(g,
                           "Checked on %d held-out points (n uniform; m uniform, every third point within 10^-U(1,7)\n"
                           "of a piece boundary; e uniform in ln e and in ln(1 - e); seed %lu) and %d points on the\n"
                           "edges, the piece boundaries and the seam e = %g of the box, by simulating with the\n"
                           "surrogate's zeta: max |e_out - e| = %.3e (at n = %.6f, m = %.6f, e = %.10g),\n"
                           "max |zeta/zeta_exact - 1| = %.3e.",
                           rep->check_points, sp->seed, rep->edge_points, sp->e_split, rep->max_e_error, rep->worst_n,
                           rep->worst_m, rep->worst_e, rep->max_zeta_rel);
  banner_use(g);
  char name[96], com[96];
  for (int bi = 0; bi < nb; bi++) {
    const block *b = &s->b[bi];
    const double zero = 0.0;
    snprintf(name, sizeof name, "impactfit_%s_coef%d", nm, bi);
    snprintf(com, sizeof com, "block %d: m piece %d, %s", bi, bi / 2, bi % 2 ? "v = ln(1 - e)" : "v = ln e");
    impactfit_codegen_array(g, name, b->kept ? b->coef : &zero, b->kept ? b->kept : 1, com);
    int R = b->N[0] * b->N[1];
    impactfit_codegen_code(g, "static const unsigned short impactfit_%s_len%d[%d] = {\n", nm, bi, R);
    for (int r = 0; r < R; r++)
      impactfit_codegen_code(g, "%s%u,%s", (r % 16 == 0) ? "    " : " ", (unsigned)b->len[r],
                             (r % 16 == 15 || r + 1 == R) ? "\n" : "");
    impactfit_codegen_code(g, "};\n\n");
  }
  double *tab = malloc(sizeof(double) * 5 * (size_t)(nb > s->np ? nb : s->np));
  if (!tab)
    return IMPACTFIT_ENOMEM;
  size_t dims[2] = {(size_t)s->np, 5};
  for (int j = 0; j < s->np; j++) {
    const impactfit_surrogate_piece *p = &s->pc[j];
    const double row[5] = {p->lo_const, p->lo_n, p->hi_const, p->hi_n, p->grade};
    memcpy(tab + 5 * j, row, sizeof row);
  }
  snprintf(name, sizeof name, "impactfit_%s_pieces", nm);
  impactfit_codegen_array_nd(g, name, tab, 2, dims, "m pieces: lo_const, lo_n, hi_const, hi_n, grade");
  for (int bi = 0; bi < nb; bi++) {
    const double row[4] = {s->b[bi].lo[0], s->b[bi].hi[0], s->b[bi].lo[2], s->b[bi].hi[2]};
    memcpy(tab + 4 * bi, row, sizeof row);
  }
  dims[0] = (size_t)nb;
  dims[1] = 4;
  snprintf(name, sizeof name, "impactfit_%s_ranges", nm);
  impactfit_codegen_array_nd(g, name, tab, 2, dims, "blocks 2j + P: n_lo, n_hi, v_lo, v_hi");
  free(tab);
  impactfit_codegen_code(g, "/* nodes in n, s, v */\nstatic const int impactfit_%s_dims[%d][3] = {\n", nm, nb);
  for (int bi = 0; bi < nb; bi++)
    impactfit_codegen_code(g, "    {%d, %d, %d},\n", s->b[bi].N[0], s->b[bi].N[1], s->b[bi].N[2]);
  impactfit_codegen_code(g, "};\nstatic const double *const impactfit_%s_coefs[%d] = {", nm, nb);
  for (int bi = 0; bi < nb; bi++)
    impactfit_codegen_code(g, "%simpactfit_%s_coef%d", bi ? ", " : "", nm, bi);
  impactfit_codegen_code(g, "};\nstatic const unsigned short *const impactfit_%s_lens[%d] = {", nm, nb);
  for (int bi = 0; bi < nb; bi++)
    impactfit_codegen_code(g, "%simpactfit_%s_len%d", bi ? ", " : "", nm, bi);
  impactfit_codegen_code(g, "};\n\n");
  char sig[256];
  snprintf(sig, sizeof sig,
           "double impactfit_%s_series(const double *c, const unsigned short *len, const int *N,\n"
           "                                           double u0, double u1, double u2)",
           nm);
  impactfit_codegen_function(
      g, "sum over rows (i, j) of T_i(u0) T_j(u1) sum_{k < len} c_k T_k(u2)", sig,
      "  double T0[%d], T1[%d], T2[%d];\n"
      "  const double u[3] = {u0, u1, u2};\n  double *T[3] = {T0, T1, T2};\n"
      "  for (int d = 0; d < 3; d++) {\n    T[d][0] = 1.0;\n    if (N[d] > 1)\n      T[d][1] = u[d];\n"
      "    for (int i = 2; i < N[d]; i++)\n      T[d][i] = 2.0 * u[d] * T[d][i - 1] - T[d][i - 2];\n  }\n"
      "  double y = 0.0;\n"
      "  for (int i = 0; i < N[0]; i++)\n    for (int j = 0; j < N[1]; j++) {\n"
      "      int L = len[i * N[1] + j];\n      if (!L)\n        continue;\n      double a = 0.0;\n"
      "      for (int k = 0; k < L; k++)\n        a += c[k] * T2[k];\n      y += T0[i] * T1[j] * a;\n"
      "      c += L;\n    }\n  return y;\n",
      MAX_N01 + 3, MAX_N01 + 3, MAX_N2 + 7);
  impactfit_codegen_code(g, "\n");
  snprintf(com, sizeof com, "zeta(n, %se) on the box above; NaN outside it; 0 at e = 1.", has_m ? "m, " : "");
  snprintf(sig, sizeof sig, "double impactfit_%s_zeta(double n, %sdouble e)", nm, has_m ? "double m, " : "");
  impactfit_codegen_function_begin(g, com, sig);
  if (!has_m)
    impactfit_codegen_code(g, "  const double m = %.17g;\n", sp->m_lo);
  impactfit_codegen_code(g,
                         "  if (!(n >= %.17g && n <= %.17g && m >= %.17g && m <= %.17g && e >= %.17g && e <= 1.0))\n"
                         "    return NAN;\n"
                         "  if (e == 1.0)\n    return 0.0;\n"
                         "  int P = (e <= %.17g) ? 0 : 1;\n"
                         "  double v = P ? log1p(-e) : log(e);\n"
                         "  if (P && v < %.17g)\n    v = %.17g;\n"
                         "  int j = 0;\n"
                         "  while (j + 1 < %d && m > impactfit_%s_pieces[j][2] + impactfit_%s_pieces[j][3] * n)\n    "
                         "j++;\n"
                         "  const double *p = impactfit_%s_pieces[j];\n"
                         "  double lo = p[0] + p[1] * n, hi = p[2] + p[3] * n;\n"
                         "  double w = (hi > lo) ? (m - lo) / (hi - lo) : 0.0;\n"
                         "  if (w < 0.0)\n    w = 0.0;\n  if (w > 1.0)\n    w = 1.0;\n"
                         "  double s = (p[4] == 1.0) ? w : 1.0 - pow(1.0 - w, 1.0 / p[4]);\n"
                         "  int b = 2 * j + P;\n"
                         "  const double *r = impactfit_%s_ranges[b];\n"
                         "  const int *N = impactfit_%s_dims[b];\n"
                         "  double u0 = (r[1] > r[0]) ? (2.0 * n - r[0] - r[1]) / (r[1] - r[0]) : 0.0;\n"
                         "  double u2 = (r[3] > r[2]) ? (2.0 * v - r[2] - r[3]) / (r[3] - r[2]) : 0.0;\n"
                         "  double y = impactfit_%s_series(impactfit_%s_coefs[b], impactfit_%s_lens[b], N, u0, 2.0 * s "
                         "- 1.0, u2);\n"
                         "  return exp(y) * (1.0 - e);\n",
                         sp->n_lo, sp->n_hi, sp->m_lo, sp->m_hi, sp->e_lo, sp->e_split, R_MIN_LOG, R_MIN_LOG, s->np, nm,
                         nm, nm, nm, nm, nm, nm, nm);
  impactfit_codegen_function_end(g);
  impactfit_codegen_code(g, "\n");
  return 0;
}

/* The header text: the layout's part, then impactfit_<name>_c and (with m) _alpha. */
static int surrogate_header_text(const impactfit_surrogate *s, const impactfit_surrogate_report *rep,
                                 const char *command, char **text, size_t *len, impactfit_error *err) {
  const impactfit_surrogate_spec *sp = &s->spec;
  const char *nm = s->name;
  char hname[96];
  snprintf(hname, sizeof hname, "%s_surrogate", nm);
  impactfit_codegen *g;
  int st = impactfit_codegen_begin(hname, command, &g, err);
  if (st)
    return st;
  int has_m = s->legacy ? s->b[0].N[1] > 1 : sp->m_hi > sp->m_lo;
  if (s->legacy)
    write_header_legacy(s, rep, g);
  else if (write_header_pieces(s, rep, g)) {
    impactfit_codegen_abort(g);
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  }
  char sig[160];
  snprintf(sig, sizeof sig, "double impactfit_%s_c(double n, %sdouble e, double k, double mass, double v)", nm,
           has_m ? "double m, " : "");
  impactfit_codegen_function_begin(g,
                                   "The damping coefficient in the user's units: c = zeta mass v / delta_m0^(m+1); NaN "
                                   "outside\n * the box or for k, mass, v <= 0.",
                                   sig);
  if (!has_m)
    impactfit_codegen_code(g, "  const double m = %.17g;\n", sp->m_lo);
  impactfit_codegen_code(g, "  double z = impactfit_%s_zeta(n, %se);\n", nm, has_m ? "m, " : "");
  impactfit_codegen_code(g, "  if (!(z >= 0.0) || !(k > 0.0 && mass > 0.0 && v > 0.0))\n    return NAN;\n"
                            "  double d = pow((n + 1.0) * mass * v * v / (2.0 * k), 1.0 / (n + 1.0));\n"
                            "  return z * mass * v / pow(d, m + 1.0);\n");
  impactfit_codegen_function_end(g);
  if (has_m) {
    snprintf(sig, sizeof sig, "double impactfit_%s_alpha(double n, double m, double e)", nm);
    impactfit_codegen_code(g, "\n");
    impactfit_codegen_function(
        g, "Zhang et al. (2021)'s modification parameter alpha; NaN outside the box or at e = 1.", sig,
        "  double z = impactfit_%s_zeta(n, m, e);\n  if (!(z > 0.0))\n    return NAN;\n"
        "  return 0.75 * (1.0 - e) * (m + 1.0) * exp(-(m + 1.0) / (n + 1.0) * log(e)) / z;\n",
        nm);
  }
  return impactfit_codegen_finish(g, text, len, err);
}

/* Written by the header writer of include/impactfit/codegen.h (numbers in the C locale). */
int impactfit_surrogate_write_header(const impactfit_surrogate *s, const impactfit_surrogate_report *rep,
                                     const char *command, FILE *f, impactfit_error *err) {
  if (!s || !f)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no surrogate or file given");
  char *text;
  size_t len;
  int st = surrogate_header_text(s, rep, command, &text, &len, err);
  if (st)
    return st;
  size_t w = fwrite(text, 1, len, f);
  free(text);
  if (w != len || ferror(f))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EIO, "write error");
  return 0;
}
