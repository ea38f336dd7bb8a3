/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The outputs the sweep problems "simulate" (prob_simulate.c) and "impact" (prob_impact.c) share,
 * in their column order: the member of impactfit_impact_result, which is also the column's name, and
 * its unit. Each problem adds its own columns after these. */
#ifndef IMPACTFIT_PROB_OUTPUTS_H
#define IMPACTFIT_PROB_OUTPUTS_H

#include "impactfit/impact.h"

#define IMPACT_RESULT_OUTPUTS(X) \
  X(e_out, "-")                  \
  X(t_contact, "s")              \
  X(f_max, "N")                  \
  X(t_fmax, "s")                 \
  X(f_min, "N")                  \
  X(delta_max, "m")              \
  X(t_delta_max, "s")            \
  X(delta_start, "m")            \
  X(delta_sep, "m")              \
  X(f_start, "N")                \
  X(f_end, "N")                  \
  X(damping_work, "J")           \
  X(energy_error, "-")           \
  X(zeta, "-")                   \
  X(delta_m0, "m")

/* For a problem's list PROB_OUTPUTS(X) (these, then its own): the enum of its columns O_<name>, their
 * names and their units, as enum { PROB_OUTPUTS(IMPACT_ENUM) O_COUNT } and {PROB_OUTPUTS(IMPACT_NAME)}. */
#define IMPACT_ENUM(f, unit) O_##f,
#define IMPACT_NAME(f, unit) #f,
#define IMPACT_UNIT(f, unit) unit,

/* Writes those members of r to out[0 …] in the order above. */
static inline void impact_result_outputs(const impactfit_impact_result *r, double *out) {
#define IMPACT_RESULT_OUT(f, unit) *out++ = r->f;
  IMPACT_RESULT_OUTPUTS(IMPACT_RESULT_OUT)
#undef IMPACT_RESULT_OUT
}

#endif
