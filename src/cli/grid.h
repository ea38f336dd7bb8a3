/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The grid modes of the point commands (copt, zhang-alpha, ...) on the library's sweep runner
 * (CLI only). A command turns its options into a sweep built in memory (impactfit_sweep_def_*, one
 * of the library's sweep problems) and hands it here with a row printer:
 *   - without --out: the rows stream to standard output in the command's own format (table, CSV
 *     or JSON lines) in grid order, block by block as the runner delivers them, so memory does not
 *     grow with the number of points (only with the lists of values given: 8 bytes a value; a range costs
 *     nothing), and the bytes are the same for any thread count. A progress
 *     line is drawn on a terminal. SIGINT/SIGTERM stop after the units in flight: the rows printed
 *     are complete, and the message gives the command that prints the rest (--from P; appended to
 *     the interrupted output it gives the bytes of an uninterrupted run);
 *   - with --out DIR: the sweep runs exactly as `impactfit sweep` runs a definition file
 *     (sweep_exec.h): DIR/NAME.csv and NAME.json, durable journal, --resume, shards.
 * Options --n 1.5 (a value), --e 0.1,0.5 (a list) and --e 0.1:0.9:9 (a range, the sweep's `linear`
 * axis: start + (stop - start)·(i/(count - 1)), ends exact) give the axes. */
#ifndef IMPACTFIT_CLI_GRID_H
#define IMPACTFIT_CLI_GRID_H

#include <stddef.h>

#include "cli.h"
#include "impactfit/sweep.h"

/* One axis option: a value, a list or a linear range (values are not stored for a range). */
typedef struct cli_axis {
  int range;
  double a, b;    /* range ends */
  size_t n;       /* number of values */
  double *values; /* list values (NULL for a range) */
} cli_axis;

/* Parses "v", "a,b,c" or "start:stop:count" (count 1..1e8); 0 or CLI_INPUT (error printed naming what). */
int cli_axis_parse(const char *what, const char *s, cli_axis *ax);
/* Value i, exactly as the sweep computes it. */
double cli_axis_value(const cli_axis *ax, size_t i);
/* Adds the axis to a definition: a LINEAR range or a LIST. */
int cli_axis_add(impactfit_sweep_def *d, const char *param, const cli_axis *ax, impactfit_error *err);
void cli_axis_free(cli_axis *ax);

/* One point of the grid: the runner's numbers (impactfit_sweep_run_values). */
typedef struct cli_grid_row {
  size_t index;
  const double *in;  /* the problem's parameters, in its order */
  const double *out; /* the problem's outputs, in its order (all 0 for a failed point) */
  int status;        /* 0 (OK) or the point's status */
  long rhs_evals;
  const char *message; /* the failure's message ("" when OK) */
} cli_grid_row;

typedef struct cli_grid {
  const char *what; /* "copt": messages, progress label, NAME of DIR/NAME.csv */
  const impactfit_sweep *s;
  int threads, quiet;
  size_t from;               /* --from: first point printed (stdout mode; 0: all, with the header). The P an
                         * interrupted run prints is where a work unit starts, so the rows are those
                         * of the full run; another P may cut a continuation run (copt, zhang-alpha
                         * along e) and change its rows within the solver's tolerance */
  const char *out_dir;       /* --out DIR: durable sweep output instead of standard output */
  int resume;                /* --resume (with --out) */
  const char *command;       /* the command line without --from/--resume (for the messages) */
  void (*header)(void *ctx); /* prints the header (from == 0) */
  void (*row)(void *ctx, const cli_grid_row *r); /* prints one row */
  void *ctx;
} cli_grid;

/* Runs the grid; returns the exit status: 0, 1 (a point failed: its row and a message on stderr
 * say why), 2, 130/143 (interrupted). */
int cli_grid_run(const cli_grid *g);

/* The options every grid command takes: --threads T, --quiet, --from P, --out DIR, --resume.
 * Initialise with CLI_GRID_OPTS_INIT and list CLI_GRID_SPECS(o) in the command's cli_spec table. */
typedef struct cli_grid_opts {
  int threads; /* -1 until given */
  int quiet, from, resume;
  const char *out_dir;
} cli_grid_opts;
#define CLI_GRID_OPTS_INIT \
  { .threads = -1 }
#define CLI_GRID_SPECS(o)                                                                            \
  CLI_ANYINT("threads", &(o).threads), CLI_FLAG("quiet", &(o).quiet), CLI_ANYINT("from", &(o).from), \
      CLI_STR("out", &(o).out_dir), CLI_FLAG("resume", &(o).resume)

/* Checks them; `formats` is non-zero when --json/--csv/--trace was given (--out writes the sweep's own
 * files instead). 0 or CLI_INPUT (error printed). */
int cli_grid_check(const char *what, const cli_grid_opts *o, int formats);

/* Runs the sweep s for command `what` with the grid options, the command's printers and ctx (the
 * command line for the messages is argv without --from and --resume). Returns the exit status. */
int cli_grid_exec(const char *what, const impactfit_sweep *s, const cli_grid_opts *o, int argc, char **argv,
                  void (*header)(void *ctx), void (*row)(void *ctx, const cli_grid_row *r), void *ctx);

/* ---- a grid command's axes, declared once ----
 * Each axis option: its text (NULL: not given; then def, or not an axis at all when def is NULL
 * too), the sweep parameter it sets, and the range every value must lie in (lo, hi, CLI_LO_OPEN /
 * CLI_HI_OPEN as in cli_spec; NAN: unbounded; msg: "impactfit: error: " + msg with the value as
 * the one conversion; a range axis is checked at its two ends, between which it lies). check, when
 * set, is called after the range check for every value checked (ctx: cli_axes_parse's). */
typedef struct cli_axis_spec {
  const char *opt;   /* "--e" */
  const char *param; /* the problem's parameter "e" */
  const char *text;  /* the option's value, NULL when not given */
  const char *def;   /* used when not given */
  double lo, hi;
  unsigned flags; /* CLI_LO_OPEN, CLI_HI_OPEN; CLI_IF_SEEN: checked only when given */
  const char *msg;
  int (*check)(double v, void *ctx);
  cli_axis ax; /* set by cli_axes_parse */
} cli_axis_spec;

/* An axis without a range check. */
#define CLI_AXIS(opt_, param_, text_, def_) \
  { .opt = opt_, .param = param_, .text = text_, .def = def_, .lo = NAN, .hi = NAN }
/* An axis whose every value must lie in the range (lo, hi, flags, msg as above) and pass check (NULL: none). */
#define CLI_AXIS_IN(opt_, param_, text_, def_, lo_, hi_, flags_, msg_, check_)                                    \
  {                                                                                                               \
    .opt = opt_, .param = param_, .text = text_, .def = def_, .lo = lo_, .hi = hi_, .flags = flags_, .msg = msg_, \
    .check = check_                                                                                               \
  }

/* Parses every axis (all first, then the checks, in order). Returns 0 or CLI_INPUT (printed). */
int cli_axes_parse(cli_axis_spec *a, size_t n, void *ctx);
/* The number of points of the product grid. */
double cli_axes_total(const cli_axis_spec *a, size_t n);
/* "WHAT: the grid has N points (at most 1e8)" (CLI_INPUT) above 1e8 points, else 0. */
int cli_axes_limit(const char *what, const cli_axis_spec *a, size_t n);
void cli_axes_free(cli_axis_spec *a, size_t n);

/* One setting of the sweep definition, applied in order: a fixed value (option NULL, values NULL),
 * an option (option set) or an axis of listed values (values set). */
typedef struct cli_setting {
  const char *name;
  const char *option;
  double value;
  const double *values;
  size_t count;
} cli_setting;
/* parameter name fixed at value */
#define CLI_SET_FIXED(name_, value_) \
  { .name = name_, .value = value_ }
/* option name set to the text */
#define CLI_SET_OPTION(name_, text_) \
  { .name = name_, .option = text_ }
/* an axis of parameter name over values[0..count) */
#define CLI_SET_LIST(name_, values_, count_) \
  { .name = name_, .values = values_, .count = count_ }

/* Builds the sweep of problem `problem` named `what`: the settings in order, then the axes (those
 * with a value) in order. Returns 0 or the exit status (error printed with context `what`). */
int cli_grid_sweep(const char *what, const char *problem, const cli_setting *set, size_t nset, const cli_axis_spec *a,
                   size_t n, impactfit_sweep **out);

/* A grid command's last step: when rc is 0, checks the size (cli_axes_limit), builds the sweep
 * (cli_grid_sweep) and runs it (cli_grid_exec); then frees the axes. Returns the exit status. */
int cli_grid_main(int rc, const char *what, const char *problem, const cli_setting *set, size_t nset, cli_axis_spec *a,
                  size_t n, const cli_grid_opts *o, int argc, char **argv, void (*header)(void *ctx),
                  void (*row)(void *ctx, const cli_grid_row *r), void *ctx);

/* A failed point's message on stderr after its row: "impactfit: error: WHAT: <where>: message",
 * <where> from the format (stdout flushed first so the row comes before it). */
void cli_row_failed(const char *what, const char *message, const char *where_fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- a grid command's rows, declared once ----
 * A column: its text header and format (NULL: not in the text rows; the header is printed with the
 * format's literal prefix, flags and width, as %s; a format ending in d or ld prints the value as an
 * integer, JSON too), its JSON key (NULL: not in JSON nor CSV; also its CSV header), how CSV prints
 * it, where its value comes from, its group and the bits of cli_table.shown it needs. */
typedef enum {
  CLI_CSV_FULL,        /* (a column with a key) in CSV at full precision: %.17g, integers and strings as they are */
  CLI_CSV_TEXT_FORMAT, /* in CSV with the text format */
  CLI_CSV_NONE         /* not in CSV */
} cli_col_csv;
typedef enum {
  CLI_FROM_PARAM,      /* the sweep parameter in[idx] */
  CLI_FROM_OUTPUT,     /* the output out[idx] */
  CLI_FROM_DERIVED,    /* x[idx] of cli_table.derive */
  CLI_FROM_RHS_EVALS,  /* the right-hand-side evaluations */
  CLI_FROM_STRING,     /* the string cli_table.str[idx] */
  CLI_FROM_PARAM_NAME, /* the string cli_table.str[in[idx]] (a parameter that indexes names) */
  CLI_FROM_STATUS      /* the status name (CSV only: the table's CSV rows then end without it) */
} cli_col_from;
typedef struct cli_source {
  cli_col_from kind;
  int idx;
} cli_source;
#define CLI_IN(i) \
  { .kind = CLI_FROM_PARAM, .idx = (i) }
#define CLI_OUT(i) \
  { .kind = CLI_FROM_OUTPUT, .idx = (i) }
#define CLI_DERIVED(i) \
  { .kind = CLI_FROM_DERIVED, .idx = (i) }
#define CLI_EVALS \
  { .kind = CLI_FROM_RHS_EVALS }
#define CLI_STRING(i) \
  { .kind = CLI_FROM_STRING, .idx = (i) }
#define CLI_NAME_OF(i) \
  { .kind = CLI_FROM_PARAM_NAME, .idx = (i) }
#define CLI_STATUS_NAME \
  { .kind = CLI_FROM_STATUS }
typedef enum {
  CLI_LEAD,   /* before the status: printed for every point */
  CLI_RESULT, /* an OK point's result (a failed point: nothing in text, empty in CSV) */
  CLI_TAIL    /* after the result, always */
} cli_col_group;
typedef struct cli_col {
  const char *head, *fmt, *key;
  cli_col_csv csv;
  cli_source from;
  cli_col_group group;
  unsigned when;
} cli_col;

/* A command's rows: the columns in text order. Text rows print the shown text columns separated
 * by a space; a failed point prints the leading CLI_LEAD columns and the status name. CSV (csv
 * set): the CSV columns, a failed point's results empty, then status. JSON (json set): CLI_LEAD,
 * "status" (and "error"), CLI_RESULT of an OK point, CLI_TAIL. */
typedef struct cli_table {
  const char *what; /* the messages' context; NULL: no message for a failed point (the command prints its own) */
  const cli_col *cols;
  size_t ncols;
  unsigned shown; /* the bits of cli_col.when shown */
  int json, csv;
  size_t nwhere; /* a failed point's message names the first nwhere parameter columns */
  int point;     /* ... as "point I (...)" */
  int bare;      /* no "status" in JSON, no row for a failed point (only its message) */
  const char *str[4];
  void (*derive)(const struct cli_table *t, const cli_grid_row *r, double *x); /* x[8], OK points */
} cli_table;

/* cli_grid_exec's printers for ctx = a cli_table. */
void cli_table_header(void *ctx);
void cli_table_row(void *ctx, const cli_grid_row *r);

/* for (i over the values of axis a to check): every value of a list, the two ends of a range (a linear
 * range lies between them). */
#define CLI_AXIS_EACH(a, i) for (size_t i = 0; i < (a).n; i = ((a).range && i == 0 && (a).n > 2) ? (a).n - 1 : i + 1)

/* The command line (argv[0] as "impactfit", each argument shell-quoted when needed), leaving out
 * the options named in skip (with their value when takes_value[k]); into buf. */
void cli_command_line(int argc, char **argv, const char *const *skip, const int *takes_value, size_t nskip, char *buf,
                      size_t size);

#endif
