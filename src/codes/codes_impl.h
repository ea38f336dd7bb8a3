/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Internal to the code registry (include/impactfit/codes.h).
 *
 * A code is one file src/codes/<code>.c that defines `const impactfit_code impactfit__code_<code>` (its
 * name, version parser, default version, its models) and one line X(<code>) in src/codes/codes.def, the
 * only list of codes: the registry (registry.c) and the build (src/CMakeLists.txt reads the list) take it
 * from there. The building blocks that several codes share are in blocks_impl.h. */
#ifndef IMPACTFIT_CODES_IMPL_H
#define IMPACTFIT_CODES_IMPL_H

#include <stddef.h>

#include "impactfit/codes.h"
#include "impactfit/drop.h"

#define X(code) extern const impactfit_code impactfit__code_##code;
#include "codes.def"
#undef X

/* The number of elements of a static array (the entries' inputs, integrators and models). */
#define IMPACTFIT__COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))
/* One entry of a registry table (a model) whose fields are named, some through the shared groups of an entry file
 * (LMP_COMMON, MJ_STD, IMPACTFIT__DEM_INPUTS(...), ...), which name theirs: tests/check_initializers.py does not
 * look into a macro, and this form says the fields are named. */
#define IMPACTFIT__ENTRY(...) \
  { __VA_ARGS__ }

/* The message of an unknown name: "unknown WHAT 'name' (known: a, b, c); did you mean 'b'?" into err. */
int impactfit__unknown_name(const char *what, const char *name, const char *const *names, size_t n,
                            impactfit_error *err);

/* The model's stepper for the value (ops->build on a zeroed stepper), with the request's gravity checked: EINVAL
 * when the request has gravity and the model's step map does not apply it (continuous time, a power law, an
 * engine whose step is modelled without it). Every build of the registry goes through it. */
int impactfit__build(const impactfit_code_ctx *c, double value, impactfit_stepper *st, impactfit_error *err);

/* The answer's texts from text buffers (each emptied); 0 or ENOMEM. */
int impactfit__answer_texts(impactfit_code_answer *ans, impactfit_text *naive, impactfit_text *input,
                            impactfit_text *note, impactfit_error *err);

/* The continuous-time power-law answer (solve_power.c) of a resolved request: inverse when req->e is a
 * number, else forward. */
int impactfit__solve_power(const impactfit_code_ctx *c, impactfit_code_answer *ans, impactfit_error *err);
/* The real e of a continuous-time power-law model's value at speed v (ctx resolved; c->v is not used). */
int impactfit__power_forward(const impactfit_code_ctx *c, double value, double v, double *e, impactfit_error *err);
/* 1 when the model's chosen integrator is continuous time and its answer is the power law's by impact.h. */
int impactfit__is_power(const impactfit_code_ctx *c);
/* The stepped answer (solve_steps.c) of a resolved request. */
int impactfit__solve_steps(const impactfit_code_ctx *c, impactfit_code_answer *ans, impactfit_error *err);

/* What the answer of a resolved request assumes (assumes.c; docs/SCENE.md): malloc'd text, NULL when out of
 * memory. drop: a drop test's parameters (NULL: a single impact); gravity: the gravity the answer takes. */
char *impactfit__assumes(const impactfit_code_ctx *c, const impactfit_drop_params *drop, double gravity);

/* The answer over the user's ranges (spread.c). impactfit__has_range: 1 when the request asks for it (a size
 * range; for a continuous-time answer (power 1) a speed range too). impactfit__spread_of: answer.spread of the
 * value over the box (has_spread, r_min, r_max, spread_points, spread_exact set); EINVAL for an invalid range or
 * bodies without radii. impactfit__spread_sentence: the note's sentence on it (and on answer.exact_model). */
int impactfit__has_range(const impactfit_code_request *q, int power);
int impactfit__spread_of(const impactfit_code_ctx *c, impactfit_code_answer *ans, double value, impactfit_error *err);
void impactfit__spread_sentence(const impactfit_code_ctx *c, const impactfit_code_answer *a, impactfit_text *t);
/* e of value over the box r1 ∈ [box[0], box[1]], r2 ∈ [box[2], box[3]] (two spheres: req->bodies.pair 1; a
 * wall: r1 only), v ∈ [box[4], box[5]], log-spaced points per axis (mixing.c: impactfit_code_forward_spread is
 * this with one range for both radii). */
int impactfit__forward_box(const impactfit_code_request *req, double value, double rho1, double rho2,
                           const double box[6], int points, double e_target, impactfit_code_spread *out,
                           impactfit_error *err);
/* e at one point of such a box (r2 ignored on a wall) */
int impactfit__box_point(const impactfit_code_request *req, double value, double rho1, double rho2, double r1,
                         double r2, double v, double *e, impactfit_error *err);
/* The box's extremes between its grid points (spread_refine.c): from every point of the grid (n[0] x n[1] x n[2]
 * values of e, r1-major) that is a local extreme among its neighbours, a bounded local search (NLopt) over the
 * grid cells around it; out's e_min, e_max, where and worst take what it finds (the corners stay the grid's);
 * out->search_evaluations counts its points. Continuous-time answers only (a phase mean at a step is left as the grid
 * has it), and not when the grid's spread is already at or below 1e-9. */
int impactfit__refine_box(const impactfit_code_request *req, double value, double rho1, double rho2,
                          const double box[6], const int n[3], const double *grid, double e_target,
                          impactfit_code_spread *out, impactfit_error *err);

#endif
