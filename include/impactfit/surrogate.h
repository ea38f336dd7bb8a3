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
 * The coefficients are computed from exact solves (inverse.h, tol 1e-12) at the Chebyshev points
 * of the first kind; the surrogate's accuracy is then measured on points not used to build it by
 * simulating with the surrogate's ζ: max |e_out − e| and max relative error of ζ.
 *
 * Why our own Chebyshev code: GSL's gsl_cheb is one-dimensional; the tensor-product coefficients
 * are the same cosine sums applied along each dimension (tests/test_surrogate.c checks the 1-D case
 * against gsl_cheb and the 2-D case against a separable function).
 */
#ifndef IMPACTFIT_SURROGATE_H
#define IMPACTFIT_SURROGATE_H

#include <stdio.h>

#include "impactfit/common.h"
#include "impactfit/impact.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct impactfit_surrogate_spec {
  const char *name;           /* C identifier stem, e.g. "copt" → impactfit_copt_zeta() */
  const impactfit_transition *transition;
  double n_lo, n_hi;          /* n range (n_lo = n_hi: fixed) */
  double m_lo, m_hi;          /* m range (m_lo = m_hi: fixed) */
  double e_lo;                /* e range [e_lo, 1] */
  double e_split;             /* where the t piece hands over to the r piece, e_lo < e_split < 1 */
  int deg_n, deg_m;           /* polynomial degrees in n and m (0 for a fixed dimension) */
  int deg_t, deg_r;           /* degrees in t = ln e and r = ln(1 − e) */
  int check_points;           /* held-out points for the accuracy check (0: none) */
  unsigned long seed;         /* of the held-out points */
} impactfit_surrogate_spec;

/* c_opt: m = 0, condition C, n ∈ [1, 2], e ∈ [1e-4, 1]; Zhang: m ∈ [0, 2], e ∈ [0.01, 1). */
IMPACTFIT_EXPORT impactfit_surrogate_spec impactfit_surrogate_copt_spec(void);
IMPACTFIT_EXPORT impactfit_surrogate_spec impactfit_surrogate_zhang_spec(const impactfit_transition *tr);

typedef struct impactfit_surrogate impactfit_surrogate;

typedef struct impactfit_surrogate_report {
  long solves;              /* exact solves used to build it */
  int check_points;         /* held-out points simulated */
  double max_e_error;       /* max |e_out − e| over them */
  double max_zeta_rel;      /* max |ζ_s/ζ − 1| over them */
  double worst_n, worst_m, worst_e; /* where max_e_error occurs */
  double build_seconds;
} impactfit_surrogate_report;

/* Builds (and, with check_points > 0, checks) a surrogate. Uses OpenMP for the solves. */
IMPACTFIT_EXPORT int impactfit_surrogate_build(const impactfit_surrogate_spec *spec,
                                               impactfit_surrogate **out,
                                               impactfit_surrogate_report *report,
                                               impactfit_error *err);
IMPACTFIT_EXPORT void impactfit_surrogate_free(impactfit_surrogate *s); /* NULL: no-op */

/* ζ from the surrogate; EINVAL outside its box. */
IMPACTFIT_EXPORT int impactfit_surrogate_zeta(const impactfit_surrogate *s, double n, double m,
                                              double e, double *zeta, impactfit_error *err);

/* Writes a self-contained C header (DO NOT EDIT banner with provenance, coefficients printed with
 * %.17g, a static inline evaluator `double impactfit_<name>_zeta(double n, [double m,] double e)`,
 * returning −1 outside the box). `command` is recorded as the generator command line. */
IMPACTFIT_EXPORT int impactfit_surrogate_write_header(const impactfit_surrogate *s,
                                                      const impactfit_surrogate_report *report,
                                                      const char *command, FILE *f,
                                                      impactfit_error *err);

#ifdef __cplusplus
}
#endif
#endif /* IMPACTFIT_SURROGATE_H */
