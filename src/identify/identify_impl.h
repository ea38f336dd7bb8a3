/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Internals of the identify module shared between its files (not installed). */
#ifndef IMPACTFIT_IDENTIFY_IMPL_H
#define IMPACTFIT_IDENTIFY_IMPL_H

#include <stddef.h>

#include "impactfit/identify.h"

/* Row storage of the workspace, grown to at least `rows` (never shrunk); *rf points into ws. */
int impactfit__identify_rows(impactfit_identify_workspace *ws, size_t rows, impactfit_identify_row_fit **rf,
                             impactfit_error *err);

#endif
