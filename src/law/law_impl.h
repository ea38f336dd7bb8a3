/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Internal to the force laws (include/impactfit/law.h): the built-in type objects by name, for constant
 * tables of other modules (the code registry's models: src/codes/). law.h's impactfit_law_power and the
 * others point to them. */
#ifndef IMPACTFIT_LAW_IMPL_H
#define IMPACTFIT_LAW_IMPL_H

#include "impactfit/law.h"

extern const impactfit_law_type impactfit__law_power_type;
extern const impactfit_law_type impactfit__law_impedance_type;
extern const impactfit_law_type impactfit__law_approach_type;

#endif
