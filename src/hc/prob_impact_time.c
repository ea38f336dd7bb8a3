/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Sweep problem "impact-time": the dimensionless Hunt–Crossley contact duration Δτ(ε, n)
 * (impactfit_hc_impact_time, include/impactfit/hc.h: one simulated impact per point) and, for the
 * point's k, mass and v, the impact natural frequency ω_i = (k v^(n−1)/mass)^(1/(n+1)), the contact
 * duration Δt = Δτ/ω_i and λ = ε k / v; e is the restitution from the exact relation (e(ε),
 * impactfit_hc_e). With the defaults k = mass = v = 1, ω_i = 1 and Δt = Δτ. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/common_impl.h"
#include "hc_impl.h"
#include "../sweep/problems.h"

enum { P_EPS, P_N, P_K, P_MASS, P_V, P_COUNT };

static const impactfit_sweep_param params[P_COUNT] = {
    {.name = "eps",
     .def = 0.0,
     .min = 0.0,
     .max = 1e7,
     .flags = IMPACTFIT_SWEEP_REQUIRED,
     .help = "hysteresis damping ratio eps = lambda v / k, 0..1e7"},
    IMPACTFIT__PARAM_N(IMPACTFIT_SWEEP_REQUIRED),
    IMPACTFIT__PARAM_K(""),
    IMPACTFIT__PARAM_MASS(0, ""),
    IMPACTFIT__PARAM_V(0, ""),
};

enum { O_DTAU, O_E, O_OMEGA, O_DT, O_LAMBDA, O_COUNT };
static const char *const outputs[O_COUNT] = {"dtau", "e", "omega_i", "dt", "lambda"};
static const char *const output_units[O_COUNT] = {"-", "-", "1/s", "s", "N s/m^(n+1)"};

typedef struct state {
  impactfit_impact_workspace *ws;
  unsigned char wanted[O_COUNT];
} state;

static int check(const char *const *opt, const double *in, impactfit_error *err) {
  (void)opt;
  double w;
  int st = impactfit_hc_omega(in[P_K], in[P_V], in[P_MASS], in[P_N], &w, err);
  if (st)
    return st;
  if (!isfinite(in[P_EPS] * in[P_K] / in[P_V]))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "lambda = eps k / v is not representable (eps = %g, k = %g, "
                           "v = %g)",
                           in[P_EPS], in[P_K], in[P_V]);
  return IMPACTFIT_OK;
}

static int alloc(void **out, const char *const *opt, const unsigned char *wanted, impactfit_error *err) {
  (void)opt;
  *out = NULL;
  state *s = malloc(sizeof *s);
  if (!s)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  memcpy(s->wanted, wanted, sizeof s->wanted);
  s->ws = impactfit_impact_alloc();
  if (!s->ws) {
    free(s);
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  }
  *out = s;
  return IMPACTFIT_OK;
}

static void state_free(void *vs) {
  state *s = vs;
  if (!s)
    return;
  impactfit_impact_free(s->ws);
  free(s);
}

static int solve(void *vs, const double *in, double *out, long *rhs_evals, impactfit_error *err) {
  state *s = vs;
  *rhs_evals = 0;
  double dtau = 0.0, omega = 1.0;
  int st;
  if (s->wanted[O_DTAU] || s->wanted[O_DT]) {
    st = impactfit__hc_impact_time(s->ws, in[P_EPS], in[P_N], &dtau, NULL, rhs_evals, err);
    if (st)
      return st;
  }
  if ((st = impactfit_hc_omega(in[P_K], in[P_V], in[P_MASS], in[P_N], &omega, err)))
    return st;
  out[O_DTAU] = dtau;
  out[O_OMEGA] = omega;
  out[O_DT] = dtau / omega;
  out[O_LAMBDA] = in[P_EPS] * in[P_K] / in[P_V];
  if (s->wanted[O_E] && (st = impactfit_hc_e(in[P_EPS], &out[O_E], err)))
    return st;
  return IMPACTFIT_OK;
}

const impactfit_sweep_problem impactfit__problem_impact_time = {
    .name = "impact-time",
    .summary = "Hunt-Crossley contact duration dtau(eps, n) (one simulation per point), omega_i, dt, lambda",
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
