/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit_dem: impactfit_code under the name of the CLI's `impactfit dem` (the same call; help in
 * impactfit_dem.m and impactfit_code.m). */
#include "impactfit_code.c"
