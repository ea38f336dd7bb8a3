/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit_engine: impactfit_code under the name of the CLI's `impactfit engine` (the same call; help in
 * impactfit_engine.m and impactfit_code.m). */
#include "impactfit_code.c"
