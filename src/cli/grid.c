/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The grid modes of the point commands on the library's sweep runner (grid.h). */
#define _POSIX_C_SOURCE 200809L
#include "grid.h"

#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "progress.h"
#include "signals.h"
#include "sweep_exec.h"

/* ---- axes ---- */

int cli_axis_parse(const char *what, const char *s, cli_axis *ax) {
  memset(ax, 0, sizeof *ax);
  if (!s || !strchr(s, ':') || strchr(s, ','))
    return cli_parse_grid(what, s, &ax->values, &ax->n);
  long n = 0; /* a range, kept as its ends */
  int rc = cli_parse_range(what, s, &ax->a, &ax->b, &n);
  ax->n = rc ? 0 : (size_t)n;
  ax->range = !rc;
  return rc;
}

double cli_axis_value(const cli_axis *ax, size_t i) {
  return ax->range ? impactfit_sweep_range_value(IMPACTFIT_AXIS_LINEAR, ax->a, ax->b, ax->n, i) : ax->values[i];
}

int cli_axis_add(impactfit_sweep_def *d, const char *param, const cli_axis *ax, impactfit_error *err) {
  if (ax->range)
    return impactfit_sweep_def_axis(d, param, IMPACTFIT_AXIS_LINEAR, ax->a, ax->b, ax->n, err);
  return impactfit_sweep_def_axis_values(d, param, ax->values, ax->n, err);
}

void cli_axis_free(cli_axis *ax) {
  free(ax->values);
  memset(ax, 0, sizeof *ax);
}

/* ---- the command line, for the messages ---- */

static size_t put(char *buf, size_t size, size_t at, const char *s) {
  size_t n = strlen(s);
  if (at < size) {
    size_t k = n < size - at ? n : size - at - 1;
    memcpy(buf + at, s, k);
    buf[at + k] = '\0';
  }
  return at + n;
}

void cli_command_line(int argc, char **argv, const char *const *skip, const int *takes_value, size_t nskip, char *buf,
                      size_t size) {
  size_t at = put(buf, size, 0, "impactfit");
  for (int i = 1; i < argc; i++) {
    int drop = 0;
    for (size_t k = 0; k < nskip; k++) {
      size_t l = strlen(skip[k]);
      if (strncmp(argv[i], skip[k], l) == 0 && (argv[i][l] == '\0' || argv[i][l] == '=')) {
        drop = 1;
        if (takes_value[k] && argv[i][l] == '\0')
          i++;
        break;
      }
    }
    if (drop)
      continue;
    at = put(buf, size, at, " ");
    const char *a = argv[i];
    int plain = *a != '\0';
    for (const char *p = a; *p; p++)
      if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.,:/=+@%", *p))
        plain = 0;
    if (plain) {
      at = put(buf, size, at, a);
    } else { /* single quotes, ' as '\'' */
      at = put(buf, size, at, "'");
      for (const char *p = a; *p; p++) {
        char c[2] = {*p, '\0'};
        at = put(buf, size, at, *p == '\'' ? "'\\''" : c);
      }
      at = put(buf, size, at, "'");
    }
  }
}

/* ---- streaming to standard output ---- */

typedef struct stream {
  const cli_grid *g;
  const impactfit_sweep_problem *pr;
  double *out;                        /* a failed point's outputs, zeroed */
  size_t next, failed, invalid, base; /* invalid: failed points whose input is invalid (EINVAL) */
  cli_progress *pr_line;
} stream;

/* The runner's numbers of one block, printed row by row in index order by the command. */
static int on_values(void *ctx, const impactfit_sweep_block *b) {
  stream *st = ctx;
  size_t np = st->pr->n_params, no = st->pr->n_outputs;
  cli_progress_clear(st->pr_line); /* rows and failure messages go to a clean terminal */
  for (size_t i = 0; i < b->n; i++) {
    cli_grid_row r = {.index = b->index[i],
                      .in = b->in + i * np,
                      .out = b->out + i * no,
                      .status = b->status[i],
                      .rhs_evals = b->rhs_evals[i],
                      .message = ""};
    if (r.status) {
      r.out = st->out;
      r.message = b->errs[i].message;
      st->failed++;
      st->invalid += r.status == IMPACTFIT_EINVAL;
    }
    st->g->row(st->g->ctx, &r);
  }
  st->next = b->first + b->count;
  fflush(stdout);
  return ferror(stdout) ? IMPACTFIT_EIO : 0;
}

static int on_poll(void *ctx, size_t done, size_t failed) {
  stream *st = ctx;
  cli_progress_update(st->pr_line, st->base + done, failed);
  if (cli_test_hold_due(st->next)) /* the test hook (progress.h): the rows of points < next are printed */
    cli_test_hold_wait(cli_signal_pending);
  return cli_signal_pending() != 0;
}

int cli_grid_run(const cli_grid *g) {
  if (g->out_dir) {
    char command[6000];
    snprintf(command, sizeof command, "%s", g->command);
    cli_sweep_exec x = {.what = g->what,
                        .name = g->what,
                        .out_dir = g->out_dir,
                        .command = command,
                        .threads = g->threads,
                        .resume = g->resume,
                        .shard = 0,
                        .shards = 1,
                        .sync = 2.0,
                        .quiet = g->quiet};
    return cli_sweep_execute(g->s, &x, 0, 1);
  }
  size_t total = impactfit_sweep_point_count(g->s);
  if (g->from >= total)
    return cli_input_error("--from: the grid has %zu points (0 to %zu), got %zu", total, total - 1, g->from);
  const impactfit_sweep_problem *pr = impactfit_sweep_get_problem(g->s);
  stream st;
  memset(&st, 0, sizeof st);
  st.g = g;
  st.pr = pr;
  st.next = st.base = g->from;
  st.out = calloc(pr->n_outputs + 1, sizeof *st.out);
  if (!st.out)
    return cli_input_error("%s: out of memory", g->what);
  cli_progress prog;
  cli_progress_start(&prog, g->what, "points", total, g->from, g->quiet);
  st.pr_line = &prog;
  impactfit_sweep_run_params rp = impactfit_sweep_default_run_params();
  rp.threads = g->threads;
  rp.first = g->from;
  rp.poll = on_poll;
  if (g->from == 0)
    g->header(g->ctx);
  impactfit_sweep_summary sum;
  impactfit_error err;
  impactfit_error_clear(&err);
  cli_signals_install();
  int rs = impactfit_sweep_run_values(g->s, &rp, on_values, &st, &sum, &err);
  cli_progress_end(&prog);
  fflush(stdout);
  int sig = cli_signal_pending();
  cli_signals_restore();
  int rc = CLI_OK;
  if (rs == IMPACTFIT_EINTR) {
    if (!sig)
      sig = SIGTERM;
    fprintf(stderr,
            "impactfit: error: %s: interrupted by %s after %zu of %zu points (the rows printed are complete); "
            "print the rest with: %s --from %zu\n",
            g->what, cli_signal_name(sig), st.next, total, g->command, st.next);
    rc = sig == SIGINT ? CLI_SIGINT : CLI_SIGTERM;
  } else if (rs == IMPACTFIT_EIO) {
    rc = cli_input_error("%s: cannot print the rows", g->what);
  } else if (rs) {
    rc = cli_status_error(rs, &err, g->what);
  } else if (st.invalid) {
    rc = CLI_INPUT; /* a point the library refused as invalid input (e.g. simulate under B, m = n, c v > k) */
  } else if (st.failed) {
    rc = CLI_NUMERIC;
  }
  free(st.out);
  return rc;
}

/* ---- the options shared by the grid commands ---- */

int cli_grid_check(const char *what, const cli_grid_opts *o, int formats) {
  if (o->threads != -1 && (o->threads < 1 || o->threads > 4096))
    return cli_input_error("--threads: expected 1..4096, got %d", o->threads);
  if (o->from < 0)
    return cli_input_error("--from: expected a point index >= 0, got %d", o->from);
  if (o->out_dir && (o->from || formats))
    return cli_input_error("%s: --out writes the sweep's CSV and JSON files: no --from or output format options", what);
  if (o->resume && !o->out_dir)
    return cli_input_error("%s: --resume continues an --out DIR run (give --out DIR)", what);
  return 0;
}

int cli_grid_exec(const char *what, const impactfit_sweep *s, const cli_grid_opts *o, int argc, char **argv,
                  void (*header)(void *ctx), void (*row)(void *ctx, const cli_grid_row *r), void *ctx) {
  char command[6000];
  static const char *const skip[] = {"--from", "--resume"};
  static const int takes[] = {1, 0};
  cli_command_line(argc, argv, skip, takes, 2, command, sizeof command);
  cli_grid g = {.what = what,
                .s = s,
                .threads = o->threads > 0 ? o->threads : 0,
                .quiet = o->quiet,
                .from = (size_t)o->from,
                .out_dir = o->out_dir,
                .resume = o->resume,
                .command = command,
                .header = header,
                .row = row,
                .ctx = ctx};
  return cli_grid_run(&g);
}

/* ---- a grid command's axes ---- */

int cli_axes_parse(cli_axis_spec *a, size_t n, void *ctx) {
  int rc = 0;
  for (size_t k = 0; k < n; k++)
    memset(&a[k].ax, 0, sizeof a[k].ax);
  for (size_t k = 0; k < n && !rc; k++) {
    const char *t = a[k].text ? a[k].text : a[k].def;
    if (t)
      rc = cli_axis_parse(a[k].opt, t, &a[k].ax);
  }
  for (size_t k = 0; k < n && !rc; k++) {
    const cli_axis_spec *s = &a[k];
    if (!s->text && (s->flags & CLI_IF_SEEN))
      continue;
    CLI_AXIS_EACH (s->ax, i) {
      double v = cli_axis_value(&s->ax, i);
      if (s->msg && cli_out_of_range(v, s->lo, s->hi, s->flags))
        rc = cli_input_error(s->msg, v);
      else if (s->check)
        rc = s->check(v, ctx);
      if (rc)
        break;
    }
  }
  return rc;
}

double cli_axes_total(const cli_axis_spec *a, size_t n) {
  double total = 1.0;
  for (size_t k = 0; k < n; k++)
    if (a[k].ax.n)
      total *= (double)a[k].ax.n;
  return total;
}

int cli_axes_limit(const char *what, const cli_axis_spec *a, size_t n) {
  double total = cli_axes_total(a, n);
  return total > 1e8 ? cli_input_error("%s: the grid has %.0f points (at most 1e8)", what, total) : 0;
}

void cli_axes_free(cli_axis_spec *a, size_t n) {
  for (size_t k = 0; k < n; k++)
    cli_axis_free(&a[k].ax);
}

int cli_grid_sweep(const char *what, const char *problem, const cli_setting *set, size_t nset, const cli_axis_spec *a,
                   size_t n, impactfit_sweep **out) {
  impactfit_error err;
  impactfit_error_clear(&err);
  impactfit_sweep_def *d = NULL;
  *out = NULL;
  int st = impactfit_sweep_def_new(impactfit_sweep_problem_from_name(problem), what, &d, &err);
  for (size_t k = 0; k < nset && !st; k++) {
    const cli_setting *x = &set[k];
    if (x->values)
      st = impactfit_sweep_def_axis_values(d, x->name, x->values, x->count, &err);
    else if (x->option)
      st = impactfit_sweep_def_option(d, x->name, x->option, &err);
    else
      st = impactfit_sweep_def_fixed(d, x->name, x->value, &err);
  }
  for (size_t k = 0; k < n && !st; k++)
    if (a[k].ax.n)
      st = cli_axis_add(d, a[k].param, &a[k].ax, &err);
  if (!st)
    st = impactfit_sweep_def_build(d, out, &err);
  impactfit_sweep_def_free(d);
  size_t wl = strlen(what); /* the definition is named `what`: its messages start "WHAT: " */
  if (st && strncmp(err.message, what, wl) == 0 && err.message[wl] == ':' && err.message[wl + 1] == ' ')
    memmove(err.message, err.message + wl + 2, strlen(err.message + wl + 2) + 1);
  return st ? cli_status_error(st, &err, what) : 0;
}

void cli_row_failed(const char *what, const char *message, const char *where_fmt, ...) {
  fflush(stdout);
  fprintf(stderr, "impactfit: error: %s: ", what);
  va_list ap;
  va_start(ap, where_fmt);
  vfprintf(stderr, where_fmt, ap);
  va_end(ap);
  fprintf(stderr, ": %s\n", message);
}

int cli_grid_main(int rc, const char *what, const char *problem, const cli_setting *set, size_t nset, cli_axis_spec *a,
                  size_t n, const cli_grid_opts *o, int argc, char **argv, void (*header)(void *ctx),
                  void (*row)(void *ctx, const cli_grid_row *r), void *ctx) {
  impactfit_sweep *s = NULL;
  if (!rc)
    rc = cli_axes_limit(what, a, n);
  if (!rc)
    rc = cli_grid_sweep(what, problem, set, nset, a, n, &s);
  if (!rc)
    rc = cli_grid_exec(what, s, o, argc, argv, header, row, ctx);
  impactfit_sweep_free(s);
  cli_axes_free(a, n);
  return rc;
}

/* ---- rows from a column table ---- */

static int col_shown(const cli_table *t, const cli_col *c) { return (c->when & ~t->shown) == 0; }

/* the column is in this table's text or CSV rows */
static int col_printed(const cli_table *t, const cli_col *c) {
  int in_format = t->csv ? c->key != NULL && c->csv != CLI_CSV_NONE : c->head != NULL;
  return in_format && col_shown(t, c);
}

static int col_int(const cli_col *c) {
  return c->from.kind == CLI_FROM_RHS_EVALS || (c->fmt && c->fmt[strlen(c->fmt) - 1] == 'd');
}

static double col_value(const cli_col *c, const cli_grid_row *r, const double *x) {
  switch (c->from.kind) {
  case CLI_FROM_PARAM:
    return r->in[c->from.idx];
  case CLI_FROM_OUTPUT:
    return r->out[c->from.idx];
  case CLI_FROM_DERIVED:
    return x[c->from.idx];
  default:
    return (double)r->rhs_evals;
  }
}

/* the string of a string column, NULL for a number */
static const char *col_str(const cli_table *t, const cli_col *c, const cli_grid_row *r) {
  if (c->from.kind == CLI_FROM_PARAM_NAME)
    return t->str[(size_t)r->in[c->from.idx]];
  if (c->from.kind == CLI_FROM_STATUS)
    return impactfit_status_name(r->status);
  return c->from.kind == CLI_FROM_STRING ? t->str[c->from.idx] : NULL;
}

/* The format's literal prefix, flags and width, as %s ("%8.4g" -> "%8s"): a header, or a value
 * printed as text in the column's width. */
static void width_format(const char *fmt, char out[16]) {
  size_t k = 0;
  const char *p = fmt;
  while (*p != '%' && k < 12)
    out[k++] = *p++;
  for (out[k++] = *p++; (*p == '-' || (*p >= '0' && *p <= '9')) && k < 14; p++)
    out[k++] = *p;
  out[k++] = 's';
  out[k] = '\0';
}

/* A number the user gave (a parameter) prints as typed in every format: the shortest text that reads
 * back to the same double (impactfit_format_shortest), so e = 0.123456789 is not shown as
 * 0.123457 next to a 15-digit e_out. CSV prints every number so (a lossless form). */
static int col_as_typed(const cli_table *t, const cli_col *c) {
  return !col_int(c) && (t->csv ? c->csv != CLI_CSV_TEXT_FORMAT : c->from.kind == CLI_FROM_PARAM);
}

/* %ld without printf (the CSV's integer columns: a grid row's printf calls cost more than its numbers) */
static void put_long(long v) {
  char buf[24], *p = buf + sizeof buf;
  unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
  *--p = '\0';
  do
    *--p = (char)('0' + u % 10);
  while (u /= 10);
  if (v < 0)
    *--p = '-';
  fputs(p, stdout);
}

/* one value in a text format; the formats "%s" and "%ld" (every CSV column) written without printf */
static void col_print(const cli_table *t, const cli_col *c, const char *fmt, const cli_grid_row *r, const double *x) {
  const char *str = col_str(t, c, r);
  double v = str ? 0.0 : col_value(c, r, x);
  char text[IMPACTFIT_SHORTEST_SIZE], wfmt[16];
  if (str) {
    if (strcmp(fmt, "%s") == 0)
      fputs(str, stdout);
    else
      printf(fmt, str);
  } else if (col_as_typed(t, c)) {
    width_format(fmt, wfmt);
    if (strcmp(wfmt, "%s") == 0)
      fputs(impactfit_format_shortest(v, text), stdout);
    else
      printf(wfmt, impactfit_format_shortest(v, text));
  } else if (strcmp(fmt, "%ld") == 0)
    put_long((long)v);
  else if (strstr(fmt, "ld"))
    printf(fmt, (long)v);
  else if (col_int(c))
    printf(fmt, (int)v);
  else
    printf(fmt, v);
}

/* the table has a status column (CLI_FROM_STATUS) */
static int table_has_status(const cli_table *t) {
  for (size_t i = 0; i < t->ncols; i++)
    if (t->cols[i].from.kind == CLI_FROM_STATUS)
      return 1;
  return 0;
}

void cli_table_header(void *ctx) {
  const cli_table *t = ctx;
  const char *sep = "";
  for (size_t i = 0; i < t->ncols && !t->json; i++) {
    const cli_col *c = &t->cols[i];
    if (!col_printed(t, c))
      continue;
    char fmt[16]; /* the value's literal prefix, flags and width, as %s */
    width_format(t->csv ? "%" : c->fmt, fmt);
    fputs(sep, stdout);
    printf(fmt, t->csv ? c->key : c->head);
    sep = t->csv ? "," : " ";
  }
  if (t->csv && !table_has_status(t))
    fputs(",status", stdout);
  if (!t->json)
    putchar('\n');
}

/* one JSON line: CLI_LEAD, the status (and error), CLI_RESULT of an OK point, CLI_TAIL */
static void table_json(const cli_table *t, const cli_grid_row *r, const double *x) {
  cli_json j;
  cli_json_begin(&j, stdout);
  for (cli_col_group g = CLI_LEAD; g <= CLI_TAIL; g++) {
    if (g == CLI_RESULT && !t->bare && !cli_json_status(&j, r->status, r->message))
      continue;
    for (size_t i = 0; i < t->ncols; i++) {
      const cli_col *c = &t->cols[i];
      if (!c->key || c->group != g || !col_shown(t, c) || c->from.kind == CLI_FROM_STATUS)
        continue;
      if (col_str(t, c, r))
        cli_json_str(&j, c->key, col_str(t, c, r));
      else if (col_int(c))
        cli_json_int(&j, c->key, (long)col_value(c, r, x));
      else
        cli_json_num(&j, c->key, col_value(c, r, x));
    }
  }
  cli_json_end(&j);
}

/* one text or CSV row: a failed point's text row stops at its results, its CSV results are empty */
static void table_text(const cli_table *t, const cli_grid_row *r, const double *x) {
  const char *sep = "";
  for (size_t i = 0; i < t->ncols; i++) {
    const cli_col *c = &t->cols[i];
    if (!col_printed(t, c))
      continue;
    if (r->status && c->group != CLI_LEAD && !t->csv)
      break;
    fputs(sep, stdout);
    const char *fmt = c->fmt; /* CSV: full precision, unless CLI_CSV_TEXT_FORMAT */
    if (t->csv && c->csv != CLI_CSV_TEXT_FORMAT)
      fmt = col_str(t, c, r) ? "%s" : col_int(c) ? "%ld" : "%s";
    if (!(r->status && c->group == CLI_RESULT))
      col_print(t, c, fmt, r, x);
    sep = t->csv ? "," : " ";
  }
  if (t->csv) {
    if (!table_has_status(t)) {
      putchar(',');
      fputs(r->status ? impactfit_status_name(r->status) : "OK", stdout);
    }
  } else if (r->status)
    printf(" %s", impactfit_status_name(r->status));
  putchar('\n');
}

/* a failed point's message: "point I (" with point, the first nwhere parameter columns */
static void table_failed(const cli_table *t, const cli_grid_row *r) {
  char where[256];
  int at = t->point ? snprintf(where, sizeof where, "point %zu (", r->index) : 0;
  for (size_t i = 0, k = 0; i < t->ncols && k < t->nwhere && at >= 0 && (size_t)at < sizeof where; i++)
    if (t->cols[i].from.kind == CLI_FROM_PARAM) {
      char v[IMPACTFIT_SHORTEST_SIZE];
      at += snprintf(where + at, sizeof where - (size_t)at, "%s%s = %s", k++ ? ", " : "", t->cols[i].head,
                     impactfit_format_shortest(r->in[t->cols[i].from.idx], v));
    }
  if (t->point && at >= 0 && (size_t)at < sizeof where)
    snprintf(where + at, sizeof where - (size_t)at, ")");
  cli_row_failed(t->what, r->message, "%s", where);
}

void cli_table_row(void *ctx, const cli_grid_row *r) {
  const cli_table *t = ctx;
  double x[8] = {0};
  if (!r->status && t->derive)
    t->derive(t, r, x);
  if (!(r->status && t->bare)) {
    if (t->json)
      table_json(t, r, x);
    else
      table_text(t, r, x);
  }
  if (r->status && t->what)
    table_failed(t, r);
}
