/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The answer of a model at its step map (include/impactfit/codes.h, stepper.h): the inverse on the mean e
 * over the phase of the first contact step (impactfit_step_solve_mean), or the forward statistics of a value;
 * what the naive input gives; stability and the largest stable step; one row per speed of a speed range. A
 * continuous-time integrator without the power-law solver (Simbody's) comes here too: its stepper has a NULL
 * type, and every phase gives the law's e. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/common_impl.h"
#include "codes_impl.h"
#include "../law/step_internal.h"

static int build_cb(const void *ctx, double value, impactfit_stepper *st, impactfit_error *err) {
  return impactfit__build(ctx, value, st, err);
}

/* the value of a forward request: the request's, or the free parameter's in the settings */
static int forward_value(const impactfit_code_ctx *c, double *value, impactfit_error *err) {
  const impactfit_code_model *md = c->model;
  *value = c->req->value;
  if (isnan(*value)) {
    const double *pv = md->param_input ? impactfit_code_value(c, md->param_input) : NULL;
    double scale = md->param_scale != 0.0 ? md->param_scale : 1.0;
    *value = pv ? pv[md->param_index] / scale : NAN;
    if (isnan(*value))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "give the asked e or the value of %s", md->param);
  }
  if (!(isfinite(*value) && (*value > 0.0 || (*value == 0.0 && md->param_takes_zero))))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s must be %s 0 (got %.17g)", md->param,
                           md->param_takes_zero ? ">=" : ">", *value);
  return 0;
}

/* what the naive input gives (its value is the search's guess): the value now, its statistics by naive_stats */
static int naive_answer(const impactfit_code_ctx *c, impactfit_code_answer *ans, impactfit_text *naive, double *guess,
                        impactfit_error *err) {
  const impactfit_code_ops *ops = c->model->ops;
  double nv = NAN;
  if (!ops->naive)
    return 0;
  int r = ops->naive(c, c->req->e, &nv, naive, err);
  if (r < 0)
    return r;
  if (r > 0)
    return 0;
  ans->naive_value = nv;
  *guess = nv;
  return 0;
}

/* The naive value's statistics into *N (impacts 0: not computed; a failure leaves them out of the answer) */
static void naive_stats(const impactfit_code_ctx *c, double nv, impactfit_step_stats *N) {
  impactfit_stepper ns;
  impactfit_error e4;
  if (isnan(nv) || build_cb(c, nv, &ns, &e4) || impactfit_step_phase_stats(&ns, c->v, N, &e4))
    memset(N, 0, sizeof *N);
}

static void naive_taken(impactfit_code_answer *ans, const impactfit_step_stats *N) {
  if (N->impacts == 0)
    return;
  ans->e_naive = N->e_mean;
  ans->e_naive_min = N->e_min;
  ans->e_naive_max = N->e_max;
  ans->impacts += N->impacts;
}

/* Where the naive value's contact takes at least this many steps (its continuous-time contact over dt), its
 * statistics are computed on a second thread while the inverse searches (the two share nothing; an answer of
 * some milliseconds at least: a team's first start costs 3-6 ms on the 2-core machines here. At 500 the answers of
 * contacts of 500-2000 steps paid it for little: MuJoCo rk4 at 1e-5 s and 5 m/s 9.9 -> 14.5 ms, the 704-answer grid
 * 1.04 -> 1.14 s of CPU; MuJoCo rk4 at 1e-6 s and 5 m/s, 1050 steps, whose statistics take 22 ms each, has its
 * impacts on a team instead: phase.c) */
#define NAIVE_PARALLEL_STEPS 2000.0

static int naive_beside(const impactfit_code_ctx *c, double nv) {
  impactfit_stepper ns;
  impactfit_error e4;
  impactfit_law_impact_result r;
  return !c->model->ops->solve && !isnan(nv) && build_cb(c, nv, &ns, &e4) == 0 && ns.type &&
         impactfit__step_continuous_impact(&ns, c->v, &r) == 0 && r.t_contact / ns.dt >= NAIVE_PARALLEL_STEPS;
}

/* An unreachable e: the means at both ends of the search range widen the reachable range (the search stops
 * where its cheap means tell it e is out of reach, so the range it met can stop short of the ends), and the
 * step's stability is the one at the end whose mean comes nearest the asked e (the value a user would be
 * left with). `same` (not NULL): every value's statistics are these (the model's solve said the value does not
 * change the step map), taken for both ends without stepping. Returns 1 when an end's mean was computed. */
static int unreachable_ends(const impactfit_code_ctx *c, impactfit_code_answer *ans, double lo, double hi,
                            const impactfit_step_stats *same, long *impacts) {
  const double ends[2] = {lo, hi};
  double nearest = INFINITY;
  int any = 0;
  ans->stable = 1;
  for (int k = 0; k < 2; k++) {
    impactfit_stepper st;
    impactfit_step_stats E;
    impactfit_error e6;
    if (same)
      E = *same;
    else if (build_cb(c, ends[k], &st, &e6) || impactfit_step_phase_stats(&st, c->v, &E, &e6))
      continue;
    else
      *impacts += E.impacts;
    if (!isfinite(E.e_mean))
      continue;
    any = 1;
    ans->e_reach_min = isnan(ans->e_reach_min) ? E.e_mean : fmin(ans->e_reach_min, E.e_mean);
    ans->e_reach_max = isnan(ans->e_reach_max) ? E.e_mean : fmax(ans->e_reach_max, E.e_mean);
    double d = fabs(E.e_mean - c->req->e);
    if (d < nearest) {
      nearest = d;
      ans->stable = E.stable;
    }
  }
  return any;
}

/* The model's own inverse (ops->solve) and the phase statistics of its value, as impactfit_step_solve_mean gives
 * them: 0, ENOROOT (S->e_min > S->e_max: no range met; *value NaN: no value changes the step map), 1 (the
 * model leaves this request to the search on the phase mean) or a status. */
static int model_solve(const impactfit_code_ctx *c, double *value, impactfit_step_stats *S, impactfit_error *err) {
  S->e_min = INFINITY;
  S->e_max = -INFINITY;
  int s = c->model->ops->solve(c, c->req->e, value, err);
  if (s)
    return s;
  impactfit_stepper st;
  if ((s = build_cb(c, *value, &st, err)))
    return s;
  return impactfit_step_phase_stats(&st, c->v, S, err);
}

/* the inverse on the phase mean; an unreachable e is stated in head (the note's first sentence) */
static int inverse_value(const impactfit_code_ctx *c, impactfit_code_answer *ans, double guess,
                         const impactfit_step_stats *N, impactfit_step_stats *S, impactfit_text *head,
                         impactfit_error *err) {
  const impactfit_code_ops *ops = c->model->ops;
  double tol = c->req->tol > 0.0 ? c->req->tol : 1e-10, value = 0.0, lo = ops->lo, hi = ops->hi;
  if (ops->range)
    ops->range(c, &lo, &hi);
  impactfit_error e2;
  int s = ops->solve ? model_solve(c, &value, S, &e2) : 1; /* 1: the model has no answer of its own here */
  if (s == 1) {
    S->e_min = S->e_max = NAN;
    s = impactfit_step_solve_mean(build_cb, c, c->v, c->req->e, lo, hi, guess, tol, &value, S, &e2);
  }
  if (s == IMPACTFIT_ENOCONV && S->e_min < c->req->e && c->req->e < S->e_max) {
    /* across a jump of the mean (an engine's threshold, e.g. DART's restitution only where r v > 0.1 m/s):
     * out of reach, the means at the range's ends stated (the reachable means are two ranges, not one: no
     * e_reach_range) */
    ans->reachable = 0;
    long impacts = S->impacts;
    ans->e_reach_min = ans->e_reach_max = NAN;
    int ends = unreachable_ends(c, ans, lo, hi, NULL, &impacts);
    const char *why = strncmp(e2.message, "stepper inverse: ", 17) == 0 ? e2.message + 17 : e2.message;
    impactfit_text_appendf(head,
                           "NOT REACHABLE at dt = %g s with %s: %s: no value gives a mean e between the jump's "
                           "two sides",
                           c->dt, c->integrator->name, why);
    if (ends)
      impactfit_text_appendf(head, "; the means at the search range's ends (%.6g and %.6g) span [%.6g, %.6g]", lo, hi,
                             ans->e_reach_min, ans->e_reach_max);
    impactfit_text_appendf(head, ". ");
    ans->e_reach_min = ans->e_reach_max = NAN;
    ans->impacts += impacts;
    return 0;
  }
  if (s == IMPACTFIT_ENOROOT) {
    ans->reachable = 0;
    ans->e_reach_min = S->e_min <= S->e_max ? S->e_min : NAN;
    ans->e_reach_max = S->e_min <= S->e_max ? S->e_max : NAN;
    long impacts = S->impacts;
    /* the model's ENOROOT with a NaN value: every value's statistics are the naive value's, where computed */
    const impactfit_step_stats *same = ops->solve && isnan(value) && N && N->impacts > 0 ? N : NULL;
    int widened = unreachable_ends(c, ans, lo, hi, same, &impacts);
    S->impacts = impacts;
    impactfit_text why = IMPACTFIT_TEXT_INIT;
    char e_asked[IMPACTFIT_SHORTEST_SIZE];
    impactfit_format_shortest(c->req->e, e_asked);
    if (widened)
      impactfit_text_appendf(&why,
                             "no value in [%.6g, %.6g] gives a mean e of %s at this step: the means range over "
                             "[%.6g, %.6g]",
                             lo, hi, e_asked, ans->e_reach_min, ans->e_reach_max);
    else
      impactfit_text_appendf(&why, "%s", e2.message);
    if (!c->integrator->stepper)
      impactfit_text_appendf(head, "NOT REACHABLE with %s: %s. ", c->integrator->name, impactfit_text_str(&why));
    else
      impactfit_text_appendf(head, "NOT REACHABLE at dt = %g s with %s: %s. ", c->dt, c->integrator->name,
                             impactfit_text_str(&why));
    impactfit_text_free(&why);
    if (widened && !ans->stable)
      impactfit_text_appendf(head,
                             "UNSTABLE: at the end of that range nearest the asked e the step map grows or returns "
                             "e > 1 at dt = %g s: a smaller dt first. ",
                             c->dt);
  } else if (s) {
    if (err)
      *err = e2;
    return s;
  } else {
    ans->reachable = 1;
    ans->value = value;
    if (!(fabs(S->e_mean - c->req->e) <= tol)) { /* a model's own inverse on a mean that moves in steps: the nearest */
      char e_asked[IMPACTFIT_SHORTEST_SIZE];
      impactfit_format_shortest(c->req->e, e_asked);
      impactfit_text_appendf(head,
                             "NEAREST at dt = %g s: no %s gives a mean e of %s, the mean moves in steps with it; the "
                             "nearest is %.10f, %.2g from the asked e. ",
                             c->dt, c->model->param, e_asked, S->e_mean, fabs(S->e_mean - c->req->e));
    }
  }
  ans->impacts += S->impacts; /* the search's cost */
  return 0;
}

/* 1 when the value's stepper, rebuilt at step dt from the same settings (a code may derive its step map's
 * parameters from dt: MuJoCo's refsafe raises timeconst to 2 dt, ODE's ERP/CFM), is stable at speed v; 0 when
 * not; -1 when it cannot be evaluated there */
static int stable_at(const impactfit_code_ctx *c, double value, double dt, long *impacts) {
  impactfit_code_ctx d = *c;
  d.dt = dt;
  impactfit_stepper st;
  impactfit_step_stats S;
  impactfit_error e7;
  if (build_cb(&d, value, &st, &e7))
    return -1;
  int s = impactfit_step_phase_stats(&st, c->v, &S, &e7);
  if (s == IMPACTFIT_ENONFINITE)
    return 0;
  if (s)
    return -1;
  *impacts += S.impacts;
  return S.stable;
}

/* 1 when the step map's parameters depend on dt: the stepper built at dt2 differs from st (built at c->dt) in
 * more than its dt */
static int depends_on_dt(const impactfit_code_ctx *c, double value, const impactfit_stepper *st, double dt2) {
  impactfit_code_ctx d = *c;
  d.dt = dt2;
  impactfit_stepper s2;
  impactfit_error e8;
  if (build_cb(&d, value, &s2, &e8))
    return 0;
  s2.dt = st->dt;
  return memcmp(s2.p, st->p, sizeof s2.p) != 0 || memcmp(s2.law.p, st->law.p, sizeof s2.law.p) != 0;
}

/* The largest stable step of a value whose step map's parameters depend on dt (issue 34: MuJoCo's refsafe
 * raises timeconst with the step, so the map at a smaller step is not the map at dt rescaled): from guess
 * (the largest stable step of the map at dt with its parameters kept), halved until the rebuilt map is
 * stable, then bisected against c->dt (unstable) to 1e-6 relative. NaN when no stable step is found. */
static double stable_dt_rebuilt(const impactfit_code_ctx *c, double value, double guess, long *impacts) {
  double hi = c->dt, lo = isfinite(guess) && guess > 0.0 && guess < hi ? guess : 0.5 * hi;
  int k;
  for (k = 0; k < 60; k++, lo *= 0.5) {
    int st = stable_at(c, value, lo, impacts);
    if (st == 1)
      break;
    if (st == 0)
      hi = lo;
  }
  if (k == 60)
    return NAN;
  while (hi / lo - 1.0 > 1e-6) {
    double mid = sqrt(lo * hi);
    int st = stable_at(c, value, mid, impacts);
    if (st == 1)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

/* x (> 0) rounded down to 4 significant digits: a largest stable step printed with %.4g must not exceed
 * it (0.0006666692 was printed 0.0006667, a step at which an impact returns e > 1; issue 39) */
static double down4(double x) {
  if (!(x > 0.0 && isfinite(x)))
    return x;
  double p = pow(10.0, floor(log10(x)) - 3.0), r = floor(x / p) * p;
  while (r > x)
    r -= p;
  return r;
}

/* the statistics of the answer's value: the inverse's, or computed (forward); stability, spread */
static int value_stats(const impactfit_code_ctx *c, impactfit_code_answer *ans, impactfit_step_stats *S,
                       impactfit_text *head, impactfit_text *tail, impactfit_error *err) {
  impactfit_stepper st;
  int s = build_cb(c, ans->value, &st, err);
  if (s)
    return s;
  if (ans->forward && (s = impactfit_step_phase_stats(&st, c->v, S, err))) {
    /* no e to give (never NaN with success): the bodies stick at some phase, or the step blows up (with the
     * largest stable step where one is found) */
    double dtm;
    impactfit_error e3;
    if (s == IMPACTFIT_ENONFINITE && impactfit_step_max_stable_dt(&st, c->v, &dtm, &e3) == 0 && err) {
      if (st.type && isfinite(dtm) && depends_on_dt(c, ans->value, &st, 0.5 * c->dt))
        dtm = stable_dt_rebuilt(c, ans->value, dtm, &ans->impacts);
      impactfit_text msg = IMPACTFIT_TEXT_INIT;
      impactfit_text_appendf(&msg,
                             "%s; the largest step at which this contact neither grows nor returns e > 1 is %.4g s",
                             err->message, dtm);
      snprintf(err->message, sizeof err->message, "%s", impactfit_text_str(&msg));
      impactfit_text_free(&msg);
    }
    return s;
  }
  ans->e = S->e_mean;
  ans->e_min = S->e_min;
  ans->e_max = S->e_max;
  ans->e_continuous = S->e_continuous;
  ans->stable = S->stable;
  if (ans->forward)
    ans->impacts += S->impacts;
  ans->end = st.end == impactfit_transition_A ? impactfit_transition_A : impactfit_transition_C;
  if (ans->stable && isfinite(ans->e) && ans->e_max - ans->e_min > 0.1 * ans->e)
    impactfit_text_appendf(tail,
                           "One impact's e ranges from %.4g to %.4g at this dt: where the first contact step falls "
                           "decides e; a smaller dt narrows it. ",
                           ans->e_min, ans->e_max);
  double dtm;
  impactfit_error e3;
  if (!ans->stable && impactfit_step_max_stable_dt(&st, c->v, &dtm, &e3) == 0) {
    if (st.type && isfinite(dtm) && depends_on_dt(c, ans->value, &st, 0.5 * c->dt))
      dtm = stable_dt_rebuilt(c, ans->value, dtm, &ans->impacts);
    ans->dt_stable = dtm;
    if (isfinite(dtm) && dtm <= 1e-9 * c->dt) { /* the search's floor: no step of any use is stable (issue 34) */
      ans->dt_stable = 0.0;
      impactfit_text_appendf(head,
                             "UNSTABLE AT EVERY STEP: single impacts return e > 1 (up to %.4g) at dt = %g s and at "
                             "every smaller step tried, down to %.3g s: no time step makes this setting stable; e "
                             "from an impact is meaningless here. ",
                             ans->e_max, c->dt, dtm);
    } else if (!(S->rho_max <= 1.0 + 1e-9) || !isfinite(ans->e_max))
      impactfit_text_appendf(head,
                             "UNSTABLE: the step map grows during the contact (spectral radius %.4g > 1) at dt = %g s; "
                             "the largest step at which this contact neither grows nor returns e > 1 is %.4g s; e from "
                             "an impact is meaningless here. ",
                             S->rho_max, c->dt, down4(dtm));
    else
      impactfit_text_appendf(head,
                             "UNSTABLE: single impacts gain energy at dt = %g s (e up to %.4g > 1, although the step "
                             "map itself does not grow); below %.4g s no impact returns e > 1. ",
                             c->dt, ans->e_max, down4(dtm));
  }
  return 0;
}

/* one row per speed of the request's speed range (7 by default), log-uniform */
static int speed_rows(const impactfit_code_ctx *c, impactfit_code_answer *ans, impactfit_error *err) {
  const impactfit_code_request *req = c->req;
  if (isnan(req->v_min) && isnan(req->v_max))
    return 0;
  if (!(isfinite(req->v_min) && isfinite(req->v_max) && req->v_min > 0.0 && req->v_min <= req->v_max))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "speed range [%.17g, %.17g] m/s must satisfy 0 < v_min <= v_max",
                           req->v_min, req->v_max);
  size_t n = req->points ? req->points : 7;
  if (n > 10000)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "at most 10000 speeds in the range (got %zu)", n);
  ans->v_min = req->v_min;
  ans->v_max = req->v_max;
  if (!ans->reachable)
    return 0;
  if (!(ans->range = calloc(n, sizeof *ans->range)))
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  ans->n_range = n;
  impactfit_stepper st;
  int s = build_cb(c, ans->value, &st, err);
  if (s)
    return s;
  for (size_t i = 0; i < n; i++) {
    impactfit_code_point *p = &ans->range[i];
    p->v = n < 2 ? req->v_min : req->v_min * pow(req->v_max / req->v_min, (double)i / (double)(n - 1));
    impactfit_step_stats S;
    impactfit_error e5;
    s = impactfit_step_phase_stats(&st, p->v, &S, &e5);
    if (s && s != IMPACTFIT_ENONFINITE && s != IMPACTFIT_ENOSEP) {
      if (err)
        *err = e5;
      return s;
    }
    p->e_mean = s ? NAN : S.e_mean;
    p->e_min = s ? NAN : S.e_min;
    p->e_max = s ? NAN : S.e_max;
    p->e_continuous = s ? NAN : S.e_continuous;
  }
  return 0;
}

static int solve_steps(const impactfit_code_ctx *c, impactfit_code_answer *ans, impactfit_text *naive,
                       impactfit_text *input, impactfit_text *head, impactfit_text *tail, impactfit_error *err) {
  const impactfit_code_model *md = c->model;
  const impactfit_code_request *req = c->req;
  int s;
  if (!ans->forward && !isnan(req->value))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "give either the asked e or the value of %s, not both", md->param);
  if (!ans->forward && !(req->e > 0.0 && req->e < 1.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "e must lie in (0, 1) (got %.17g)", req->e);
  if (ans->forward && (s = forward_value(c, &ans->value, err)))
    return s;
  ans->end = impactfit_transition_C;
  impactfit_step_stats S;
  memset(&S, 0, sizeof S);
  double guess = NAN;
  impactfit_step_stats N;
  memset(&N, 0, sizeof N); /* the naive value's statistics (impacts 0: not computed) */
  if (!ans->forward) {
    if ((s = naive_answer(c, ans, naive, &guess, err)))
      return s;
    if (naive_beside(c, ans->naive_value)) {
      /* the naive value's statistics beside the search (the search needs them only for a model's own solve):
       * the same numbers as one after the other, on one thread or two (OMP_NUM_THREADS=1: one) */
#pragma omp parallel sections num_threads(omp_get_max_threads() < 2 ? 1 : 2)
      {
#pragma omp section
        naive_stats(c, ans->naive_value, &N);
#pragma omp section
        s = inverse_value(c, ans, guess, NULL, &S, head, err);
      }
      naive_taken(ans, &N);
    } else {
      naive_stats(c, ans->naive_value, &N);
      naive_taken(ans, &N);
      s = inverse_value(c, ans, guess, &N, &S, head, err);
    }
    if (s)
      return s;
  }
  if (ans->forward)
    ans->reachable = 1;
  if (ans->reachable) {
    if ((s = value_stats(c, ans, &S, head, tail, err)))
      return s;
    md->ops->input(c, ans->value, input);
  }
  if ((s = speed_rows(c, ans, err)))
    return s;
  if (md->ops->note) /* an unreachable e has no value: the note speaks of the naive one (where there is one) */
    md->ops->note(c, ans->reachable || isnan(ans->naive_value) ? ans->value : ans->naive_value, tail);
  return 0;
}

int impactfit__solve_steps(const impactfit_code_ctx *c, impactfit_code_answer *ans, impactfit_error *err) {
  impactfit_text naive = IMPACTFIT_TEXT_INIT, input = IMPACTFIT_TEXT_INIT, head = IMPACTFIT_TEXT_INIT;
  impactfit_text tail = IMPACTFIT_TEXT_INIT;
  ans->stable = 0;
  int s = solve_steps(c, ans, &naive, &input, &head, &tail, err);
  const impactfit_code_model *md = c->model;
  /* the note: what makes the answer unusable first (NOT REACHABLE, UNSTABLE), then whether it was run here,
   * then the rest */
  if (!ans->run_here)
    impactfit_text_appendf(&head, "Formula only: %s %s was read from its source (%s), not run here. ", md->code->name,
                           md->versions, md->source);
  if (c->req->gravity != 0.0)
    impactfit_text_appendf(&head,
                           "Gravity taken: %.6g m/s^2 along the normal, into the contact, in every step (a sphere "
                           "over a plane); the speeds are read at the step states (v at the start of the first "
                           "contact step). ",
                           c->req->gravity);
  impactfit_text_appendf(&head, "%s", impactfit_text_str(&tail));
  impactfit_text_free(&tail);
  if (head.len && head.s[head.len - 1] == ' ')
    head.s[--head.len] = '\0';
  int s2 = impactfit__answer_texts(ans, &naive, &input, &head, err);
  return s ? s : s2;
}
