/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared by the MuJoCo harnesses (mujoco_impact.c: Debian's MuJoCo 2.2.2 through its C API; mujoco3_impact.c:
 * MuJoCo 3.3.8 through node): the text impactfit says to paste, read back into a scene's MJCF attributes, and
 * impactfit's e at one phase with whether a jump of e(φ) lies next to it (where rounding picks the side, so that
 * the engine and impactfit may stand on two sides of it). */
#ifndef IMPACTFIT_TESTS_ENGINES_MJCF_PASTE_H
#define IMPACTFIT_TESTS_ENGINES_MJCF_PASTE_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "impactfit/codes.h"

/* impactfit's e at phase phi; *jump: e differs by more than 1e-7 within 1e-9 of phi. NaN with a message on
 * stderr (prefixed by name) when impactfit fails */
static inline double mj_predict(const impactfit_stepper *st, double v, double phi, int *jump, const char *name) {
  impactfit_step_impact o, lo, hi;
  impactfit_error err;
  if (impactfit_step_impact_at(st, v, phi, &o, &err) || impactfit_step_impact_at(st, v, phi - 1e-9, &lo, &err) ||
      impactfit_step_impact_at(st, v, fmin(1.0, phi + 1e-9), &hi, &err)) {
    fprintf(stderr, "%s: impactfit: %s\n", name, err.message);
    return NAN;
  }
  *jump = fabs(hi.e - lo.e) > 1e-7;
  return o.e;
}

/* copies attribute `name="..."` of an answer's MJCF text into buf (as name="..."); 0 when found */
static inline int mjcf_attr(const char *text, const char *name, char *buf, size_t size) {
  char key[64];
  snprintf(key, sizeof key, "%s=\"", name);
  const char *p = strstr(text, key);
  if (!p)
    return 1;
  const char *q = strchr(p + strlen(key), '"');
  if (!q || (size_t)(q - p + 2) > size)
    return 1;
  memcpy(buf, p, (size_t)(q - p + 1));
  buf[q - p + 1] = 0;
  return 0;
}

/* a scene's geom defaults (solref, solimp) and option flags (refsafe) from the text impactfit says to paste;
 * 0 when the text has both solref and solimp */
static inline int mjcf_paste(const char *input, char *geom, size_t gsize, char *flags, size_t fsize) {
  char a[256], b[256];
  if (mjcf_attr(input, "solref", a, sizeof a) || mjcf_attr(input, "solimp", b, sizeof b))
    return 1;
  snprintf(geom, gsize, "%s %s", a, b);
  if (strstr(input, "refsafe=\"disable\""))
    snprintf(flags, fsize, "refsafe=\"disable\"");
  return 0;
}

#endif
