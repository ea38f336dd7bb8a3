/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The step maps of the engines run here from npm packages under node (issue 35): Rapier
 * (@dimforge/rapier3d-compat 0.21.0), PhysX 4.1.1 (@cocos/physx 1.0.7), cannon-es 0.20.0 and Havok
 * (@babylonjs/havok 1.3.14, a closed binary: its map is fitted from measurements). Each is a stepper type
 * (include/impactfit/stepper.h) defined in src/codes/<engine>.c, written as the engine's source computes
 * its step for one frictionless contact through the centres, with its parameters' indices here so that
 * the registry entries of those files and the harnesses of tests/engines/ set them by name. */
#ifndef IMPACTFIT_CODES_NPM_ENGINES_IMPL_H
#define IMPACTFIT_CODES_NPM_ENGINES_IMPL_H

#include "impactfit/stepper.h"

/* ---------------------------------------------------------------- cannon-es 0.20.0 (cannon.c) */

/* GSSolver on one ContactEquation (SPOOK), then the velocity damping and the leap-frog integration. */
extern const impactfit_stepper_type impactfit__stepper_cannon;
enum {
  IMPACTFIT__CANNON_RESTITUTION = 0, /* the contact equation's restitution (the materials' product) */
  IMPACTFIT__CANNON_STIFFNESS,       /* contactEquationStiffness, N/m (1e7) */
  IMPACTFIT__CANNON_RELAXATION,      /* contactEquationRelaxation, steps (3) */
  IMPACTFIT__CANNON_DAMPING,         /* Body.linearDamping of the dynamic bodies, per second (0.01) */
  IMPACTFIT__CANNON_PLANE,    /* 1: a sphere on a plane (contact at a distance <= r), 0: two spheres (< r1 + r2) */
  IMPACTFIT__CANNON_MAXFORCE, /* the equation's maxForce (an impulse bound, N s: 1e6) */
  IMPACTFIT__CANNON_NPARAMS
};
/* The stepper for effective mass M (kg), step dt (s), the plane or two spheres and the combined
 * restitution, with cannon-es's defaults for the rest. */
void impactfit__cannon_stepper(impactfit_stepper *st, double M, double dt, int plane, double restitution);

/* ---------------------------------------------------------------- Rapier 0.21.0 (rapier.c) */

/* The soft-step solver on one contact point: substeps, warm start, biased and relax solves, the restitution
 * pass at the end of the step. */
extern const impactfit_stepper_type impactfit__stepper_rapier;
enum {
  IMPACTFIT__RAPIER_RESTITUTION = 0, /* the pair's restitution (the colliders' values combined) */
  IMPACTFIT__RAPIER_SUBSTEPS,        /* IntegrationParameters.num_solver_iterations (4) */
  IMPACTFIT__RAPIER_FREQUENCY,  /* the contact softness's natural frequency, Hz (60 against a fixed body, else 30) */
  IMPACTFIT__RAPIER_ZETA,       /* its damping ratio (10) */
  IMPACTFIT__RAPIER_MAXCORR,    /* normalized_max_corrective_velocity × length_unit, m/s (3) */
  IMPACTFIT__RAPIER_PREDICTION, /* normalized_prediction_distance × length_unit, m (0.02) */
  IMPACTFIT__RAPIER_WARMSTART,  /* warmstart_coefficient (1) */
  IMPACTFIT__RAPIER_DAMPING,    /* the rigid body's linear damping, 1/s (0) */
  IMPACTFIT__RAPIER_NPARAMS
};
/* The stepper for effective mass M, step dt, a fixed other body (the static softness) or a dynamic one, and
 * the pair's restitution, with Rapier's defaults for the rest. */
void impactfit__rapier_stepper(impactfit_stepper *st, double M, double dt, int fixed, double restitution);

/* ---------------------------------------------------------------- PhysX 4.1.1 (physx.c) */

/* PGS on one contact point (4 position iterations, 1 velocity iteration; one point converges in one). */
extern const impactfit_stepper_type impactfit__stepper_physx;
enum {
  IMPACTFIT__PHYSX_RESTITUTION = 0, /* the point's restitution (the two materials combined) */
  IMPACTFIT__PHYSX_THRESHOLD,       /* PxSceneDesc::bounceThresholdVelocity, m/s (0.2 × PxTolerancesScale::speed: 2) */
  IMPACTFIT__PHYSX_CONTACT,         /* the contact distance: the two shapes' contactOffsets, m (0.04) */
  IMPACTFIT__PHYSX_REST,            /* the rest distance: the two shapes' restOffsets, m (0) */
  IMPACTFIT__PHYSX_MAXDEPEN,        /* PxRigidBody maxDepenetrationVelocity, m/s (1e32) */
  IMPACTFIT__PHYSX_PLANE, /* 1: a sphere on a plane (a point at separation <= the contact distance), 0: two spheres (<) */
  IMPACTFIT__PHYSX_NPARAMS
};
/* The stepper for effective mass M, step dt, a plane or two spheres and the point's restitution, with
 * PhysX's defaults for the rest. */
void impactfit__physx_stepper(impactfit_stepper *st, double M, double dt, int plane, double restitution);

/* ---------------------------------------------------------------- Havok 1.3.14 (havok.c): measured only */

/* The law fitted to the closed binary's impacts (havok.c): the stop at the surface, then the rebound at
 * q(r)(u − g dt), or none below 0.1 m/s. */
extern const impactfit_stepper_type impactfit__stepper_havok;
enum {
  IMPACTFIT__HAVOK_RESTITUTION = 0, /* the pair's restitution (the materials combined), before Havok's rounding */
  IMPACTFIT__HAVOK_GRAVITY,   /* the gravity magnitude the rebound loses g dt of, m/s² (9.81 with zero gravity) */
  IMPACTFIT__HAVOK_THRESHOLD, /* the smallest separation speed that bounces, m/s (0.1) */
  IMPACTFIT__HAVOK_QUANTIZE,  /* 1: the restitution with 7 mantissa bits (impactfit__havok_quantize) */
  IMPACTFIT__HAVOK_NPARAMS
};
/* The restitution as Havok applies it (measured): the largest float with 7 mantissa bits not above
 * r (1 + 2⁻⁸), 1 for r >= 1, 0 for r <= 0. */
double impactfit__havok_quantize(double r);
/* The restitution to type for an asked e at approach speed v, step dt and gravity g (the law's: 9.81 for a zero
 * gravity): the typed value whose rounding gives the law's e nearest to e (the middle of the typed values that
 * round to it; 1 when e needs more), with that e in *e_law; NaN when the law gives no rebound at all (v <= g dt).
 * Havok's mean e is a step function of the typed restitution: this is its inverse (the phase-mean search of
 * stepper.h needs a continuous mean). */
double impactfit__havok_corrected(double e, double v, double dt, double g, double *e_law);
/* The stepper for effective mass M, step dt and the pair's restitution, with the measured constants. */
void impactfit__havok_stepper(impactfit_stepper *st, double M, double dt, double restitution);

#endif
