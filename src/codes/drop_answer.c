/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A drop test on a registry entry (include/impactfit/code_drop.h): the entry's build op (codes_impl.h's
 * impactfit__build, which checks that the model's step map applies the gravity) stepped by drop.h, the
 * inverse by impactfit_drop_solve on the exact release when its sequence is determined to its end, else on
 * the mean over the releases. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/common_impl.h"
#include "codes_impl.h"
#include "impactfit/code_drop.h"

enum { DROP_RELEASES = 16 };

static int build_cb(const void *ctx, double value, impactfit_stepper *st, impactfit_error *err) {
  return impactfit__build(ctx, value, st, err);
}

const char *impactfit_drop_end_name(int end) {
  switch (end) {
  case IMPACTFIT_DROP_COUNTED:
    return "counted";
  case IMPACTFIT_DROP_LOW:
    return "low";
  case IMPACTFIT_DROP_REST:
    return "rest";
  case IMPACTFIT_DROP_TIME:
    return "time";
  default:
    return "unknown";
  }
}

void impactfit_code_drop_free(impactfit_code_drop_answer *ans) {
  if (!ans)
    return;
  free(ans->input);
  free(ans->note);
  free(ans->assumes);
  ans->input = ans->note = ans->assumes = NULL;
}

/* the forward value: the request's, or the free parameter's in the settings */
static int forward_value(const impactfit_code_ctx *c, double *value, impactfit_error *err) {
  const impactfit_code_model *md = c->model;
  *value = c->req->value;
  if (isnan(*value)) {
    const double *pv = md->param_input ? impactfit_code_value(c, md->param_input) : NULL;
    double scale = md->param_scale != 0.0 ? md->param_scale : 1.0;
    *value = pv ? pv[md->param_index] / scale : NAN;
    if (isnan(*value))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "drop test: give the asked e or the value of %s", md->param);
  }
  if (!(isfinite(*value) && *value > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "drop test: %s must be > 0 (got %.17g)", md->param, *value);
  return 0;
}

/* the single impact's inverse at the first impact's speed: the drop search's guess (NaN when none) */
static double single_guess(const impactfit_code_request *q) {
  impactfit_code_answer a;
  impactfit_error e;
  impactfit_error_clear(&e);
  double g = NAN;
  if (impactfit_code_solve(q, &a, &e) == 0 && a.reachable)
    g = a.value;
  impactfit_code_answer_free(&a);
  return g;
}

/* the inverse: on the release when its sequence is determined to its end, else on the mean */
static int drop_inverse(const impactfit_code_ctx *c, const impactfit_code_request *q, impactfit_code_drop_answer *ans,
                        impactfit_text *head, impactfit_error *err) {
  const impactfit_code_ops *ops = c->model->ops;
  double lo = ops->lo, hi = ops->hi, guess = single_guess(q), value = NAN;
  if (ops->range)
    ops->range(c, &lo, &hi);
  impactfit_drop_stats S;
  int s = impactfit_drop_solve(build_cb, c, &ans->params, 0, q->e, lo, hi, guess, 1e-9, &value, &S, err);
  ans->on = IMPACTFIT_CODE_DROP_RELEASE;
  if ((s != 0 && s != IMPACTFIT_ENOCONV) || S.determined < S.exact.n) {
    if (s != 0 && s != IMPACTFIT_ENOCONV && s != IMPACTFIT_ENOROOT)
      return s;
    impactfit_error_clear(err);
    ans->on = IMPACTFIT_CODE_DROP_MEAN;
    s = impactfit_drop_solve(build_cb, c, &ans->params, ans->releases, q->e, lo, hi, guess, 1e-9, &value, &S, err);
  }
  if (s == IMPACTFIT_ENOROOT) {
    ans->reachable = 0;
    impactfit_text_appendf(head, "NOT REACHABLE: %s. ", err->message);
    impactfit_error_clear(err);
    return 0;
  }
  if (s == IMPACTFIT_ENOCONV) {
    ans->jump = 1;
    impactfit_text_appendf(head, "IN A JUMP: %s; the value given is the side closer to e. ", err->message);
    impactfit_error_clear(err);
  } else if (s) {
    return s;
  }
  ans->reachable = 1;
  ans->value = value;
  return 0;
}

/* the sentences on where the sequence ends and what one drop tells */
static void drop_note(const impactfit_code_drop_answer *ans, impactfit_text *t) {
  const impactfit_drop_stats *S = &ans->stats;
  const impactfit_drop_result *r = &S->exact;
  if (ans->on == IMPACTFIT_CODE_DROP_MEAN)
    impactfit_text_appendf(t,
                           "Solved on the mean fit over %d releases: the sequence is determined for %d of %d bounces "
                           "(a release 1e-12 higher or lower changes the later apexes by more than 1e-6), so one "
                           "drop gives e %.6g +- %.2g (its sd over the releases). ",
                           S->samples, S->determined, r->n, S->e_mean, S->e_sd);
  else if (ans->on == IMPACTFIT_CODE_DROP_RELEASE)
    impactfit_text_appendf(t,
                           "Solved on this release's fit: its %d bounces are all determined (a code that differs "
                           "from impactfit only by rounding gives the same apexes within 1e-6). ",
                           r->n);
  else if (S->determined < r->n)
    impactfit_text_appendf(t,
                           "Only %d of %d bounces are determined: the later apexes are decided by rounding (the fit "
                           "of one release is a draw: mean %.6g, sd %.2g over %d releases). ",
                           S->determined, r->n, S->e_mean, S->e_sd, S->samples);
  switch (r->end) {
  case IMPACTFIT_DROP_COUNTED:
    impactfit_text_appendf(t, "The sequence ends at the %d bounces asked. ", r->n);
    break;
  case IMPACTFIT_DROP_LOW:
    impactfit_text_appendf(t,
                           "The sequence ends after %d bounces: the next apex, %.6g m, is below the peak threshold "
                           "%.6g m (not counted). ",
                           r->n, r->low_apex, ans->params.min_height);
    break;
  case IMPACTFIT_DROP_REST:
    impactfit_text_appendf(t,
                           "The ball comes to rest after %d bounces: an impact did not end within %ld steps (the "
                           "code's soft contact holds it under gravity, or its threshold stops the restitution",
                           r->n, ans->params.rest_steps);
    /* the speed of the impact that rests: the last rebound's, back after a free flight */
    if (r->n > 0)
      impactfit_text_appendf(t,
                             "; that impact came in at about %.6g m/s (the last rebound's speed), to compare "
                             "with the code's restitution threshold where it has one",
                             r->b[r->n - 1].v_out);
    impactfit_text_appendf(t, "). ");
    break;
  default:
    impactfit_text_appendf(t, "The sequence ends at the time bound after %d bounces. ", r->n);
    break;
  }
  impactfit_text_appendf(t, "Gravity %.6g m/s^2 along the normal, a sphere released from rest %.6g m above the plane. ",
                         ans->gravity, ans->params.height);
}

static int drop_answer(const impactfit_code_request *q, impactfit_code_drop_answer *ans, impactfit_text *head,
                       impactfit_text *body, impactfit_text *input, impactfit_error *err) {
  impactfit_code_ctx c;
  int s = impactfit_code_resolve(q, &c, err);
  if (s)
    return s;
  if (!c.integrator->stepper)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "drop test: %s %s with %s takes no time step (continuous time): a drop test steps the "
                           "code's own step map (MuJoCo, ODE and Bullet apply gravity)",
                           c.model->code->name, c.model->model, c.integrator->name);
  if (!(ans->assumes = impactfit__assumes(&c, &ans->params, q->gravity)))
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory for the drop answer's assumptions");
  ans->integrator = c.integrator;
  ans->dt = c.dt;
  if (ans->params.rest_steps == 0) /* the ball rests when one impact outlasts the first fall's flight, 2 sqrt(2 h/g) */
    ans->params.rest_steps = (long)fmax(100.0, ceil(2.0 * sqrt(2.0 * ans->params.height / q->gravity) / c.dt));
  ans->mass = c.M;
  ans->on = IMPACTFIT_CODE_DROP_FORWARD;
  if (isnan(q->e)) {
    if ((s = forward_value(&c, &ans->value, err)))
      return s;
    ans->reachable = 1;
  } else if ((s = drop_inverse(&c, q, ans, head, err))) {
    return s;
  }
  if (!ans->reachable)
    return 0;
  impactfit_stepper st;
  if ((s = impactfit__build(&c, ans->value, &st, err)) ||
      (s = impactfit_drop_stats_run(&st, &ans->params, ans->releases, &ans->stats, err)))
    return s;
  c.model->ops->input(&c, ans->value, input);
  drop_note(ans, body);
  if (c.model->ops->note)
    c.model->ops->note(&c, ans->value, body);
  return 0;
}

int impactfit_code_drop(const impactfit_code_request *req, const impactfit_drop_params *p, int releases,
                        impactfit_code_drop_answer *ans, impactfit_error *err) {
  impactfit_error_clear(err);
  if (!ans)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "drop test: NULL answer");
  memset(ans, 0, sizeof *ans);
  ans->value = ans->e_asked = NAN;
  if (!req || !req->model || !p)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "drop test: no request or parameters given");
  if (!(releases >= 0 && releases <= 4096))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "drop test: releases must lie in 1 .. 4096 (got %d)", releases);
  if (!(isfinite(req->gravity) && req->gravity >= 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "drop test: gravity must be >= 0 (m/s^2) (got %.17g)", req->gravity);
  if (!(isfinite(p->height) && p->height > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "drop test: the height must be > 0 (m) (got %.17g)", p->height);
  if (!isnan(req->e) && !(req->e > 0.0 && req->e < 1.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "drop test: e must lie in (0, 1) (got %.17g)", req->e);
  if (!isnan(req->e) && !isnan(req->value))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "drop test: give either the asked e or the value, not both");
  impactfit_code_request q = *req;
  q.gravity = req->gravity > 0.0 ? req->gravity : 9.81;
  q.v = sqrt(2.0 * q.gravity * p->height); /* the first impact's speed (the single impact's guess) */
  q.v_min = q.v_max = NAN;
  q.suggest = 0;
  ans->model = req->model;
  ans->version = req->version && *req->version ? req->version : req->model->code->default_version;
  ans->run_here = impactfit_code_model_run_for(req->model, ans->version);
  ans->gravity = q.gravity;
  ans->params = *p;
  ans->releases = releases > 0 ? releases : DROP_RELEASES;
  ans->e_asked = req->e;
  impactfit_text head = IMPACTFIT_TEXT_INIT, input = IMPACTFIT_TEXT_INIT, body = IMPACTFIT_TEXT_INIT;
  int s = drop_answer(&q, ans, &head, &body, &input, err);
  /* the most important first: NOT REACHABLE or IN A JUMP (head), then formula only, then the rest */
  if (!ans->run_here)
    impactfit_text_appendf(&head, "Formula only: %s %s was read from its source (%s), not run here. ",
                           req->model->code->name, req->model->versions, req->model->source);
  if (body.len)
    impactfit_text_appendf(&head, "%s", body.s);
  int body_failed = body.failed;
  impactfit_text_free(&body);
  if (head.len && head.s[head.len - 1] == ' ')
    head.s[--head.len] = '\0';
  int failed = head.failed || input.failed || body_failed;
  ans->note = impactfit_text_take(&head);
  ans->input = impactfit_text_take(&input);
  if (!s && (failed || !ans->note || !ans->input))
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory for the drop answer's texts");
  return s;
}
