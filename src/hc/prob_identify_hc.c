/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Sweep problem "identify-hc": the Hunt–Crossley stiffness k and damping factor λ that reproduce a
 * measured restitution e and contact duration dt (impactfit_hc_identify, include/impactfit/hc.h) per
 * point, with the check simulation's e, dt and relative residuals. One simulation a point. */
#include <math.h>
#include <string.h>

#include "../common/common_impl.h"
#include "../sweep/problems.h"
#include "impactfit/hc.h"

enum { P_E, P_DT, P_V, P_MASS, P_N, P_COUNT };

static const impactfit_sweep_param params[P_COUNT] = {
    IMPACTFIT__PARAM_E(0, "measured coefficient of restitution, 0 < e <= 1"),
    {.name = "dt",
     .def = 1.0,
     .min = 0.0,
     .max = HUGE_VAL,
     .flags = IMPACTFIT_SWEEP_REQUIRED | IMPACTFIT_SWEEP_MIN_EXCLUSIVE,
     .help = "measured contact duration, s"},
    IMPACTFIT__PARAM_V(IMPACTFIT_SWEEP_REQUIRED, ""),
    IMPACTFIT__PARAM_MASS(IMPACTFIT_SWEEP_REQUIRED, ""),
    IMPACTFIT__PARAM_N(IMPACTFIT_SWEEP_REQUIRED),
};

enum { O_EPS, O_DTAU, O_OMEGA, O_K, O_LAMBDA, O_E_SIM, O_DT_SIM, O_E_RES, O_DT_RES, O_COUNT };
static const char *const outputs[O_COUNT] = {"eps",   "dtau",   "omega_i",    "k",          "lambda",
                                             "e_sim", "dt_sim", "e_residual", "dt_residual"};
static const char *const output_units[O_COUNT] = {"-", "-", "1/s", "N/m^n", "N s/m^(n+1)", "-", "s", "-", "-"};

static int alloc(void **state, const char *const *opt, const unsigned char *wanted, impactfit_error *err) {
  (void)opt;
  (void)wanted;
  *state = impactfit_impact_alloc();
  return *state ? IMPACTFIT_OK : IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
}

static void state_free(void *state) { impactfit_impact_free(state); }

static int solve(void *state, const double *in, double *out, long *rhs_evals, impactfit_error *err) {
  impactfit_hc_identified id;
  *rhs_evals = 0;
  int st = impactfit_hc_identify(state, in[P_E], in[P_DT], in[P_V], in[P_MASS], in[P_N], &id, err);
  if (st)
    return st;
  const double v[O_COUNT] = {id.eps,   id.dtau,   id.omega_i,    id.k,          id.lambda,
                             id.e_sim, id.dt_sim, id.e_residual, id.dt_residual};
  memcpy(out, v, sizeof v);
  return IMPACTFIT_OK;
}

const impactfit_sweep_problem impactfit__problem_identify_hc = {
    .name = "identify-hc",
    .summary = "Hunt-Crossley k and lambda from a measured e and contact duration (impactfit_hc_identify)",
    .params = params,
    .n_params = P_COUNT,
    .outputs = outputs,
    .n_outputs = O_COUNT,
    .alloc = alloc,
    .free = state_free,
    .solve = solve,
    .output_units = output_units,
};
