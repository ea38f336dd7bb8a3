/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The shared support of impactfit's programs (static library impactfit_tools, src/tools; not
 * installed, not part of libimpactfit): exit codes, error printing, JSON lines, the output-file
 * writer cli_out and the built-in surrogate specifications, used by the user program (src/cli) and
 * by the report module (src/report). The progress line is progress.h, the roller table roller_table.h. */
#ifndef IMPACTFIT_TOOLS_H
#define IMPACTFIT_TOOLS_H

#include <stddef.h>
#include <stdio.h>

#include "impactfit/common.h"
#include "impactfit/surrogate.h"

/* Exit codes of the program. */
enum { CLI_OK = 0, CLI_NUMERIC = 1, CLI_INPUT = 2, CLI_SIGINT = 130, CLI_SIGTERM = 143 };

/* Prints "impactfit: error: <msg>" on stderr; returns CLI_INPUT. */
int cli_input_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "impactfit: error: <msg>" and returns CLI_INPUT or CLI_NUMERIC depending on the status. */
int cli_status_error(int status, const impactfit_error *err, const char *context);

/* ---- output ---- */
/* JSON helpers writing one object: fields separated by commas, numbers as the shortest text that
 * reads back to the same double (impactfit_format_shortest: 0.05, not 0.050000000000000003), NaN
 * and infinities as null. cli_json_num_g17 writes %.17g instead (the report's claims.json, whose
 * committed bytes keep that form). */
typedef struct cli_json {
  FILE *f;
  int first;
} cli_json;
void cli_json_begin(cli_json *j, FILE *f);
void cli_json_num(cli_json *j, const char *key, double v);
void cli_json_num_g17(cli_json *j, const char *key, double v);
void cli_json_int(cli_json *j, const char *key, long v);
void cli_json_str(cli_json *j, const char *key, const char *v);
void cli_json_end(cli_json *j); /* writes "}\n" */

/* A JSON member read from a struct: its key, its kind (the member's C type, or a range: two
 * consecutive double members written as [lo,hi]), its offset and, for cli_json_fields_of, which
 * object it is read from. cli_json_fields writes the members of obj in table order (as cli_json_num,
 * cli_json_int, cli_json_str would), so a command's JSON object is declared once per result type;
 * cli_json_fields_of reads member i from objs[f[i].obj], for an object assembled from several
 * structs. The macros take the kind from the member's type (CLI_JSON_KIND_OF), so a table cannot
 * read a member as another type. */
typedef enum {
  CLI_JSON_DOUBLE, /* double */
  CLI_JSON_INT,    /* int */
  CLI_JSON_LONG,   /* long */
  CLI_JSON_SIZE,   /* size_t */
  CLI_JSON_STRING, /* const char * (NULL: not allowed) */
  CLI_JSON_CHARS,  /* a char array holding a string */
  CLI_JSON_RANGE   /* two consecutive doubles, written as [lo,hi] */
} cli_json_kind;
typedef struct cli_field {
  const char *key;
  cli_json_kind kind;
  size_t off;
  int obj;
} cli_field;
/* The kind of member f of struct T, from its type (a char array converts to char *). */
#define CLI_JSON_KIND_OF(T, f) \
  _Generic(((T *)0)->f, double: CLI_JSON_DOUBLE, int: CLI_JSON_INT, long: CLI_JSON_LONG, size_t: CLI_JSON_SIZE, \
           const char *: CLI_JSON_STRING, char *: CLI_JSON_CHARS)
/* member f of T under its own name, under key, or read from objs[obj] */
#define CLI_FIELD(T, f) CLI_FIELD_OF(0, #f, T, f)
#define CLI_FIELD_AS(key, T, f) CLI_FIELD_OF(0, key, T, f)
#define CLI_FIELD_OF(obj_, key_, T, f) \
  { .key = key_, .kind = CLI_JSON_KIND_OF(T, f), .off = offsetof(T, f), .obj = obj_ }
/* the members lo (f) and hi (the next double) as "key":[lo,hi] */
#define CLI_FIELD_RANGE_OF(obj_, key_, T, f) \
  { .key = key_, .kind = CLI_JSON_RANGE, .off = offsetof(T, f), .obj = obj_ }
void cli_json_fields(cli_json *j, const void *obj, const cli_field *f, size_t n);
void cli_json_fields_of(cli_json *j, const void *const *objs, const cli_field *f, size_t n);
/* One JSON line on out holding the members f[0..n) read from objs (cli_json_fields_of). */
void cli_json_object_of(FILE *out, const void *const *objs, const cli_field *f, size_t n);
/* "key":[lo,hi] (numbers as cli_json_num). */
void cli_json_range(cli_json *j, const char *key, double lo, double hi);
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
int cli_out_open(cli_out *o, const char *path); /* 0 or CLI_INPUT (error printed) */
int cli_out_commit(cli_out *o);                 /* 0 or CLI_INPUT (error printed) */
void cli_out_abort(cli_out *o);
int cli_out_is_stdout(const char *path); /* path is "-" */

/* Reads a whole input file into a malloc'ed, NUL-terminated buffer; "-" is standard input.
 * 0, or CLI_INPUT with "impactfit: error: cannot read PATH: reason" printed. */
int cli_read_input(const char *path, char **text, size_t *len);

/* DIR without its trailing slashes ("out/" -> "out"; "/" stays), into buf: "DIR/NAME" then reads
 * without a doubled slash in messages. Returns buf. */
const char *cli_trim_dir(const char *dir, char *buf, size_t size);

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
