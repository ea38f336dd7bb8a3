/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Sweep problem "zhang-alpha": Zhang et al. (2021)'s modification parameter α(n, m, e) per point,
 * solved exactly (include/impactfit/inverse.h): ζ with e_out(ζ) = e under the transition
 * condition, then α = 3(1−e)(m+1) e^(−(m+1)/(n+1)) / (4ζ), λ* = ζ e^((m+1)/(n+1)) and
 * λ = ζ mass v / δ_m0^(m+1) (their Eq. 53) for the point's k, mass, v.
 * Runs along the innermost axis: when only e varies along the run, the run is solved with
 * impactfit_inverse_solve_run (continuation: about one simulation per point); otherwise point by
 * point. Either way a run's results depend on its inputs only, not on the thread computing it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/common_impl.h"
#include "impactfit/inverse.h"
#include "../sweep/problems.h"

enum { P_N, P_M, P_E, P_K, P_MASS, P_V, P_TOL, P_COUNT };

static const impactfit_sweep_param params[P_COUNT] = {
    IMPACTFIT__PARAM_N(IMPACTFIT_SWEEP_REQUIRED),
    IMPACTFIT__PARAM_M(IMPACTFIT_SWEEP_REQUIRED),
    IMPACTFIT__PARAM_E(IMPACTFIT_SWEEP_MAX_EXCLUSIVE, "target coefficient of restitution, 0 < e < 1"),
    IMPACTFIT__PARAM_K(" (for lambda)"),
    IMPACTFIT__PARAM_MASS(0, " (for lambda)"),
    IMPACTFIT__PARAM_V(0, " (for lambda)"),
    IMPACTFIT__PARAM_TOL,
};

static const impactfit_sweep_option options[] = {
    {"transition", "C", "C|A", "C: contact ends where the force falls to zero; A: at delta = 0"},
    {"method", "fast", "fast|bisect|nlopt", "root finder (inverse.h)"},
    {"guess", "surrogate", "surrogate|closed",
     "initial guess: the committed c_opt surrogate where it applies (m = 0, C), or closed forms only"},
};

enum { O_ALPHA, O_LAMBDA_STAR, O_E_OUT, O_ZETA, O_LAMBDA, O_ITERATIONS, O_COUNT };
static const char *const outputs[O_COUNT] = {"alpha", "lambda_star", "e_out", "zeta", "lambda", "iterations"};
static const char *const output_units[O_COUNT] = {"-", "-", "-", "-", "N s/m^(m+1)", "-"};

typedef struct state {
  impactfit_inverse_workspace *ws;
  impactfit_inverse_params base;
  /* one run's targets and results (a run has at most the innermost axis' count of points) */
  double *e;
  impactfit_inverse_result *res;
  int *status;
  size_t cap;
} state;

static int check(const char *const *opt, const double *in, impactfit_error *err) {
  (void)opt;
  /* λ needs δ_m0 = [(n+1) mass v²/(2k)]^(1/(n+1)) in double range */
  double lam;
  return impactfit_lambda_from_zeta(in[P_N], in[P_M], 1.0, in[P_K], in[P_MASS], in[P_V], &lam, err);
}

static int alloc(void **out, const char *const *opt, const unsigned char *wanted, impactfit_error *err) {
  (void)wanted;
  *out = NULL;
  state *s = calloc(1, sizeof *s);
  if (!s)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  s->base = impactfit_inverse_default_params();
  s->base.transition = impactfit_transition_from_name(opt[0]);
  s->base.method = impactfit_root_method_from_name(opt[1]);
  s->base.surrogate_guess = strcmp(opt[2], "surrogate") == 0;
  s->ws = impactfit_inverse_alloc();
  if (!s->ws || !s->base.transition || !s->base.method) {
    impactfit_inverse_free(s->ws);
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
  impactfit_inverse_free(s->ws);
  free(s->e);
  free(s->res);
  free(s->status);
  free(s);
}

static impactfit_inverse_params point_params(const state *s, const double *in) {
  impactfit_inverse_params p = s->base;
  p.n = in[P_N];
  p.m = in[P_M];
  p.tol = in[P_TOL];
  return p;
}

/* The outputs of a solved point. */
static int fill(const double *in, const impactfit_inverse_result *r, double *out, impactfit_error *err) {
  double alpha, ls, lam;
  int st = impactfit_zhang_alpha_from_zeta(in[P_N], in[P_M], in[P_E], r->zeta, &alpha, &ls, err);
  if (!st)
    st = impactfit_lambda_from_zeta(in[P_N], in[P_M], r->zeta, in[P_K], in[P_MASS], in[P_V], &lam, err);
  if (st)
    return st;
  out[O_ALPHA] = alpha;
  out[O_LAMBDA_STAR] = ls;
  out[O_E_OUT] = r->e_out;
  out[O_ZETA] = r->zeta;
  out[O_LAMBDA] = lam;
  out[O_ITERATIONS] = r->iterations;
  return IMPACTFIT_OK;
}

static int solve(void *vs, const double *in, double *out, long *rhs_evals, impactfit_error *err) {
  state *s = vs;
  impactfit_inverse_params p = point_params(s, in);
  impactfit_inverse_result r;
  memset(&r, 0, sizeof r);
  int st = impactfit_inverse_solve(s->ws, &p, in[P_E], 0.0, &r, err);
  *rhs_evals = r.rhs_evals;
  return st ? st : fill(in, &r, out, err);
}

static int solve_run(void *vs, size_t count, const double *in, double *out, long *rhs_evals, int *status,
                     impactfit_error *errs) {
  state *s = vs;
  int only_e = 1;
  for (size_t i = 1; i < count && only_e; i++)
    for (int q = 0; q < P_COUNT; q++)
      if (q != P_E && in[i * P_COUNT + q] != in[q])
        only_e = 0;
  if (!only_e || count < 2) {
    for (size_t i = 0; i < count; i++)
      status[i] = solve(vs, in + i * P_COUNT, out + i * O_COUNT, &rhs_evals[i], &errs[i]);
    return IMPACTFIT_OK;
  }
  if (count > s->cap) {
    double *e = realloc(s->e, count * sizeof *e);
    if (e)
      s->e = e;
    impactfit_inverse_result *res = realloc(s->res, count * sizeof *res);
    if (res)
      s->res = res;
    int *stv = realloc(s->status, count * sizeof *stv);
    if (stv)
      s->status = stv;
    if (!e || !res || !stv)
      return IMPACTFIT__FAIL(&errs[0], IMPACTFIT_ENOMEM, "out of memory");
    s->cap = count;
  }
  for (size_t i = 0; i < count; i++)
    s->e[i] = in[i * P_COUNT + P_E];
  impactfit_inverse_params p = point_params(s, in);
  impactfit_error first;
  impactfit_error_clear(&first);
  impactfit_inverse_solve_run(s->ws, &p, s->e, count, s->res, s->status, &first);
  for (size_t i = 0; i < count; i++) {
    rhs_evals[i] = s->res[i].rhs_evals;
    status[i] = s->status[i];
    if (status[i]) {
      /* solve_run keeps the first failure's message only: re-solve a failed point alone for its own
       * (a failure is rare: no root, which the solver finds again at once) */
      impactfit_inverse_result r;
      status[i] = impactfit_inverse_solve(s->ws, &p, s->e[i], 0.0, &r, &errs[i]);
      if (!status[i])
        status[i] = fill(in + i * P_COUNT, &r, out + i * O_COUNT, &errs[i]);
      continue;
    }
    status[i] = fill(in + i * P_COUNT, &s->res[i], out + i * O_COUNT, &errs[i]);
  }
  return IMPACTFIT_OK;
}

const impactfit_sweep_problem impactfit__problem_zhang_alpha = {
    .name = "zhang-alpha",
    .summary = "Zhang et al.'s alpha (and lambda*, zeta, lambda) with e_out = e, per (n, m, e)",
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
    .solve_run = solve_run,
    .output_units = output_units,
};
