/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Internal interfaces of src/inverse shared by its files (not installed). */
#ifndef IMPACTFIT_INVERSE_IMPL_H
#define IMPACTFIT_INVERSE_IMPL_H

#include "impactfit/common.h"

/* impactfit_lambda_from_zeta given the length scale dm = delta_m0 of (n, k, mass, v) that it computes
 * first (impactfit_impact_scales): the same double, for a caller that keeps dm over a run of points. */
int impactfit__lambda_from_dm(double m, double zeta, double mass, double v, double dm, double *lambda,
                              impactfit_error *err);

#endif
