/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit sweep: runs a sweep definition file, writes DIR/NAME.csv and DIR/NAME.json. */
#define _POSIX_C_SOURCE 200809L
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "help_texts.h" /* generated from docs/cli/COMMAND.txt */
#include "impactfit/impactfit.h"
#include "progress.h"
#include "signals.h"
#include "sweep_mpi.h"
#include "sweep_exec.h"

static const char *const help_text = cli_help_sweep; /* docs/cli/sweep.txt */

/* A problem whose parameters follow its options (sweep.h specialize) as it is with the default options. */
static impactfit_sweep_problem *at_defaults(const impactfit_sweep_problem *p) {
  const char *opt[32];
  impactfit_sweep_problem *sp = NULL;
  if (!p->specialize || p->n_options > 32)
    return NULL;
  for (size_t k = 0; k < p->n_options; k++)
    opt[k] = p->options[k].def;
  return p->specialize(p, opt, &sp, NULL) ? NULL : sp;
}

static void print_problems(void) {
  printf("\nproblems:\n");
  const impactfit_sweep_problem *p;
  for (size_t i = 0; (p = impactfit_sweep_problem_at(i)); i++) {
    impactfit_sweep_problem *sp = at_defaults(p);
    printf("  %s: %s\n    parameters%s:\n", p->name, p->summary,
           sp ? " (they follow the options; here with the options at their defaults)" : "");
    if (sp)
      p = sp;
    for (size_t k = 0; k < p->n_params; k++)
      printf("      %-18s %s\n", p->params[k].name, p->params[k].help ? p->params[k].help : "");
    printf("    options:");
    for (size_t k = 0; k < p->n_options; k++)
      printf(" %s (%s, default %s)", p->options[k].name, p->options[k].choices ? p->options[k].choices : "text",
             p->options[k].def);
    printf("\n    outputs (unit; -: dimensionless):");
    for (size_t k = 0; k < p->n_outputs; k++)
      printf(" %s (%s)", p->outputs[k], p->output_units ? p->output_units[k] : "?");
    printf("\n");
    if (sp)
      sp->release(sp);
  }
}

/* Parses "I/N" (0 <= I < N <= 1e6). */
static int parse_shard(const char *v, size_t *shard, size_t *shards) {
  char *e1, *e2;
  if (!v || v[0] < '0' || v[0] > '9')
    return cli_input_error("--shard: expected I/N with 0 <= I < N, got '%s'", v ? v : "");
  unsigned long i = strtoul(v, &e1, 10);
  if (*e1 != '/' || e1[1] < '0' || e1[1] > '9')
    return cli_input_error("--shard: expected I/N with 0 <= I < N, got '%s'", v);
  unsigned long n = strtoul(e1 + 1, &e2, 10);
  if (!*e2 && n >= 1 && n <= 1000000 && i >= n) /* shards count from 0 */
    return cli_input_error("--shard: expected I/N with 0 <= I < N: shards count from 0 (0/%lu ... %lu/%lu; a Slurm "
                           "array --array=0-%lu), got '%s'",
                           n, n - 1, n, n - 1, v);
  if (*e2 || n < 1 || n > 1000000 || i >= n)
    return cli_input_error("--shard: expected I/N with 0 <= I < N <= 1000000, got '%s'", v);
  *shard = i;
  *shards = n;
  return 0;
}

long sweep_launch_tasks(const char **who) {
  static const char *const vars[] = {"SLURM_STEP_NUM_TASKS", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE"};
  for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
    const char *v = getenv(vars[i]);
    char *end = NULL;
    long n = v ? strtol(v, &end, 10) : 0;
    if (v && end != v && *end == '\0' && n > 1) {
      *who = vars[i];
      return n;
    }
  }
  *who = NULL;
  return 1;
}

typedef struct poll_ctx {
  cli_progress *pr;
  size_t base_rows, base_failed; /* written before this run started */
  impactfit_sweep_output *o;
} poll_ctx;

void cli_sweep_test_hold(impactfit_sweep_output *o) {
  impactfit_sweep_output_state os;
  impactfit_sweep_output_get_state(o, &os);
  if (cli_test_hold_due(os.rows)) {
    impactfit_error err;
    impactfit_error_clear(&err);
    (void)impactfit_sweep_output_commit(o, &err); /* a failure shows again at the run's own commit */
    cli_test_hold_wait(cli_signal_pending);
  }
}

static int on_poll(void *ctx, size_t done, size_t failed) {
  poll_ctx *c = ctx;
  cli_progress_update(c->pr, c->base_rows + done, c->base_failed + failed);
  cli_sweep_test_hold(c->o);
  return cli_signal_pending() != 0;
}

/* An error of the output API, as `impactfit sweep` has always printed it; returns CLI_INPUT. */
static int output_error(const impactfit_error *err) {
  if (err->status == IMPACTFIT_ENOMEM)
    return cli_input_error("%s", err->message);
  return cli_input_error("sweep: %s", err->message);
}

/* The command that continues this run, for the interruption message. */
static void resume_command(char *buf, size_t size, const char *command, size_t shard, size_t shards, int mpi) {
  const char *launcher = !mpi ? "" : getenv("SLURM_STEP_ID") ? "srun --mpi=pmix " : "mpirun ... ";
  int n = snprintf(buf, size, "%s%s --resume", launcher, command);
  if (shards > 1 && n > 0 && (size_t)n < size)
    snprintf(buf + n, size - (size_t)n, " --shard %zu/%zu", shard, shards);
}

int impactfit_cmd_sweep(int argc, char **argv) {
  const char *out_dir = ".", *shard_s = NULL;
  int threads = 0, block = 0, help = 0, resume = 0, quiet = 0;
  double sync = 2.0;
  /* the ranges are checked below, after the definition file (the order of the messages) */
  cli_spec opts[] = {
      CLI_STR("out", &out_dir),    CLI_ANYINT("threads", &threads), CLI_ANYINT("block", &block),
      CLI_FLAG("resume", &resume), CLI_STR("shard", &shard_s),      CLI_NUM("sync", &sync),
      CLI_FLAG("quiet", &quiet),
  };
  const char *pos[1];
  size_t npos = 0;
  int rc = cli_options(argc, argv, opts, CLI_COUNT(opts), NULL, &help, pos, 1, &npos);
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
  if (!(sync >= 0.0 && sync <= 86400.0))
    return cli_input_error("--sync: expected 0..86400 seconds, got %.17g", sync);
  size_t shard = 0, shards = 1;
  if (shard_s && (rc = parse_shard(shard_s, &shard, &shards)))
    return rc;

  int rank = 0, ranks = 1;
  if ((rc = sweep_mpi_init(&rank, &ranks)))
    return rc;
  impactfit_error err;
  impactfit_error_clear(&err);
  impactfit_sweep *s = NULL;
  int st = impactfit_sweep_load(pos[0], &s, &err);
  if (st && rank == 0)
    rc = cli_status_error(st == IMPACTFIT_EIO ? IMPACTFIT_EINVAL : st, &err, "sweep");
  else if (st)
    rc = CLI_INPUT;
  rc = sweep_mpi_max(rc); /* collective: every rank learns whether any rank could not load it */
  if (!rc && ranks > 1 && !sweep_mpi_same_hash(impactfit_sweep_hash(s)))
    rc = rank == 0
             ? cli_input_error("sweep: the MPI ranks read different versions of %s (definition hashes differ)", pos[0])
             : CLI_INPUT;
  if (rc) {
    impactfit_sweep_free(s);
    sweep_mpi_finalize();
    return rc;
  }

  char name[501], command[5000]; /* NAME: the file's base name without .ini, 500 bytes at most */
  impactfit_sweep_output_name(s, name, sizeof name);
  snprintf(command, sizeof command, "impactfit sweep %s --out %s", pos[0], out_dir);
  cli_sweep_exec x = {.what = "sweep",
                      .name = name,
                      .out_dir = out_dir,
                      .command = command,
                      .threads = threads,
                      .block = (size_t)block,
                      .block_given = cli_given(opts, CLI_COUNT(opts), "block"),
                      .resume = resume,
                      .shard = shard,
                      .shards = shards,
                      .sync = sync,
                      .quiet = quiet};
  rc = cli_sweep_execute(s, &x, rank, ranks);
  impactfit_sweep_free(s);
  sweep_mpi_finalize();
  return rc;
}

/* A run that stopped early (signal, error): commits what was written and says how to go on. */
static int report_stop(impactfit_sweep_output *o, const cli_sweep_exec *x, int st, int sig, const impactfit_error *err,
                       size_t total_pts, int ranks) {
  impactfit_error cerr;
  impactfit_error_clear(&cerr);
  if (st != IMPACTFIT_EINTR) {
    (void)impactfit_sweep_output_commit(o, &cerr);
    const char *why = impactfit_sweep_output_error(o);
    if (st == IMPACTFIT_EIO && why[0])
      fprintf(stderr, "impactfit: error: %s: %s\n", x->what, why);
    else
      cli_status_error(st, err, x->what);
    return impactfit_status_is_input_error(st) ? CLI_INPUT : CLI_NUMERIC;
  }
  char again[5200];
  resume_command(again, sizeof again, x->command, x->shard, x->shards, ranks > 1);
  int cst = impactfit_sweep_output_commit(o, &cerr);
  impactfit_sweep_output_state os;
  impactfit_sweep_output_get_state(o, &os);
  if (!sig)
    sig = SIGTERM; /* another rank was stopped */
  if (cst)
    fprintf(stderr, "impactfit: error: %s: interrupted by %s, and %s; resume with: %s\n", x->what, cli_signal_name(sig),
            cerr.message, again);
  else
    fprintf(stderr, "impactfit: error: %s: interrupted by %s after %zu of %zu points (saved in %s); resume with: %s\n",
            x->what, cli_signal_name(sig), os.rows, total_pts, impactfit_sweep_output_part_path(o), again);
  return sig == SIGINT ? CLI_SIGINT : CLI_SIGTERM;
}

/* A run that computed every point: the finish (sidecar, rename) and the summary line. */
static int finish_output(impactfit_sweep_output *o, const cli_sweep_exec *x, const impactfit_sweep_output_run *run,
                         const char *lbl, const char *csv_path, const char *json_path, int nothing_left,
                         double wall_here) {
  impactfit_error err;
  impactfit_error_clear(&err);
  if (impactfit_sweep_output_commit(o, &err))
    return cli_status_error(IMPACTFIT_EIO, NULL, impactfit_sweep_output_error(o));
  if (impactfit_sweep_output_finish(o, run, &err))
    return output_error(&err);
  impactfit_sweep_output_state os;
  impactfit_sweep_output_get_state(o, &os);
  size_t here = os.rows - os.rows_at_open;
  if (nothing_left)
    printf("%s: %zu points, %zu failed: completed an interrupted run (no point left to compute) -> %s\n", lbl, os.rows,
           os.failed, csv_path);
  else
    printf("%s: %zu points, %zu failed, %d thread(s)%s, %.3g s (%.0f points/s) -> %s\n", lbl, os.rows, os.failed,
           run->threads, run->ranks > 1 ? " per rank" : "", wall_here, wall_here > 0 ? (double)here / wall_here : 0.0,
           csv_path);
  if (!os.failed)
    return CLI_OK;
  size_t fi;
  int fs;
  const char *fm;
  if (impactfit_sweep_output_failure_at(o, 0, &fi, &fs, &fm) == 0)
    fprintf(stderr, "impactfit: error: %s: %zu of %zu points failed (first: point %zu, %s: %s); see %s\n", x->what,
            os.failed, os.rows, fi, impactfit_status_name(fs), fm, json_path);
  else
    fprintf(stderr, "impactfit: error: %s: %zu of %zu points failed; see %s\n", x->what, os.failed, os.rows, csv_path);
  return CLI_NUMERIC;
}

int cli_sweep_execute(const impactfit_sweep *s, const cli_sweep_exec *x, int rank, int ranks) {
  const char *out_dir = x->out_dir;
  size_t shard = x->shard, shards = x->shards;
  int threads = x->threads, quiet = x->quiet, rc = 0, st;
  impactfit_error err;
  impactfit_error_clear(&err);
  /* "sweep FILE" for a definition file; the command's name for a grid it built */
  char lbl[4200];
  if (strcmp(x->what, "sweep") == 0)
    snprintf(lbl, sizeof lbl, "sweep %s", impactfit_sweep_name(s));
  else
    snprintf(lbl, sizeof lbl, "%s", x->what);
  char name[700], csv_path[4096], json_path[4096], dir[4096];
  if (shards > 1)
    snprintf(name, sizeof name, "%.600s.shard-%zu-of-%zu", x->name, shard, shards);
  else
    snprintf(name, sizeof name, "%.600s", x->name);
  cli_trim_dir(out_dir, dir, sizeof dir);
  if ((size_t)snprintf(csv_path, sizeof csv_path, "%s/%s.csv", dir, name) >= sizeof csv_path ||
      (size_t)snprintf(json_path, sizeof json_path, "%s/%s.json", dir, name) >= sizeof json_path)
    return cli_input_error("%s: output path too long", x->what);
  if (cli_mkdir_p(out_dir)) /* every rank: mkdir -p is idempotent, and each rank fails alike */
    return CLI_INPUT;

  /* rank 0 opens (or resumes) the output (the library's sweep_io.h) and tells the others where to start */
  impactfit_sweep_output *o = NULL;
  impactfit_sweep_output_state os;
  memset(&os, 0, sizeof os);
  size_t plan[3] = {0, 0, 0}; /* state (0 run, 1 complete, 2 error code follows), block, first */
  if (rank == 0) {
    impactfit_sweep_output_params op = impactfit_sweep_output_default_params();
    op.block = x->block;
    op.block_given = x->block_given;
    op.shard = shard;
    op.shards = shards;
    op.resume = x->resume;
    op.sync_seconds = x->sync;
    int orc = impactfit_sweep_output_open(s, csv_path, &op, &o, &err);
    if (orc == IMPACTFIT_SWEEP_COMPLETE)
      plan[0] = 1;
    else if (orc)
      plan[0] = 2 + (size_t)output_error(&err);
    plan[1] = impactfit_sweep_output_block(o);
    plan[2] = impactfit_sweep_output_next(o);
    impactfit_sweep_output_get_state(o, &os);
    cli_test_hold_from(os.rows); /* the test hook: a run resumed past its hold goes on */
  }
  sweep_mpi_bcast(plan, 3);
  if (plan[0] >= 2 || plan[0] == 1) {
    rc = plan[0] >= 2 ? (int)(plan[0] - 2) : (os.failed ? CLI_NUMERIC : CLI_OK);
    if (rank == 0 && plan[0] == 1) {
      printf("%s: %s already holds this sweep (%s); nothing to do\n", lbl, csv_path,
             os.failed ? "with failed points" : "complete");
      if (os.failed)
        fprintf(stderr, "impactfit: error: %s: %zu points failed; see %s\n", x->what, os.failed, json_path);
    }
    impactfit_sweep_output_close(o);
    return rc;
  }

  impactfit_sweep_run_params rp = impactfit_sweep_default_run_params();
  rp.threads = threads;
  rp.block = plan[1];
  rp.shard = shard;
  rp.shards = shards;
  size_t total_pts = impactfit_sweep_run_points(s, &rp);
  cli_progress prog;
  char label[800];
  snprintf(label, sizeof label, "%.60s %s", x->what, name);
  cli_progress_start(&prog, label, "points", total_pts, os.rows, quiet || rank != 0);
  impactfit_sweep_summary sum;
  memset(&sum, 0, sizeof sum);
  double t0 = cli_now();
  size_t *per_rank = NULL;
  cli_signals_install();
  st = 0;
  if (plan[2] < impactfit_sweep_point_count(s)) {
    rp.first = plan[2];
    if (ranks > 1 && rank > 0) {
      st = sweep_mpi_work(s, &rp, &err);
    } else if (ranks > 1) {
      per_rank = calloc((size_t)ranks, sizeof *per_rank);
      st = per_rank ? sweep_mpi_lead(s, &rp, o, &prog, per_rank, &err) : IMPACTFIT_ENOMEM;
    } else {
      poll_ctx pc = {&prog, os.rows, os.failed, o};
      rp.poll = on_poll;
      rp.poll_ctx = &pc;
      st = impactfit_sweep_run(s, &rp, impactfit_sweep_output_rows, impactfit_sweep_output_failure, o, &sum, &err);
    }
  }
  cli_progress_end(&prog);
  if (sum.threads == 0)
    sum.threads = threads ? threads : omp_get_max_threads();
  double wall_here = cli_now() - t0;
  int sig = cli_signal_pending();
  cli_signals_restore();
  if (rank > 0) { /* workers: rank 0 reports */
    rc = st == IMPACTFIT_EINTR ? (sig == SIGTERM ? CLI_SIGTERM : CLI_SIGINT) : (st ? CLI_NUMERIC : CLI_OK);
    rc = sweep_mpi_max(rc);
    return rc;
  }
  if (st == IMPACTFIT_EINTR || st) {
    rc = report_stop(o, x, st, sig, &err, total_pts, ranks);
  } else {
    impactfit_sweep_output_run run = {sum.threads, ranks, per_rank};
    rc = finish_output(o, x, &run, lbl, csv_path, json_path, plan[2] >= impactfit_sweep_point_count(s), wall_here);
  }
  if (ranks > 1)
    rc = sweep_mpi_max(rc);
  free(per_rank);
  impactfit_sweep_output_close(o);
  return rc;
}
