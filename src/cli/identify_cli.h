/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Option lists of the identify commands (identify, identify-synth): "name=value,name=value" with
 * names from a fixed set, each at most once; the values are kept as strings for the caller to
 * parse (numbers with cli_parse_double, ranges lo:hi with identify_cli_range). */
#ifndef IMPACTFIT_CLI_IDENTIFY_CLI_H
#define IMPACTFIT_CLI_IDENTIFY_CLI_H

#include <stdio.h>
#include <string.h>

#include "cli.h"

#define IDENTIFY_CLI_VALUE 128

typedef struct identify_assign {
  const char *name;               /* accepted name */
  int seen;                       /* set by the parser */
  char value[IDENTIFY_CLI_VALUE]; /* the text after '=' */
} identify_assign;

/* Parses s into the slots of a (matched by exact name). Errors (printed, CLI_INPUT): empty item,
 * missing '=', unknown or repeated name, empty or over-long value. */
static inline int identify_cli_assignments(const char *opt, const char *s, identify_assign *a, size_t na) {
  for (size_t k = 0; k < na; k++)
    a[k].seen = 0;
  const char *p = s;
  for (;;) {
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    const char *eq = memchr(p, '=', len);
    if (len == 0)
      return cli_input_error("%s: empty item in '%s' (expected name=value,name=value)", opt, s);
    if (!eq)
      return cli_input_error("%s: '%.*s' is not name=value", opt, (int)len, p);
    size_t nl = (size_t)(eq - p), vl = len - nl - 1;
    identify_assign *hit = NULL;
    for (size_t k = 0; k < na; k++)
      if (strlen(a[k].name) == nl && strncmp(a[k].name, p, nl) == 0)
        hit = &a[k];
    if (!hit) {
      char names[256] = "";
      size_t o = 0;
      for (size_t k = 0; k < na && o < sizeof names; k++)
        o += (size_t)snprintf(names + o, sizeof names - o, "%s%s", k ? ", " : "", a[k].name);
      return cli_input_error("%s: unknown name '%.*s' (names: %s)", opt, (int)nl, p, names);
    }
    if (hit->seen)
      return cli_input_error("%s: '%s' given twice", opt, hit->name);
    if (vl == 0 || vl >= IDENTIFY_CLI_VALUE)
      return cli_input_error("%s: %s: %s value", opt, hit->name, vl ? "over-long" : "empty");
    memcpy(hit->value, eq + 1, vl);
    hit->value[vl] = '\0';
    hit->seen = 1;
    if (!comma)
      break;
    p = comma + 1;
  }
  return 0;
}

/* "lo:hi" with lo < hi, both finite. */
static inline int identify_cli_range(const char *what, const char *s, double *lo, double *hi) {
  char buf[IDENTIFY_CLI_VALUE];
  snprintf(buf, sizeof buf, "%s", s);
  char *colon = strchr(buf, ':');
  if (!colon || strchr(colon + 1, ':'))
    return cli_input_error("%s: expected LO:HI, got '%s'", what, s);
  *colon = '\0';
  int rc = cli_parse_double(what, buf, lo);
  if (!rc)
    rc = cli_parse_double(what, colon + 1, hi);
  if (!rc && !(*lo < *hi))
    rc = cli_input_error("%s: the lower bound must be below the upper bound, got '%s'", what, s);
  return rc;
}

#endif
