/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Internal to the engine registry (include/impactfit/engines.h): how an engine's model is described.
 *
 * An engine file (src/engines/<code>.c) defines its models (const impactfit_engine_model) and their
 * ops, and lists them in IMPACTFIT__ENGINE_MODELS below; its engine-specific steppers go into
 * src/law/stepper_impl.h's IMPACTFIT__ENGINE_STEPPERS. */
#ifndef IMPACTFIT_ENGINES_IMPL_H
#define IMPACTFIT_ENGINES_IMPL_H

#include <stddef.h>

#include "impactfit/engines.h"

/* A request with its settings resolved: every input's values (the user's or the defaults). */
typedef struct impactfit__engine_ctx {
  const impactfit_engine_request *req;
  const impactfit_engine_model *md;
  double vals[IMPACTFIT_ENGINE_MAX_SETTINGS][IMPACTFIT_ENGINE_MAX_VALUES];
  int given[IMPACTFIT_ENGINE_MAX_SETTINGS]; /* 1: the user gave it */
  double M;                                 /* effective mass m1 m2/(m1 + m2) (plane: m1), kg */
  double R;                                 /* effective radius r1 r2/(r1 + r2) (plane: r1), m */
  const char *integrator;                   /* the integrator's name (one of the model's), in integrator_buf */
  char integrator_buf[32];
  int adaptive; /* 1: the integrator is one of the model's `adaptive` (no time step) */
  double dt;    /* the step, s (NaN for an adaptive integrator) */
} impactfit__engine_ctx;

/* The values of input `name` of the context (NULL when the model has no such input). */
const double *impactfit__engine_val(const impactfit__engine_ctx *c, const char *name);

typedef struct impactfit__engine_ops {
  /* Builds the stepper for the free parameter's value. */
  int (*build)(const impactfit__engine_ctx *c, double value, impactfit_stepper *st, impactfit_error *err);
  /* The search range of the free parameter (0 < lo < hi; searched in ln). */
  double lo, hi;
  /* Optional: the search range for this request, when it depends on the settings (a dimensional
   * parameter such as a damper in N s/m: a range in damping ratios); NULL: lo and hi. */
  void (*range)(const impactfit__engine_ctx *c, double *lo, double *hi);
  /* The naive input for e: the stepper it gives, its value and what it is; returns 0 when the model
   * has one, 1 when it has none, or a status. */
  int (*naive)(const impactfit__engine_ctx *c, double e, impactfit_stepper *st, double *value, char *what, size_t size,
               impactfit_error *err);
  /* The text to paste for the value. */
  void (*input)(const impactfit__engine_ctx *c, double value, char *buf, size_t size);
  /* Optional: a note on the answer (appended), e.g. a trap the settings run into. */
  void (*note)(const impactfit__engine_ctx *c, double value, char *buf, size_t size);
} impactfit__engine_ops;

/* The models of each engine file: X(array, count) with `array` a const impactfit_engine_model[]
 * of external linkage and `count` its length (a const size_t). */
#define IMPACTFIT__ENGINE_MODELS(X)                            \
  X(impactfit__mujoco_models, impactfit__mujoco_model_count)   \
  X(impactfit__simbody_models, impactfit__simbody_model_count) \
  X(impactfit__ode_models, impactfit__ode_model_count)         \
  X(impactfit__bullet_models, impactfit__bullet_model_count)   \
  X(impactfit__chrono_models, impactfit__chrono_model_count)

#define X(arr, cnt)                          \
  extern const impactfit_engine_model arr[]; \
  extern const size_t cnt;
IMPACTFIT__ENGINE_MODELS(X)
#undef X

/* appends to a buffer */
void impactfit__engine_appendf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
