/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit — multibody and robotics engines (MuJoCo, Simbody, ODE, Bullet, Chrono): what each
 * computes for a head-on contact, version by version, and the exact input that gives an asked
 * restitution at the user's time step.
 *
 * Beside the DEM codes (demcodes.h), the registry holds one entry per engine, version range and
 * contact model: the contact law as the engine's source computes it (a force law of law.h, or the
 * engine's own constraint rule), what the user types and its units, the end condition, how the
 * masses and radii of the two bodies enter, how two bodies' parameters combine, the integrators and
 * their one-step maps (stepper.h), the engine's defaults, and the source file, line and version read.
 * `run_here` says whether the entry is proven against the engine itself here (the Debian 12 packages:
 * tests/engines/, `ctest -L mbd-engines`) or is known from its source only ("formula only").
 *
 * A request names the model, the user's settings (the engine's own parameter names: solref,
 * solimp, erp, kp, ...), the step dt and the integrator, the bodies, the speed and the asked e. The
 * answer: the value of the model's free parameter whose mean e over the phase of the first contact
 * step (stepper.h) equals e at that dt, the single-impact spread (min, max), the continuous-time e,
 * what the naive input gives (the engine's own restitution input where it has one, else the
 * formula users apply), whether the step is stable (and the largest stable dt), and the exact text
 * to paste. Forward mode: the user's current value of the parameter gives e (the same statistics).
 *
 * impactfit_codes_* list every code of both registries (DEM and engines) for front ends. */
#ifndef IMPACTFIT_ENGINES_H
#define IMPACTFIT_ENGINES_H

#include <stddef.h>

#include "impactfit/common.h"
#include "impactfit/law.h"
#include "impactfit/stepper.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IMPACTFIT_ENGINE_MAX_VALUES 5
#define IMPACTFIT_ENGINE_MAX_SETTINGS 16

/* One setting a model takes (its name as the engine spells it). */
typedef struct impactfit_engine_input {
  const char *name;                        /* "solref", "solimp", "erp", "kp", "restitution", ... */
  const char *unit;                        /* of each value */
  const char *help;                        /* one line */
  int count;                               /* number of values (solimp: 5), ≤ IMPACTFIT_ENGINE_MAX_VALUES */
  double def[IMPACTFIT_ENGINE_MAX_VALUES]; /* the engine's default values (NaN: required) */
} impactfit_engine_input;

/* One model of one engine in a range of versions: a constant object of the registry. */
typedef struct impactfit_engine_model {
  const char *code;              /* "mujoco", "simbody", "ode", "bullet", "chrono" */
  const char *model;             /* the engine's name for the contact model ("soft contact", "HuntCrossleyForce") */
  const char *versions;          /* the versions this entry describes, as text a user can read */
  long version_min, version_max; /* keys of impactfit_engine_version_key; 0: open */
  const char *param;             /* the free parameter the inverse solves for ("dampratio") */
  const char *param_unit;
  const char *param_input; /* the setting that holds it ("solref"); forward mode reads it from there */
  int param_index;         /* its position in that setting's values */
  const char *law;         /* the force or constraint law as the source computes it, in words and symbols */
  const char *end;         /* the end condition ("C: the constraint force is >= 0") */
  const char *bodies;      /* how the masses, radii and two bodies' parameters enter */
  const char *source;      /* file:line and version of the source that was read */
  const char *traps;       /* what the source does that a user would not expect */
  const char *integrators; /* the integrators modelled, comma-separated; the first is the default */
  /* The integrators of `integrators` that control their error instead of taking a fixed step
   * (comma-separated; NULL: none): the engine integrates the law to an accuracy, the model builds
   * impactfit_stepper_continuous for them, the request must not give dt (the answer's dt is NaN), and
   * e_min = e_max = e_mean = e_continuous. `traps` and the answer's note state which accuracy gives the
   * continuous-time e in the engine (measured by tests/engines/). */
  const char *adaptive;
  double dt_default; /* the engine's default time step, s (0: none: the request must give dt) */
  int run_here;      /* 1: proven against the engine by tests/engines/; 0: formula only */
  int n_inputs;
  const impactfit_engine_input *inputs;
  const struct impactfit__engine_ops *ops; /* private */
} impactfit_engine_model;

IMPACTFIT_EXPORT size_t impactfit_engine_model_count(void);
IMPACTFIT_EXPORT const impactfit_engine_model *impactfit_engine_model_at(size_t i);

/* The version key of an engine's version string: dotted versions "2.2.2", "3.7", "0.16.2" give
 * a·10⁶ + b·10³ + c; 0 for a string it cannot read. */
IMPACTFIT_EXPORT long impactfit_engine_version_key(const char *version);
/* The version of an engine that Debian 12 ships, or the newest version read for an engine Debian does
 * not ship (Chrono); NULL for an unknown code. */
IMPACTFIT_EXPORT const char *impactfit_engine_default_version(const char *code);

/* The entry for code (case-insensitive), version (NULL: the default) and model (NULL or "": the
 * engine's first). Returns 0, or EINVAL with a message listing what is known (the codes, the models
 * of the code, or the version ranges of the model). */
IMPACTFIT_EXPORT int impactfit_engine_model_find(const char *code, const char *version, const char *model,
                                                 const impactfit_engine_model **out, impactfit_error *err);

/* The bodies of the contact: a sphere on a fixed plane, or two spheres. */
typedef struct impactfit_engine_bodies {
  int plane;     /* 1: sphere on a fixed plane (r2, m2 unused) */
  double r1, r2; /* radii, m */
  double m1, m2; /* masses, kg */
} impactfit_engine_bodies;

/* A user's setting: a name of the model's inputs and its values. */
typedef struct impactfit_engine_setting {
  const char *name;
  int count;
  double values[IMPACTFIT_ENGINE_MAX_VALUES];
} impactfit_engine_setting;

/* What the user asks. */
typedef struct impactfit_engine_request {
  const impactfit_engine_model *model;
  impactfit_engine_bodies bodies;
  int n_settings;
  impactfit_engine_setting settings[IMPACTFIT_ENGINE_MAX_SETTINGS]; /* the rest take their defaults */
  const char *integrator;                                           /* NULL: the model's default */
  double dt;      /* s; NaN or 0: the engine's default (must be NaN or 0 for an adaptive integrator) */
  double e;       /* the asked restitution, (0, 1); NaN: forward mode */
  double value;   /* forward mode: the free parameter's value (NaN: the value in the settings, the
                             user's or the engine's default); must be NaN in inverse mode */
  double v;       /* the impact speed, m/s (> 0) */
  double tol;     /* on the mean e (0: 1e-10) */
  double gravity; /* m/s² along the normal, into the contact (a sphere on a plane under gravity); 0: none */
} impactfit_engine_request;

/* A request with every number NaN, a 5 mm sphere of 1.309 g on a plane, no settings. */
IMPACTFIT_EXPORT impactfit_engine_request impactfit_engine_default_request(void);

typedef struct impactfit_engine_answer {
  char integrator[32]; /* the integrator used */
  double dt;           /* the step used, s (NaN: an adaptive integrator, which takes none) */
  double mass;         /* the effective mass the engine's contact sees, kg */
  const char *end;     /* "C" or "A" */
  double value;        /* the free parameter's value: solved (inverse) or given (forward); NaN if unreachable */
  int reachable;       /* inverse: 1 when a value gives the asked mean e */
  double e_reach_min, e_reach_max; /* the means reachable over the parameter's range (when unreachable) */
  double e_mean, e_min, e_max;     /* e over the phase at that value (stepper.h) */
  double e_continuous;             /* the continuous-time e of the same input (NaN: none) */
  int stable;                      /* 0: the step is unstable at this dt */
  double dt_stable;                /* the largest stable step, s (inf: unconditionally stable; NaN: not computed) */
  double naive_value;              /* the naive input's value for e (NaN: none) */
  double e_naive;                  /* its mean e at this dt (NaN: none) */
  double e_naive_min, e_naive_max;
  char naive[256];  /* what the naive input is */
  char input[1024]; /* the exact text to paste (MJCF attribute, C/C++ call, Python keyword) */
  char note[1024];  /* what the user must know */
  long impacts;     /* simulated impacts (cost) */
} impactfit_engine_answer;

/* Solves the request: inverse when req->e is a number, else forward. Returns 0 (also
 * when unreachable or unstable: the answer says so, with numbers, in reachable, stable and note), or
 * EINVAL (an unknown integrator or setting, a wrong number of values, missing or invalid inputs,
 * with a message that lists what the model knows), or a numerical failure. */
IMPACTFIT_EXPORT int impactfit_engine_solve(const impactfit_engine_request *req, impactfit_engine_answer *ans,
                                            impactfit_error *err);

/* The stepper that the engine runs for the request's settings and the free parameter's value
 * (for tests and for users who want e(φ) itself). */
IMPACTFIT_EXPORT int impactfit_engine_stepper(const impactfit_engine_request *req, double value, impactfit_stepper *st,
                                              impactfit_error *err);

/* Every code of both registries, DEM codes first: its name, "dem", "engine" or "dem+engine" (in both:
 * Chrono, whose DEM entries answer in continuous time and its engine entries at its time step), and the
 * versions Debian 12 ships (or the default). */
IMPACTFIT_EXPORT size_t impactfit_codes_count(void);
IMPACTFIT_EXPORT int impactfit_codes_at(size_t i, const char **code, const char **kind, const char **version);

#ifdef __cplusplus
}
#endif
#endif /* IMPACTFIT_ENGINES_H */
