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

#include "impactfit/sweep.h"

#define X(name) extern const impactfit_sweep_problem impactfit__problem_##name;
#include "problems.def"
#undef X

#endif
