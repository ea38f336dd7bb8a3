/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared helpers of the impactfit command-line program (not part of the library). */
#ifndef IMPACTFIT_CLI_H
#define IMPACTFIT_CLI_H

#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "impactfit/common.h"
#include "impactfit/surrogate.h"

/* Exit codes of the program. */
enum { CLI_OK = 0, CLI_NUMERIC = 1, CLI_INPUT = 2, CLI_SIGINT = 130, CLI_SIGTERM = 143 };

#define X(name, fn, summary) int fn(int argc, char **argv);
#include "commands.def"
#undef X

/* Prints "impactfit: error: <msg>" on stderr; returns CLI_INPUT. */
int cli_input_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "impactfit: error: <msg>" and returns CLI_INPUT or CLI_NUMERIC depending on the status. */
int cli_status_error(int status, const impactfit_error *err, const char *context);

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

/* ---- declarative option tables ----
 * A command lists its options once, each with where the value goes and the range it must lie in;
 * cli_options parses argv (cli_parse's rules: the table order is also the order of the "did you
 * mean" candidates), prints --help, and checks the ranges in table order, so that the command's
 * own code keeps only the checks that relate several options. Build entries with the macros:
 *   CLI_FLAG("json", &json)       CLI_STR("out", &path)        CLI_STR_REQ("n", &s, "message")
 *   CLI_DBL("tol", &tol, lo, hi, flags, "--tol: expected a value in [1e-13, 0.1), got %.17g")
 *   CLI_INT("points", &p, lo, hi, flags, "--points: must be 2..1000000, got %d")
 * A range check fails unless lo <(=) value <(=) hi (CLI_LO_OPEN / CLI_HI_OPEN make a side strict,
 * NAN leaves it unbounded); the message is printed after "impactfit: error: " with the value (a
 * double as %.17g-style conversions, an int as %d). CLI_IF_SEEN checks only a value the user gave
 * (not the default). A required option missing prints its message (no conversion). */
enum { CLI_LO_OPEN = 1u, CLI_HI_OPEN = 2u, CLI_IF_SEEN = 4u, CLI_REQUIRED = 8u };

typedef struct cli_spec {
  const char *name;   /* without the leading "--" */
  cli_opt_type type;
  void *dest;         /* as cli_opt */
  double lo, hi;      /* accepted range (NAN: that side unbounded); FLAG and STRING: unused */
  unsigned flags;     /* CLI_LO_OPEN, CLI_HI_OPEN, CLI_IF_SEEN, CLI_REQUIRED */
  const char *msg;    /* range or "required" message (NULL: no check) */
  int seen;           /* set by cli_options */
} cli_spec;

#define CLI_FLAG(name, dest) {name, OPT_FLAG, dest, NAN, NAN, 0u, NULL, 0}
#define CLI_STR(name, dest) {name, OPT_STRING, dest, NAN, NAN, 0u, NULL, 0}
#define CLI_STR_REQ(name, dest, msg) {name, OPT_STRING, dest, NAN, NAN, CLI_REQUIRED, msg, 0}
#define CLI_DBL(name, dest, lo, hi, flags, msg) {name, OPT_DOUBLE, dest, lo, hi, flags, msg, 0}
#define CLI_INT(name, dest, lo, hi, flags, msg) {name, OPT_INT, dest, lo, hi, flags, msg, 0}
#define CLI_NUM(name, dest) CLI_DBL(name, dest, NAN, NAN, 0u, NULL) /* a double, any value */
#define CLI_ANYINT(name, dest) CLI_INT(name, dest, NAN, NAN, 0u, NULL)
#define CLI_COUNT(tab) (sizeof(tab) / sizeof((tab)[0]))

/* Parses argv[2..argc) against spec[0..n) (positional arguments into pos, up to max_pos, count in
 * *npos; pos may be NULL with max_pos 0). With --help/-h: prints help_text on stdout, sets *help
 * and returns CLI_OK without checking anything. Otherwise checks every entry in table order.
 * Returns 0 or CLI_INPUT (error printed). */
int cli_options(int argc, char **argv, cli_spec *spec, size_t n, const char *help_text, int *help,
                const char **pos, size_t max_pos, size_t *npos);
/* The entry named name (NULL when none): its `seen` after cli_options. */
const cli_spec *cli_spec_find(const cli_spec *spec, size_t n, const char *name);
/* 1 when the option name was given (0 also for a name that is not in the table). */
int cli_given(const cli_spec *spec, size_t n, const char *name);

/* ---- shared messages ---- */
/* "impactfit: note: WHAT: --k --mass --v not given (1 used): QUANTITIES are scaled values, for
 * k = 1 N/m^n, mass = 1 kg, v = 1 m/s" on stderr when one of --k, --mass, --v was not given. */
void cli_note_scaled(const char *what, const cli_spec *spec, size_t n, const char *quantities);
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
/* The range "start:stop:count" alone (count 1..1e8; count 1 needs start = stop): 0 or CLI_INPUT. */
int cli_parse_range(const char *what, const char *s, double *a, double *b, long *n);

/* ---- output ---- */
/* JSON helpers writing one object: fields separated by commas, numbers as %.17g. */
typedef struct cli_json {
  FILE *f;
  int first;
} cli_json;
void cli_json_begin(cli_json *j, FILE *f);
void cli_json_num(cli_json *j, const char *key, double v);
void cli_json_int(cli_json *j, const char *key, long v);
void cli_json_str(cli_json *j, const char *key, const char *v);
void cli_json_end(cli_json *j); /* writes "}\n" */

/* A JSON member read from a struct: key, kind ('d' double, 'i' int, 'l' long, 'z' size_t, 's' const
 * char *) and offset. cli_json_fields writes the members of obj in table order (as cli_json_num,
 * cli_json_int, cli_json_str would), so a command's JSON object is declared once per result type. */
typedef struct cli_field {
  const char *key;
  char kind;
  size_t off;
} cli_field;
#define CLI_FIELD(T, f, kind) {#f, kind, offsetof(T, f)}
#define CLI_FIELD_AS(key, T, f, kind) {key, kind, offsetof(T, f)}
void cli_json_fields(cli_json *j, const void *obj, const cli_field *f, size_t n);
/* "status": the status name, and "error": message when status is not 0; returns 1 when it is 0 (the
 * result's members follow). */
int cli_json_status(cli_json *j, int status, const char *message);

/* Every output file a command writes (--trace, --out, --output, headers, tables, expectations)
 * goes through cli_out, which treats a path as Unix tools do:
 *   "-", or a path naming the file standard output already is (/dev/stdout, /proc/self/fd/1,
 *   the file it is redirected to)
 *                            standard output. The command's own messages that would go to
 *                            standard output go to standard error from then on (fd 1 is pointed
 *                            at stderr), so that standard output carries the data only.
 *   an existing file that is not a regular file (FIFO, character device such as /dev/null or a
 *   terminal, socket), a symlink to one, and any path in /dev/ or /proc/ (/dev/stdout,
 *   /proc/self/fd/N, whatever they point to)
 *                            opened and written in place, never replaced or removed (a FIFO
 *                            blocks until it has a reader, as with any Unix tool).
 *   a regular file, or a path that does not exist
 *                            written atomically: FILE.tmp.<pid> next to it, renamed over FILE by
 *                            cli_out_commit; cli_out_abort removes the temporary file (no partial
 *                            result is left behind).
 *   a symlink to a regular file
 *                            written through to its target, atomically (the temporary file in
 *                            the target's directory, renamed over the target): the link stays a
 *                            link, the file it names gets the new content.
 * Errors print "impactfit: error: cannot write PATH: reason" and return CLI_INPUT. */
enum { CLI_OUT_ATOMIC, CLI_OUT_IN_PLACE, CLI_OUT_STDOUT };
typedef struct cli_out {
  FILE *f;
  int mode;          /* CLI_OUT_ATOMIC, CLI_OUT_IN_PLACE or CLI_OUT_STDOUT */
  char path[4096];   /* as the user gave it (messages) */
  char target[4096]; /* the file renamed over (atomic mode: path, or a symlink's target) */
  char tmp[4200];
} cli_out;
int cli_out_open(cli_out *o, const char *path);   /* 0 or CLI_INPUT (error printed) */
int cli_out_commit(cli_out *o);                   /* 0 or CLI_INPUT (error printed) */
void cli_out_abort(cli_out *o);
int cli_out_is_stdout(const char *path);          /* path is "-" */

/* Reads a whole input file into a malloc'ed, NUL-terminated buffer; "-" is standard input.
 * 0, or CLI_INPUT with "impactfit: error: cannot read PATH: reason" printed. */
int cli_read_input(const char *path, char **text, size_t *len);

/* Creates the directory PATH and its missing parents (like mkdir -p). Prints
 * "impactfit: error: cannot create PATH: <reason>" and returns CLI_INPUT on failure, 0 otherwise. */
int cli_mkdir_p(const char *path);

/* The built-in specification of the surrogate WHICH ("copt", "zhang-c" or "zhang-a") with the
 * overrides of `impactfit surrogate`: deg = {n, m, ln e, ln(1 - e)} degrees (INT_MIN: not given),
 * drop (NAN: not given) and check points (INT_MIN: not given); writes the command line that makes
 * it, as recorded in the header's banner, to command. Returns 0, or CLI_INPUT (error printed). */
int cli_surrogate_spec(const char *which, const int deg[4], double drop, int check, impactfit_surrogate_spec *spec,
                       char *command, size_t size);

#endif
