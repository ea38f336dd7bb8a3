/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Sweep problem "simulate": one impact through f = k d^n + c d^m d' (include/impactfit/impact.h)
 * per point; the outputs are the fields of impactfit_impact_result. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/common_impl.h"
#include "impactfit/impact.h"
#include "../sweep/problems.h"
#include "prob_outputs.h"

enum { P_N, P_M, P_K, P_C, P_MASS, P_V, P_ACCEL, P_CONTACTS, P_TMAX, P_RTOL, P_COUNT };

static const impactfit_sweep_param params[P_COUNT] = {
    IMPACTFIT__PARAM_N(0),
    IMPACTFIT__PARAM_M(0),
    IMPACTFIT__PARAM_K(""),
    IMPACTFIT__PARAM_C(0),
    IMPACTFIT__PARAM_MASS(0, ""),
    IMPACTFIT__PARAM_V(0, ""),
    IMPACTFIT__PARAM_ACCEL,
    IMPACTFIT__PARAM_CONTACTS,
    {.name = "t_max",
     .def = 1e4,
     .min = 0.0,
     .max = HUGE_VAL,
     .flags = IMPACTFIT_SWEEP_MIN_EXCLUSIVE | IMPACTFIT_SWEEP_TOLERANCE,
     .help = "time bound in units of delta_m0/v"},
    {.name = "rtol",
     .def = 1e-13,
     .min = 1e-15,
     .max = 1e-3,
     .flags = IMPACTFIT_SWEEP_TOLERANCE,
     .help = "integrator tolerance on the scaled state"},
};

static const impactfit_sweep_option options[] = {
    {"transition", "C", "A|B|C|D", "transition condition (impact.h)"},
};

/* the columns: the shared ones (prob_outputs.h), then this problem's */
#define PROB_OUTPUTS(X) IMPACT_RESULT_OUTPUTS(X) X(n_contacts, "-")
enum { PROB_OUTPUTS(IMPACT_ENUM) O_COUNT };
static const char *const outputs[O_COUNT] = {PROB_OUTPUTS(IMPACT_NAME)};
static const char *const output_units[O_COUNT] = {PROB_OUTPUTS(IMPACT_UNIT)};

typedef struct state {
  impactfit_impact_workspace *ws;
  const impactfit_transition *tr;
  int extrema;
} state;

static impactfit_impact_params to_params(const impactfit_transition *tr, const double *in) {
  impactfit_impact_params p = impactfit_impact_default_params();
  p.n = in[P_N];
  p.m = in[P_M];
  p.k = in[P_K];
  p.c = in[P_C];
  p.mass = in[P_MASS];
  p.v = in[P_V];
  p.accel = in[P_ACCEL];
  p.max_contacts = (int)in[P_CONTACTS];
  p.t_max = in[P_TMAX];
  p.rtol = in[P_RTOL];
  p.transition = tr;
  return p;
}

static int check(const char *const *opt, const double *in, impactfit_error *err) {
  const impactfit_transition *tr = impactfit_transition_from_name(opt[0]);
  impactfit_impact_params p = to_params(tr, in);
  return impactfit_impact_scales(&p, NULL, NULL, NULL, NULL, NULL, err);
}

static int alloc(void **out, const char *const *opt, const unsigned char *wanted, impactfit_error *err) {
  *out = NULL;
  state *s = malloc(sizeof *s);
  if (!s)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  s->tr = impactfit_transition_from_name(opt[0]);
  s->ws = impactfit_impact_alloc();
  s->extrema = wanted[O_f_max] || wanted[O_t_fmax] || wanted[O_f_min] || wanted[O_delta_max] || wanted[O_t_delta_max];
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
  impactfit_impact_params p = to_params(s->tr, in);
  p.locate_extrema = s->extrema;
  impactfit_impact_result r;
  memset(&r, 0, sizeof r);
  int st = impactfit_impact_solve(s->ws, &p, &r, err);
  *rhs_evals = r.rhs_evals;
  if (st)
    return st;
  impact_result_outputs(&r, out);
  out[O_n_contacts] = r.n_contacts;
  return IMPACTFIT_OK;
}

const impactfit_sweep_problem impactfit__problem_simulate = {
    .name = "simulate",
    .summary = "one impact per point (impactfit_impact_solve): restitution, contact time, extrema",
    .params = params,
    .n_params = P_COUNT,
    .options = options,
    .n_options = sizeof options / sizeof options[0],
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
