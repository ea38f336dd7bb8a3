/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Running a sweep into durable, resumable output (CLI only): the body of `impactfit sweep`, shared by
 * every command that runs a grid into a directory (copt --out DIR, zhang-alpha --out DIR, ...).
 * DIR/NAME.csv and DIR/NAME.json as described in `impactfit sweep --help`: journal and part file
 * (the library's sweep_io.h), --resume, shards, MPI (rank 0 writes), progress line, SIGINT/SIGTERM
 * (the finished rows are made durable and the command that resumes is printed). */
#ifndef IMPACTFIT_CLI_SWEEP_EXEC_H
#define IMPACTFIT_CLI_SWEEP_EXEC_H

#include <stddef.h>

#include "impactfit/sweep.h"
#include "impactfit/sweep_io.h"

typedef struct cli_sweep_exec {
  const char *what;    /* "sweep", "copt": the context of messages and the progress label */
  const char *name;    /* NAME of DIR/NAME.csv (".shard-I-of-N" is appended for a shard) */
  const char *out_dir; /* DIR, created if missing */
  const char *command; /* the command line that repeats this run, without --resume and --shard */
  int threads;         /* 0: OMP_NUM_THREADS or all cores */
  size_t block;        /* 0: the default */
  int block_given;     /* --block was given (a resumed run must use the journal's otherwise) */
  int resume;
  size_t shard, shards; /* 0, 1: unsharded */
  double sync;          /* seconds between commits */
  int quiet;            /* no progress line */
} cli_sweep_exec;

/* Runs s (already loaded or built) into x->out_dir/x->name.csv + .json; MPI rank `rank` of `ranks`
 * (0, 1 without MPI). Prints its summary or errors; returns the exit status (0, 1, 2, 130, 143). */
int cli_sweep_execute(const impactfit_sweep *s, const cli_sweep_exec *x, int rank, int ranks);

/* The test hook IMPACTFIT_TEST_HOLD_AFTER=N (progress.h) for a run into o: once o holds N rows,
 * commits them (the journal shows them) and waits for SIGINT/SIGTERM. Call from the poll hook. */
void cli_sweep_test_hold(impactfit_sweep_output *o);

#endif
