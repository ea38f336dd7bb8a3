/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared by `impactfit dem-audit` and the `dem` report topic (report module, src/report). */
#ifndef IMPACTFIT_REPORT_DEM_HEADERS_H
#define IMPACTFIT_REPORT_DEM_HEADERS_H

#include <stdio.h>

/* Writes dir/dem_damping.h, the exact DEM prefactors (closed forms, see inverse.h's scale-invariant
 * family). log (may be NULL) receives a line. Returns 0 or a CLI exit status (error printed). */
int dem_write_headers(const char *dir, FILE *report);

#endif
