/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The building blocks that several codes share (src/codes/blocks.c), so that a code's file holds only
 * what is particular to that code:
 *   - one constraint row (ODE, Bullet): ERP/CFM from a spring and a damper at a step, its continuous-time
 *     limit (Kelvin–Voigt clamped at zero), the naive damper of the damping-ratio formula, the search range
 *     in multiples of the critical damping;
 *   - the DEM codes' power law F = K δ^n + C δ^m δ' from a kind of stiffness and a kind of damping (LAMMPS,
 *     LIGGGHTS, YADE share the kinds), with its settings, its continuous-time integrator and its build;
 *   - the continuous-time integrator table of a model with no step map.
 * The step maps themselves stay in each code's file: their rounding order is the code's and is checked
 * against the real code at 1e-6 (tests/engines/). */
#ifndef IMPACTFIT_CODES_BLOCKS_IMPL_H
#define IMPACTFIT_CODES_BLOCKS_IMPL_H

#include <math.h>

#include "../law/law_impl.h"
#include "../law/stepper_impl.h"
#include "codes_impl.h"

/* ---------------------------------------------------------------- one constraint row */

/* The ERP and CFM of a row that stands for a spring k (N/m) and a damper c (N s/m) at step h (s):
 * denom = h k + c, raised to `floor` when below it (0: no floor; Bullet: DBL_EPSILON), erp = h k/denom,
 * cfm = 1/denom (m/N per s, before the solver's division by h). */
void impactfit__row_erp_cfm(double h, double k, double c, double floor, double *erp, double *cfm);
/* The continuous-time limit of such a row: f = k δ + c δ' clamped at zero (condition C). */
void impactfit__row_kv_limit(double k, double c, impactfit_law *law, const impactfit_transition **end);
/* The naive damper for e: kd = 2 ξ(e) √(k M) (the linear spring-damper's damping ratio, contact to δ = 0),
 * with what it is. Returns 0. */
int impactfit__naive_kd(const impactfit_code_ctx *c, double e, double k, double *value, impactfit_text *what);
/* A search range for a damper: lo_ratio and hi_ratio times the critical damping 2 √(k M). */
void impactfit__range_critical(double k, double M, double lo_ratio, double hi_ratio, double *lo, double *hi);

/* ---------------------------------------------------------------- continuous time */

/* The integrator table of a model without a step map: {"continuous", NULL} (impact.h solves the law). */
extern const impactfit_code_integrator impactfit__continuous_only[1];
/* The settings of a stepper for continuous time: type NULL, the law, end C or A by c->clamp, mass c->M, dt NaN. */
void impactfit__continuous_stepper(const impactfit_code_ctx *c, const impactfit_law *law, impactfit_stepper *st);

/* ---------------------------------------------------------------- the DEM codes' power law */

/* How a DEM model computes K (F_elastic = K δ^n) from the contact and its settings. */
typedef enum impactfit__dem_stiffness {
  IMPACTFIT__ST_HERTZ_MAT = 0,   /* K = (4/3) E* √R, E* = E/(2(1 − ν²)) */
  IMPACTFIT__ST_HERTZ_MAT_LWALL, /* the same, but a LAMMPS fix wall/gran wall has E* = E/(2(1 − ν)) */
  IMPACTFIT__ST_HERTZ_MAT_YWALL, /* the same, but a YADE wall (utils.wall) counts the sphere's radius twice: R = r/2 */
  IMPACTFIT__ST_HERTZ_KN,        /* K = kn √R (F = kn √(Rδ) δ) */
  IMPACTFIT__ST_LINEAR_KN,       /* K = kn */
  IMPACTFIT__ST_HOOKE_VCHAR,     /* K = (16/15) √R E* (15 M V²/(16 √R E*))^(1/5), V the characteristic velocity */
  IMPACTFIT__ST_VISCEL_TC, /* YADE ViscElMat(tc, en): K = (π² + ln² en) M'/tc², M' the code's mass (wall: M/2) */
  IMPACTFIT__ST_VISCEL_KN  /* YADE ViscElMat(kn, cn): two bodies' springs in series, K = kn/2 */
} impactfit__dem_stiffness;

/* How it computes C (F_damping = C δ^m δ') from its parameter p. */
typedef enum impactfit__dem_damping {
  IMPACTFIT__DA_CONST = 0,   /* C = p */
  IMPACTFIT__DA_MASS,        /* C = p M */
  IMPACTFIT__DA_MASS_SQRTR,  /* C = p M √R */
  IMPACTFIT__DA_CONV_SQRTMK, /* C = conv(p) √(M K) */
  IMPACTFIT__DA_VISCEL_TC,   /* C = −2 ln(p) M'/tc */
  IMPACTFIT__DA_HALF         /* C = p/2 (two bodies' dashpots in series) */
} impactfit__dem_damping;

/* A DEM model's law: the ops' data (impactfit_code_ops.data) of impactfit__dem_build. */
typedef struct impactfit__dem_law {
  impactfit__dem_stiffness stiffness;
  impactfit__dem_damping damping;
  double (*conv)(double p);      /* IMPACTFIT__DA_CONV_SQRTMK: the code's conversion of its parameter */
  const char *const *tangential; /* the first words the code's tangential clause takes (NULL-terminated; NULL:
                                    the model has no clause: request.tangential is refused) */
} impactfit__dem_law;

/* A number of an optional input as the paste text shows it: the value ("%.10g") when the user gave it, else
 * the placeholder "<yours: what>"; appended to out. */
void impactfit__dem_optional(const impactfit_code_ctx *c, const char *name, const char *what, impactfit_text *out);
/* 1 when the two bodies' materials differ (per-body E or nu with two values that are not the same). */
int impactfit__dem_two_materials(const impactfit_code_ctx *c);
/* The contact's E* (Pa) of the model's E and nu (the two bodies' materials: impactfit_mix_estar). */
double impactfit__dem_estar(const impactfit_code_ctx *c);
/* The note every DEM model with tangential settings carries: which of them are the user's placeholders and
 * that the head-on normal law does not depend on them. `names`: the model's words for them. */
void impactfit__dem_note_tangential(const impactfit_code_ctx *c, const char *names, impactfit_text *out);

/* 1 when the paste text carries one line per type pair: two spheres of two materials, or e11 or e22 asked. */
int impactfit__dem_pairs(const impactfit_code_ctx *c);
/* The free parameter of the type pair b-b (b = 1 or 2: two body-b spheres of body b's material, size and
 * mass) for the request's e11 (e22; NaN: its e); in forward mode the typed value. *out NaN when out of reach. */
int impactfit__dem_pair_value(const impactfit_code_ctx *c, int b, double value, double *out, impactfit_error *err);

/* The stepper (continuous time, the power law with K and C of the model's kinds) for the parameter p. */
int impactfit__dem_build(const impactfit_code_ctx *c, double p, impactfit_stepper *st, impactfit_error *err);
/* The naive input of a restitution-taking model: e typed as it is (1 for a model that takes no e). */
int impactfit__dem_naive(const impactfit_code_ctx *c, double e, double *value, impactfit_text *what,
                         impactfit_error *err);

/* The ops of a DEM model: its law's kinds, its paste text and its note (NULL: none). */
#define IMPACTFIT__DEM_OPS(name, st_, da_, conv_, input_, note_) \
  IMPACTFIT__DEM_OPS_T(name, st_, da_, conv_, input_, note_, NULL)
/* The same for a model with a tangential clause (tang_: its first words, NULL-terminated). */
#define IMPACTFIT__DEM_OPS_T(name, st_, da_, conv_, input_, note_, tang_)                                              \
  static const impactfit__dem_law name##_law = {.stiffness = st_, .damping = da_, .conv = conv_, .tangential = tang_}; \
  static const impactfit_code_ops name = {.build = impactfit__dem_build,                                               \
                                          .lo = 1e-12,                                                                 \
                                          .hi = 1.0,                                                                   \
                                          .naive = impactfit__dem_naive,                                               \
                                          .input = input_,                                                             \
                                          .note = note_,                                                               \
                                          .data = &name##_law};

/* The settings DEM models take (the historical `impactfit dem` options). */
#define IMPACTFIT__IN_E                                                                                        \
  {                                                                                                            \
    .name = "E", .unit = "Pa",                                                                                 \
    .help = "Young's modulus: one value for both bodies (and the wall), or body 1's,body 2's (two materials: " \
            "E* = 1/((1 - nu1^2)/E1 + (1 - nu2^2)/E2))",                                                       \
    .count = 1, .def = {NAN}, .per_body = 1, .mix = IMPACTFIT_CODE_MIX_OWN                                     \
  }
#define IMPACTFIT__IN_NU                                                                   \
  {                                                                                        \
    .name = "nu", .unit = "-",                                                             \
    .help = "Poisson's ratio: one value for both bodies (and the wall), or body 1's,body " \
            "2's",                                                                         \
    .count = 1, .def = {NAN}, .per_body = 1, .mix = IMPACTFIT_CODE_MIX_OWN                 \
  }
/* A friction or tangential setting the normal law does not read: the user's own, kept in the paste text, a
 * marked placeholder there when not given (impactfit_code_input.optional). */
#define IMPACTFIT__IN_TANGENTIAL(name_, unit_, help_)                                \
  {                                                                                  \
    .name = name_, .unit = unit_,                                                    \
    .help = help_ " (yours: kept in the pasted line; a head-on normal law does not " \
                  "read it)",                                                        \
    .count = 1, .def = {NAN}, .optional = 1                                          \
  }
#define IMPACTFIT__IN_KN(unit_)                                                                              \
  {                                                                                                          \
    .name = "kn", .unit = unit_, .help = "the code's normal stiffness parameter", .count = 1, .def = { NAN } \
  }
#define IMPACTFIT__IN_TC                                                                                   \
  {                                                                                                        \
    .name = "tc", .unit = "s", .help = "the contact time of ViscElMat(tc, en)", .count = 1, .def = { NAN } \
  }
#define IMPACTFIT__IN_VCHAR                                                                                       \
  {                                                                                                               \
    .name = "vchar", .unit = "m/s",                                                                               \
    .help = "the characteristic velocity of the stiffness (default: the impact speed)", .count = 1, .def = {NAN}, \
    .default_v = 1                                                                                                \
  }

extern const impactfit_code_input impactfit__dem_in_material[2]; /* E, nu */
extern const impactfit_code_input impactfit__dem_in_vchar[3];    /* E, nu, vchar */
extern const impactfit_code_input impactfit__dem_in_kn_pa[1];    /* kn (Pa): Hertz with kn √(R δ) δ */
extern const impactfit_code_input impactfit__dem_in_kn_nm[1];    /* kn (N/m): a linear spring */
extern const impactfit_code_input impactfit__dem_in_tc[1];       /* tc */

/* The inputs, integrators and law of a DEM model, for its entry. */
#define IMPACTFIT__DEM_INPUTS(inputs_)                                                                 \
  .inputs = inputs_, .n_inputs = IMPACTFIT__COUNT(inputs_), .integrators = impactfit__continuous_only, \
  .n_integrators = 1, .law = &impactfit__law_power_type

#endif
