/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The built-in sweep problems (not installed). Each is defined by the module that owns the
 * computation, next to it: src/impact/prob_simulate.c, src/inverse/prob_copt.c,
 * src/inverse/prob_zhang_alpha.c, src/hc/prob_hc_eps.c, src/hc/prob_impact_time.c,
 * src/impact/prob_impact.c, src/formulas/prob_eps_formula.c, src/hc/prob_identify_hc.c,
 * src/law/prob_law.c (law-impact, law-damping); problems.def
 * lists them for impactfit_sweep_problem_at/_from_name. A program's own problems need none of this
 * (impactfit_sweep_parse_with, include/impactfit/sweep.h). */
#ifndef IMPACTFIT_SWEEP_PROBLEMS_H
#define IMPACTFIT_SWEEP_PROBLEMS_H

#include <math.h>

#include "impactfit/sweep.h"

#define X(name) extern const impactfit_sweep_problem impactfit__problem_##name;
#include "problems.def"
#undef X

/* The parameters several problems share, each defined once here (name, default, range, help), in the
 * order n, m, c, k, mass, v, e, then the solver's. A problem lists them in its own order, which is its
 * CSV's column order (kept as each problem has always written it). flags_ adds flags
 * (IMPACTFIT_SWEEP_REQUIRED where a problem has no default); note_ is a string literal appended to
 * the help ("" or " (for lambda)"). */
#define IMPACTFIT__PARAM_N(flags_)                                                                           \
  {                                                                                                          \
    .name = "n", .def = 1.5, .min = 0.0, .max = HUGE_VAL, .flags = IMPACTFIT_SWEEP_MIN_EXCLUSIVE | (flags_), \
    .help = "spring exponent (> 0)"                                                                          \
  }
#define IMPACTFIT__PARAM_M(flags_) \
  { .name = "m", .def = 0.0, .min = 0.0, .max = HUGE_VAL, .flags = (flags_), .help = "damping exponent (>= 0)" }
#define IMPACTFIT__PARAM_C(flags_)                                           \
  {                                                                          \
    .name = "c", .def = 0.0, .min = 0.0, .max = HUGE_VAL, .flags = (flags_), \
    .help = "damping coefficient, N s m^-(m+1)"                              \
  }
#define IMPACTFIT__PARAM_K(note_)                                                                 \
  {                                                                                               \
    .name = "k", .def = 1.0, .min = 0.0, .max = HUGE_VAL, .flags = IMPACTFIT_SWEEP_MIN_EXCLUSIVE, \
    .help = "stiffness, N/m^n" note_                                                              \
  }
#define IMPACTFIT__PARAM_MASS(flags_, note_)                                                                    \
  {                                                                                                             \
    .name = "mass", .def = 1.0, .min = 0.0, .max = HUGE_VAL, .flags = IMPACTFIT_SWEEP_MIN_EXCLUSIVE | (flags_), \
    .help = "effective mass, kg" note_                                                                          \
  }
#define IMPACTFIT__PARAM_V(flags_, note_)                                                                    \
  {                                                                                                          \
    .name = "v", .def = 1.0, .min = 0.0, .max = HUGE_VAL, .flags = IMPACTFIT_SWEEP_MIN_EXCLUSIVE | (flags_), \
    .help = "approach velocity, m/s" note_                                                                   \
  }
/* e: 0 < e <= 1, or 0 < e < 1 with flags_ IMPACTFIT_SWEEP_MAX_EXCLUSIVE (help_ says which) */
#define IMPACTFIT__PARAM_E(flags_, help_)                                                       \
  {                                                                                             \
    .name = "e", .def = 0.5, .min = 0.0, .max = 1.0,                                            \
    .flags = IMPACTFIT_SWEEP_REQUIRED | IMPACTFIT_SWEEP_MIN_EXCLUSIVE | (flags_), .help = help_ \
  }
#define IMPACTFIT__PARAM_ACCEL                                            \
  {                                                                       \
    .name = "accel", .def = 0.0, .min = 0.0, .max = HUGE_VAL, .flags = 0, \
    .help = "constant acceleration pressing the bodies together, m/s^2"   \
  }
#define IMPACTFIT__PARAM_CONTACTS                                                                                \
  {                                                                                                              \
    .name = "contacts", .def = 1.0, .min = 1.0, .max = IMPACTFIT_MAX_CONTACTS, .flags = IMPACTFIT_SWEEP_INTEGER, \
    .help = "contacts to follow (> 1 needs accel > 0)"                                                           \
  }
#define IMPACTFIT__PARAM_TOL                                            \
  {                                                                     \
    .name = "tol", .def = 1e-10, .min = 1e-13, .max = 0.1,              \
    .flags = IMPACTFIT_SWEEP_TOLERANCE | IMPACTFIT_SWEEP_MAX_EXCLUSIVE, \
    .help = "|e_out - e| <= tol min(e, 1 - e) (inverse.h)"              \
  }

#endif
