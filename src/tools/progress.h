/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The progress line of the long commands (sweep, copt grids, fit, reproduce; CLI only).
 *
 * On a terminal, one line on stderr redrawn in place ("\r...\033[K") at most five times a second:
 *     sweep demo: 12345/50000 points (24.7%), 1234 points/s, ETA 0:31, 3 failed
 * Nothing is drawn when stderr is not a terminal or the command got --quiet. The line is erased by
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
/* Erases the line (call before printing anything else to stderr or stdout on a terminal). */
void cli_progress_clear(cli_progress *p);
/* Erases the line for good. */
void cli_progress_end(cli_progress *p);

/* Monotonic clock in seconds. */
double cli_now(void);

#endif
