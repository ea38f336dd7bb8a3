/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Signal handling for the long commands (signals.h). */
#define _POSIX_C_SOURCE 200809L
#include "signals.h"

#include <signal.h>
#include <stdatomic.h>
#include <string.h>

/* Written by the handler (on whichever thread the kernel picked) and read by the main thread: a
 * lock-free atomic is both async-signal-safe and free of data races. */
static atomic_int pending;
static struct sigaction old_int, old_term;

static void on_signal(int sig) { atomic_store(&pending, sig); }

void cli_signals_install(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND | SA_RESTART;
  atomic_store(&pending, 0);
  sigaction(SIGINT, &sa, &old_int);
  sigaction(SIGTERM, &sa, &old_term);
}

void cli_signals_restore(void) {
  sigaction(SIGINT, &old_int, NULL);
  sigaction(SIGTERM, &old_term, NULL);
}

int cli_signal_pending(void) { return atomic_load(&pending); }

void cli_signal_raise(int sig) {
  int zero = 0;
  atomic_compare_exchange_strong(&pending, &zero, sig);
}

const char *cli_signal_name(int sig) { return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal"; }
