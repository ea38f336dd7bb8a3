/* SPDX-License-Identifier: GPL-3.0-or-later */
/** @file
 * impactfit — the result of a sweep on disk: durable, resumable output, its provenance sidecar, the
 * merge of shards, the hash-checked load of a sweep's data for a fit file, and the scheduler of a run
 * computed by several processes (impactfit_sweep_tasks: which points each computes, their results
 * written in order; the transport, MPI or other, is the caller's).
 *
 * A sweep run into a directory (impactfit_sweep_run with the callbacks below, or `impactfit sweep`)
 * leaves two files:
 *   - NAME.csv: the CSV header (impactfit_sweep_csv_header) and one row per point of the run in index
 *     order, as the runner formats them (numbers %.17g in the C locale). Byte-identical for any
 *     thread count, shard split, MPI rank count or number of resumes of the same block size.
 *   - NAME.json: the provenance sidecar, a JSON object with, in this order: "generator" ("impactfit
 *     sweep"), "impactfit_version", "definition" (the definition's name), "definition_xxh64" (its
 *     hash, 16 hex digits), "csv" (the CSV's path), "problem", "points" (of the grid), "rows" (written),
 *     "failed", "block", "shard", "shards", "threads", "ranks", "sessions" (processes that wrote it),
 *     "wall_seconds" (all sessions), "rhs_evals", "session_starts" (an array: the rows committed when
 *     each session began, 0 first; a resumed session starts at the last commit, so no committed point
 *     is computed twice), "points_per_rank" (MPI only: an array), "tolerances"
 *     and "fixed" (objects: the parameters that are not swept, %.17g, and the options), "axes" (array
 *     of {"name", "kind" (list, linear, log), "start", "stop", "count"}), "outputs" (names),
 *     "failures" (array of {"index", "status" (impactfit_status_name), "message"}, the first
 *     IMPACTFIT_SWEEP_MAX_LISTED failed points in index order), "failures_not_listed". A merge of shards
 *     (impactfit_sweep_merge) writes shard 0's object with the totals of all shards, "shard": 0,
 *     "shards": 1 and "merged_shards": N.
 *
 * Durability. While a run writes, rows go to NAME.csv.part (header first) and a journal NAME.journal
 * records what is durable, one line per record:
 *
 *     impactfit-sweep-journal 1 version=V definition=HASH block=B shard=I/N points=P header=H #X
 *     session K from=R #X                    one per process that ran the sweep: the K-th began with R
 *                                            rows committed (older journals: "session K", R taken as 0)
 *     fail INDEX STATUS MESSAGE #X           a failed point (the first IMPACTFIT_SWEEP_MAX_LISTED only)
 *     commit NEXT BYTES ROWS FAILED RHS WALL #X
 *
 * X is the XXH64 (16 lower-case hex digits) of the line before " #": a torn or partly written line
 * fails its check, and the journal is read up to its first bad line. H is the length of the CSV
 * header; MESSAGE has no control character or '#'. A commit is written only after the part file has
 * been fdatasync'ed up to BYTES, and is itself fdatasync'ed: it says that the first BYTES bytes of the
 * part file are complete rows covering every point below NEXT (of this shard), ROWS of them, FAILED
 * failed, RHS right-hand-side evaluations, WALL seconds of all sessions. Rows are committed at least
 * every `sync_seconds` (impactfit_sweep_output_params) and at impactfit_sweep_output_commit, so a kill
 * at any moment (SIGKILL, power loss) loses at most the rows written since the last commit.
 *
 * Resuming reads the last good commit, refuses a journal of another definition (hash), impactfit
 * version, shard, grid or block size, cuts the part file back to BYTES (dropping rows written but
 * never committed, and any torn row) and continues from NEXT; the rows are a pure function of the
 * point and the block size, so the finished CSV is byte-identical to an uninterrupted run. The finish
 * writes the sidecar (through NAME.json.part, fsync'ed, renamed), renames the part file to NAME.csv and
 * removes the journal, syncing the directory after each step: a file named .csv is always complete,
 * and a kill between two steps is completed by the next resume. The part file is locked (flock) while
 * a process writes it: a second process on the same output is refused.
 *
 * Errors: every function returns an impactfit_status and fills the impactfit_error it is given; the
 * messages name the files. Refusals of the state on disk (a journal without resume, another
 * definition, a damaged journal, a second writer) are EINVAL, failed reads and writes EIO. Messages of
 * refused resumes speak of the options of `impactfit sweep` (--resume, --block), which are the fields
 * resume and block of impactfit_sweep_output_params. Nothing is printed.
 */
#ifndef IMPACTFIT_SWEEP_IO_H
#define IMPACTFIT_SWEEP_IO_H

#include <stddef.h>

#include "impactfit/common.h"
#include "impactfit/fitfile.h"
#include "impactfit/sweep.h"
#include "impactfit/table.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Failed points listed in the journal and the sidecar (the others are only counted). */
#define IMPACTFIT_SWEEP_MAX_LISTED 1000

/** impactfit_sweep_output_open's answer when the result is already complete (nothing to run). */
#define IMPACTFIT_SWEEP_COMPLETE 1

/** The durable output of one sweep run (opaque). */
typedef struct impactfit_sweep_output impactfit_sweep_output;

/** How an output is opened. */
typedef struct impactfit_sweep_output_params {
  size_t block;         /**< block size as given to the runner (0: the default); the effective one is
                        *   impactfit_sweep_block_size(s, block) */
  int block_given;      /**< 1: block was chosen; a resumed run must then have used the same */
  size_t shard, shards; /**< this output is shard `shard` of `shards` (0 and 1: unsharded) */
  int resume;           /**< continue an interrupted run (or start one when there is none) */
  double sync_seconds;  /**< commit at least this often while rows arrive (0: after every block) */
} impactfit_sweep_output_params;

/** Defaults: block 0 (not given), unsharded, no resume, sync every 2 s. */
IMPACTFIT_EXPORT impactfit_sweep_output_params impactfit_sweep_output_default_params(void);

/** Opens the output csv_path (ending in ".csv"; the directory must exist) for a run of s: a fresh
 * part file and journal, or with p->resume the interrupted run on disk (see the file comment).
 * Without resume, an existing journal is refused (EINVAL). Returns 0 (run it from
 * impactfit_sweep_output_next), IMPACTFIT_SWEEP_COMPLETE when csv_path and its sidecar already hold
 * this very sweep (same hash, version, shard and, if given, block; *out holds its counts and must be
 * closed), or an error (*out NULL). s must stay alive until the output is closed (the finish writes
 * its provenance). One output is used by one thread at a time: the runner calls the callbacks on its
 * calling thread. */
IMPACTFIT_EXPORT int impactfit_sweep_output_open(const impactfit_sweep *s, const char *csv_path,
                                                 const impactfit_sweep_output_params *p, impactfit_sweep_output **out,
                                                 impactfit_error *err);

/** The NAME of a sweep's output DIR/NAME.csv: the base name of its definition file
 * (impactfit_sweep_name) without ".ini", cut to size - 1 bytes. Returns the full name's length. */
IMPACTFIT_EXPORT size_t impactfit_sweep_output_name(const impactfit_sweep *s, char *buf, size_t size);

/** Where the run continues: the first point not written (0 for a fresh output). */
IMPACTFIT_EXPORT size_t impactfit_sweep_output_next(const impactfit_sweep_output *o);
/** The effective block size the run must use (the journal's on a resume). */
IMPACTFIT_EXPORT size_t impactfit_sweep_output_block(const impactfit_sweep_output *o);

/** The counts of an output, over all its sessions. */
typedef struct impactfit_sweep_output_state {
  size_t rows;         /**< rows written (committed or pending) */
  size_t failed;       /**< of which failed */
  long long rhs_evals; /**< right-hand-side evaluations of those rows */
  size_t sessions;     /**< processes that wrote this output, this one included */
  size_t rows_at_open; /**< rows already written when this process opened it */
  size_t listed;       /**< failed points listed (at most IMPACTFIT_SWEEP_MAX_LISTED) */
  double wall_seconds; /**< wall time of all sessions so far */
} impactfit_sweep_output_state;
IMPACTFIT_EXPORT void impactfit_sweep_output_get_state(const impactfit_sweep_output *o,
                                                       impactfit_sweep_output_state *st);
/** Listed failure i (in index order); EINVAL when i >= listed. message is owned by o. */
IMPACTFIT_EXPORT int impactfit_sweep_output_failure_at(const impactfit_sweep_output *o, size_t i, size_t *index,
                                                       int *status, const char **message);
/** The part file's path (DIR/NAME.csv.part). */
IMPACTFIT_EXPORT const char *impactfit_sweep_output_part_path(const impactfit_sweep_output *o);
/** Why the last write failed (the rows callback cannot return a message); "" when none did. */
IMPACTFIT_EXPORT const char *impactfit_sweep_output_error(const impactfit_sweep_output *o);

/** The rows callback of impactfit_sweep_run (impactfit_sweep_rows_fn; ctx = the output): appends the
 * rows to the part file and commits when sync_seconds have passed. Rows must arrive in order from
 * impactfit_sweep_output_next. Returns 0 or EIO (reason: impactfit_sweep_output_error). */
IMPACTFIT_EXPORT int impactfit_sweep_output_rows(void *ctx, size_t first, size_t count, const char *rows, size_t len);
/** The failure callback of impactfit_sweep_run (impactfit_sweep_failure_fn; ctx = the output). */
IMPACTFIT_EXPORT void impactfit_sweep_output_failure(void *ctx, size_t index, int status, const char *message);

/** Makes everything written so far durable (fdatasync of the part file, then a commit record);
 * 0 or EIO. Call it when a run stops early: a resume continues from there. */
IMPACTFIT_EXPORT int impactfit_sweep_output_commit(impactfit_sweep_output *o, impactfit_error *err);

/** What the sidecar records of the run beyond the output's own counts. */
typedef struct impactfit_sweep_output_run {
  int threads;                   /**< threads per process (impactfit_sweep_summary.threads) */
  int ranks;                     /**< processes (MPI ranks) that computed it; 1 otherwise */
  const size_t *points_per_rank; /**< NULL, or `ranks` counts ("points_per_rank" in the sidecar) */
} impactfit_sweep_output_run;

/** The finish, once every point of the run is written: writes the sidecar (NAME.json), renames the
 * part file to NAME.csv and removes the journal (see the file comment). Call
 * impactfit_sweep_output_commit first. 0, or EIO naming the file. */
IMPACTFIT_EXPORT int impactfit_sweep_output_finish(impactfit_sweep_output *o, const impactfit_sweep_output_run *run,
                                                   impactfit_error *err);

/** Closes the files (an unfinished run stays on disk for a resume) and frees o; accepts NULL. */
IMPACTFIT_EXPORT void impactfit_sweep_output_close(impactfit_sweep_output *o);

/* ---- a run computed by several processes --------------------------------------------------------- */

/** The rows and failures of one task of a run (a range of points), kept in memory: computed in one
 * process with impactfit_sweep_part_rows and impactfit_sweep_part_failure as the runner's callbacks,
 * sent as two byte strings (rows, fails) and written in task order by the scheduler below. fails holds
 * one line "INDEX STATUS MESSAGE\n" per failed point (at most 699 bytes a line, the message cut).
 * The byte strings grow as needed; free them with impactfit_sweep_part_free. */
typedef struct impactfit_sweep_part {
  size_t task;         /**< the task's number (handed out in increasing order from 0) */
  int worker;          /**< the process computing it */
  int state;           /**< IMPACTFIT_SWEEP_PART_FREE, _ASSIGNED or _DONE (scheduler's slots) */
  size_t first, count; /**< the points asked for: [first, first + count) */
  size_t covered;      /**< rows present for [first, first + covered) */
  size_t failed;       /**< failed points among them */
  char *rows, *fails;  /**< rows_len and fails_len bytes (not NUL-terminated) */
  size_t rows_len, fails_len, rows_cap, fails_cap;
  int bad; /**< out of memory, or rows out of order: the part cannot be written */
} impactfit_sweep_part;
enum { IMPACTFIT_SWEEP_PART_FREE, IMPACTFIT_SWEEP_PART_ASSIGNED, IMPACTFIT_SWEEP_PART_DONE };

/** Empties p (keeping its buffers) for the points [first, first + count). */
IMPACTFIT_EXPORT void impactfit_sweep_part_start(impactfit_sweep_part *p, size_t first, size_t count);
/** The runner's rows callback (ctx = the part): appends the rows, which must continue the covered
 * range; EIO (and p->bad) otherwise or out of memory. */
IMPACTFIT_EXPORT int impactfit_sweep_part_rows(void *ctx, size_t first, size_t count, const char *rows, size_t len);
/** The runner's failure callback (ctx = the part): appends the failure's line (p->bad when out of
 * memory). */
IMPACTFIT_EXPORT void impactfit_sweep_part_failure(void *ctx, size_t index, int status, const char *message);
/** Makes room for rows_len and fails_len bytes and sets the lengths, to receive a part's byte strings
 * into p->rows and p->fails; 0 or ENOMEM (p unchanged). */
IMPACTFIT_EXPORT int impactfit_sweep_part_reserve(impactfit_sweep_part *p, size_t rows_len, size_t fails_len);
/** Computes the part's points [first, first + count) with the run parameters rp (threads, block,
 * shard, poll; its first, count and work are the part's) as one parallel block (of at most 1e6
 * points), its rows and failures into p. Returns as impactfit_sweep_run (EINTR when poll stopped it:
 * p->covered < p->count then). */
IMPACTFIT_EXPORT int impactfit_sweep_part_run(const impactfit_sweep *s, const impactfit_sweep_run_params *rp,
                                              impactfit_sweep_part *p, impactfit_error *err);
/** Frees the byte strings (p itself is the caller's). */
IMPACTFIT_EXPORT void impactfit_sweep_part_free(impactfit_sweep_part *p);

/** A scheduler of a run over several processes (opaque), the transport being the caller's (MPI in
 * `impactfit sweep`). It hands out the points of the run as tasks: ranges of whole groups of
 * G = min(L, B) points (L the innermost run length of a problem with runs, else 1; B the effective
 * block size), aligned to multiples of G, so that a task is a union of whole work units and its rows
 * are those of a serial run. Tasks go out in increasing order with guided sizes: S groups at most
 * (S = 4 threads, halved while S G > 262144), and at most the remaining groups over twice the number
 * of processes, so that the last tasks are short and the processes finish together. At most
 * 4 P + 4 tasks (P processes) are out ahead of the oldest one not written (bounded memory): their
 * parts are the slots of a ring, task t in slot t mod (4 P + 4). Finished parts are written in task
 * order to the output. Not thread-safe: one thread drives it. */
typedef struct impactfit_sweep_tasks impactfit_sweep_tasks;

/** A scheduler for the run rp of s (from rp->first, rp->count points or to the end; rp->block,
 * rp->shard, rp->shards as the run will use) over `workers` processes numbered 0..workers-1, the
 * largest of whose thread counts is `threads`, writing to o. points_per_worker (NULL, or `workers`
 * zeroed counts) receives the rows each process computed and the scheduler wrote. 0 or ENOMEM. */
IMPACTFIT_EXPORT int impactfit_sweep_tasks_new(const impactfit_sweep *s, const impactfit_sweep_run_params *rp,
                                               int workers, int threads, impactfit_sweep_output *o,
                                               size_t *points_per_worker, impactfit_sweep_tasks **out,
                                               impactfit_error *err);
/** The next task for `worker` (its slot, ASSIGNED, emptied, with task, first and count set), or NULL
 * when the run is stopping, every point is handed out, or the ring is full. */
IMPACTFIT_EXPORT impactfit_sweep_part *impactfit_sweep_tasks_claim(impactfit_sweep_tasks *t, int worker);
/** The slot of task `task` if it is assigned to `worker` and not done, else NULL (a result nobody
 * asked for). */
IMPACTFIT_EXPORT impactfit_sweep_part *impactfit_sweep_tasks_find(impactfit_sweep_tasks *t, size_t task, int worker);
/** Slot i (i < impactfit_sweep_tasks_window(t)). */
IMPACTFIT_EXPORT impactfit_sweep_part *impactfit_sweep_tasks_slot(impactfit_sweep_tasks *t, size_t i);
IMPACTFIT_EXPORT size_t impactfit_sweep_tasks_window(const impactfit_sweep_tasks *t);
/** Marks the part done; interrupted (its process was stopped) stops the run with EINTR. */
IMPACTFIT_EXPORT void impactfit_sweep_tasks_done(impactfit_sweep_tasks *t, impactfit_sweep_part *p, int interrupted);
/** Writes the done parts at the head of the ring in task order (failures, then rows, to the output).
 * A part that is bad (ENOMEM), cannot be written (EIO) or covers less than its task (EINTR: a
 * process was stopped) stops the run and ends what can be written. */
IMPACTFIT_EXPORT void impactfit_sweep_tasks_write(impactfit_sweep_tasks *t);
/** Stops handing out tasks; the first status given is the run's (impactfit_sweep_tasks_status). */
IMPACTFIT_EXPORT void impactfit_sweep_tasks_stop(impactfit_sweep_tasks *t, int status);
IMPACTFIT_EXPORT int impactfit_sweep_tasks_stopping(const impactfit_sweep_tasks *t);
/** 1 when every point is handed out and every task written. */
IMPACTFIT_EXPORT int impactfit_sweep_tasks_finished(const impactfit_sweep_tasks *t);
/** The run's status: the first stop's (EIO, ENOMEM, EINTR or the caller's), EINTR when it ended
 * before every task was written, 0 when finished. */
IMPACTFIT_EXPORT int impactfit_sweep_tasks_status(const impactfit_sweep_tasks *t);
/** Frees the scheduler and its slots; accepts NULL. */
IMPACTFIT_EXPORT void impactfit_sweep_tasks_free(impactfit_sweep_tasks *t);

/* ---- reading and merging results ---------------------------------------------------------------- */

/** One listed failed point of a sidecar. */
typedef struct impactfit_sweep_failure {
  size_t index;
  int status; /**< impactfit_status (from its name; EINVAL for an unknown name) */
  char *message;
} impactfit_sweep_failure;

/** A sidecar's fields (see the file comment); -1 for an integer the sidecar does not have. */
typedef struct impactfit_sweep_provenance {
  char generator[64], version[64], definition[4096], hash[17], problem[64], csv[4096];
  long long points, rows, failed, block, shard, shards, threads, ranks, sessions, rhs_evals;
  long long merged_shards, failures_not_listed;
  double wall_seconds;
  impactfit_sweep_failure *failures; /**< the listed failures */
  size_t n_failures;
} impactfit_sweep_provenance;

/** Reads a sidecar. It must be a JSON object (no duplicate keys) with "generator": "impactfit sweep"
 * and a "definition_xxh64" of 16 lower-case hex digits, and each listed failure must have an
 * "index" (EPARSE naming the file otherwise; EIO when it cannot be read, ENOMEM). The other fields
 * are read when present with the right type (integers -1, strings "" otherwise); the layout of the
 * JSON text (spaces, order of keys) does not matter. Free with impactfit_sweep_provenance_free (also
 * after a failure). */
IMPACTFIT_EXPORT int impactfit_sweep_provenance_read(const char *json_path, impactfit_sweep_provenance *out,
                                                     impactfit_error *err);
/** The same from text in memory; `name` names it in messages. */
IMPACTFIT_EXPORT int impactfit_sweep_provenance_parse(const char *text, size_t len, const char *name,
                                                      impactfit_sweep_provenance *out, impactfit_error *err);
IMPACTFIT_EXPORT void impactfit_sweep_provenance_free(impactfit_sweep_provenance *p);

/** Progress of a merge of the sweep `name`: rows written so far of `total` (called with 0 once the
 * output is open, then every 65536 rows). */
typedef void (*impactfit_sweep_merge_progress_fn)(void *ctx, const char *name, size_t rows, size_t total);

/** What a merge did. */
typedef struct impactfit_sweep_merge_result {
  char name[256]; /**< NAME of the merged sweep */
  size_t shards, rows;
  long long failed;
  char csv[4096], json[4096]; /**< the files written */
} impactfit_sweep_merge_result;

/** Joins the N shards of a sweep, NAME.shard-I-of-N.csv and .json found in the directories dirs[0..n)
 * (`name` chooses the sweep when they hold several; NULL otherwise), into out_dir/NAME.csv and
 * NAME.json (out_dir is created if missing). The CSV is byte-identical to the one an unsharded run
 * writes; the sidecar is shard 0's with the totals and failures of all shards. Refused (EINVAL,
 * nothing written): a missing, duplicated or unfinished shard (its .csv.part or .journal still
 * there), shards of different definitions, versions, shard counts, block sizes or grids, rows that
 * are missing, repeated, out of order or torn. Each file is written to a temporary file and renamed.
 * progress may be NULL; res may be NULL. */
IMPACTFIT_EXPORT int impactfit_sweep_merge(const char *const *dirs, size_t n, const char *name, const char *out_dir,
                                           impactfit_sweep_merge_progress_fn progress, void *ctx,
                                           impactfit_sweep_merge_result *res, impactfit_error *err);

/** The data of a fit file's sweep as `impactfit sweep SWEEP --out dir` wrote them: reads
 * dir/NAME.json (NAME: the sweep file's base name without .ini), checks that its "definition_xxh64"
 * is the hash of the fit file's sweep definition as it is now, and reads dir/NAME.csv
 * (impactfit_table_read_csv). EIO when the sidecar cannot be read, EINVAL when it belongs to another
 * definition (or is not a sidecar), the CSV reader's status otherwise. Free *out with
 * impactfit_table_free. */
IMPACTFIT_EXPORT int impactfit_fitfile_load_data(const impactfit_fitfile *f, const char *dir, impactfit_table **out,
                                                 impactfit_error *err);

#ifdef __cplusplus
}
#endif
#endif /* IMPACTFIT_SWEEP_IO_H */
