/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Internals of the Hunt–Crossley module shared between its files (not installed). */
#ifndef IMPACTFIT_HC_IMPL_H
#define IMPACTFIT_HC_IMPL_H

#include "impactfit/hc.h"

/* Grid value i (0 ≤ i < n) of `n` points equally spaced on [a, b], ends exact. */
double impactfit__grid(double a, double b, size_t n, size_t i);

/* Relative error |f − x| / x of an approximation f of the exact ε at e; at e = 1 (both zero) the
 * limit, evaluated at e = 1 − 2^−26 by the caller's function fn(e, ctx, &eps). Returns a status. */
typedef int (*impactfit__eps_fn)(double e, void *ctx, double *eps, impactfit_error *err);
int impactfit__eps_rel_error(impactfit__eps_fn fn, void *ctx, double e, double *rel, impactfit_error *err);

/* Relative error |fn(ε, n) − Δτ| / Δτ against Δτ simulated on the grid of p. */
typedef double (*impactfit__dtau_fn)(double eps, double n, const void *ctx);
int impactfit__dtau_error(impactfit_impact_workspace *ws, impactfit__dtau_fn fn, const void *ctx,
                          const impactfit_hc_dtau_grid_params *p, impactfit_hc_dtau_stats *out, impactfit_error *err);

/* impactfit_hc_impact_time, also returning the engine's right-hand-side evaluations (may be NULL;
 * set on failure too). */
int impactfit__hc_impact_time(impactfit_impact_workspace *ws, double eps, double n, double *dtau, double *e_out,
                              long *rhs_evals, impactfit_error *err);

/* e at which the relative error at e = 1 is evaluated. */
#define IMPACTFIT__E_NEAR_ONE (1.0 - 1.0 / 67108864.0)

#endif
