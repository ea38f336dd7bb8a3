/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Sweep problem "eps-formula": the Hunt–Crossley damping ratio ε(e) of any formula of formulas.h
 * (option formula: a name of impactfit_formula_from_name, default exact) per point, and the damping
 * factor λ = ε k / v. The built-in hc-eps problem is the exact relation alone (its definition files
 * and the headers generated from them name no formula); this one compares the published formulas on
 * a grid (`impactfit hc-eps --formula NAME` runs it). No simulation: about 1 µs a point. */
#include <math.h>
#include <string.h>

#include "../common/common_impl.h"
#include "../sweep/problems.h"
#include "impactfit/formulas.h"

enum { P_E, P_K, P_V, P_COUNT };

static const impactfit_sweep_param params[P_COUNT] = {
    IMPACTFIT__PARAM_E(0, "coefficient of restitution, 0 < e <= 1"),
    IMPACTFIT__PARAM_K(" (for lambda)"),
    IMPACTFIT__PARAM_V(0, " (for lambda)"),
};

static const impactfit_sweep_option options[1] = {
    {"formula", "exact", NULL, "a formula of formulas.h (impactfit_formula_from_name), or exact"}};

enum { O_EPS, O_LAMBDA, O_COUNT };
static const char *const outputs[O_COUNT] = {"eps", "lambda"};
static const char *const output_units[O_COUNT] = {"-", "N s/m^(n+1)"};

static int alloc(void **state, const char *const *opt, const unsigned char *wanted, impactfit_error *err) {
  (void)wanted;
  const impactfit_formula *f = impactfit_formula_from_name(opt[0]);
  *state = (void *)f; /* a constant type object: nothing to free */
  if (!f)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "unknown formula '%s'", opt[0]);
  return IMPACTFIT_OK;
}

static void state_free(void *state) { (void)state; }

static int solve(void *state, const double *in, double *out, long *rhs_evals, impactfit_error *err) {
  *rhs_evals = 0;
  int st = impactfit_formula_eps(state, in[P_E], &out[O_EPS], err);
  if (!st)
    out[O_LAMBDA] = out[O_EPS] * in[P_K] / in[P_V];
  return st;
}

const impactfit_sweep_problem impactfit__problem_eps_formula = {
    .name = "eps-formula",
    .summary = "Hunt-Crossley damping ratio eps(e) of a published formula (formulas.h) and lambda = eps k / v",
    .params = params,
    .n_params = P_COUNT,
    .options = options,
    .n_options = 1,
    .outputs = outputs,
    .n_outputs = O_COUNT,
    .alloc = alloc,
    .free = state_free,
    .solve = solve,
    .output_units = output_units,
};
