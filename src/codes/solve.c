/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A request to the code registry (include/impactfit/codes.h): its settings resolved against the model's
 * inputs, the bodies, the integrator and the step; the answer's dispatch (solve_power.c: continuous time
 * with the power law; solve_steps.c: a step map), forward at one speed, the grid of points. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../common/common_impl.h"
#include "blocks_impl.h"
#include "codes_impl.h"

impactfit_code_request impactfit_code_request_default(void) {
  impactfit_code_request r;
  memset(&r, 0, sizeof r);
  r.bodies = impactfit_code_bodies_default();
  r.dt = r.e = r.value = r.v = r.v_min = r.v_max = NAN;
  r.e11 = r.e22 = NAN;
  r.r_min = r.r_max = NAN;
  r.r2_min = r.r2_max = NAN;
  r.clamp = -1;
  return r;
}

/* ---------------------------------------------------------------- the settings */

static int input_index(const impactfit_code_model *md, const char *name) {
  for (int i = 0; md && name && i < md->n_inputs; i++)
    if (strcmp(md->inputs[i].name, name) == 0 || (md->inputs[i].alias && strcmp(md->inputs[i].alias, name) == 0))
      return i;
  return -1;
}

const double *impactfit_code_value(const impactfit_code_ctx *c, const char *name) {
  int i = c ? input_index(c->model, name) : -1;
  if (i < 0)
    return NULL;
  return c->model->inputs[i].per_body ? c->mixed_[i] : c->values_[i];
}

const double *impactfit_code_body_value(const impactfit_code_ctx *c, const char *name, int body) {
  int i = c ? input_index(c->model, name) : -1;
  if (i < 0)
    return NULL;
  const impactfit_code_input *in = &c->model->inputs[i];
  return in->per_body && body == 2 ? c->values_[i] + in->count : c->values_[i];
}

int impactfit_code_given(const impactfit_code_ctx *c, const char *name) {
  int i = c ? input_index(c->model, name) : -1;
  return i >= 0 && c->given_[i];
}

/* "solref (2 values, s, -), ..." */
static void known_inputs(const impactfit_code_model *md, impactfit_text *t) {
  for (int i = 0; i < md->n_inputs; i++)
    impactfit_text_appendf(t, "%s%s (%d value%s%s, %s)", i ? ", " : "", md->inputs[i].name, md->inputs[i].count,
                           md->inputs[i].count > 1 ? "s" : "", md->inputs[i].per_body ? " per body" : "",
                           md->inputs[i].unit);
  if (!md->n_inputs)
    impactfit_text_appendf(t, "none");
}

/* one setting into the context's values */
static int apply_setting(impactfit_code_ctx *c, const impactfit_code_setting *set, impactfit_error *err) {
  const impactfit_code_model *md = c->model;
  int k = input_index(md, set->name);
  if (k < 0) {
    impactfit_text list = IMPACTFIT_TEXT_INIT;
    known_inputs(md, &list);
    const char *names[IMPACTFIT_CODE_MAX_INPUTS];
    int n = md->n_inputs < IMPACTFIT_CODE_MAX_INPUTS ? md->n_inputs : IMPACTFIT_CODE_MAX_INPUTS;
    for (int i = 0; i < n; i++)
      names[i] = md->inputs[i].name;
    const char *close = set->name ? impactfit_closest_name(set->name, names, (size_t)n) : NULL;
    int st = IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s %s takes no setting '%s' (its settings: %s)%s%s%s",
                             md->code->name, md->model, set->name ? set->name : "(null)", impactfit_text_str(&list),
                             close ? "; did you mean '" : "", close ? close : "", close ? "'?" : "");
    impactfit_text_free(&list);
    return st;
  }
  const impactfit_code_input *in = &md->inputs[k];
  if (c->given_[k])
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s %s: setting %s given twice", md->code->name, md->model, in->name);
  int n = in->count, both = in->per_body && set->body == 0 && set->count == 2 * n;
  if (set->body < 0 || set->body > 2 || (set->body && !in->per_body))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s %s: %s is not set per body (body %d)", md->code->name, md->model,
                           in->name, set->body);
  if (set->count != n && !both) {
    if (in->per_body && set->body == 0)
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                             "%s %s: %s takes %d value%s (both bodies) or %d (each body's) (got %d)", md->code->name,
                             md->model, in->name, n, n > 1 ? "s" : "", 2 * n, set->count);
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s %s: %s takes %d value%s (got %d)", md->code->name, md->model,
                           in->name, n, n > 1 ? "s" : "", set->count);
  }
  for (int j = 0; j < set->count; j++) {
    /* an infinity where the default is that infinity (ODE's mu = dInfinity, max_vel: no cap) */
    double x = set->values[j], d = in->def[j % n];
    if (!isfinite(x) && !(isinf(x) && isinf(d) && signbit(x) == signbit(d)))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s %s: %s value %d is not a finite number", md->code->name,
                             md->model, in->name, j + 1);
  }
  double *dst = c->values_[k];
  if (set->body == 2)
    dst += n;
  memcpy(dst, set->values, (size_t)set->count * sizeof *dst);
  if (in->per_body && set->body == 0 && !both) /* one value for both bodies */
    memcpy(c->values_[k] + n, set->values, (size_t)n * sizeof *dst);
  c->given_[k] = 1;
  return 0;
}

/* the contact's value of per-body input k from the two bodies' */
static int mix_input(impactfit_code_ctx *c, int k, impactfit_error *err) {
  const impactfit_code_input *in = &c->model->inputs[k];
  const double *a = c->values_[k], *b = c->values_[k] + in->count;
  for (int j = 0; j < in->count; j++) {
    double x = a[j], y = b[j], z = x;
    switch (in->mix) {
    case IMPACTFIT_CODE_MIX_SAME:
      if (!(x == y || (isnan(x) && isnan(y))))
        return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                               "%s %s: the two bodies' %s differ (%.17g, %.17g): this model assumes one material",
                               c->model->code->name, c->model->model, in->name, x, y);
      break;
    case IMPACTFIT_CODE_MIX_OWN:
      break;
    case IMPACTFIT_CODE_MIX_MIN:
      z = fmin(x, y);
      break;
    case IMPACTFIT_CODE_MIX_MAX:
      z = fmax(x, y);
      break;
    case IMPACTFIT_CODE_MIX_MEAN:
      z = 0.5 * (x + y);
      break;
    case IMPACTFIT_CODE_MIX_PRODUCT:
      z = x * y;
      break;
    case IMPACTFIT_CODE_MIX_SUM:
      z = x + y;
      break;
    case IMPACTFIT_CODE_MIX_SERIES:
      z = 1.0 / (1.0 / x + 1.0 / y);
      break;
    }
    c->mixed_[k][j] = z;
  }
  return 0;
}

/* the free parameter's slot: solved for, or the request's value */
static int is_free_slot(const impactfit_code_model *md, int k, int j) {
  return md->param_input && strcmp(md->inputs[k].name, md->param_input) == 0 && j == md->param_index;
}

static int resolve_settings(const impactfit_code_request *req, impactfit_code_ctx *c, impactfit_error *err) {
  const impactfit_code_model *md = c->model;
  if (md->n_inputs < 0 || md->n_inputs > IMPACTFIT_CODE_MAX_INPUTS)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s %s declares %d inputs (at most %d)", md->code->name, md->model,
                           md->n_inputs, IMPACTFIT_CODE_MAX_INPUTS);
  for (int i = 0; i < md->n_inputs; i++) {
    const impactfit_code_input *in = &md->inputs[i];
    if (in->count < 1 || in->count > IMPACTFIT_CODE_MAX_VALUES)
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s %s: input %s declares %d values", md->code->name, md->model,
                             in->name, in->count);
    for (int b = 0; b < (in->per_body ? 2 : 1); b++)
      memcpy(c->values_[i] + b * in->count, b == 1 && in->def_body2 ? in->def_body2 : in->def,
             (size_t)in->count * sizeof(double));
  }
  if (req->n_settings && !req->settings)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%zu settings but no array", req->n_settings);
  int st;
  for (size_t s = 0; s < req->n_settings; s++)
    if ((st = apply_setting(c, &req->settings[s], err)))
      return st;
  for (int i = 0; i < md->n_inputs; i++) {
    const impactfit_code_input *in = &md->inputs[i];
    for (int j = 0; j < in->count * (in->per_body ? 2 : 1); j++) {
      double *x = &c->values_[i][j];
      if (isnan(*x) && in->default_v)
        *x = req->v;
      if (isnan(*x) && in->default_v)
        return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s %s needs %s (%s) or the impact speed v (m/s)", md->code->name,
                               md->model, in->name, in->help);
      if (isnan(*x) && !in->optional && !is_free_slot(md, i, j % in->count))
        return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s %s needs %s (%s)", md->code->name, md->model, in->name,
                               in->help);
    }
    if (in->per_body && (st = mix_input(c, i, err)))
      return st;
  }
  return 0;
}

/* the integrator and its step */
static int resolve_step(const impactfit_code_request *req, impactfit_code_ctx *c, impactfit_error *err) {
  const impactfit_code_model *md = c->model;
  int no_dt = isnan(req->dt) || req->dt == 0.0;
  const char *name = req->integrator;
  /* no integrator, no step and none by default: the model's continuous-time integrator where it has one */
  if ((!name || !*name) && no_dt && !(md->dt_default > 0.0))
    for (int i = 0; i < md->n_integrators && !name; i++)
      if (!md->integrators[i].stepper)
        name = md->integrators[i].name;
  int st = impactfit_code_integrator_find(md, name, &c->integrator, err);
  if (st)
    return st;
  if (!c->integrator->stepper) {
    if (!no_dt)
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                             "%s %s: the integrator %s takes no time step (continuous time) (got dt = %.17g); give "
                             "none",
                             md->code->name, md->model, c->integrator->name, req->dt);
    c->dt = NAN;
    return 0;
  }
  c->dt = no_dt ? md->dt_default : req->dt;
  if (no_dt && !(md->dt_default > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s %s has no default time step: give dt (s)", md->code->name,
                           md->model);
  if (!(isfinite(c->dt) && c->dt > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "dt must be > 0 (s) (got %.17g)", c->dt);
  return 0;
}

int impactfit_code_resolve(const impactfit_code_request *req, impactfit_code_ctx *c, impactfit_error *err) {
  if (!req || !c)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no request given");
  memset(c, 0, sizeof *c);
  c->req = req;
  const impactfit_code_model *md = c->model = req->model;
  if (!md || !md->ops || !md->ops->build || !md->code)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no model given");
  c->v = req->v;
  if (!isnan(req->v) && !(isfinite(req->v) && req->v > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "impact speed v must be > 0 (m/s) (got %.17g)", req->v);
  if (!isfinite(req->gravity))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "gravity must be finite (m/s^2) (got %.17g)", req->gravity);
  if (req->clamp > 0 && !md->clamp_switch && !md->clamp_default)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s %s never clamps the normal force: no switch to turn on",
                           md->code->name, md->model);
  if (req->clamp == 0 && !md->clamp_switch && md->clamp_default)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s %s always clamps the normal force at zero: no switch to turn off",
                           md->code->name, md->model);
  c->clamp = req->clamp < 0 ? md->clamp_default : req->clamp;
  int st;
  if ((st = resolve_settings(req, c, err)) || (st = impactfit_code_bodies_resolve(&req->bodies, c, err)) ||
      (st = resolve_step(req, c, err)))
    return st;
  for (int i = 0; i < md->n_inputs; i++) /* the code's own contact radius */
    if (md->inputs[i].contact_radius)
      c->R = impactfit_code_value(c, md->inputs[i].name)[0];
  return 0;
}

int impactfit__build(const impactfit_code_ctx *c, double value, impactfit_stepper *st, impactfit_error *err) {
  memset(st, 0, sizeof *st);
  if (c->req->tangential && c->model->ops->build != impactfit__dem_build) /* the DEM build checks its own clause */
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "%s %s has no tangential clause (its friction settings, if any, are inputs: --list shows "
                           "them)",
                           c->model->code->name, c->model->model);
  int s = c->model->ops->build(c, value, st, err);
  if (s)
    return s;
  double g = c->req->gravity;
  if (g != 0.0 && st->gravity != g)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "%s %s with %s does not model gravity (got %.17g m/s^2): the engines whose step applies it "
                           "are MuJoCo, ODE and Bullet, at a time step",
                           c->model->code->name, c->model->model, c->integrator->name, g);
  return 0;
}

/* ---------------------------------------------------------------- answers */

void impactfit_code_answer_free(impactfit_code_answer *ans) {
  if (!ans)
    return;
  free(ans->naive);
  free(ans->input);
  free(ans->note);
  free(ans->range);
  free(ans->assumes);
  ans->assumes = NULL;
  if (ans->alternative) {
    impactfit_code_answer_free(ans->alternative);
    free(ans->alternative);
  }
  if (ans->exact_model) {
    impactfit_code_answer_free(ans->exact_model);
    free(ans->exact_model);
  }
  ans->exact_model = NULL;
  ans->naive = ans->input = ans->note = NULL;
  ans->range = NULL;
  ans->n_range = 0;
  ans->alternative = NULL;
}

int impactfit__answer_texts(impactfit_code_answer *ans, impactfit_text *naive, impactfit_text *input,
                            impactfit_text *note, impactfit_error *err) {
  int failed = naive->failed || input->failed || note->failed;
  ans->naive = impactfit_text_take(naive);
  ans->input = impactfit_text_take(input);
  ans->note = impactfit_text_take(note);
  if (failed || !ans->naive || !ans->input || !ans->note)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory for the answer's texts");
  return 0;
}

int impactfit__is_power(const impactfit_code_ctx *c) {
  return !c->integrator->stepper && c->model->solver != IMPACTFIT_CODE_SOLVE_MEAN &&
         c->model->law == impactfit_law_power;
}

static void answer_init(const impactfit_code_ctx *c, impactfit_code_answer *ans) {
  memset(ans, 0, sizeof *ans);
  const impactfit_code_request *req = c->req;
  ans->model = c->model;
  ans->version = req->version && *req->version ? req->version : c->model->code->default_version;
  ans->run_here = impactfit_code_model_run_for(c->model, ans->version);
  ans->integrator = c->integrator;
  ans->stepped = !impactfit__is_power(c);
  ans->forward = isnan(req->e);
  ans->dt = c->dt;
  ans->v = req->v;
  ans->v_min = ans->v_max = req->v;
  ans->e_asked = req->e;
  ans->mass = c->M;
  ans->gravity = req->gravity;
  ans->R = c->R;
  ans->wall = c->wall;
  ans->end = c->clamp ? impactfit_transition_C : impactfit_transition_A;
  ans->value = ans->e = ans->e_min = ans->e_max = ans->e_continuous = NAN;
  ans->e_speed_min = ans->e_speed_max = ans->K = ans->C = ans->zeta = NAN;
  ans->e_reach_min = ans->e_reach_max = ans->dt_stable = NAN;
  ans->naive_value = ans->e_naive = ans->e_naive_min = ans->e_naive_max = NAN;
  ans->stable = 1;
  ans->r_min = ans->r_max = NAN;
  ans->r2_min = ans->r2_max = NAN;
}

/* a stepped answer with a size range: the spread of its value over the box, a sentence of the note */
static int steps_spread(const impactfit_code_ctx *c, impactfit_code_answer *ans, impactfit_error *err) {
  if (!ans->stepped || !impactfit__has_range(c->req, 0) || !ans->reachable || !ans->stable || isnan(ans->value))
    return 0;
  int st = impactfit__spread_of(c, ans, ans->value, err);
  if (st)
    return st;
  impactfit_text t = IMPACTFIT_TEXT_INIT;
  impactfit_text_appendf(&t, "%s%s", ans->note ? ans->note : "", ans->note && *ans->note ? "; " : "");
  impactfit__spread_sentence(c, ans, &t);
  int failed = t.failed;
  char *s = impactfit_text_take(&t);
  if (failed || !s) {
    free(s);
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory for the answer's note");
  }
  free(ans->note);
  ans->note = s;
  return 0;
}

int impactfit_code_solve(const impactfit_code_request *req, impactfit_code_answer *ans, impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  impactfit_error_clear(err);
  if (!req || !ans)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no request or answer given");
  memset(ans, 0, sizeof *ans);
  if (!(isfinite(req->v) && req->v > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "impact speed v must be > 0 (m/s) (got %.17g)", req->v);
  impactfit_code_ctx *c = malloc(sizeof *c);
  if (!c)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  int st = impactfit_code_resolve(req, c, err);
  if (!st) {
    answer_init(c, ans);
    st = impactfit__is_power(c) ? impactfit__solve_power(c, ans, err) : impactfit__solve_steps(c, ans, err);
    if (!st)
      st = steps_spread(c, ans, err);
    if (!st && !(ans->assumes = impactfit__assumes(c, NULL, req->gravity)))
      st = IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory for the answer's assumptions");
  }
  free(c);
  return st;
}

int impactfit_code_stepper(const impactfit_code_request *req, double value, impactfit_stepper *st,
                           impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  impactfit_error_clear(err);
  if (!req || !st)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no request or stepper given");
  impactfit_code_ctx *c = malloc(sizeof *c);
  if (!c)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  int s = impactfit_code_resolve(req, c, err);
  if (!s) {
    s = impactfit__build(c, value, st, err);
  }
  free(c);
  return s;
}

int impactfit_code_forward(const impactfit_code_request *req, double value, double v, double *e, impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  impactfit_error_clear(err);
  if (!req || !e)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no request or output given");
  if (!(isfinite(v) && v > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "impact speed v must be > 0 (m/s) (got %.17g)", v);
  impactfit_code_request q = *req;
  q.v = v;
  impactfit_code_ctx *c = malloc(sizeof *c);
  if (!c)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  int s = impactfit_code_resolve(&q, c, err);
  if (!s && impactfit__is_power(c)) {
    s = impactfit__power_forward(c, value, v, e, err);
  } else if (!s) {
    impactfit_stepper st;
    impactfit_step_stats S;
    if (!(s = impactfit__build(c, value, &st, err)) && !(s = impactfit_step_phase_stats(&st, v, &S, err)))
      *e = S.e_mean;
  }
  free(c);
  return s;
}

int impactfit_code_grid(const impactfit_code_request *base, const double *x, size_t nx, int forward, const double *v,
                        size_t nv, impactfit_code_point_fn fn, void *ctx, impactfit_error *err) {
  if (!base || !base->model || (nx && !x) || (nv && !v) || !fn)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no request, values, speeds or callback given");
  int stop = 0;
  for (size_t i = 0; i < nx && !stop; i++)
    for (size_t j = 0; j < nv && !stop; j++) {
      impactfit_code_request q = *base;
      q.v = v[j];
      if (forward) {
        q.value = x[i];
        q.e = NAN;
      } else {
        q.e = x[i];
        q.value = NAN;
      }
      impactfit_error e1;
      impactfit_error_clear(&e1);
      impactfit_code_answer a;
      int st = impactfit_code_solve(&q, &a, &e1);
      stop = fn(ctx, i * nv + j, &q, x[i], st, st ? NULL : &a, &e1);
      impactfit_code_answer_free(&a);
    }
  return stop ? IMPACTFIT__FAIL(err, IMPACTFIT_EINTR, "stopped") : 0;
}
