/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Durable, resumable output of `impactfit sweep` (CLI only).
 *
 * While a sweep runs, its rows are appended to DIR/NAME.csv.part (header first) and a small journal
 * DIR/NAME.journal records what is durable:
 *
 *   impactfit-sweep-journal 1 version=V definition=HASH block=B shard=I/N points=P header=H #X
 *   session START #X                       one per process that ran the sweep
 *   fail INDEX STATUS MESSAGE #X           a failed point (the first 1000 only)
 *   commit NEXT BYTES ROWS FAILED RHS WALL #X
 *
 * X is the XXH64 of the line before " #": a torn or partly written line fails its check, and the
 * journal is read up to its first bad line. A commit is written only after the part file has been
 * fdatasync'ed up to BYTES, and is itself fdatasync'ed: it says that the first BYTES bytes of the
 * part file are complete rows covering every point below NEXT (of this shard). Rows are written
 * as the runner delivers them and committed at least every `sync` seconds (and on stop), so a kill
 * at any moment (SIGKILL, power loss) loses at most the rows written since the last commit.
 *
 * Resuming reads the last good commit, refuses a journal of another definition (hash), impactfit
 * version, shard or block size, cuts the part file back to BYTES (dropping rows that were written
 * but never committed, and any torn row) and continues from NEXT; the rows are a pure function of
 * the point and the unit partition, so the finished CSV is byte-identical to an uninterrupted run.
 * When the last point is committed, the JSON sidecar is written, the part file renamed to
 * DIR/NAME.csv and the journal removed: a file named .csv is always complete.
 *
 * The part file is locked (flock) while a process writes it: a second process on the same output
 * is refused. */
#ifndef IMPACTFIT_CLI_SWEEP_OUT_H
#define IMPACTFIT_CLI_SWEEP_OUT_H

#include <stddef.h>

#include "impactfit/impactfit.h"

#define SWEEP_OUT_MAX_LISTED 1000 /* failures listed in the journal and the JSON */

typedef struct sweep_failure {
  size_t index;
  int status;
  char *message;
} sweep_failure;

typedef struct sweep_out {
  char csv[4096], part[4200], journal[4200], dir[4096];
  int part_fd, jfd;
  /* identity of the result */
  char hash[17];
  size_t block, shard, shards, points;
  /* state: everything written (committed or pending) */
  size_t next, rows, failed;
  unsigned long long bytes;
  long long rhs;
  double wall_before, t_start, sync, last_sync;
  size_t sessions;
  size_t start_next, start_rows; /* where this process started */
  /* fail lines not committed yet */
  char *pend;
  size_t pend_len, pend_cap;
  sweep_failure *fail;
  size_t nfail;
  char error[600]; /* the reason of the last failed write */
} sweep_out;

enum { SWEEP_OUT_RUN = 0, SWEEP_OUT_COMPLETE = -1 };

/* Opens DIR/NAME.csv's output for a run of sweep s with block size `block` (the effective one,
 * impactfit_sweep_block_size; 0 with resume: take the journal's) as shard `shard` of `shards`.
 * Without `resume`, an existing journal is an error (exit 2). With `resume`, an interrupted run is
 * continued, or a new one started when there is none; SWEEP_OUT_COMPLETE when DIR/NAME.csv and its
 * JSON already hold this very sweep (nothing to do). Errors are printed; returns CLI_INPUT or
 * CLI_NUMERIC then. */
int sweep_out_open(sweep_out *o, const impactfit_sweep *s, const char *csv_path, size_t block, int block_given,
                   size_t shard, size_t shards, int resume, double sync_seconds);

/* The callbacks of impactfit_sweep_run (ctx = the sweep_out). */
int sweep_out_rows(void *ctx, size_t first, size_t count, const char *rows, size_t len);
void sweep_out_failure(void *ctx, size_t index, int status, const char *message);

/* Makes everything written so far durable; 0 or IMPACTFIT_EIO (reason in o->error). */
int sweep_out_commit(sweep_out *o);

/* Wall seconds of all sessions so far. */
double sweep_out_wall(const sweep_out *o);

/* The finish: commits, writes the JSON through write_json(f, ctx) into json_path (through
 * json_path.part, fsync'ed, and a rename), renames the part file to the CSV and removes the
 * journal; a kill between any two steps is completed by the next --resume. Errors printed;
 * returns 0, CLI_INPUT or CLI_NUMERIC. */
int sweep_out_finish(sweep_out *o, const char *json_path, void (*write_json)(void *ctx, void *file), void *ctx);

/* Closes the files (the interrupted state stays on disk for --resume); frees memory. */
void sweep_out_close(sweep_out *o);

#endif
