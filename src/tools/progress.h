/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The progress line of the long commands (sweep, copt grids, fit, reproduce; CLI only).
 *
 * On a terminal, one line on stderr redrawn in place ("\r...\033[K") at most five times a second:
 *     sweep demo: 12345/50000 points (24.7%), 1234 points/s, ETA 0:31, 3 failed
 * Nothing is drawn when stderr is not a terminal or the command got --quiet. The test hook
 * IMPACTFIT_TEST_PROGRESS_INTERVAL=SECONDS (0 to 60) replaces the 0.2 s between draws, so that a test
 * (tests/cli/test_hpc.sh, test_reproduce.sh, through script(1)) sees a line whatever the machine's
 * speed: with 0, every update draws. The line is erased by
 * cli_progress_end (and before any error message the command prints through it), so that the
 * output of a finished command is the same with and without a terminal.
 *
 * Call the functions from the main thread only (in an OpenMP region: thread 0 of the outermost
 * team, which is the main thread). They never allocate and never fail. */
#ifndef IMPACTFIT_CLI_PROGRESS_H
#define IMPACTFIT_CLI_PROGRESS_H

#include <stddef.h>

typedef struct cli_progress {
  int enabled;         /* drawing at all (terminal, not quiet) */
  int drawn;           /* a line is on the screen */
  char label[96];      /* "sweep demo" */
  const char *unit;    /* "points", "groups", "topics" */
  size_t total;        /* 0: unknown (no percentage, no ETA) */
  size_t base;         /* done before this process started (a resumed run): not in the rate */
  double t0, last;     /* start and last draw (monotonic seconds) */
  char note[64];       /* optional text after the counts ("hc-formulas") */
  size_t done, failed; /* the last counts given */
  /* the current step of a long item (cli_progress_step): what it does, how far it is */
  char step[80];         /* "engine against the reference"; "" when no step is on */
  const char *step_unit; /* "cases" */
  size_t step_total;     /* 0: unknown (no percentage, no ETA) */
  size_t step_done;      /* the last count given */
  double step_t0;        /* the step's start (monotonic seconds) */
  int cols;              /* the terminal's width: a line is cut to cols - 1 characters */
} cli_progress;

/* Starts a progress line: `total` items of `unit`, `already` of them done before (resume). */
void cli_progress_start(cli_progress *p, const char *label, const char *unit, size_t total, size_t already, int quiet);
/* Redraws when at least 0.2 s passed since the last draw (cheap otherwise: one clock read).
 * `done` counts `already`; `failed` is shown when non-zero. */
void cli_progress_update(cli_progress *p, size_t done, size_t failed);
/* Redraws with the last counts (keeps the elapsed time ticking inside a long step). NULL: no-op. */
void cli_progress_tick(cli_progress *p);
/* Sets the note shown after the counts (NULL: none) and redraws at the next update. */
void cli_progress_note(cli_progress *p, const char *note);
/* A step inside the current item (a topic of reproduce that runs for minutes): until
 * cli_progress_step_end, the line reads
 *     [accuracy 8/8] engine against the reference: 1234/5000 cases (24.7%), 9.5 cases/s, ETA 2:10
 * (the note and the item in progress, what the step does, its count, rate and time left; a step
 * that counts nothing shows how long it has run), cut to the terminal's width (first the rate, then
 * the step's text). Starting a step ends the previous one. NULL p: no-op. */
void cli_progress_step(cli_progress *p, const char *what, const char *unit, size_t total);
/* The step's count so far (redraws at most five times a second, like cli_progress_update). */
void cli_progress_step_update(cli_progress *p, size_t done);
/* Ends the step: the line shows the item counts again. */
void cli_progress_step_end(cli_progress *p);
/* A poll hook for a sweep run that is one step (impactfit_sweep_run_params.poll, ctx: the
 * cli_progress or NULL): sets the step's count to the points done. Never stops the run. */
int cli_progress_step_poll(void *ctx, size_t done, size_t failed);

/* Erases the line (call before printing anything else to stderr or stdout on a terminal). */
void cli_progress_clear(cli_progress *p);
/* Erases the line for good. */
void cli_progress_end(cli_progress *p);

/* Monotonic clock in seconds. */
double cli_now(void);

/* ---- test hook: a real signal at a known point of a run (docs/TESTING.md) ----
 * With IMPACTFIT_TEST_HOLD_AFTER=N in the environment (N a decimal count), a long command stops
 * once, when the first N items of its run are out (sweep and grid commands: the rows of points
 * 0 .. N-1 printed, or written and committed to the journal; reproduce: N topics done), and waits
 * there for a signal (at most 10 minutes, then it goes on). A test that must interrupt or kill a run
 * in the middle waits for that event (the rows in the output, the journal's commit line) and then
 * sends a real SIGINT, SIGTERM or SIGKILL, which can no longer race the end of the run on a fast or
 * a busy machine. The hold comes at the run's first poll after the N-th item, so N must lie at
 * least one block (one topic) before the end. Unset, empty or not a number: no hold.
 * A run that starts at or beyond item N (a resume: cli_test_hold_from(start)) does not hold: a job
 * that a scheduler restarts with the same environment goes on to the end.
 * cli_test_hold_due(done) is 1 exactly once, when the hook is set and done >= N (cheap otherwise);
 * the caller then makes its output durable and calls cli_test_hold_wait(stopped), which returns
 * when stopped() is non-zero (a signal was recorded; NULL: only a signal's default action ends
 * the wait) or after 10 minutes. Main thread only. */
int cli_test_hold_due(size_t done);
void cli_test_hold_from(size_t start);
void cli_test_hold_wait(int (*stopped)(void));

#endif
