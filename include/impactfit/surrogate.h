/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit — surrogates of the exact inverse solution, written as generated C headers.
 *
 * A surrogate approximates the scaled damping ζ(n, m, e) of inverse.h (ζ with e_out(ζ) = e for
 * x'' + ζ x^m x' + ((n+1)/2) x^n = 0 under a transition condition) by tensor-product Chebyshev
 * expansions of
 *     y = ln ζ − ln(1 − e)
 * over boxes n ∈ [n_lo, n_hi], m ∈ [m_lo, m_hi], e ∈ [e_lo, 1], in two pieces of the e range:
 *     e ∈ [e_lo, e_split]:        in (n, m, t),  t = ln e,
 *     e ∈ [e_split, 1 − 1e-10]:   in (n, m, r),  r = ln(1 − e);  beyond, y at r = ln 1e-10.
 * Why these variables: ζ ∝ e^(−p) as e → 0, so y is nearly linear in t for small e. As e → 1, y is
 * not analytic in e: with separation at zero force the spring keeps the energy of δ_s ∝ ζ^(1/(n−m))
 * (δ_s^(n−m) = c v e/k), so 1 − e contains powers such as ζ^((n+1)/(n−m)), i.e. y has terms
 * (1 − e)^p with non-integer p, on which a Chebyshev series in e converges only algebraically
 * (measured: 4e-4 relative at e = 0.99 with degree 44). In r these terms are exponentials e^(pr),
 * analytic, and the series converges geometrically. Past 1 − 1e-10 the error in e is (1 − e) times
 * the relative error in ζ, negligible. Then c = ζ mass v / δ_m0^(m+1) for any k, mass, v
 * (inverse.h), and Zhang's α = 3(1−e)(m+1) e^(−(m+1)/(n+1)) / (4ζ).
 *
 * Pieces in m. Under C, y is not analytic at m = n for small e: at m = n the model is
 * Hunt–Crossley, whose restitution phase for small e is a creep with the force barely positive
 * (εe → 1); for m = n − h the factor x^(−h) in the damping makes the force cross zero early. The
 * result is a kink (at n = 1.5, e = 0.01: ∂y/∂m = 3.64 just above m = n, about 1.6 below) and below
 * m = n a boundary layer of width h ~ 1 − εe(e) (measured: a term h ln h with coefficient ~0.01 at
 * e = 0.02, a layer of width ~3e-3 at e = 0.2; analytic across m = n for e ≥ 0.5). Above m = n, and
 * under A at any m, y is analytic in m (measured ∂y/∂m continuous to 1e-5). So the Zhang
 * surrogates are piecewise in m: m = μ n and m = n + μ(2 − n), the lower piece (C) graded towards
 * m = n (m = n(1 − (1 − s)^grade)), which turns the layer and the h ln h term into functions that
 * a Chebyshev series in s resolves. Each piece and e piece (a block) keeps its own degrees, and
 * the trailing coefficients of each series in t or r that are negligible (their absolute values
 * summing to at most spec.drop) are not stored: the series in r needs degree ~64 for the
 * singularity at r = 0 (e = 0) just past its end, but few of its mixed terms matter.
 *
 * The coefficients are computed from exact solves (inverse.h, tol 1e-12) at the Chebyshev points
 * of the first kind; the surrogate's accuracy is then measured on points not used to build it by
 * simulating with the surrogate's ζ: max |e_out − e| and max relative error of ζ. With pieces, a
 * third of the held-out points lie within 10^(−U(1, 7)) of a piece boundary in m.
 *
 * Why our own Chebyshev code: GSL's gsl_cheb is one-dimensional; the tensor-product coefficients
 * are the same cosine sums applied along each dimension. tests/test_surrogate.c checks the series
 * against the exact Kelvin–Voigt ζ(e) (one dimension), a piecewise surrogate against exact solves
 * at its own interpolation nodes (the interpolant must reproduce them: this checks the mapping of
 * (n, m, e) to the pieces, the grading and the cosine sums in every dimension), the truncation
 * bound, and the committed headers on held-out points.
 */
#ifndef IMPACTFIT_SURROGATE_H
#define IMPACTFIT_SURROGATE_H

#include <stdio.h>

#include "impactfit/common.h"
#include "impactfit/impact.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IMPACTFIT_SURROGATE_MAX_PIECES 4

/* A piece of the m range, for specifications with n_pieces > 0. Its ends are linear in n,
 *     lo(n) = lo_const + lo_n·n,   hi(n) = hi_const + hi_n·n,
 * so that a piece may end at m = n, and within it
 *     m = lo + (hi − lo)·(1 − (1 − s)^grade),   s ∈ [0, 1]:
 * grade = 1 is linear; grade > 1 clusters the nodes towards m = hi. deg[P] = {degree in n, in s,
 * in v} for the e piece P (0: v = ln e, 1: v = ln(1 − e)). */
typedef struct impactfit_surrogate_piece {
  double lo_const, lo_n, hi_const, hi_n;
  double grade; /* 1 ≤ grade ≤ 8 */
  int deg[2][3];
} impactfit_surrogate_piece;

typedef struct impactfit_surrogate_spec {
  const char *name; /* C identifier stem, e.g. "copt" → impactfit_copt_zeta() */
  const impactfit_transition *transition;
  double n_lo, n_hi;  /* n range (n_lo = n_hi: fixed) */
  double m_lo, m_hi;  /* m range (m_lo = m_hi: fixed) */
  double e_lo;        /* e range [e_lo, 1] */
  double e_split;     /* where the t piece hands over to the r piece, e_lo < e_split < 1 */
  int deg_n, deg_m;   /* n_pieces = 0: polynomial degrees in n and m (0 for a fixed dimension) */
  int deg_t, deg_r;   /* n_pieces = 0: degrees in t = ln e and r = ln(1 − e) */
  int check_points;   /* held-out points for the accuracy check (0: none) */
  unsigned long seed; /* of the held-out points */
  /* Pieces in m (0 ≤ n_pieces ≤ IMPACTFIT_SURROGATE_MAX_PIECES). 0: one linear piece
   * [m_lo, m_hi] with the degrees above (the c_opt surrogate). Otherwise the pieces, in increasing
   * m, tile [m_lo, m_hi] for every n in [n_lo, n_hi], and deg_n … deg_r are ignored. */
  int n_pieces;
  impactfit_surrogate_piece piece[IMPACTFIT_SURROGATE_MAX_PIECES];
  /* Truncation: each block (m piece × e piece) stores its series in v only up to the last
   * coefficient that matters: the trailing coefficients dropped in all its rows have absolute
   * values summing to at most `drop`, which bounds the change of y (the relative change of ζ).
   * 0: every coefficient is kept (and the header has the layout of the c_opt surrogate). */
  double drop;
} impactfit_surrogate_spec;

/* c_opt: m = 0, condition C, n ∈ [1, 2], e ∈ [1e-4, 1]; one piece, every coefficient kept.
 * Zhang (condition C or A): n ∈ [1, 2], m ∈ [0, 2], e ∈ [0.01, 1]; pieces [0, n] (under C graded
 * towards m = n) and [n, 2]; degrees chosen for max |e_out − e| well below 1e-6 on held-out points
 * (the measured figures are in the generated headers' banners). */
IMPACTFIT_EXPORT impactfit_surrogate_spec impactfit_surrogate_copt_spec(void);
IMPACTFIT_EXPORT impactfit_surrogate_spec impactfit_surrogate_zhang_spec(const impactfit_transition *tr);

typedef struct impactfit_surrogate impactfit_surrogate;

typedef struct impactfit_surrogate_report {
  long solves;                      /* exact solves used to build it */
  int check_points;                 /* held-out points simulated */
  int edge_points;                  /* and points on the edges and seams of the box (edge_point, surrogate.c) */
  double max_e_error;               /* max |e_out − e| over them */
  double max_zeta_rel;              /* max |ζ_s/ζ − 1| over them */
  double worst_n, worst_m, worst_e; /* where max_e_error occurs */
  double build_seconds;
  long coefficients; /* coefficients stored (after truncation) */
} impactfit_surrogate_report;

/* Builds (and, with check_points > 0, checks) a surrogate. Uses OpenMP for the solves. EINVAL for
 * an invalid specification (name, box, degrees, pieces that do not tile the m range). */
IMPACTFIT_EXPORT int impactfit_surrogate_build(const impactfit_surrogate_spec *spec, impactfit_surrogate **out,
                                               impactfit_surrogate_report *report, impactfit_error *err);
IMPACTFIT_EXPORT void impactfit_surrogate_free(impactfit_surrogate *s); /* NULL: no-op */

/* ζ from the surrogate; EINVAL outside its box. */
IMPACTFIT_EXPORT int impactfit_surrogate_zeta(const impactfit_surrogate *s, double n, double m, double e, double *zeta,
                                              impactfit_error *err);

/* Writes a self-contained C header (DO NOT EDIT banner with provenance, coefficients printed with
 * %.17g, a static inline evaluator `double impactfit_<name>_zeta(double n, [double m,] double e)`,
 * returning −1 outside the box, and `impactfit_<name>_c(n, [m,] e, k, mass, v)`; with m as a
 * variable also Zhang's `impactfit_<name>_alpha(n, m, e)`). The header evaluates exactly what
 * impactfit_surrogate_zeta evaluates. `command` is recorded as the generator command line. Written
 * through the header writer of codegen.h (header name <name>_surrogate). */
IMPACTFIT_EXPORT int impactfit_surrogate_write_header(const impactfit_surrogate *s,
                                                      const impactfit_surrogate_report *report, const char *command,
                                                      FILE *f, impactfit_error *err);

#ifdef __cplusplus
}
#endif
#endif /* IMPACTFIT_SURROGATE_H */
