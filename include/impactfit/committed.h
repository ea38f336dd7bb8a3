/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit — the committed surrogates of include/impactfit/generated/ as library functions.
 *
 * The generated headers define their evaluations as `static inline` functions, so that a program can
 * copy one header and compile it without impactfit. Bindings (Python, Octave) and programs that link
 * libimpactfit reach them through the functions below instead: each one calls the generated function
 * of the header named, compiled into the library (src/generated/committed.c), so it returns the same
 * value to the last bit as that header compiled with the library's flags (-ffp-contract=off). They
 * allocate nothing and may be called from any number of threads.
 *
 * Out of a surrogate's box (given below, and in each header's banner) they return EINVAL with the box
 * in the message, instead of the headers' −1. Units: ζ is the scaled damping of inverse.h (c = ζ mass v
 * / δ_m0^(m+1), δ_m0 = [(n+1) mass v²/(2k)]^(1/(n+1))), α Zhang et al.'s modification parameter,
 * Δτ the dimensionless Hunt–Crossley contact duration of hc.h, ε = λ v / k (hc.h).
 */
#ifndef IMPACTFIT_COMMITTED_H
#define IMPACTFIT_COMMITTED_H

#include "impactfit/common.h"
#include "impactfit/impact.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ζ(n, e) of the c_opt problem (m = 0, condition C) from generated/copt_surrogate.h:
 * impactfit_copt_zeta. Box n ∈ [1, 2], e ∈ [1e-4, 1]; ζ = 0 at e = 1. */
IMPACTFIT_EXPORT int impactfit_committed_copt_zeta(double n, double e, double *zeta, impactfit_error *err);

/* ζ(n, m, e) and α of Zhang's problem under condition C (generated/zhang_c_surrogate.h) or A
 * (generated/zhang_a_surrogate.h): impactfit_zhang_{c,a}_zeta and _alpha. tr: C or A (NULL: C;
 * others EINVAL). Box n ∈ [1, 2], m ∈ [0, 2], e ∈ [0.01, 1]. At e = 1, ζ = 0 and α is undefined
 * (*alpha = NaN). alpha may be NULL. */
IMPACTFIT_EXPORT int impactfit_committed_zhang_zeta(const impactfit_transition *tr, double n, double m, double e,
                                                    double *zeta, double *alpha, impactfit_error *err);

/* Δτ(ε, n) from generated/ramaswamy_dtau_surrogate.h: impactfit_ramaswamy_dtau_surrogate.
 * Box ε ∈ [0, 100], n ∈ [1, 2]. */
IMPACTFIT_EXPORT int impactfit_committed_dtau(double eps, double n, double *dtau, impactfit_error *err);

/* Ramaswamy–Humbert's form ε(e) with the refitted constants of generated/ramaswamy_eps.h:
 * which = "lsq" (impactfit_ramaswamy_eps_lsq) or "minimax" (impactfit_ramaswamy_eps_minimax);
 * e ∈ (0, 1] (the fit range is [0.01, 1]). */
IMPACTFIT_EXPORT int impactfit_committed_rh_eps(const char *which, double e, double *eps, impactfit_error *err);

#ifdef __cplusplus
}
#endif
#endif /* IMPACTFIT_COMMITTED_H */
