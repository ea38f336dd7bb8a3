/* impactfit sweep: runs a sweep definition file, writes DIR/NAME.csv and DIR/NAME.json. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "impactfit/impactfit.h"

static const char *help_text =
    "usage: impactfit sweep FILE.ini [--out DIR] [--threads T] [--block B]\n\n"
    "Evaluates a problem on the product grid of the axes of a sweep definition file and writes\n"
    "  DIR/NAME.csv   one row per grid point in grid order (last axis fastest): index, every\n"
    "                 parameter of the problem, the outputs, status, rhs_evals; numbers as %.17g,\n"
    "                 identical for any thread count; a failed point has its status and empty\n"
    "                 outputs\n"
    "  DIR/NAME.json  provenance: definition file and its XXH64 hash, impactfit version, problem,\n"
    "                 fixed parameters and options, tolerances, axes, threads, wall time, and the\n"
    "                 failed points (index, status, message; the first 1000)\n"
    "where NAME is FILE's base name without .ini.\n\n"
    "  --out DIR     output directory (must exist), default .\n"
    "  --threads T   OpenMP threads, default: OMP_NUM_THREADS or all cores\n"
    "  --block B     points computed in parallel before they are written, default 4096\n\n"
    "Definition file (INI):\n"
    "  [sweep]\n"
    "  problem = simulate            ; see the list below\n"
    "  outputs = e_out, t_contact    ; optional subset of the problem's outputs\n"
    "  [fixed]\n"
    "  m = 0                         ; parameters and options (defaults otherwise)\n"
    "  transition = C\n"
    "  [axes]                        ; first outermost, last fastest\n"
    "  n = linear 1, 2, 5            ; start, stop, count\n"
    "  c = log 0.01, 10, 31          ; geometric, start and stop non-zero, same sign\n"
    "  v = list 0.5, 1, 2            ; a list may continue on indented lines\n\n"
    "Exit status: 0 every point succeeded, 1 some point failed (its row says why),\n"
    "2 invalid definition file (the message names file, line and reason) or options.\n";

static void print_problems(void) {
  printf("\nproblems:\n");
  const impactfit_sweep_problem *p;
  for (size_t i = 0; (p = impactfit_sweep_problem_at(i)); i++) {
    printf("  %s: %s\n    parameters:", p->name, p->summary);
    for (size_t k = 0; k < p->n_params; k++)
      printf(" %s", p->params[k].name);
    printf("\n    options:");
    for (size_t k = 0; k < p->n_options; k++)
      printf(" %s (%s, default %s)", p->options[k].name, p->options[k].choices ? p->options[k].choices : "text",
             p->options[k].def);
    printf("\n    outputs:");
    for (size_t k = 0; k < p->n_outputs; k++)
      printf(" %s", p->outputs[k]);
    printf("\n");
  }
}

#define MAX_LISTED_FAILURES 1000

typedef struct failure {
  size_t index;
  int status;
  char *message;
} failure;

typedef struct sink {
  FILE *csv;
  failure *fail;
  size_t nfail, total_fail;
} sink;

static int on_rows(void *ctx, size_t first, size_t count, const char *rows, size_t len) {
  (void)first;
  (void)count;
  sink *k = ctx;
  if (fwrite(rows, 1, len, k->csv) != len || fflush(k->csv) != 0)
    return IMPACTFIT_EIO;
  return 0;
}

static void on_failure(void *ctx, size_t index, int status, const char *message) {
  sink *k = ctx;
  k->total_fail++;
  if (k->nfail < MAX_LISTED_FAILURES) {
    failure *f = &k->fail[k->nfail];
    f->index = index;
    f->status = status;
    f->message = strdup(message);
    if (f->message)
      k->nfail++;
  }
}

static void json_string(FILE *f, const char *v) {
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
    if (*p == '"' || *p == '\\')
      fprintf(f, "\\%c", *p);
    else if (*p < 0x20)
      fprintf(f, "\\u%04x", *p);
    else
      fputc(*p, f);
  }
  fputc('"', f);
}

static void write_json(FILE *f, const impactfit_sweep *s, const char *csv_path, const impactfit_sweep_summary *sum,
                       const sink *k) {
  const impactfit_sweep_problem *pr = impactfit_sweep_get_problem(s);
  static const char *kinds[] = {"list", "linear", "log"};
  fprintf(f, "{\n  \"generator\": \"impactfit sweep\",\n  \"impactfit_version\": ");
  json_string(f, impactfit_version());
  fprintf(f, ",\n  \"definition\": ");
  json_string(f, impactfit_sweep_name(s));
  fprintf(f, ",\n  \"definition_xxh64\": \"%s\",\n  \"csv\": ", impactfit_sweep_hash(s));
  json_string(f, csv_path);
  fprintf(f, ",\n  \"problem\": ");
  json_string(f, pr->name);
  fprintf(f, ",\n  \"points\": %zu,\n  \"failed\": %zu,\n  \"threads\": %d,\n  \"wall_seconds\": %.6g,\n"
             "  \"rhs_evals\": %lld,\n",
          impactfit_sweep_point_count(s), sum->failed, sum->threads, sum->wall_seconds, sum->rhs_evals);
  fprintf(f, "  \"tolerances\": {");
  int first = 1;
  for (size_t i = 0; i < pr->n_params; i++)
    if ((pr->params[i].flags & IMPACTFIT_SWEEP_TOLERANCE) && !impactfit_sweep_param_is_swept(s, i)) {
      fprintf(f, "%s\"%s\": %.17g", first ? "" : ", ", pr->params[i].name, impactfit_sweep_param_value(s, i));
      first = 0;
    }
  fprintf(f, "},\n  \"fixed\": {");
  first = 1;
  for (size_t i = 0; i < pr->n_params; i++)
    if (!impactfit_sweep_param_is_swept(s, i)) {
      fprintf(f, "%s\"%s\": %.17g", first ? "" : ", ", pr->params[i].name, impactfit_sweep_param_value(s, i));
      first = 0;
    }
  for (size_t j = 0; j < pr->n_options; j++) {
    fprintf(f, "%s\"%s\": ", first ? "" : ", ", pr->options[j].name);
    json_string(f, impactfit_sweep_option_value(s, j));
    first = 0;
  }
  fprintf(f, "},\n  \"axes\": [");
  for (size_t a = 0; a < impactfit_sweep_axis_count(s); a++) {
    const impactfit_sweep_axis *ax = impactfit_sweep_get_axis(s, a);
    fprintf(f, "%s\n    {\"name\": \"%s\", \"kind\": \"%s\", \"start\": %.17g, \"stop\": %.17g, \"count\": %zu}",
            a ? "," : "", ax->name, kinds[ax->kind], ax->start, ax->stop, ax->count);
  }
  fprintf(f, "\n  ],\n  \"outputs\": [");
  first = 1;
  for (size_t o = 0; o < pr->n_outputs; o++)
    if (impactfit_sweep_output_wanted(s, o)) {
      fprintf(f, "%s\"%s\"", first ? "" : ", ", pr->outputs[o]);
      first = 0;
    }
  fprintf(f, "],\n  \"failures\": [");
  for (size_t i = 0; i < k->nfail; i++) {
    fprintf(f, "%s\n    {\"index\": %zu, \"status\": \"%s\", \"message\": ", i ? "," : "", k->fail[i].index,
            impactfit_status_name(k->fail[i].status));
    json_string(f, k->fail[i].message);
    fputc('}', f);
  }
  fprintf(f, "%s],\n  \"failures_not_listed\": %zu\n}\n", k->nfail ? "\n  " : "", k->total_fail - k->nfail);
}

int impactfit_cmd_sweep(int argc, char **argv) {
  const char *out_dir = ".";
  int threads = 0, block = 0, help = 0;
  cli_opt opts[] = {
      {"out", OPT_STRING, &out_dir, 0},
      {"threads", OPT_INT, &threads, 0},
      {"block", OPT_INT, &block, 0},
  };
  const char *pos[1];
  size_t npos = 0;
  int rc = cli_parse(argc, argv, 2, opts, sizeof opts / sizeof opts[0], pos, 1, &npos, &help);
  if (rc)
    return rc;
  if (help) {
    fputs(help_text, stdout);
    print_problems();
    return CLI_OK;
  }
  if (npos != 1)
    return cli_input_error("sweep: expected one definition file (see 'impactfit sweep --help')");
  if (opts[1].seen && (threads < 1 || threads > 4096))
    return cli_input_error("--threads: expected 1..4096, got %d", threads);
  if (opts[2].seen && (block < 1 || block > 1000000))
    return cli_input_error("--block: expected 1..1000000, got %d", block);

  impactfit_error err;
  impactfit_error_clear(&err);
  impactfit_sweep *s = NULL;
  int st = impactfit_sweep_load(pos[0], &s, &err);
  if (st)
    return cli_status_error(st == IMPACTFIT_EIO ? IMPACTFIT_EINVAL : st, &err, "sweep");

  /* NAME: base name of the file without .ini */
  const char *base = strrchr(pos[0], '/');
  base = base ? base + 1 : pos[0];
  size_t blen = strlen(base);
  if (blen > 4 && strcmp(base + blen - 4, ".ini") == 0)
    blen -= 4;
  char csv_path[4096], json_path[4096];
  if ((size_t)snprintf(csv_path, sizeof csv_path, "%s/%.*s.csv", out_dir, (int)blen, base) >= sizeof csv_path ||
      (size_t)snprintf(json_path, sizeof json_path, "%s/%.*s.json", out_dir, (int)blen, base) >= sizeof json_path) {
    impactfit_sweep_free(s);
    return cli_input_error("sweep: output path too long");
  }
  sink k;
  memset(&k, 0, sizeof k);
  k.fail = calloc(MAX_LISTED_FAILURES, sizeof *k.fail);
  cli_out csv, json;
  if (!k.fail) {
    impactfit_sweep_free(s);
    return cli_input_error("out of memory");
  }
  if ((rc = cli_out_open(&csv, csv_path))) {
    free(k.fail);
    impactfit_sweep_free(s);
    return rc;
  }
  k.csv = csv.f;
  fputs(impactfit_sweep_csv_header(s), csv.f);
  impactfit_sweep_run_params rp = impactfit_sweep_default_run_params();
  rp.threads = threads;
  rp.block = (size_t)block;
  impactfit_sweep_summary sum;
  st = impactfit_sweep_run(s, &rp, on_rows, on_failure, &k, &sum, &err);
  if (st) {
    cli_out_abort(&csv);
    rc = cli_status_error(st, &err, "sweep");
    goto out;
  }
  if ((rc = cli_out_commit(&csv)))
    goto out;
  if ((rc = cli_out_open(&json, json_path)))
    goto out;
  write_json(json.f, s, csv_path, &sum, &k);
  if ((rc = cli_out_commit(&json)))
    goto out;
  printf("sweep %s: %zu points, %zu failed, %d thread(s), %.3g s (%.0f points/s) -> %s\n", impactfit_sweep_name(s),
         sum.points, sum.failed, sum.threads, sum.wall_seconds,
         sum.wall_seconds > 0 ? (double)sum.points / sum.wall_seconds : 0.0, csv_path);
  if (sum.failed) {
    if (k.nfail)
      fprintf(stderr, "impactfit: error: sweep: %zu of %zu points failed (first: point %zu, %s: %s); see %s\n",
              sum.failed, sum.points, k.fail[0].index, impactfit_status_name(k.fail[0].status),
              k.fail[0].message, json_path);
    else
      fprintf(stderr, "impactfit: error: sweep: %zu of %zu points failed; see %s\n", sum.failed, sum.points,
              csv_path);
    rc = CLI_NUMERIC;
  }
out:
  for (size_t i = 0; i < k.nfail; i++)
    free(k.fail[i].message);
  free(k.fail);
  impactfit_sweep_free(s);
  return rc;
}
