/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Internals of src/law (not installed): the built-in law type objects by name, for constant tables of
 * other modules (the code registry's models: src/codes/; law.h's impactfit_law_power and the others point
 * to them), and the general engine for tests. */
#ifndef IMPACTFIT_LAW_IMPL_H
#define IMPACTFIT_LAW_IMPL_H

#include "impactfit/law.h"

extern const impactfit_law_type impactfit__law_power_type;
extern const impactfit_law_type impactfit__law_impedance_type;
extern const impactfit_law_type impactfit__law_approach_type;

/* The law's switches at (δ, δ'): bit i set where switch i's value is > 0 (i < IMPACTFIT_LAW_MAX_SWITCHES); the
 * impedance's two computed in place (every stage of a MuJoCo contact's rk4 step asks: two calls through the type
 * were 18 % of the stepping at 1e-6 s) */
unsigned impactfit__law_switch_bits(const impactfit_law *law, double delta, double rate);

/* impactfit_law_impact_solve by the general engine of law.h whatever the law's own solver (the
 * `impact` member): the second method tests/test_law.c compares the power law's own solver with. */
int impactfit__law_impact_solve_general(impactfit_law_workspace *ws, const impactfit_law_impact_params *p,
                                        impactfit_law_impact_result *res, impactfit_error *err);

#endif
