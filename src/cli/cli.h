/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared helpers of the impactfit command-line program (not part of the library). */
#ifndef IMPACTFIT_CLI_H
#define IMPACTFIT_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "impactfit/common.h"
#include "tools.h"

#define X(name, fn, summary) int fn(int argc, char **argv);
#include "commands.def"
#undef X

/* ---- options ---- */
typedef enum { OPT_FLAG, OPT_DOUBLE, OPT_INT, OPT_STRING } cli_opt_type;

typedef struct cli_opt {
  const char *name;   /* without the leading "--" */
  cli_opt_type type;
  void *dest;         /* int* (FLAG, INT), double* (DOUBLE), const char** (STRING) */
  int seen;           /* set by the parser */
} cli_opt;

/* Parses argv[first..argc): every "--name value" / "--name=value" must match an option exactly;
 * positional arguments are stored in pos (up to max_pos). Prints the error and returns CLI_INPUT on
 * unknown, duplicated or malformed options, 0 otherwise. "--help" sets *help (if help != NULL). */
int cli_parse(int argc, char **argv, int first, cli_opt *opts, size_t nopts, const char **pos,
              size_t max_pos, size_t *npos, int *help);

/* Strict number parsing: the whole string, finite, within double range. Prints an error naming the
 * option on failure and returns CLI_INPUT; 0 on success. */
/* The candidate closest to the mistyped word[0..len) (edit distance, ignoring case: at most 1 edit
 * for words under 5 characters, 2 otherwise), or NULL when none is that close: "did you mean". */
const char *cli_suggest(const char *word, size_t len, const char *const *candidates, size_t n);
int cli_parse_double(const char *what, const char *s, double *out);
int cli_parse_int(const char *what, const char *s, long lo, long hi, long *out);

/* A value, a comma list "a,b,c" or a linear range "start:stop:count" (count ≥ 1).
 * Allocates *values (free with free()). Returns 0 or CLI_INPUT (error printed). */
int cli_parse_grid(const char *what, const char *s, double **values, size_t *count);

#endif
