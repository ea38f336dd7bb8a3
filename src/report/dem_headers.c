/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Writes the generated header of exact DEM damping prefactors (dem_damping.h) that the library's
 * impactfit_dem_damping_header makes. */
#include <stdio.h>
#include <stdlib.h>

#include "tools.h"
#include "dem_headers.h"
#include "impactfit/impactfit.h"

int dem_write_headers(const char *dir, FILE *log) {
  char path[4096];
  snprintf(path, sizeof path, "%s/dem_damping.h", dir);
  impactfit_error err;
  char *text;
  size_t len;
  int st = impactfit_dem_damping_header(&text, &len, &err);
  if (st)
    return cli_status_error(st, &err, "dem_damping.h");
  cli_out o;
  int rc = cli_out_open(&o, path);
  if (rc) {
    free(text);
    return rc;
  }
  fwrite(text, 1, len, o.f);
  free(text);
  rc = cli_out_commit(&o);
  if (!rc && log)
    fprintf(log, "wrote %s\n", path);
  return rc;
}
