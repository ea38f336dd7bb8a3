/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Sweep problem "hc-eps": the exact Hunt–Crossley damping ratio ε(e) (include/impactfit/hc.h) per
 * point, and the damping factor λ = ε k / v for the stiffness k and approach velocity v of the
 * point (fixed or swept; with the defaults k = v = 1, λ = ε). No simulation: about 1 µs a point. */
#include <math.h>
#include <string.h>

#include "../common/common_impl.h"
#include "impactfit/hc.h"
#include "../sweep/problems.h"

enum { P_E, P_K, P_V, P_COUNT };

static const impactfit_sweep_param params[P_COUNT] = {
    IMPACTFIT__PARAM_E(0, "coefficient of restitution, 0 < e <= 1"),
    IMPACTFIT__PARAM_K(" (for lambda)"),
    IMPACTFIT__PARAM_V(0, " (for lambda)"),
};

enum { O_EPS, O_LAMBDA, O_COUNT };
static const char *const outputs[O_COUNT] = {"eps", "lambda"};
static const char *const output_units[O_COUNT] = {"-", "N s/m^(n+1)"};

static int check(const char *const *opt, const double *in, impactfit_error *err) {
  (void)opt;
  /* ε ≤ 1/e: λ = ε k / v must be representable */
  if (!isfinite(in[P_K] / (in[P_E] * in[P_V])))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "lambda = eps k / v is not representable for e = %g, "
                           "k = %g, v = %g",
                           in[P_E], in[P_K], in[P_V]);
  if (!isfinite(1.0 / in[P_E]))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "e = %g is too small: 1/e is not representable", in[P_E]);
  return IMPACTFIT_OK;
}

static int alloc(void **out, const char *const *opt, const unsigned char *wanted, impactfit_error *err) {
  (void)opt;
  (void)wanted;
  (void)err;
  *out = NULL; /* stateless */
  return IMPACTFIT_OK;
}

static void state_free(void *s) { (void)s; }

static int solve(void *s, const double *in, double *out, long *rhs_evals, impactfit_error *err) {
  (void)s;
  *rhs_evals = 0;
  double eps;
  int st = impactfit_hc_eps(in[P_E], &eps, err);
  if (st)
    return st;
  out[O_EPS] = eps;
  out[O_LAMBDA] = eps * in[P_K] / in[P_V];
  return IMPACTFIT_OK;
}

const impactfit_sweep_problem impactfit__problem_hc_eps = {
    .name = "hc-eps",
    .summary = "exact Hunt-Crossley damping ratio eps(e) (impactfit_hc_eps) and lambda = eps k / v",
    .params = params,
    .n_params = P_COUNT,
    .options = NULL,
    .n_options = 0,
    .outputs = outputs,
    .n_outputs = O_COUNT,
    .check = check,
    .alloc = alloc,
    .reset = NULL,
    .free = state_free,
    .solve = solve,
    .solve_run = NULL,
    .output_units = output_units,
};
