/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The answer over the user's ranges (include/impactfit/codes.h: request.r_min, r_max; answer.spread): the e
 * that the answer's one value gives over every size of [r_min, r_max] and every speed of [v_min, v_max], each
 * point impactfit_code_forward's e (impactfit_code_forward_spread, mixing.c), the masses following the sizes
 * at the bodies' densities. A setting that defaults to the design speed (LIGGGHTS's characteristic velocity)
 * is pinned to it: the user types it once. The sentence the answer's note carries about the spread. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/common_impl.h"
#include "codes_impl.h"

/* e_max − e_min at or below this is "exact over the ranges" (a scale-invariant model's e over a box differs in
 * the last bits only: measured 1e-15 .. 1e-13 in tests/codes/test_spread.c) */
#define SPREAD_EXACT 1e-9

int impactfit__has_range(const impactfit_code_request *q, int power) {
  int sizes = !(isnan(q->r_min) && isnan(q->r_max));
  int speeds = isfinite(q->v_min) && isfinite(q->v_max) && q->v_min < q->v_max;
  return sizes || (power && speeds);
}

/* the box's points per axis: 2 .. 64 with a size range (0: 5); the speed range's own (9 by default, at most 64)
 * with a speed range alone, so that the spread samples the speeds e_range samples */
static int box_points(const impactfit_code_request *q, int sizes, int *points, impactfit_error *err) {
  if (sizes) {
    if (q->points == 1 || q->points > 64)
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "a size range takes 2 to 64 points per axis (got %zu)", q->points);
    *points = q->points ? (int)q->points : 5;
  } else {
    *points = q->points ? (int)(q->points < 64 ? q->points : 64) : 9;
    if (*points < 2)
      *points = 2;
  }
  return 0;
}

int impactfit__spread_of(const impactfit_code_ctx *c, impactfit_code_answer *ans, double value, impactfit_error *err) {
  const impactfit_code_request *req = c->req;
  int sizes = !(isnan(req->r_min) && isnan(req->r_max));
  if (sizes && !(isfinite(req->r_min) && isfinite(req->r_max) && req->r_min > 0.0 && req->r_min <= req->r_max))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "size range [%.17g, %.17g] m must satisfy 0 < r_min <= r_max",
                           req->r_min, req->r_max);
  int own2 = !(isnan(req->r2_min) && isnan(req->r2_max));
  if (own2 && (c->wall || !sizes))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "body 2's size range (r2_min, r2_max) is for two spheres with a size range of body 1 "
                           "(r_min, r_max; r_min = r_max holds body 1 at one size)%s",
                           c->wall ? ": body 2 is a wall here" : "");
  if (own2 && !(isfinite(req->r2_min) && isfinite(req->r2_max) && req->r2_min > 0.0 && req->r2_min <= req->r2_max))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "body 2's size range [%.17g, %.17g] m must satisfy 0 < r2_min <= r2_max", req->r2_min,
                           req->r2_max);
  if (!(isfinite(c->r1) && isfinite(c->m1)) || (!c->wall && !(isfinite(c->r2) && isfinite(c->m2))))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "a size range needs the bodies' radii and densities or masses (radius, density; not meff "
                           "and reff)");
  int points = 0;
  int st = box_points(req, sizes, &points, err);
  if (st)
    return st;
  /* the densities: given, or those of the design bodies' masses */
  double rho1 = c->m1 / impactfit_code_sphere_mass(c->r1, 1.0);
  double rho2 = c->wall ? rho1 : c->m2 / impactfit_code_sphere_mass(c->r2, 1.0);
  /* the settings, with every input that defaults to the design speed pinned to it */
  const impactfit_code_model *md = c->model;
  impactfit_code_setting *set = malloc((req->n_settings + (size_t)md->n_inputs + 1) * sizeof *set);
  if (!set)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  size_t n = req->n_settings;
  if (n)
    memcpy(set, req->settings, n * sizeof *set);
  for (int i = 0; i < md->n_inputs; i++)
    if (md->inputs[i].default_v && !impactfit_code_given(c, md->inputs[i].name))
      set[n++] = (impactfit_code_setting){.name = md->inputs[i].name, .body = 0, .count = 1, .values = {c->v}};
  impactfit_code_request q = *req;
  q.settings = set;
  q.n_settings = n;
  q.bodies.pair = c->wall ? 0 : 1;
  q.r_min = q.r_max = q.r2_min = q.r2_max = NAN;
  /* the box: the size range for both radii (a wall: the sphere's); a speed range alone keeps the design radii */
  double box[6] = {sizes ? req->r_min : c->r1, sizes ? req->r_max : c->r1, 0.0, 0.0, ans->v_min, ans->v_max};
  box[2] = own2 ? req->r2_min : sizes ? req->r_min : c->wall ? c->r1 : c->r2;
  box[3] = own2 ? req->r2_max : sizes ? req->r_max : box[2];
  st = impactfit__forward_box(&q, value, rho1, rho2, box, points, ans->e_asked, &ans->spread, err);
  free(set);
  if (st)
    return st;
  ans->has_spread = 1;
  ans->r_min = sizes ? req->r_min : NAN;
  ans->r_max = sizes ? req->r_max : NAN;
  ans->r2_min = sizes && !c->wall ? box[2] : NAN;
  ans->r2_max = sizes && !c->wall ? box[3] : NAN;
  ans->spread_points = points;
  ans->spread_exact = ans->spread.e_max - ans->spread.e_min <= SPREAD_EXACT;
  return 0;
}

/* "r in [a, b] m (both spheres) and v in [c, d] m/s", the box as a phrase */
static void box_text(const impactfit_code_answer *a, impactfit_text *t) {
  if (isfinite(a->r_min) && isfinite(a->r2_min) && (a->r2_min != a->r_min || a->r2_max != a->r_max))
    impactfit_text_appendf(t, "r1 in [%.6g, %.6g] m, r2 in [%.6g, %.6g] m%s", a->r_min, a->r_max, a->r2_min, a->r2_max,
                           a->v_min < a->v_max ? " and " : "");
  else if (isfinite(a->r_min))
    impactfit_text_appendf(t, "r in [%.6g, %.6g] m (%s)%s", a->r_min, a->r_max, a->wall ? "the sphere" : "each sphere",
                           a->v_min < a->v_max ? " and " : "");
  if (a->v_min < a->v_max)
    impactfit_text_appendf(t, "v in [%.6g, %.6g] m/s", a->v_min, a->v_max);
  if (!isfinite(a->r_min) && !(a->v_min < a->v_max))
    impactfit_text_appendf(t, "v = %.6g m/s", a->v_min);
}

/* the design size as a phrase: "r = 0.005 m" (a wall, equal spheres), "r1 = 0.005, r2 = 0.002 m" */
static void design_text(const impactfit_code_ctx *c, impactfit_text *t) {
  if (c->wall || c->r1 == c->r2)
    impactfit_text_appendf(t, "r = %.6g m", c->r1);
  else
    impactfit_text_appendf(t, "r1 = %.6g, r2 = %.6g m", c->r1, c->r2);
}

void impactfit__spread_sentence(const impactfit_code_ctx *c, const impactfit_code_answer *a, impactfit_text *t) {
  const impactfit_code_model *md = c->model;
  const impactfit_code_spread *s = &a->spread;
  if (a->spread_exact) {
    impactfit_text_appendf(t, "exact over the ranges: one %s gives e from %.10f to %.10f over ", md->param, s->e_min,
                           s->e_max);
    box_text(a, t);
    impactfit_text_appendf(t, " (measured at %ld points)", s->evaluations);
    return;
  }
  impactfit_text_appendf(t, "exact at ");
  design_text(c, t);
  impactfit_text_appendf(t, ", v = %.6g m/s only: one %s gives e from %.6f to %.6f over ", c->v, md->param, s->e_min,
                         s->e_max);
  box_text(a, t);
  if (!isnan(s->worst))
    impactfit_text_appendf(t, " (worst |e - %.6g| = %.3g", a->e_asked, s->worst);
  else
    impactfit_text_appendf(t, " (");
  impactfit_text_appendf(t, "%sat %ld points)", isnan(s->worst) ? "" : ", ", s->evaluations);
  const impactfit_code_answer *x = a->exact_model;
  if (x) {
    const impactfit_code_model *o = x->model;
    impactfit_text_appendf(t, "; exact over them: %s %s%s%s with %s = %.12g (e from %.10f to %.10f there)",
                           o->code->name, o->model, *o->option ? " damping " : "", o->option, o->param, x->value,
                           x->spread.e_min, x->spread.e_max);
  } else if (a->exact_other) {
    const impactfit_code_model *o = a->exact_other;
    impactfit_text_appendf(t,
                           "; no model of %s with these inputs is exact over them; %s %s%s%s is (its %s, with its "
                           "own inputs: ask impactfit for that model)",
                           md->code->name, o->code->name, o->model, *o->option ? " damping " : "", o->option, o->param);
  } else if (!a->forward && c->req->suggest) {
    impactfit_text_appendf(t, "; no other model of %s is exact over them", md->code->name);
  }
}
