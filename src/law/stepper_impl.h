/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Internal to the steppers (include/impactfit/stepper.h): the built-in types by name, and helpers for
 * stepper implementations (the codes' own step maps in src/codes/). */
#ifndef IMPACTFIT_STEPPER_IMPL_H
#define IMPACTFIT_STEPPER_IMPL_H

#include "impactfit/stepper.h"

/* The built-in type objects by name, for constant tables of other modules (the code registry's integrator
 * tables: src/codes/); stepper.h's impactfit_stepper_euler and the others point to them. */
extern const impactfit_stepper_type impactfit__stepper_euler_type;
extern const impactfit_stepper_type impactfit__stepper_rk4_type;
extern const impactfit_stepper_type impactfit__stepper_explicit_euler_type;
extern const impactfit_stepper_type impactfit__stepper_frozen_force_type;

/* The force of st->law at (x, u) with st->end's clamp at zero (C unless st->end is A); *clamped = 1
 * when the clamp acted (clamped may be NULL). */
double impactfit__step_law_force(const impactfit_stepper *st, double x, double u, int *clamped);

/* The affine map (stepper.h's impactfit_step_affine) of the step from s of a built-in law stepper (euler,
 * rk4, explicit-euler, frozen-force: their `affine`) where st->law is linear (the power law with n = 1, m =
 * 0; the impedance law beyond its width) or the force is clamped and stays so as δ falls (the flight after
 * the clamp: the power law with n ≥ m, the impedance law without g); 0 elsewhere and under gravity. */
int impactfit__step_law_affine(const impactfit_stepper *st, const impactfit_step_state *s, impactfit_step_affine *a);

/* The sides of st->law's switches at (x, u): bit i set where switch i is > 0 (0 for a law without
 * switches). A stepper puts them into its step's branch for every state where it evaluates the force,
 * so that e(φ) is smooth between the phase statistics' jumps: the law's knots (where f or its
 * derivatives jump) then split e(φ) into pieces instead of being left inside the quadrature. */
unsigned impactfit__step_law_switches(const impactfit_stepper *st, double x, double u);

#endif
