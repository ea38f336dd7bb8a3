/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit — one registry for every code: what DEM codes (LAMMPS, LIGGGHTS, YADE, Chrono) and
 * multibody and robotics engines (MuJoCo, Simbody, ODE, Bullet, ...) compute for a head-on contact,
 * version by version, and the exact input that makes them give the restitution a user asks, in
 * continuous time or at the user's time step.
 *
 * The registry is a tree of constant objects:
 *
 *   code (impactfit_code: name, version parser, default version, the versions run here)
 *    └ model (impactfit_code_model), one per code × version range × contact model × option:
 *        ├ law            the force law (law.h) the code's source computes, NULL for a constraint rule
 *        │                (ODE's and Bullet's contact row), or the power law F = K δ^n + C δ^m δ' (impact.h)
 *        ├ inputs[]       the code's settings by the code's own names, with units, defaults (NaN:
 *        │                required), number of values and whether each body has its own (per_body)
 *        ├ integrators[]  the code's integrators, each a step map (stepper.h) or none (NULL: continuous
 *        │                time, the law integrated exactly); the first is the default
 *        ├ free parameter the setting the inverse solves for (dampratio, restitution, kd, eta_n0, ...)
 *        ├ ops            build(ctx, value) -> the stepper (law, end condition, mass, dt, step map
 *        │                parameters); naive(e) -> the input users usually type; input(value) -> the
 *        │                text to paste; note(value) -> what the user must know
 *        └ texts          law, end condition, bodies, mixing of two bodies' values, traps, assumptions,
 *                         precision modelled, and the source read (file:line, version)
 *
 * The one list of codes is src/codes/codes.def (X(lammps) X(liggghts) ...): lookup, the names in
 * messages, --list and the default versions all come from it. A new code is one file
 * src/codes/<code>.c (its impactfit_code and models) plus one line in codes.def (docs/ADDING.md).
 *
 * A request (impactfit_code_request) names a model, the user's settings by name, the bodies
 * (impactfit_code_bodies: body 1 a sphere, body 2 a second sphere or a fixed wall), the integrator
 * and dt, the speed v (and a speed range), and either the asked e (inverse) or the free parameter's
 * value (forward). The answer (impactfit_code_answer) is one struct for every code; its texts are
 * malloc'd strings (no fixed-size buffers: nothing is cut), the most important sentence first (NOT
 * REACHABLE, UNSTABLE, formula only), freed with impactfit_code_answer_free.
 *
 * Two kinds of answer, by how the model's chosen integrator decides e (answer.stepped):
 *   - continuous time with the power law solved by impact.h (every DEM model; Chrono's integrator
 *     "continuous"): e does not depend on a time step; the inverse is exact (the damper's ζ of
 *     inverse.h, or bisection to the last bit on a restitution the code converts); K, C, ζ, R, M and
 *     e over the speed range [v_min, v_max] are reported. |Δe| ≤ 1e-12 (impact.h).
 *   - the code's step map at dt (stepper.h; for a NULL step map with the generic search, the law
 *     integrated by law.h, Simbody's): e over the phase of the first contact step (mean, one impact's
 *     range), its continuous-time limit, stability and the largest stable step; the inverse on the
 *     mean to |e_mean − e| ≤ tol (1e-10). With a speed range, one row per speed (answer.range).
 * The CLI (`impactfit dem` and `impactfit engine`, one command), the Python call (`impactfit.code`,
 * with `dem` and `engine` as aliases) and Octave print the same keys for the same request.
 *
 * Bodies, everywhere: body 1 is the sphere (radius, mass or density); body 2 is a fixed wall (the
 * default) or a second sphere (`pair`, or any body-2 value given). The effective radius and mass of
 * the contact are R = r1 r2/(r1 + r2), M = m1 m2/(m1 + m2) for two spheres, R = r1, M = m1 on a wall,
 * or given directly (meff, reff). How a code's own contact sees the bodies (Chrono puts a fixed
 * wall's own mass into its damper; YADE counts a sphere's radius twice on a wall) is the model's, and
 * its `bodies` text says so.
 *
 * Version keys: dotted versions "a.b.c" give a·10⁶ + b·10³ + c (b, c up to 999: "2.2.2" is 2002002,
 * "2023.02a" is 2023002000); LAMMPS dates give YYYYMMDD ("29Sep2021", "stable_29Sep2021_update2",
 * "2021-09-29", "20210929"). Each code parses its own (impactfit_code.version_key).
 *
 * Ownership: every object of the registry is constant and static (never freed). A request borrows
 * its pointers (model, settings, integrator and version strings) for the duration of the call. An
 * answer owns its texts, speed rows and alternative: impactfit_code_answer_free releases them (an
 * answer must be zeroed or returned by impactfit_code_solve before it is freed; freeing twice is
 * safe: the pointers are reset).
 *
 * Errors: every function returns 0 or an impactfit_status and fills err (NULL allowed): EINVAL for
 * an unknown code, version, model, option, integrator or setting (the message lists what is known,
 * with a "did you mean"), a wrong number of values, missing or invalid inputs; a numerical status
 * when a solve fails. An e no input reaches, or a step that is unstable, is not an error: the answer
 * says so (reachable, stable) with numbers, and its note starts with it.
 *
 * Compatible changes to this header (new fields at the end of a struct, new functions) are noted
 * here as they come:
 *   - round 4: the first version of the registry (issue 32, 8f8070a).
 *   - after 8f8070a: impactfit_code_input.contact_radius (a code's own contact radius, Chrono's
 *     eff_radius, replaces the bodies' R); request.v may be NaN for impactfit_code_stepper and
 *     _resolve (solve and forward need it); request.integrator NULL with no dt where the model has no
 *     default step picks its continuous-time integrator (Chrono).
 *   - with main's round-4 branches: impactfit_code_input.def_body2, impactfit_code_ops.solve (a closed-form stepped inverse: Havok);
 *     request.gravity implemented where a model's step map applies it (MuJoCo, ODE, Bullet; EINVAL for
 *     every other model and in continuous time).
 *   - after faeda7c: impactfit_code_answer.gravity (the request's, echoed; the JSON key "gravity" of a
 *     stepped answer);
 *   - round 4, the scene (docs/SCENE.md): impactfit_code_input.optional (friction and tangential settings
 *     the paste text keeps or marks as the user's), request.tangential, request.e11 and request.e22 (the
 *     type pairs of two materials).
 *   - after ceb18c0: impactfit_code_answer.assumes (what the answer assumes, built per answer; freed by
 *     impactfit_code_answer_free); impactfit_code_drop_answer.assumes (code_drop.h).
 *   - after 593f6d0 (issue 33, sizes): request.r_min, r_max (a size range); impactfit_code_spread (moved here
 *     from mixing.h, unchanged); answer.has_spread, r_min, r_max, spread, spread_exact, exact_model, exact_other (the answer
 *     over the user's ranges of sizes and speeds, and another model of the code exact over them). */
#ifndef IMPACTFIT_CODES_H
#define IMPACTFIT_CODES_H

#include <stddef.h>

#include "impactfit/common.h"
#include "impactfit/impact.h"
#include "impactfit/law.h"
#include "impactfit/stepper.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most values one setting takes for one body (MuJoCo's solimp: 5). */
#define IMPACTFIT_CODE_MAX_VALUES 5
/* The most inputs one model declares. */
#define IMPACTFIT_CODE_MAX_INPUTS 24

struct impactfit_code;
struct impactfit_code_model;
struct impactfit_code_ctx;

/* ---------------------------------------------------------------- codes */

/* A code: a constant object of the registry (src/codes/<code>.c), compared by address. */
typedef struct impactfit_code {
  const char *name;            /* "lammps", "mujoco", ... (lookup ignores case) */
  const char *display;         /* "LAMMPS", "MuJoCo", ... */
  const char *kind;            /* "dem", "engine" or "dem+engine" (Chrono: a DEM code and a multibody engine) */
  const char *default_version; /* the version a request without one answers for: Debian 12's, or the
                                  newest read for a code Debian does not ship */
  const char *version_example; /* how a version is typed, for messages ("29Sep2021 or 2021-09-29") */
  /* The key of a version string (see the header comment), 0 for a string it cannot read. */
  long (*version_key)(const char *version);
  const char *model_prefix; /* a word users leave out before a model's name (LAMMPS: "granular " of
                               `pair_style granular`'s models); NULL: none */
  const char *run_versions; /* the versions run here as text ("29Sep2021 update 2 (Debian 12)"); NULL: none */
  const struct impactfit_code_model *models; /* the code's models */
  size_t n_models;
} impactfit_code;

/* The registered codes, in the order of src/codes/codes.def. */
IMPACTFIT_EXPORT size_t impactfit_code_count(void);
IMPACTFIT_EXPORT const impactfit_code *impactfit_code_at(size_t i); /* NULL past the end */
/* The code of that name (ignoring case), NULL when unknown. */
IMPACTFIT_EXPORT const impactfit_code *impactfit_code_from_name(const char *name);
/* The same, or EINVAL "unknown code 'x' (known: lammps, liggghts, ...); did you mean 'y'?". */
IMPACTFIT_EXPORT int impactfit_code_lookup(const char *name, const impactfit_code **out, impactfit_error *err);
/* The dotted key of "a.b.c" (a·10⁶ + b·10³ + c, leading non-digits skipped, b and c up to 999), and the
 * key of a LAMMPS date (YYYYMMDD): the two parsers codes use; 0 for a string they cannot read. */
IMPACTFIT_EXPORT long impactfit_code_version_dotted(const char *version);
IMPACTFIT_EXPORT long impactfit_code_version_date(const char *version);

/* ---------------------------------------------------------------- models */

/* How the contact's value of a per-body setting comes from the two bodies' values (the code's
 * mixing rule; the model's `mixing` text cites where its source does it). */
typedef enum impactfit_code_mix {
  IMPACTFIT_CODE_MIX_SAME = 0, /* the model assumes one material: the two values must agree (EINVAL otherwise) */
  IMPACTFIT_CODE_MIX_OWN,      /* the model's build combines them itself (impactfit_code_body_value) */
  IMPACTFIT_CODE_MIX_MIN,      /* the smaller */
  IMPACTFIT_CODE_MIX_MAX,      /* the larger */
  IMPACTFIT_CODE_MIX_MEAN,     /* the arithmetic mean */
  IMPACTFIT_CODE_MIX_PRODUCT,  /* the product */
  IMPACTFIT_CODE_MIX_SUM,      /* the sum */
  IMPACTFIT_CODE_MIX_SERIES    /* 1/(1/a + 1/b) (springs in series) */
} impactfit_code_mix;

/* One setting a model takes, named as the code spells it. */
typedef struct impactfit_code_input {
  const char *name;  /* "solref", "E", "kn", "restitution", "erp", ... */
  const char *alias; /* another spelling every front end accepts (the historical `impactfit dem` options
                        E, nu, kn, tc, vchar for Chrono's young_modulus, ...), NULL: none */
  const char *unit;  /* of each value ("Pa", "s, -") */
  const char *help;  /* one line */
  int count;         /* values (per body when per_body), 1 .. IMPACTFIT_CODE_MAX_VALUES */
  double def[IMPACTFIT_CODE_MAX_VALUES]; /* the code's defaults (NaN: required; per_body: both bodies', unless
                                            def_body2 gives body 2's) */
  int per_body;                          /* 1: each body has its own: a setting of `count` values is both
                                            bodies', of 2 count values body 1's then body 2's */
  impactfit_code_mix mix;                /* per_body: how the contact's value is made */
  int default_v;           /* 1: when not given, the value is the request's design speed v (a characteristic
                    velocity the user should set to the impact speed: LIGGGHTS hooke) */
  int contact_radius;      /* 1: the input is the contact's effective radius as the code sets it (Chrono's
                         eff_radius, 0.1 m with the Bullet collision system): it replaces the bodies' R
                         in the resolved request and the answer (added after 8f8070a; 0 for every other
                         input) */
  const double *def_body2; /* per_body: body 2's defaults (count values) where they differ from body 1's
                              (a ground left at the code's default while body 1's value is solved for:
                              DART's restitutionCoeff 1, Jolt's mRestitution 0); NULL: def for both bodies
                              (added after 8f8070a) */
  int optional;            /* 1: a NaN default means "the user's own, not given": the model does not need it
                              (a friction or tangential setting, which a head-on normal law does not read) and
                              its paste text carries a marked placeholder "<yours: ...>" where it is not given
                              (added in round 4's scene work) */
} impactfit_code_input;

/* One integrator of a model: the code's name for it and the step map that models it. */
typedef struct impactfit_code_integrator {
  const char *name;                      /* "euler", "rk4", "quickstep", "continuous", ... */
  const impactfit_stepper_type *stepper; /* NULL: continuous time, the law integrated exactly (no dt) */
  const char *summary;                   /* one line: what the code does and how it is modelled */
} impactfit_code_integrator;

/* How the inverse finds the free parameter for a continuous-time integrator (a stepped one always
 * uses the search on the phase mean). */
typedef enum impactfit_code_solver {
  IMPACTFIT_CODE_SOLVE_MEAN = 0,  /* impactfit_step_solve_mean on the model's build (law.h for a NULL step map) */
  IMPACTFIT_CODE_SOLVE_DAMPER,    /* the law is the power law and its damper C is proportional to the free
                                    parameter (K does not depend on it): the exact ζ of inverse.h, then the
                                    value in closed form; impact.h's e */
  IMPACTFIT_CODE_SOLVE_CONVERSION /* the free parameter is a restitution the code converts (the power law's
                                     e increases with it on [ops.lo, 1]): bisection to the last bit on
                                     impact.h's e */
} impactfit_code_solver;

/* What a model's operations are given: the request, resolved (settings with their defaults, the
 * bodies' effective values, the integrator and its step). Read the settings with impactfit_code_value
 * and impactfit_code_body_value; the other fields directly. */
typedef struct impactfit_code_ctx {
  const struct impactfit_code_request *req;
  const struct impactfit_code_model *model;
  int wall;      /* 1: body 2 is a fixed wall or plane */
  double r1, r2; /* the radii, m (r2 NaN on a wall; both NaN when reff is given instead) */
  double m1, m2; /* the masses, kg (m2 NaN on a wall; both NaN when meff is given instead) */
  double R, M;   /* the effective radius (m) and mass (kg) of the contact (header comment) */
  int clamp;     /* 1: the force is clamped at zero (end C), 0: tensile until δ = 0 (A) */
  const struct impactfit_code_integrator *integrator;
  double dt; /* the step, s (NaN for a continuous-time integrator) */
  double v;  /* the design speed, m/s */
  /* private: the settings' values and which the user gave */
  double values_[IMPACTFIT_CODE_MAX_INPUTS][2 * IMPACTFIT_CODE_MAX_VALUES];
  double mixed_[IMPACTFIT_CODE_MAX_INPUTS][IMPACTFIT_CODE_MAX_VALUES];
  int given_[IMPACTFIT_CODE_MAX_INPUTS];
} impactfit_code_ctx;

/* The contact's values of input `name` (its `mix` applied to a per-body input; body 1's for MIX_OWN);
 * NULL when the model has no such input. */
IMPACTFIT_EXPORT const double *impactfit_code_value(const impactfit_code_ctx *c, const char *name);
/* Body `body`'s (1 or 2) values of a per-body input (the contact's for another input); NULL when none. */
IMPACTFIT_EXPORT const double *impactfit_code_body_value(const impactfit_code_ctx *c, const char *name, int body);
/* 1 when the user gave input `name`, 0 when it has its default (or the model has no such input). */
IMPACTFIT_EXPORT int impactfit_code_given(const impactfit_code_ctx *c, const char *name);

/* A model's operations (public, so that code outside the library can define a model and solve it). */
typedef struct impactfit_code_ops {
  /* The stepper for the free parameter's value: type (c->integrator's step map; NULL for continuous
   * time), law (NULL type of law for a constraint rule), end (C or A by c->clamp), mass (the effective
   * mass of the motion), dt (c->dt), the step map's parameters. EINVAL with a message for a value or
   * setting the code refuses. */
  int (*build)(const impactfit_code_ctx *c, double value, impactfit_stepper *st, impactfit_error *err);
  /* The free parameter's search range (0 < lo < hi; the search on the phase mean works in ln(value));
   * range, when not NULL, gives it for the request (a damper in N s/m: a range of damping ratios). */
  double lo, hi;
  void (*range)(const impactfit_code_ctx *c, double *lo, double *hi);
  /* Optional: the input users type for e (a restitution typed as it is, the damping-ratio formula):
   * sets *value and appends what it is to `what`; returns 0, 1 when the model has none, or a status. */
  int (*naive)(const impactfit_code_ctx *c, double e, double *value, impactfit_text *what, impactfit_error *err);
  /* The exact text to paste for the value (input file lines, MJCF, a C/C++ or Python call). */
  void (*input)(const impactfit_code_ctx *c, double value, impactfit_text *out);
  /* Optional: sentences the user must know about this answer (traps the settings run into). */
  void (*note)(const impactfit_code_ctx *c, double value, impactfit_text *out);
  /* Optional: the model's own constants for its ops (a table row), NULL: none. */
  const void *data;
  /* Optional (added after 8f8070a): the inverse of a stepped integrator in closed form, for a model whose
   * phase mean is not continuous in the free parameter (Havok's: a step function of the typed restitution,
   * which the search on the mean cannot meet): sets *value, the value whose mean comes nearest e (the answer
   * then gives that value's statistics: its e may differ from the asked one by the code's own rounding).
   * Returns 0, IMPACTFIT_ENOROOT with a message when no value reaches e (*value set to NaN: no value changes
   * the step map at this request, so the naive value's phase statistics stand for every value's), 1 when the
   * model has no answer of its own for this request (the search on the phase mean then runs), or a status.
   * NULL: the search on the phase mean (impactfit_step_solve_mean). */
  int (*solve)(const impactfit_code_ctx *c, double e, double *value, impactfit_error *err);
} impactfit_code_ops;

/* One source a model was read from. */
typedef struct impactfit_code_source {
  const char *where;   /* "src/GRANULAR/pair_granular.cpp:349-377" */
  const char *version; /* "stable_29Sep2021_update2" */
} impactfit_code_source;

/* One model of one code in a range of versions (with one option): a constant object of the registry. */
typedef struct impactfit_code_model {
  const struct impactfit_code *code;
  const char *model;             /* the code's name for it: "granular hertz/material", "soft contact", "hertz" */
  const char *option;            /* the option where the model has several ("tsuji", "en", "gn"), else "" */
  int default_option;            /* 1: the code's own default option of the model (the answer when none is given) */
  const char *versions;          /* the versions described, as text one can read ("29Sep2021 until 2Sep2026 (not
                              included)", "2.3.0-2.3.7") */
  const char *first_version;     /* the first of them as one types it ("29Sep2021") */
  long version_min, version_max; /* the same as keys (code->version_key); 0: that end open */
  long run_min, run_max;         /* the versions run here against the real code (tests/dem/, tests/engines/)
                                    as keys; 0, 0: formula only */
  const char *run_versions;      /* those versions as text ("29Sep2021 update 2 (Debian 12)"); NULL: none */
  /* the force law */
  const impactfit_law_type *law; /* impactfit_law_power (every DEM model), impactfit_law_impedance, ...;
                                    NULL: a constraint rule of the step map (ODE, Bullet) */
  double n, m;                   /* the power law's exponents (F = K δ^n + C δ^m δ'), 0 for other laws */
  int clamp_default;             /* 1: the force is clamped at zero (end C) unless the switch says otherwise */
  const char *clamp_switch;      /* the code's switch that clamps it ("limit_damping"), NULL: none */
  /* the settings */
  const impactfit_code_input *inputs;
  int n_inputs; /* ≤ IMPACTFIT_CODE_MAX_INPUTS */
  /* the integrators, the first the default */
  const impactfit_code_integrator *integrators;
  int n_integrators;
  double dt_default;            /* the code's default step, s (0: none: a stepped integrator needs dt) */
  impactfit_code_solver solver; /* how a continuous-time integrator's inverse is found */
  /* the free parameter */
  const char *param;       /* "dampratio", "e", "kd", "eta_n0" */
  const char *param_unit;  /* its unit ("-") */
  const char *param_input; /* the setting that holds it ("solref"); forward mode reads it there; NULL: none */
  int param_index;         /* its position in that setting's values */
  double param_scale;      /* the setting holds param_scale × value (MuJoCo's direct solref: −1); 0: 1 */
  double param_floor;      /* the code refuses a value <= param_floor (LIGGGHTS: e <= 0.05); 0: none */
  int param_takes_zero;    /* 1: the code takes the value 0 (a restitution of 0, the engine's default: no bounce
                              asked), which forward mode then answers; 0: a value must be > 0 */
  int takes_e;             /* 1: the free parameter is a restitution the code converts (typing e is the
                              naive input; impactfit dem-audit audits it) */
  const impactfit_code_ops *ops;
  /* texts */
  const char *law_text;                 /* the law as the source computes it, in words and symbols */
  const char *end;                      /* the end condition ("C: the constraint force is >= 0") */
  const char *bodies;                   /* how the masses, radii and the two bodies enter */
  const char *mixing;                   /* how two bodies' settings combine, with the source's file:line */
  const char *traps;                    /* what the source does that a user would not expect */
  const char *assumes;                  /* what an answer assumes (frictionless, no gravity, head-on, ...) */
  const char *precision;                /* the precision modelled ("float64", "float32 material properties") */
  const char *source;                   /* file:line and version of everything read, in one line */
  const impactfit_code_source *sources; /* the same, one per file (may be NULL) */
  int n_sources;
} impactfit_code_model;

/* Every model of every code, in registry order (codes.def, then each code's models). */
IMPACTFIT_EXPORT size_t impactfit_code_model_count(void);
IMPACTFIT_EXPORT const impactfit_code_model *impactfit_code_model_at(size_t i);

/* The entry for code (ignoring case), version (NULL or "": the code's default), model (ignoring case;
 * the code's model_prefix may be left out; NULL or "": the code's first model) and option (NULL or "":
 * the model's only or default option in that version). Returns 0, or EINVAL with a message listing what
 * is known (the codes, the models of the code, the options of the model, the version ranges read) and
 * a "did you mean". */
IMPACTFIT_EXPORT int impactfit_code_model_find(const char *code, const char *version, const char *model,
                                               const char *option, const impactfit_code_model **out,
                                               impactfit_error *err);
/* 1 when the answer of md for version (NULL: the code's default) was run here (the version's key lies
 * in run_min .. run_max), 0 when it is formula only. */
IMPACTFIT_EXPORT int impactfit_code_model_run_for(const impactfit_code_model *md, const char *version);
/* The integrator of md named name (ignoring case; NULL or "": the default, md's first), or EINVAL
 * "has no integrator 'x' (known: euler, rk4, implicit)". */
IMPACTFIT_EXPORT int impactfit_code_integrator_find(const impactfit_code_model *md, const char *name,
                                                    const impactfit_code_integrator **out, impactfit_error *err);
/* md's input named name or alias (exact), NULL when none. */
IMPACTFIT_EXPORT const impactfit_code_input *impactfit_code_input_find(const impactfit_code_model *md,
                                                                       const char *name);
/* The force law of a power-law model as text: "F = K d^1.5 + C d^0.25 d'" (trivial powers left out);
 * appended to out. Nothing for another law. */
IMPACTFIT_EXPORT void impactfit_code_force_text(const impactfit_code_model *md, impactfit_text *out);
/* The stepper types of the registry: the built-ins (stepper.h) and every step map of a model's
 * integrators, each once; lookup by name (NULL: unknown). */
IMPACTFIT_EXPORT size_t impactfit_code_stepper_type_count(void);
IMPACTFIT_EXPORT const impactfit_stepper_type *impactfit_code_stepper_type_at(size_t i);
IMPACTFIT_EXPORT const impactfit_stepper_type *impactfit_code_stepper_type_from_name(const char *name);

/* ---------------------------------------------------------------- bodies */

/* The bodies as a user gives them (NaN: not given). */
typedef struct impactfit_code_bodies {
  int pair;          /* -1 (default): two spheres when any body-2 value is given, else a sphere on a fixed
                     wall; 0: a wall (body-2 values are refused); 1: two spheres (body 2 = body 1 where not given) */
  double r1, r2;     /* radii, m */
  double rho1, rho2; /* densities, kg/m³ (a mass is (4/3) π r³ ρ) */
  double m1, m2;     /* masses, kg (instead of densities) */
  double meff, reff; /* the effective mass (kg) and radius (m) directly, both or neither, instead of the above */
} impactfit_code_bodies;

/* Bodies with nothing given (every value NaN, pair -1). */
IMPACTFIT_EXPORT impactfit_code_bodies impactfit_code_bodies_default(void);
/* The mass of a sphere of radius r (m) and density rho (kg/m³): (4/3) π r³ rho. */
IMPACTFIT_EXPORT double impactfit_code_sphere_mass(double r, double rho);
/* The resolved bodies: wall, r1, r2, m1, m2, R and M of c (the other fields untouched). Body 2 of a
 * pair takes body 1's radius, density or mass where not given; masses come from the densities unless
 * given (densities or masses, not both); meff and reff exclude the rest. EINVAL with a message naming
 * the inputs as every front end spells them: radius, density, mass (body 1), r2, rho2, m2, meff, reff. */
IMPACTFIT_EXPORT int impactfit_code_bodies_resolve(const impactfit_code_bodies *b, impactfit_code_ctx *c,
                                                   impactfit_error *err);

/* ---------------------------------------------------------------- requests and answers */

/* A user's setting: an input's name (or alias) and its values. */
typedef struct impactfit_code_setting {
  const char *name;
  int body;  /* 0: as the input takes it (a per-body input: count values for both bodies or 2 count values,
                body 1's then body 2's); 1 or 2: that body's `count` values */
  int count; /* values given */
  double values[2 * IMPACTFIT_CODE_MAX_VALUES];
} impactfit_code_setting;

/* What the user asks. */
typedef struct impactfit_code_request {
  const impactfit_code_model *model;
  const char *version; /* the version the user runs (NULL: the code's default) */
  impactfit_code_bodies bodies;
  const impactfit_code_setting *settings; /* n_settings of them (the rest take their defaults); borrowed */
  size_t n_settings;
  const char *integrator; /* NULL: the model's default (its first; with no dt given where the model has no
                             default step, its continuous-time integrator if it has one: Chrono's) */
  double dt;              /* s; NaN or 0: the model's default (none for a continuous-time integrator) */
  int clamp;              /* -1: the code's default; 0: the clamp switch off; 1: on (EINVAL where the model
                             has no switch and the value differs from its fixed behaviour) */
  double e;               /* inverse: the asked restitution in (0, 1); NaN: forward */
  double value;           /* forward: the free parameter's value (NaN: the value in the settings); NaN in
                             inverse mode */
  double v;               /* the design impact speed, m/s (> 0; solve needs it; NaN allowed for
                             impactfit_code_stepper and impactfit_code_resolve unless an input defaults
                             to it, e.g. the DEM codes' vchar) */
  double v_min, v_max;    /* a speed range to report over (NaN, NaN: v alone) */
  size_t points;          /* speeds in the range, log-uniform (0: 9 for a continuous power-law answer,
                             whose range is reduced to its extremes; 7 rows for a stepped one) */
  double tol;             /* inverse tolerance (0: 1e-10) */
  double gravity;         /* m/s² along the normal, into the contact (a sphere on a plane under gravity; 0:
                             none): applied by the step maps that model it (MuJoCo's a0 and steps, ODE's and
                             Bullet's steps); EINVAL for a model that does not, and in continuous time */
  int suggest;            /* 1: when e is out of reach, look for another model of the same code and
                             versions that reaches it (answer.alternative) */
  /* added in round 4's scene work (docs/SCENE.md): */
  const char *tangential; /* the DEM code's own tangential clause, kept in the paste text as typed: LAMMPS
                             pair granular's words after `tangential` ("mindlin NULL 1.0 0.5", rolling and
                             twisting clauses may follow), LIGGGHTS's after `tangential` ("history"); NULL: a
                             marked placeholder (the head-on normal law does not depend on it). EINVAL for a
                             first word the code does not know, and for a model without such a clause */
  double e11, e22;        /* two materials (DEM codes): the asked e of the type pairs 1-1 (two body-1 spheres)
                             and 2-2 (two body-2 spheres); e is the 1-2 pair's (body 1 on body 2). NaN: e for
                             that pair too. Used by the paste texts that carry one line per type pair */
  /* added after 593f6d0 (issue 33): */
  double r_min, r_max;   /* a size range, m (NaN, NaN: the design size alone): the answer's value is still solved
                          at the bodies' radii (the design size); the answer then gives e over every radius in
                          [r_min, r_max] (both spheres of a pair, each over the range; the sphere on a wall) and
                          every speed of [v_min, v_max] (answer.spread), the masses following the sizes at the
                          bodies' densities (given, or those of the design masses). A continuous-time answer
                          with a speed range and no size range gets the spread over the speeds too. points
                          (2 .. 64; 0: 5) is then the points per axis of the box */
  double r2_min, r2_max; /* two spheres with a size range: body 2's own range, m (NaN, NaN: r_min .. r_max, the one
                            range for both); EINVAL on a wall, and without r_min, r_max (r_min = r_max holds body 1
                            at one size) */
} impactfit_code_request;

/* A request with nothing given: model NULL, bodies default, every number NaN, clamp -1, gravity 0. */
IMPACTFIT_EXPORT impactfit_code_request impactfit_code_request_default(void);

/* The restitution one value gives over a box of sizes and speeds (impactfit_code_forward_spread in mixing.h,
 * answer.spread): both radii over [r_min, r_max] (log-spaced points; on a wall, r1 only), speeds over
 * [v_min, v_max] (log-spaced), every point impactfit_code_forward's e. */
typedef struct impactfit_code_spread {
  double e_min, e_max;                                       /* over the box */
  double r1_min, r2_min, v_at_min, r1_max, r2_max, v_at_max; /* where */
  double e_corner[8]; /* e at (r1, r2, v) ∈ {min, max}³ (index: bit 0 r1, bit 1 r2, bit 2 v; a wall: r2 = r1) */
  double worst;       /* the largest |e − e_target| (NaN when e_target is NaN) */
  long evaluations;   /* the grid's points */
  /* e_min, e_max (and where, worst) are the extremes between the grid's points too in continuous time: a bounded
   * local search (NLopt BOBYQA) from every grid point that is a local extreme among its neighbours, over the cells
   * around it (within ~1e-12 of the true extreme where e is smooth; a stepped answer's phase means are the grid's);
   * its points (0: none run, e.g. a box already exact within 1e-9): */
  long search_evaluations;
} impactfit_code_spread;

/* e at one speed of a speed range (stepped answers). */
typedef struct impactfit_code_point {
  double v;                    /* m/s */
  double e_mean, e_min, e_max; /* over the phase */
  double e_continuous;
} impactfit_code_point;

typedef struct impactfit_code_answer {
  const impactfit_code_model *model;
  const char *version; /* the version answered: the request's string (borrowed) or the
                                          code's default */
  int run_here;        /* 1: that version was run here; 0: formula only */
  const impactfit_code_integrator *integrator;
  int stepped;                     /* 1: phase statistics of the step map at dt (a continuous-time integrator
                                          with the generic search too: every phase the same, Simbody's); 0:
                                          continuous time with the power law by impact.h (K, C, zeta, e over
                                          the speed range) */
  int forward;                     /* 1: the value was given (e of a typed value); 0: solved for e_asked */
  double dt;                       /* the step, s (NaN: continuous time) */
  double v;                        /* the design speed, m/s */
  double v_min, v_max;             /* the speed range used (v, v without one), m/s */
  double e_asked;                  /* NaN in forward mode */
  double mass;                     /* the effective mass of the motion, kg (the motion's M) */
  double R;                        /* the effective radius of the bodies, m */
  int wall;                        /* 1: body 2 was a fixed wall or plane; 0: two spheres */
  const impactfit_transition *end; /* A or C */
  int reachable;                   /* 1: `value` gives e_asked (inverse; within the request's tol), or, for a
                                          model whose mean moves in steps of the value (Havok's restitution of 7
                                          mantissa bits), the nearest step: e says which, and the note's first
                                          sentence (NEAREST) says so; forward: 1 */
  double value;                    /* the free parameter: solved or given (NaN when unreachable) */
  /* what the value gives at v */
  double e;                        /* continuous: the exact e; stepped: the mean over the phase */
  double e_min, e_max;             /* stepped: one impact's range over the phase; continuous: e, e */
  double e_continuous;             /* the continuous-time e of the same input (NaN: none) */
  double e_speed_min, e_speed_max; /* continuous: the smallest and largest e over the speed range */
  int speed_dependent;             /* continuous: 1 unless m = (n − 1)/2 (then e is the same at every speed) */
  double K, C, zeta;               /* continuous power law: the stiffness (N/m^n), the damper
                                          (N s m^-(m+1)) and the scaled damping ζ at v; NaN otherwise */
  double e_reach_min, e_reach_max; /* stepped inverse, unreachable: the means met over the search range */
  int stable;                      /* stepped: 0 when the step is unstable at dt; continuous: 1 */
  double dt_stable;                /* the largest stable step, s (inf: unconditionally; 0: none, unstable at
                                          every step; NaN: not computed) */
  /* the input users usually type for e (NaN: the model has none) */
  double naive_value;
  double e_naive;                  /* its e at v (stepped: the mean) */
  double e_naive_min, e_naive_max; /* stepped: over the phase; continuous: over the speed range */
  char *naive;                     /* what the naive input is ("" when none) */
  char *input;                     /* the exact text to paste ("" when unreachable) */
  char *note;                      /* what the user must know, the most important sentence first */
  impactfit_code_point *range;     /* stepped with a speed range: n_range rows (NULL: none) */
  size_t n_range;
  struct impactfit_code_answer *alternative; /* request.suggest and unreachable: another model's answer
                                                that reaches e (NULL: none); its model in ->model */
  long impacts;                              /* impacts simulated (the stepped answer's cost) */
  double gravity; /* the request's gravity, m/s² along the normal (0: none; added after faeda7c) */
  char *assumes;  /* what this answer assumes, "item; item; ...", the items the request breaks first (head-on,
                     friction, gravity, the bodies, the speed: docs/SCENE.md); malloc'd, freed by
                     impactfit_code_answer_free (added after ceb18c0) */
  /* the answer over the user's ranges (request.r_min, r_max; added after 593f6d0, issue 33) */
  int has_spread;               /* 1: spread holds e of `value` over the box r_min .. r_max × v_min .. v_max */
  double r_min, r_max;          /* the size range of the box, m (NaN, NaN: none, a speed range alone) */
  double r2_min, r2_max;        /* body 2's (two spheres; r_min, r_max without request.r2_min; NaN: none) */
  int spread_points;            /* points per axis */
  impactfit_code_spread spread; /* worst: the largest |e − e_asked| (NaN in forward mode) */
  int spread_exact;             /* 1: e_max − e_min <= 1e-9 over the box (measured at every point, not assumed) */
  struct impactfit_code_answer *exact_model; /* not spread_exact (inverse, request.suggest): another model of the
                                                same code and versions whose one value gives e_asked over the
                                                whole box (its own spread measured: spread_exact 1), solved for
                                                the request; NULL: none */
  const impactfit_code_model *exact_other;   /* no exact_model with the request's inputs: a restitution-taking
                                              model of the code, for the answer's version, that is exact over
                                              the box with other inputs (measured with its reference settings,
                                              impactfit_code_audit_request: e of it does not depend on them);
                                              NULL: none */
} impactfit_code_answer;

/* Solves the request: the inverse when req->e is a number, else forward (req->value, or the free
 * parameter's value in the settings). Returns 0 (also when e is out of reach or the step is unstable:
 * the answer says so), EINVAL (an unknown integrator or setting, a wrong number of values, missing or
 * invalid inputs; the message lists what the model knows), or a numerical failure. The answer is
 * zeroed first; free it with impactfit_code_answer_free (also after a failure). */
IMPACTFIT_EXPORT int impactfit_code_solve(const impactfit_code_request *req, impactfit_code_answer *ans,
                                          impactfit_error *err);
/* Releases the answer's texts, rows and alternative and resets those pointers (NULL: no-op). */
IMPACTFIT_EXPORT void impactfit_code_answer_free(impactfit_code_answer *ans);

/* The resolved request (for a model's ops and for tests). */
IMPACTFIT_EXPORT int impactfit_code_resolve(const impactfit_code_request *req, impactfit_code_ctx *c,
                                            impactfit_error *err);
/* The stepper the code runs for the request's settings and the free parameter's value (for tests and
 * for users who want e(φ) itself); type NULL for a continuous-time integrator. */
IMPACTFIT_EXPORT int impactfit_code_stepper(const impactfit_code_request *req, double value, impactfit_stepper *st,
                                            impactfit_error *err);
/* The real e the value gives at speed v (forward, at one speed: the continuous power law's exact e, or
 * the mean over the phase of a stepped integrator). */
IMPACTFIT_EXPORT int impactfit_code_forward(const impactfit_code_request *req, double value, double v, double *e,
                                            impactfit_error *err);

/* One point of impactfit_code_grid: its index (x outer, v inner), the request solved (q->e or q->value,
 * and q->v, set), its status and, when 0, the answer (owned by the grid: valid during the call); err
 * holds a failed point's message. Return non-zero to stop the grid. */
typedef int (*impactfit_code_point_fn)(void *ctx, size_t index, const impactfit_code_request *q, double x, int status,
                                       const impactfit_code_answer *answer, const impactfit_error *err);

/* Every point of the grid x × v, x outer: x[0..nx) the asked restitutions, or with forward = 1 the typed
 * values; v[0..nv) the design speeds; the rest of the request as base. The points one after the other
 * on the calling thread, in order, each handed to fn, a failed one too (the grid goes on). Returns 0,
 * EINTR when fn stopped it, or EINVAL for a NULL argument. The CLI's `--e 0.3,0.5 --v 1:4:4`. */
IMPACTFIT_EXPORT int impactfit_code_grid(const impactfit_code_request *base, const double *x, size_t nx, int forward,
                                         const double *v, size_t nv, impactfit_code_point_fn fn, void *ctx,
                                         impactfit_error *err);

/* The audit of a restitution-taking continuous-time model (takes_e): the real e when e itself is typed,
 * at `points` values equally spaced on [e_min, e_max], with the force clamp `clamp` (-1: the code's
 * default). e of these models does not depend on the speed, the size or the material except through
 * the code's own constants: the reference contact is two equal spheres (R = 5 mm, ρ = 2500 kg/m³,
 * E = 1e8 Pa, ν = 0.3, kn = 2e4, tc = 5e-4 s, V = 1 m/s) at 1 m/s (impactfit_code_audit_request). Values
 * the code refuses (param_floor) are counted in `refused`. EINVAL for a model that takes no e. */
typedef struct impactfit_code_audit_result {
  double e_max_error; /* max |e_real − e| */
  double e_at_max;    /* the typed e where it occurs */
  double e_mean_error;
  size_t points, refused;
} impactfit_code_audit_result;

IMPACTFIT_EXPORT int impactfit_code_audit(const impactfit_code_model *md, int clamp, double e_min, double e_max,
                                          size_t points, impactfit_code_audit_result *res, impactfit_error *err);
/* The audit's reference request for md (its settings in *settings, at most IMPACTFIT_CODE_MAX_INPUTS;
 * the returned request points into them). */
IMPACTFIT_EXPORT impactfit_code_request impactfit_code_audit_request(const impactfit_code_model *md,
                                                                     impactfit_code_setting *settings);
/* The force clamps an audit covers: the switch off and on (0, 1) when the model has one, else its
 * fixed behaviour. Writes them and returns their number (0 for NULL). */
IMPACTFIT_EXPORT int impactfit_code_clamps(const impactfit_code_model *md, int clamps[2]);

#ifdef __cplusplus
}
#endif
#endif /* IMPACTFIT_CODES_H */
