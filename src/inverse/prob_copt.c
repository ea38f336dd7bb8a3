/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Sweep problem "copt": the damping coefficient c_opt of Poursina & Nikravesh (2020) per point, i.e.
 * the linear damper c of f = k δ^n + c δ' (condition C) whose simulated impact gives restitution e
 * (include/impactfit/inverse.h, impactfit_copt_solve). Outputs c_opt in N·s/m, its scaled value
 * ζ = c_opt δ_m0/(mass v), the simulated e_out and e_out − e, the penetration at separation
 * δ_s = (v c_opt e_out / k)^(1/n) in m, the contact duration in s and the simulations spent.
 *
 * Runs (solve_run): when e is the innermost axis and dimensional = 0, a run is solved with
 * impactfit_inverse_solve_run (continuation along e: about one simulation per point on a dense
 * run). Otherwise every point is solved as impactfit_copt_solve solves it alone; in the scaled mode
 * the scaled problem depends on (n, e) only, so a point whose (n, e, tol, max_iter) equal the
 * previous point's reuses that solution, which is exactly what a fresh solve returns (the solver
 * is deterministic): runs along mass, v or k then cost one root search per run (a reused point
 * reports the solution's iterations and 0 right-hand-side evaluations spent). With
 * dimensional = 1 every point runs its own root search on c with simulations in the user's units.
 * A point that fails inside a continuation run is solved again alone (its own message, or its
 * solution when only the extrapolated guess was at fault). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/common_impl.h"
#include "impactfit/inverse.h"
#include "../sweep/problems.h"
#include "inverse_impl.h"

enum { P_N, P_E, P_K, P_MASS, P_V, P_TOL, P_MAXIT, P_COUNT };

static const impactfit_sweep_param params[P_COUNT] = {
    IMPACTFIT__PARAM_N(IMPACTFIT_SWEEP_REQUIRED),
    IMPACTFIT__PARAM_E(0, "target coefficient of restitution, 0 < e <= 1"),
    IMPACTFIT__PARAM_K(""),
    IMPACTFIT__PARAM_MASS(0, ""),
    IMPACTFIT__PARAM_V(0, ""),
    IMPACTFIT__PARAM_TOL,
    {.name = "max_iter",
     .def = 200.0,
     .min = 2.0,
     .max = 512.0,
     .flags = IMPACTFIT_SWEEP_INTEGER | IMPACTFIT_SWEEP_TOLERANCE,
     .help = "simulations allowed per point"},
};

enum { O_METHOD, O_DIMENSIONAL, O_GUESS, O_COUNT_OPT };
static const impactfit_sweep_option options[O_COUNT_OPT] = {
    {"method", "fast", "bisect|fast|nlopt", "root finder (inverse.h)"},
    {"dimensional", "0", "0|1", "1: search c in the user's units, each simulation with k, mass, v, c"},
    {"guess", "surrogate", "surrogate|closed",
     "initial guess: the committed c_opt surrogate, or closed forms only (results then do not depend "
     "on the generated header)"},
};

enum { O_C_OPT, O_ZETA, O_E_OUT, O_E_ERR, O_DELTA_SEP, O_T_CONTACT, O_ITERATIONS, O_COUNT };
static const char *const outputs[O_COUNT] = {"c_opt", "zeta", "e_out", "e_err", "delta_sep", "t_contact", "iterations"};
static const char *const output_units[O_COUNT] = {"N s/m", "-", "-", "-", "m", "s", "-"};

typedef struct state {
  impactfit_inverse_workspace *ws;
  impactfit_inverse_params p; /* m = 0, condition C */
  int dimensional;
  /* scaled mode: the last scaled solution and the (n, e, tol, max_iter) it belongs to */
  int have_last;
  double last_key[4];
  impactfit_inverse_result last;
  /* scaled_out: delta_m0 of the last (n, k, mass, v) (constant along a run of e) */
  int have_dm;
  double dm_key[4], dm;
  /* a run along e: targets, results, statuses; grown to the run length on the first long run
   * (then reused: at most one allocation per thread and sweep) */
  double *targets;
  impactfit_inverse_result *results;
  int *status;
  size_t cap;
} state;

static int alloc(void **out, const char *const *opt, const unsigned char *wanted, impactfit_error *err) {
  (void)wanted;
  *out = NULL;
  const impactfit_root_method *method = impactfit_root_method_from_name(opt[O_METHOD]);
  if (!method)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "unknown method '%s'", opt[O_METHOD]);
  state *s = calloc(1, sizeof *s);
  if (!s || !(s->ws = impactfit_inverse_alloc())) {
    free(s);
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  }
  s->p = impactfit_inverse_default_params();
  s->p.m = 0.0;
  s->p.transition = impactfit_transition_C;
  s->p.method = method;
  s->p.surrogate_guess = strcmp(opt[O_GUESS], "surrogate") == 0;
  s->dimensional = strcmp(opt[O_DIMENSIONAL], "1") == 0;
  *out = s;
  return IMPACTFIT_OK;
}

static void reset(void *vs) {
  state *s = vs;
  s->have_last = 0;
}

static void state_free(void *vs) {
  state *s = vs;
  if (!s)
    return;
  impactfit_inverse_free(s->ws);
  free(s->targets);
  free(s->results);
  free(s->status);
  free(s);
}

static void set_params(state *s, const double *in) {
  s->p.n = in[P_N];
  s->p.tol = in[P_TOL];
  s->p.max_iter = (int)in[P_MAXIT];
}

/* The outputs of a scaled solution in the units of point `in`, computed with the same operations
 * as impactfit_copt_solve (so that the values are the same doubles). */
static int scaled_out(state *s, const impactfit_inverse_result *r, const double *in, double *out,
                      impactfit_error *err) {
  double key[4] = {in[P_N], in[P_K], in[P_MASS], in[P_V]}, c;
  if (!(s->have_dm && memcmp(key, s->dm_key, sizeof key) == 0)) { /* delta_m0 as impactfit_copt_from_zeta has it */
    impactfit_impact_params q = impactfit_impact_default_params();
    q.n = in[P_N];
    q.m = 0.0;
    q.k = in[P_K];
    q.mass = in[P_MASS];
    q.v = in[P_V];
    q.c = 0.0;
    s->have_dm = 0;
    int st = impactfit_impact_scales(&q, &s->dm, NULL, NULL, NULL, NULL, err);
    if (st)
      return st;
    memcpy(s->dm_key, key, sizeof key);
    s->have_dm = 1;
  }
  double dm = s->dm;
  int st = impactfit__lambda_from_dm(0.0, r->zeta, in[P_MASS], in[P_V], dm, &c, err);
  if (st)
    return st;
  double T = dm / in[P_V];
  out[O_C_OPT] = c;
  out[O_ZETA] = r->zeta;
  out[O_E_OUT] = r->e_out;
  out[O_E_ERR] = r->e_out - in[P_E];
  out[O_DELTA_SEP] = r->x_sep * dm;
  out[O_T_CONTACT] = r->t_contact * T;
  out[O_ITERATIONS] = r->iterations;
  return 0;
}

/* One point as impactfit_copt_solve solves it alone. */
static int solve(void *vs, const double *in, double *out, long *rhs_evals, impactfit_error *err) {
  state *s = vs;
  set_params(s, in);
  *rhs_evals = 0;
  if (s->dimensional) {
    impactfit_copt_result r;
    memset(&r, 0, sizeof r);
    int st = impactfit_copt_solve(s->ws, &s->p, in[P_E], in[P_K], in[P_MASS], in[P_V], 1, &r, err);
    *rhs_evals = r.rhs_evals;
    if (st)
      return st;
    out[O_C_OPT] = r.c_opt;
    out[O_ZETA] = r.zeta;
    out[O_E_OUT] = r.e_out;
    out[O_E_ERR] = r.e_out - in[P_E];
    out[O_DELTA_SEP] = r.delta_sep;
    out[O_T_CONTACT] = r.t_contact;
    out[O_ITERATIONS] = r.iterations;
    return 0;
  }
  /* The scaled problem depends on (n, e) only: impactfit_copt_solve's scaled path is
   * impactfit_inverse_solve with m = 0, condition C and no guess, followed by the conversion in
   * scaled_out. A point of the same scaled problem as the previous one reuses its solution. */
  double key[4] = {in[P_N], in[P_E], in[P_TOL], in[P_MAXIT]};
  if (!(s->have_last && memcmp(key, s->last_key, sizeof key) == 0)) {
    s->have_last = 0;
    memset(&s->last, 0, sizeof s->last);
    int st = impactfit_inverse_solve(s->ws, &s->p, in[P_E], 0.0, &s->last, err);
    *rhs_evals = s->last.rhs_evals;
    if (st)
      return st;
    memcpy(s->last_key, key, sizeof key);
    s->have_last = 1;
  }
  return scaled_out(s, &s->last, in, out, err);
}

static int grow(state *s, size_t count) {
  if (count <= s->cap)
    return 0;
  double *t = realloc(s->targets, count * sizeof *t);
  if (t)
    s->targets = t;
  impactfit_inverse_result *r = realloc(s->results, count * sizeof *r);
  if (r)
    s->results = r;
  int *st = realloc(s->status, count * sizeof *st);
  if (st)
    s->status = st;
  if (!t || !r || !st)
    return IMPACTFIT_ENOMEM;
  s->cap = count;
  return 0;
}

/* A run of points that differ in the innermost axis only. */
static int solve_run(void *vs, size_t count, const double *in, double *out, long *rhs_evals, int *status,
                     impactfit_error *errs) {
  state *s = vs;
  const size_t np = P_COUNT, no = O_COUNT;
  int along_e = count > 1 && in[np + P_E] != in[P_E];
  if (s->dimensional || !along_e) {
    for (size_t i = 0; i < count; i++)
      status[i] = solve(s, in + i * np, out + i * no, &rhs_evals[i], &errs[i]);
    return 0;
  }
  /* continuation along e (impactfit_inverse_solve_run) */
  if (grow(s, count)) {
    for (size_t i = 0; i < count; i++) {
      status[i] = IMPACTFIT__FAIL(&errs[i], IMPACTFIT_ENOMEM, "out of memory");
      rhs_evals[i] = 0;
    }
    return 0;
  }
  set_params(s, in);
  for (size_t i = 0; i < count; i++)
    s->targets[i] = in[i * np + P_E];
  impactfit_inverse_solve_run(s->ws, &s->p, s->targets, count, s->results, s->status, NULL);
  for (size_t i = 0; i < count; i++) {
    const double *pi = in + i * np;
    rhs_evals[i] = s->results[i].rhs_evals;
    if (s->status[i]) {
      /* the run reports one message: solve the failed point alone, as solve() would, which
       * gives its own message (or a solution, when only the continuation's guess failed) */
      impactfit_inverse_result r;
      memset(&r, 0, sizeof r);
      status[i] = impactfit_inverse_solve(s->ws, &s->p, pi[P_E], 0.0, &r, &errs[i]);
      rhs_evals[i] += r.rhs_evals;
      if (!status[i])
        status[i] = scaled_out(s, &r, pi, out + i * no, &errs[i]);
      continue;
    }
    status[i] = scaled_out(s, &s->results[i], pi, out + i * no, &errs[i]);
  }
  s->have_last = 0;
  return 0;
}

const impactfit_sweep_problem impactfit__problem_copt = {
    .name = "copt",
    .summary = "c_opt of Poursina & Nikravesh (m = 0, condition C) per point (impactfit_copt_solve); "
               "continuation along e",
    .params = params,
    .n_params = P_COUNT,
    .options = options,
    .n_options = O_COUNT_OPT,
    .outputs = outputs,
    .n_outputs = O_COUNT,
    .check = NULL,
    .alloc = alloc,
    .reset = reset,
    .free = state_free,
    .solve = solve,
    .solve_run = solve_run,
    .output_units = output_units,
};
