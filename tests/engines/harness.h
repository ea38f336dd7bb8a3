/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared by the engine harnesses (tests/engines/<code>_impacts.*): the bodies, speeds and phases of the
 * impacts, impactfit's side of a comparison (the request, e(φ) of the engine's stepper, the signature
 * jumps of e(φ)), the mean of an engine's e over the phase integrated on the pieces impactfit finds, and
 * the checks. C and C++.
 *
 * A harness supplies `hz_engine_fn`: it runs the real engine for a case, the free parameter's value
 * and a phase φ (the body placed (J − φ) v dt before contact, J steps ahead, J from impactfit's
 * stepper: 2 + ceil(reach/(v dt))), converting the value to the engine's own inputs with its own code
 * (never impactfit's), and returns e = −(relative normal velocity after)/v. */
#ifndef IMPACTFIT_TESTS_ENGINES_HARNESS_H
#define IMPACTFIT_TESTS_ENGINES_HARNESS_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impactfit/codes.h"
#include "impactfit/stepper.h"

#define HZ_PI 3.14159265358979323846

/* the bodies of a case: a sphere on a plane, or two spheres */
typedef struct hz_body_pair {
  int plane;     /* 1: sphere on a fixed plane (r2, m2 unused) */
  double r1, r2; /* radii, m */
  double m1, m2; /* masses, kg */
} hz_body_pair;

/* the bodies: a 5 mm glass sphere (2500 kg/m³) on a plane, two equal ones, and one on an 8 mm one */
typedef struct hz_bodies {
  const char *name;
  hz_body_pair b;
} hz_bodies;

static inline double hz_sphere_mass(double r) { return 4.0 / 3.0 * HZ_PI * r * r * r * 2500.0; }

static inline hz_bodies hz_make_bodies(int which) {
  hz_bodies z;
  memset(&z, 0, sizeof z);
  z.b.r1 = 0.005;
  z.b.m1 = hz_sphere_mass(0.005);
  if (which == 0) {
    z.name = "plane";
    z.b.plane = 1;
    z.b.r2 = NAN;
    z.b.m2 = NAN;
  } else if (which == 1) {
    z.name = "equal";
    z.b.r2 = 0.005;
    z.b.m2 = hz_sphere_mass(0.005);
  } else {
    z.name = "unequal";
    z.b.r2 = 0.008;
    z.b.m2 = hz_sphere_mass(0.008);
  }
  return z;
}

/* one configuration: a model with its settings, integrator, dt, speed and bodies */
typedef struct hz_case {
  const char *model;
  const char *integrator;
  double dt, v;
  hz_bodies bodies;
  int n_settings;
  impactfit_code_setting settings[IMPACTFIT_CODE_MAX_INPUTS];
} hz_case;

static inline void hz_set(hz_case *c, const char *name, int count, const double *values) {
  impactfit_code_setting *s = NULL;
  for (int i = 0; i < c->n_settings; i++)
    if (strcmp(c->settings[i].name, name) == 0)
      s = &c->settings[i];
  if (!s)
    s = &c->settings[c->n_settings++];
  s->name = name;
  s->body = 0;
  s->count = count;
  for (int i = 0; i < count; i++)
    s->values[i] = values[i];
}

static inline void hz_set1(hz_case *c, const char *name, double value) { hz_set(c, name, 1, &value); }

/* a setting's values (NULL when the case does not set it) */
static inline const double *hz_get(const hz_case *c, const char *name) {
  for (int i = 0; i < c->n_settings; i++)
    if (strcmp(c->settings[i].name, name) == 0)
      return c->settings[i].values;
  return NULL;
}

static inline double hz_get1(const hz_case *c, const char *name, double def) {
  const double *v = hz_get(c, name);
  return v ? v[0] : def;
}

/* the request of a case (it borrows the case's settings) */
static inline int hz_request(const char *code, const hz_case *c, double e, impactfit_code_request *q) {
  impactfit_error err;
  *q = impactfit_code_request_default();
  if (impactfit_code_model_find(code, NULL, c->model, NULL, &q->model, &err)) {
    fprintf(stderr, "harness: %s\n", err.message);
    return -1;
  }
  q->bodies.pair = c->bodies.b.plane ? 0 : 1;
  q->bodies.r1 = c->bodies.b.r1;
  q->bodies.m1 = c->bodies.b.m1;
  if (!c->bodies.b.plane) {
    q->bodies.r2 = c->bodies.b.r2;
    q->bodies.m2 = c->bodies.b.m2;
  }
  q->integrator = c->integrator;
  q->dt = c->dt;
  q->v = c->v;
  q->e = e;
  q->n_settings = (size_t)c->n_settings;
  q->settings = c->settings;
  return 0;
}

static inline int hz_stepper(const char *code, const hz_case *c, double value, impactfit_stepper *st) {
  impactfit_code_request q;
  impactfit_error err;
  if (hz_request(code, c, NAN, &q))
    return -1;
  if (impactfit_code_stepper(&q, value, st, &err)) {
    fprintf(stderr, "harness: %s\n", err.message);
    return -1;
  }
  return 0;
}

/* J of impactfit's phase convention for this stepper */
static inline int hz_steps_ahead(const impactfit_stepper *st, double v) {
  double reach = st->type && st->type->reach ? st->type->reach(st, v) : 0.0;
  return 2 + (int)ceil(reach / (v * st->dt));
}

/* impactfit's e at φ (NAN on failure), with its signature */
static inline double hz_model_e(const impactfit_stepper *st, double v, double phi, unsigned long *sig) {
  impactfit_step_impact r;
  impactfit_error err;
  if (impactfit_step_impact_at(st, v, phi, &r, &err)) {
    fprintf(stderr, "harness: model at phi %.17g: %s\n", phi, err.message);
    return NAN;
  }
  if (sig)
    *sig = r.signature;
  return r.e;
}

/* 1 when e(φ) jumps within 1e-7 of φ (the engine's rounding could put φ on the other side) */
static inline int hz_near_jump(const impactfit_stepper *st, double v, double phi) {
  unsigned long a = 0, b = 0, m = 0;
  hz_model_e(st, v, phi, &m);
  hz_model_e(st, v, fmax(phi - 1e-7, 1e-12), &a);
  hz_model_e(st, v, fmin(phi + 1e-7, 1.0), &b);
  return a != m || b != m;
}

typedef double (*hz_engine_fn)(const hz_case *c, double value, double phi, int steps_ahead);

#define HZ_MAX_JUMPS 512

static inline void hz_jumps_between(const impactfit_stepper *st, double v, double a, unsigned long sa, double b,
                                    unsigned long sb, double *jumps, int *n) {
  if (sa == sb || *n >= HZ_MAX_JUMPS)
    return;
  if (b - a < 1e-12) {
    jumps[(*n)++] = 0.5 * (a + b);
    return;
  }
  double m = 0.5 * (a + b);
  unsigned long sm = 0;
  hz_model_e(st, v, m, &sm);
  hz_jumps_between(st, v, a, sa, m, sm, jumps, n);
  hz_jumps_between(st, v, m, sm, b, sb, jumps, n);
}

/* The mean over φ ∈ (0, 1] of the engine's e: 8-point Gauss–Legendre on each smooth piece of impactfit's
 * e(φ) (its jumps found from the signatures on 64 samples and by bisection to 1e-12), each piece split
 * into `sub` parts. Returns NAN when the model fails. *runs counts the engine's impacts. */
static inline double hz_engine_mean(hz_engine_fn run, const hz_case *c, const impactfit_stepper *st, double value,
                                    int sub, long *runs) {
  static const double gx[4] = {0.1834346424956498, 0.5255324099163290, 0.7966664774136267, 0.9602898564975363};
  static const double gw[4] = {0.3626837833783620, 0.3137066458778873, 0.2223810344533745, 0.1012285362903763};
  enum { NS = 64 };
  double jumps[HZ_MAX_JUMPS + 2], prev = 1e-12;
  unsigned long sp = 0, s = 0;
  int n = 0, J = hz_steps_ahead(st, c->v);
  if (isnan(hz_model_e(st, c->v, prev, &sp)))
    return NAN;
  for (int i = 1; i <= NS; i++) {
    double phi = (double)i / NS;
    if (isnan(hz_model_e(st, c->v, phi, &s)))
      return NAN;
    hz_jumps_between(st, c->v, prev, sp, phi, s, jumps, &n);
    prev = phi;
    sp = s;
  }
  double mean = 0.0, a = 0.0;
  for (int k = 0; k <= n; k++) {
    double b = k < n ? jumps[k] : 1.0;
    for (int q = 0; q < sub && b - a > 1e-9; q++) {
      double lo = a + (b - a) * q / sub, hi = a + (b - a) * (q + 1) / sub, m = 0.5 * (lo + hi), r = 0.5 * (hi - lo);
      for (int i = 0; i < 4; i++) {
        mean += r * gw[i] * (run(c, value, m - r * gx[i], J) + run(c, value, m + r * gx[i], J));
        *runs += 2;
      }
    }
    a = b;
  }
  return mean;
}

/* ---------------------------------------------------------------- checks and counts */

static int hz_fail = 0, hz_checks = 0;

static inline void hz_check(int ok, const char *fmt, const char *what, double got, double want, double tol) {
  hz_checks++;
  if (!ok) {
    hz_fail++;
    fprintf(stderr, fmt, what, got, want, fabs(got - want), tol);
  }
}

#define HZ_CHECK_ABS(got, want, tol, what)                                   \
  hz_check(isfinite(got) && isfinite(want) && fabs((got) - (want)) <= (tol), \
           "FAIL %s: engine %.12g, want "                                    \
           "%.12g (|diff| %.3g > %.3g)\n",                                   \
           (what), (got), (want), (tol))

#endif
