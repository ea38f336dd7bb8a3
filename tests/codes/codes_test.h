/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared by the tests of the code registry (tests/codes/test_<code>.c): a request with its settings held
 * beside it, the lookups and solves with their checks. Header-only (static inline). */
#ifndef IMPACTFIT_TESTS_CODES_TEST_H
#define IMPACTFIT_TESTS_CODES_TEST_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "impactfit/impactfit.h"
#include "law/step_internal.h"
#include "testutil.h"

#define CT_R5 0.005
#define CT_M5 (4.0 / 3.0 * M_PI * CT_R5 * CT_R5 * CT_R5 * 2500.0) /* a 5 mm glass sphere, written out */

/* a request and the settings it points to (ct_q fixes the pointer after a copy) */
typedef struct ct_request {
  impactfit_code_request q;
  impactfit_code_setting set[IMPACTFIT_CODE_MAX_INPUTS];
} ct_request;

static inline impactfit_code_request *ct_q(ct_request *r) {
  r->q.settings = r->set;
  return &r->q;
}

static inline const impactfit_code_model *ct_find(const char *code, const char *version, const char *model,
                                                  const char *option) {
  const impactfit_code_model *md = NULL;
  impactfit_error err;
  int s = impactfit_code_model_find(code, version, model, option, &md, &err);
  CHECK(s == 0 && md, "find %s %s %s %s: %s", code, version ? version : "(default)", model ? model : "(first)",
        option ? option : "", s ? err.message : "");
  return md;
}

/* a request for md: a 5 mm sphere of 1.309 g on a wall (two spheres when the test gives body 2), v = 1 m/s */
static inline ct_request ct_make(const impactfit_code_model *md) {
  ct_request r;
  memset(&r, 0, sizeof r);
  r.q = impactfit_code_request_default();
  r.q.model = md;
  r.q.bodies.r1 = CT_R5;
  r.q.bodies.m1 = CT_M5;
  r.q.v = 1.0;
  ct_q(&r);
  return r;
}

/* sets (or replaces) a setting: count values */
static inline void ct_set(ct_request *r, const char *name, int count, ...) {
  impactfit_code_setting *s = NULL;
  for (size_t i = 0; i < r->q.n_settings; i++)
    if (strcmp(r->set[i].name, name) == 0)
      s = &r->set[i];
  if (!s)
    s = &r->set[r->q.n_settings++];
  memset(s, 0, sizeof *s);
  s->name = name;
  s->count = count;
  va_list ap;
  va_start(ap, count);
  for (int i = 0; i < count; i++)
    s->values[i] = va_arg(ap, double);
  va_end(ap);
  ct_q(r);
}

static inline void ct_set1(ct_request *r, const char *name, double v) { ct_set(r, name, 1, v); }

/* the DEM tests' contact: two equal spheres (R = 5 mm, ρ = 2500) or one on a wall, and whichever of E = 1e8,
 * ν = 0.3, kn = 2e5, tc = 2e-4, vchar = 0.8 the model takes */
static inline ct_request ct_dem(const impactfit_code_model *md, int wall) {
  ct_request r = ct_make(md);
  r.q.bodies.pair = wall ? 0 : 1;
  r.q.bodies.m1 = NAN;
  r.q.bodies.rho1 = 2500.0;
  static const struct {
    const char *name;
    double value;
  } ref[] = {{"E", 1e8}, {"nu", 0.3}, {"kn", 2.0e5}, {"tc", 2e-4}, {"vchar", 0.8}};
  for (size_t i = 0; i < sizeof ref / sizeof ref[0]; i++)
    if (impactfit_code_input_find(md, ref[i].name))
      ct_set1(&r, ref[i].name, ref[i].value);
  return r;
}

/* the real e of value p at speed v with the clamp (-1: the code's default) */
static inline double ct_forward(ct_request *r, int clamp, double p, double v) {
  double e = NAN;
  impactfit_error err;
  impactfit_code_request q = *ct_q(r);
  q.clamp = clamp;
  int st = impactfit_code_forward(&q, p, v, &e, &err);
  if (st)
    fprintf(stderr, "forward %s %s: %s\n", q.model->code->name, q.model->model, err.message);
  return st ? NAN : e;
}

/* solves (the previous answer in a freed first); returns the status */
static inline int ct_solve(ct_request *r, impactfit_code_answer *a, impactfit_error *err) {
  impactfit_code_answer_free(a);
  return impactfit_code_solve(ct_q(r), a, err);
}

/* Under gravity 9.81 m/s^2 (the affine map with its fixed point, stepper.h): the request's stepper at value, from
 * the state (x, u, mem[1] = point) inside the contact, the run of the step's affine map taken at once
 * (impactfit__step_affine_run) against the same steps one by one; the steps it took into *n. The largest relative
 * difference of x and u (to the scale of the state), or NaN when the map refused (a failed stepper: a check). */
static inline double ct_gravity_run(ct_request *rq, double value, double x, double u, double point, long n_max,
                                    long *n) {
  impactfit_stepper stp, *st = &stp;
  impactfit_error err;
  *n = 0;
  rq->q.gravity = 9.81;
  if (impactfit_code_stepper(ct_q(rq), value, st, &err)) {
    CHECK(0, "gravity run: stepper: %s", err.message);
    return NAN;
  }
  impactfit_step_state s0;
  memset(&s0, 0, sizeof s0);
  s0.x = x, s0.u = u, s0.mem[1] = point;
  impactfit_step_affine a;
  memset(&a, 0, sizeof a);
  if (!st->type->affine || !st->type->affine(st, &s0, &a))
    return NAN;
  impactfit_step_state run = s0, one = s0;
  *n = impactfit__step_affine_run(&a, &run, n_max, 0.0, NULL);
  double sx = 0.0, su = 0.0;
  for (long k = 0; k < *n; k++) {
    st->type->step(st, &one);
    sx = fmax(sx, fabs(one.x)), su = fmax(su, fabs(one.u));
  }
  return *n > 0 ? fmax(fabs(run.x - one.x) / sx, fabs(run.u - one.u) / su) : NAN;
}

#endif
