/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Sweep problem "impact": one impact per point (impactfit_impact_solve, include/impactfit/impact.h)
 * with every field of its result, and the contact-end condition as an axis: option transitions is a
 * comma list of A, B, C, D and the parameter transition_index (0, 1, ...) picks one of them, so a
 * grid can compare conditions point by point. The built-in simulate problem (one condition, a subset
 * of the fields, extrema on demand) is what definition files and fits use; this one is what
 * `impactfit simulate` prints. Parameters as impactfit_impact_params; t_max = 0: automatic. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/common_impl.h"
#include "../sweep/problems.h"
#include "impactfit/impact.h"
#include "prob_outputs.h"

enum { P_TR, P_N, P_M, P_C, P_K, P_MASS, P_V, P_ACCEL, P_CONTACTS, P_TMAX, P_COUNT };

static const impactfit_sweep_param params[P_COUNT] = {
    {.name = "transition_index",
     .def = 0.0,
     .min = 0.0,
     .max = 3.0,
     .flags = IMPACTFIT_SWEEP_INTEGER,
     .help = "index into the option transitions"},
    IMPACTFIT__PARAM_N(0),
    IMPACTFIT__PARAM_M(0),
    IMPACTFIT__PARAM_C(0),
    IMPACTFIT__PARAM_K(""),
    IMPACTFIT__PARAM_MASS(0, ""),
    IMPACTFIT__PARAM_V(0, ""),
    IMPACTFIT__PARAM_ACCEL,
    IMPACTFIT__PARAM_CONTACTS,
    {.name = "t_max",
     .def = 0.0,
     .min = 0.0,
     .max = HUGE_VAL,
     .flags = IMPACTFIT_SWEEP_TOLERANCE,
     .help = "time bound in units of delta_m0/v (0: automatic)"},
};

static const impactfit_sweep_option options[1] = {{"transitions", "C", NULL, "comma list of A, B, C, D"}};

/* the columns: the shared ones (prob_outputs.h), then this problem's */
#define PROB_OUTPUTS(X) IMPACT_RESULT_OUTPUTS(X) X(steps, "-") X(n_contacts, "-")
enum { PROB_OUTPUTS(IMPACT_ENUM) O_COUNT };
_Static_assert(O_COUNT == IMPACTFIT_IMPACT_ROW, "impact.h: IMPACTFIT_IMPACT_ROW is the number of outputs");
static const char *const outputs[O_COUNT] = {PROB_OUTPUTS(IMPACT_NAME)};
static const char *const output_units[O_COUNT] = {PROB_OUTPUTS(IMPACT_UNIT)};

typedef struct state {
  impactfit_impact_workspace *ws;
  const impactfit_transition *trs[4];
  size_t ntr;
} state;

/* "C" or "A,C" (at most four); 0 or EINVAL. */
static int parse_transitions(const char *list, state *s, impactfit_error *err) {
  s->ntr = 0;
  for (const char *t = list;;) {
    const char *comma = strchr(t, ',');
    size_t len = comma ? (size_t)(comma - t) : strlen(t);
    char name[8] = "";
    if (len < sizeof name) {
      memcpy(name, t, len);
      name[len] = '\0';
    }
    const impactfit_transition *tr = (len < sizeof name) ? impactfit_transition_from_name(name) : NULL;
    if (!tr || s->ntr == 4)
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "transitions: expected A, B, C, D or a list of them, got '%s'",
                             list);
    s->trs[s->ntr++] = tr;
    if (!comma)
      return IMPACTFIT_OK;
    t = comma + 1;
  }
}

static int alloc(void **out, const char *const *opt, const unsigned char *wanted, impactfit_error *err) {
  (void)wanted;
  *out = NULL;
  state *s = calloc(1, sizeof *s);
  if (!s)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  int st = parse_transitions(opt[0], s, err);
  if (!st && !(s->ws = impactfit_impact_alloc()))
    st = IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  if (st) {
    free(s);
    return st;
  }
  *out = s;
  return IMPACTFIT_OK;
}

static void state_free(void *vs) {
  state *s = vs;
  if (s)
    impactfit_impact_free(s->ws);
  free(s);
}

static int solve(void *vs, const double *in, double *out, long *rhs_evals, impactfit_error *err) {
  state *s = vs;
  *rhs_evals = 0;
  size_t ti = (size_t)in[P_TR];
  if (ti >= s->ntr)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "transition_index %zu: the option transitions has %zu", ti, s->ntr);
  impactfit_impact_params p = impactfit_impact_default_params();
  p.transition = s->trs[ti];
  p.n = in[P_N];
  p.m = in[P_M];
  p.c = in[P_C];
  p.k = in[P_K];
  p.mass = in[P_MASS];
  p.v = in[P_V];
  p.accel = in[P_ACCEL];
  p.max_contacts = (int)in[P_CONTACTS];
  p.t_max = in[P_TMAX];
  impactfit_impact_result r;
  memset(&r, 0, sizeof r);
  int st = impactfit_impact_solve(s->ws, &p, &r, err);
  *rhs_evals = r.rhs_evals;
  if (st)
    return st;
  impactfit_impact_result_to_row(&r, out);
  return IMPACTFIT_OK;
}

void impactfit_impact_result_to_row(const impactfit_impact_result *r, double *out) {
  impact_result_outputs(r, out);
  out[O_steps] = (double)r->steps;
  out[O_n_contacts] = (double)r->n_contacts;
}

void impactfit_impact_result_from_row(const double *out, long rhs_evals, impactfit_impact_result *r) {
  memset(r, 0, sizeof *r);
#define IMPACT_RESULT_IN(f, unit) r->f = out[O_##f];
  IMPACT_RESULT_OUTPUTS(IMPACT_RESULT_IN)
#undef IMPACT_RESULT_IN
  r->steps = (long)out[O_steps];
  r->n_contacts = (int)out[O_n_contacts];
  r->rhs_evals = rhs_evals;
}

const impactfit_sweep_problem impactfit__problem_impact = {
    .name = "impact",
    .summary = "one impact per point with every result field (impactfit_impact_solve); a list of contact-end "
               "conditions as an axis",
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
