/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Jolt Physics (npm jolt-physics 1.1.0 = JoltPhysics v5.6.0, single precision) in the registry: its step
 * map (impactfit__stepper_jolt, src/codes/jolt.c) and the operations of its registry entry on plain values,
 * which the entry's ops (codes.h, compiled with the registry) and the tests (tests/engines/jolt_impacts.c)
 * share. */
#ifndef IMPACTFIT_CODES_JOLT_IMPL_H
#define IMPACTFIT_CODES_JOLT_IMPL_H

#include <stddef.h>

#include "impactfit/stepper.h"

/* The stepper's parameters, by index (st->p[]). */
enum {
  IMPACTFIT__JOLT_REST = 0, /* the contact's restitution (combined: the larger of the two bodies') */
  IMPACTFIT__JOLT_VMIN,     /* PhysicsSettings::mMinVelocityForRestitution, m/s */
  IMPACTFIT__JOLT_SPEC,     /* mSpeculativeContactDistance, m */
  IMPACTFIT__JOLT_SLOP,     /* mPenetrationSlop, m */
  IMPACTFIT__JOLT_BAUM,     /* mBaumgarte */
  IMPACTFIT__JOLT_VSTEPS,   /* mNumVelocitySteps */
  IMPACTFIT__JOLT_PSTEPS,   /* mNumPositionSteps */
  IMPACTFIT__JOLT_DAMP,     /* the bodies' mLinearDamping, 1/s, in the steps with a contact (below) */
  IMPACTFIT__JOLT_WARM,     /* mConstraintWarmStart (0/1) */
  IMPACTFIT__JOLT_M1,       /* body 1's mass, kg */
  IMPACTFIT__JOLT_M2,       /* body 2's mass, kg (0: a static body, a plane) */
  IMPACTFIT__JOLT_COORD,    /* the distance of the centres (sphere-plane: the sphere's centre above the plane) at
                               touching, m: r1 (plane) or r1 + r2 */
  IMPACTFIT__JOLT_NPARAMS
};

/* The step map in float32 as the engine computes it, and the same map in double (the registry's inverse: e is
 * then continuous in the restitution). */
extern const impactfit_stepper_type impactfit__stepper_jolt;
extern const impactfit_stepper_type impactfit__stepper_jolt64;

/* The work of a run of the approach (impactfit__jolt_run): the steps taken one by one, the runs taken at once,
 * the ties the runs stopped at (of the travel's rounding fl(w h); of the sum's, y + fl(w h), or without damping its
 * ties run through by the parity rule), the runs refused because their first or last step did not agree with the
 * step map to the bit (none: a defect). */
typedef struct impactfit__jolt_work {
  long plain, jumps, ties_travel, ties_sum, refused;
} impactfit__jolt_work;

/* The stepper types' `run` (stepper.h) on the approach through the speculative distance: up to n_max steps from
 * s, exactly as the step map takes them; jump 1 takes runs of them at once by the rounding grids' integer
 * arithmetic (jolt.c), 0 steps one by one (the reference); the work into *work when not NULL. */
long impactfit__jolt_run(const impactfit_stepper *st, impactfit_step_state *s, long n_max, int jump,
                         impactfit__jolt_work *work);

/* The settings of a Jolt contact as the user has them. */
typedef struct impactfit__jolt_setup {
  double restitution2; /* body 2's mRestitution (the plane's; default 0): the contact takes the larger */
  double vmin;         /* mMinVelocityForRestitution (1 m/s) */
  double spec;         /* mSpeculativeContactDistance (0.02 m) */
  double slop;         /* mPenetrationSlop (0.02 m) */
  double baumgarte;    /* mBaumgarte (0.2) */
  int vsteps, psteps;  /* mNumVelocitySteps (10), mNumPositionSteps (2) */
  double damping;      /* mLinearDamping of both bodies (BodyCreationSettings default 0.05 1/s) */
  int warm;            /* mConstraintWarmStart (1) */
  int plane;           /* 1: body 2 is a static plane (m2, r2 unused) */
  double m1, m2;       /* kg */
  double r1, r2;       /* m */
  double dt;           /* the step of PhysicsSystem::Update / JoltInterface::Step, s (1/60 in Jolt's samples) */
} impactfit__jolt_setup;

/* Jolt's defaults, a 5 mm 1.309 g sphere on a plane, dt 1/60 s. */
impactfit__jolt_setup impactfit__jolt_defaults(void);
/* The stepper for body 1's typed mRestitution (the contact's is the larger of it and restitution2): the float32
 * step map with f32 = 1, the double one with 0. */
int impactfit__jolt_build(const impactfit__jolt_setup *js, double restitution, int f32, impactfit_stepper *st,
                          impactfit_error *err);
/* The text to paste for body 1's mRestitution (C++ and JavaScript), into buf. */
void impactfit__jolt_input(const impactfit__jolt_setup *js, double restitution, char *buf, size_t size);
/* What the user must know about this contact at speed v (threshold, damping, speculative bounce, passing
 * through), appended to buf. */
void impactfit__jolt_note(const impactfit__jolt_setup *js, double restitution, double v, char *buf, size_t size);

#endif
