/* SPDX-License-Identifier: GPL-3.0-or-later */
/* DART 6.12.1 (Debian 12's libdart-dev; Gazebo's default physics engine through gz-physics) in the registry:
 * its step map (impactfit__stepper_dart, src/codes/dart.c) and the operations of its registry entry on plain
 * values, which the entry's ops (codes.h, compiled with the registry) and the tests
 * (tests/engines/dart_impacts.cpp) share. */
#ifndef IMPACTFIT_CODES_DART_IMPL_H
#define IMPACTFIT_CODES_DART_IMPL_H

#include <stddef.h>

#include "impactfit/stepper.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The stepper's parameters, by index (st->p[]). */
enum {
  IMPACTFIT__DART_REST = 0, /* the contact's restitution: the product of the two shapes' coefficients */
  IMPACTFIT__DART_ERP,      /* ContactConstraint::setErrorReductionParameter (0.01) */
  IMPACTFIT__DART_ERV,      /* setMaxErrorReductionVelocity (1e-3 m/s) */
  IMPACTFIT__DART_CFM,      /* setConstraintForceMixing (1e-5) */
  IMPACTFIT__DART_VBOUNCE,  /* DART_BOUNCING_VELOCITY_THRESHOLD (0.1 m/s): restitution only above it */
  IMPACTFIT__DART_VMAX,     /* DART_MAX_BOUNCING_VELOCITY (100 m/s) */
  IMPACTFIT__DART_RMIN,     /* DART_RESTITUTION_COEFF_THRESHOLD (1e-3): no bounce at all below it */
  IMPACTFIT__DART_NPARAMS
};

extern const impactfit_stepper_type impactfit__stepper_dart;

/* The settings of a DART contact as the user has them. */
typedef struct impactfit__dart_setup {
  double restitution2; /* body 2's (the ground's) restitution coefficient: DART multiplies the two (DART's default
                          is 0, which gives no bounce: the registry's default is 1, and the pasted text sets it) */
  double erp, erv, cfm;
  int plane;     /* 1: body 2 is a fixed body (a ground box) */
  double m1, m2; /* kg */
  double r1, r2; /* m */
  double dt;     /* World::setTimeStep (0.001 s) */
} impactfit__dart_setup;

/* DART's defaults, a 5 mm 1.309 g sphere on the ground, dt 0.001 s, the ground's coefficient 1. */
impactfit__dart_setup impactfit__dart_defaults(void);
/* The contact's restitution for body 1's coefficient (the product with body 2's). */
double impactfit__dart_combined(const impactfit__dart_setup *ds, double restitution1);
/* The stepper for body 1's restitution coefficient. */
int impactfit__dart_build(const impactfit__dart_setup *ds, double restitution1, impactfit_stepper *st,
                          impactfit_error *err);
/* The text to paste for body 1's coefficient and body 2's (C++ and Python), into buf. */
void impactfit__dart_input(const impactfit__dart_setup *ds, double restitution1, char *buf, size_t size);
/* What the user must know at speed v (threshold, the ground's default, CFM, the default collision detector),
 * appended to buf. */
void impactfit__dart_note(const impactfit__dart_setup *ds, double restitution1, double v, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif
