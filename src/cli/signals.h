/* SPDX-License-Identifier: GPL-3.0-or-later */
/* SIGINT/SIGTERM for the long commands (CLI only): the handler only records the signal; the main
 * thread polls cli_signal_pending() between work units, stops cleanly and exits 128 + signal. */
#ifndef IMPACTFIT_CLI_SIGNALS_H
#define IMPACTFIT_CLI_SIGNALS_H

/* Installs the handlers (SA_RESETHAND: a second Ctrl-C kills at once, which loses nothing that was
 * made durable). */
void cli_signals_install(void);
/* Restores the previous handlers. */
void cli_signals_restore(void);
/* The signal received (SIGINT, SIGTERM), or 0. Async-signal-safe state (a lock-free atomic). */
int cli_signal_pending(void);
/* Records a stop as if `sig` had arrived (used when another MPI rank was interrupted). */
void cli_signal_raise(int sig);
/* "SIGINT", "SIGTERM". */
const char *cli_signal_name(int sig);

#endif
