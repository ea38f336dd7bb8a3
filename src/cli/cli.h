/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared helpers of the impactfit command-line program (not part of the library). */
#ifndef IMPACTFIT_CLI_H
#define IMPACTFIT_CLI_H

#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "impactfit/common.h"
#include "tools.h"

#define X(name, fn, summary) int fn(int argc, char **argv);
#include "commands.def"
#undef X

/* ---- options ---- */
typedef enum { OPT_FLAG, OPT_DOUBLE, OPT_INT, OPT_STRING } cli_opt_type;

/* ---- declarative option tables ----
 * A command lists its options once, each with where the value goes and the range it must lie in;
 * cli_options parses argv: every "--name value" / "--name=value" must match an option exactly (no
 * abbreviations, none twice; the table order is also the order of the "did you mean" candidates),
 * positional arguments are collected, "--help"/"-h" prints the help; then the ranges are checked in
 * table order, so that the command's own code keeps only the checks that relate several options. Build entries with the macros:
 *   CLI_FLAG("json", &json)       CLI_STR("out", &path)        CLI_STR_REQ("n", &s, "message")
 *   CLI_DBL("tol", &tol, lo, hi, flags, "--tol: expected a value in [1e-13, 0.1), got %.17g")
 *   CLI_INT("points", &p, lo, hi, flags, "--points: must be 2..1000000, got %d")
 * A range check fails unless lo <(=) value <(=) hi (CLI_LO_OPEN / CLI_HI_OPEN make a side strict,
 * NAN leaves it unbounded); the message is printed after "impactfit: error: " with the value (a
 * double as %.17g-style conversions, an int as %d). CLI_IF_SEEN checks only a value the user gave
 * (not the default). A required option missing prints its message (no conversion). */
enum { CLI_LO_OPEN = 1u, CLI_HI_OPEN = 2u, CLI_IF_SEEN = 4u, CLI_REQUIRED = 8u };

typedef struct cli_spec {
  const char *name; /* without the leading "--" */
  cli_opt_type type;
  void *dest;      /* int* (FLAG, INT), double* (DOUBLE), const char** (STRING) */
  double lo, hi;   /* accepted range (NAN: that side unbounded); FLAG and STRING: unused */
  unsigned flags;  /* CLI_LO_OPEN, CLI_HI_OPEN, CLI_IF_SEEN, CLI_REQUIRED */
  const char *msg; /* range or "required" message (NULL: no check) */
  int seen;        /* set by cli_options */
} cli_spec;

#define CLI_FLAG(name_, dest_) \
  { .name = name_, .type = OPT_FLAG, .dest = dest_, .lo = NAN, .hi = NAN }
#define CLI_STR(name_, dest_) \
  { .name = name_, .type = OPT_STRING, .dest = dest_, .lo = NAN, .hi = NAN }
#define CLI_STR_REQ(name_, dest_, msg_) \
  { .name = name_, .type = OPT_STRING, .dest = dest_, .lo = NAN, .hi = NAN, .flags = CLI_REQUIRED, .msg = msg_ }
#define CLI_DBL(name_, dest_, lo_, hi_, flags_, msg_) \
  { .name = name_, .type = OPT_DOUBLE, .dest = dest_, .lo = lo_, .hi = hi_, .flags = flags_, .msg = msg_ }
#define CLI_INT(name_, dest_, lo_, hi_, flags_, msg_) \
  { .name = name_, .type = OPT_INT, .dest = dest_, .lo = lo_, .hi = hi_, .flags = flags_, .msg = msg_ }
#define CLI_NUM(name, dest) CLI_DBL(name, dest, NAN, NAN, 0u, NULL) /* a double, any value */
#define CLI_ANYINT(name, dest) CLI_INT(name, dest, NAN, NAN, 0u, NULL)
#define CLI_COUNT(tab) (sizeof(tab) / sizeof((tab)[0]))

/* Parses argv[2..argc) against spec[0..n) (positional arguments into pos, up to max_pos, count in
 * *npos; pos may be NULL with max_pos 0). With --help/-h: prints help_text on stdout, sets *help
 * and returns CLI_OK without checking anything. Otherwise checks every entry in table order.
 * Returns 0 or CLI_INPUT (error printed). */
int cli_options(int argc, char **argv, cli_spec *spec, size_t n, const char *help_text, int *help, const char **pos,
                size_t max_pos, size_t *npos);
/* As cli_options, for a command whose options depend on what the user chose (a code's model and its
 * settings): an option not in spec is no error: "--name value" or "--name=value" goes to rest[0..max_rest)
 * (name points into argv, len characters long, the value is required), in the order given, for the
 * command to match once it knows them; no positional arguments. One pass over argv. */
typedef struct cli_rest {
  const char *name; /* without the leading "--", not NUL-terminated: len characters */
  size_t len;
  const char *value;
} cli_rest;
int cli_options_rest(int argc, char **argv, cli_spec *spec, size_t n, const char *help_text, int *help, cli_rest *rest,
                     size_t max_rest, size_t *nrest);
/* The option name closest to the mistyped name[0..len) among spec's and extra[0..n_extra), or NULL. */
const char *cli_suggest_option(const char *name, size_t len, const cli_spec *opts, size_t nopts,
                               const char *const *extra, size_t n_extra);
/* 1 when v lies outside [lo, hi] (CLI_LO_OPEN / CLI_HI_OPEN in flags make a side strict; NAN: that
 * side unbounded): the range check of option tables and of grid axes (grid.h). */
int cli_out_of_range(double v, double lo, double hi, unsigned flags);
/* The entry named name (NULL when none): its `seen` after cli_options. */
const cli_spec *cli_spec_find(const cli_spec *spec, size_t n, const char *name);
/* 1 when the option name was given (0 also for a name that is not in the table). */
int cli_given(const cli_spec *spec, size_t n, const char *name);

/* ---- shared messages ---- */
/* The rule of every command with a set of unit options (--k, --mass, --v; hc-eps: --k, --v): all
 * given or none (impactfit_all_or_none, the same rule as the Python and Octave functions). names
 * are the options without "--" (at most 8). Sets *all and returns 0, or prints "WHAT: give all of
 * --k, --mass and --v, or none (only --k given)" and returns CLI_INPUT. */
int cli_units(const char *what, const cli_spec *spec, size_t n, const char *const *names, size_t count, int *all);
/* "impactfit: note: WHAT: --k, --mass and --v not given: QUANTITIES are scaled values, for k = 1 N/m^n,
 * mass = 1 kg, v = 1 m/s" on stderr (a command run without its unit options). */
void cli_note_scaled(const char *what, const char *quantities);
/* "WHAT: --json and --csv exclude each other" (CLI_INPUT) when both are set, else 0. */
int cli_json_csv(const char *what, int json, int csv);
/* Strict number parsing: the whole string, finite, within double range. Prints an error naming the
 * option on failure and returns CLI_INPUT; 0 on success. */
/* The candidate closest to the mistyped word[0..len) (edit distance, ignoring case: at most 1 edit
 * for words under 5 characters, 2 otherwise), or NULL when none is that close: "did you mean". */
const char *cli_suggest(const char *word, size_t len, const char *const *candidates, size_t n);
int cli_parse_double(const char *what, const char *s, double *out);
int cli_parse_int(const char *what, const char *s, long lo, long hi, long *out);

/* A comma list of names from names[0..n) ("A,C"; "all" when allow_all: every name in order), at
 * most max items, compared ignoring case when nocase. Writes the indices into idx and their count
 * into *count. Returns 0, or -1 for a name not in the set, an empty item or too many items (the
 * caller prints its own message). */
int cli_parse_names(const char *s, const char *const *names, size_t n, int allow_all, int nocase, size_t max,
                    size_t *idx, size_t *count);

/* A value, a comma list "a,b,c" or a linear range "start:stop:count" (count ≥ 1).
 * Allocates *values (free with free()). Returns 0 or CLI_INPUT (error printed). */
int cli_parse_grid(const char *what, const char *s, double **values, size_t *count);
/* "impactfit: warning: ..." on stderr when a list of `count` values is "1,5": a decimal comma read as a list */
void cli_warn_decimal_comma(const char *what, const char *text, size_t count);
/* The range "start:stop:count" alone (count 1..1e8; count 1 needs start = stop): 0 or CLI_INPUT. */
int cli_parse_range(const char *what, const char *s, double *a, double *b, long *n);

#endif
