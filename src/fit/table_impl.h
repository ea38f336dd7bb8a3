/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Building tables in memory (fit stages) — internal to the fit module. */
#ifndef IMPACTFIT_TABLE_IMPL_H
#define IMPACTFIT_TABLE_IMPL_H

#include "impactfit/table.h"

int impactfit__table_new(size_t ncols, const char *const *names, impactfit_table **out, impactfit_error *err);
int impactfit__table_add_row(impactfit_table *t, const double *values, int ok, impactfit_error *err);

#endif
