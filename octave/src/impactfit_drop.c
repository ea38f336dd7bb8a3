/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit_drop: a drop test on one registry entry (include/impactfit/code_drop.h), the CLI's `impactfit engine
 * --drop H` and Python's impactfit.drop: impactfit_code.c with its drop mode (help in impactfit_drop.m). */
#define IMPACTFIT_MEX_DROP 1
#include "impactfit_code.c"
