/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The progress line (progress.h). */
#define _POSIX_C_SOURCE 200809L
#include "progress.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define INTERVAL 0.2 /* seconds between redraws: five a second at most */

double cli_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void cli_progress_start(cli_progress *p, const char *label, const char *unit, size_t total, size_t already, int quiet) {
  memset(p, 0, sizeof *p);
  p->enabled = !quiet && isatty(STDERR_FILENO);
  snprintf(p->label, sizeof p->label, "%s", label);
  p->unit = unit;
  p->total = total;
  p->base = already;
  p->done = already;
  p->t0 = cli_now();
  p->last = p->t0; /* the first line after INTERVAL: short commands draw nothing */
}

static void fmt_duration(char *buf, size_t size, double s) {
  long t = (long)(s + 0.5);
  if (t >= 3600)
    snprintf(buf, size, "%ld:%02ld:%02ld", t / 3600, (t / 60) % 60, t % 60);
  else
    snprintf(buf, size, "%ld:%02ld", t / 60, t % 60);
}

void cli_progress_update(cli_progress *p, size_t done, size_t failed) {
  if (!p || !p->enabled)
    return;
  p->done = done;
  p->failed = failed;
  double now = cli_now();
  if (now - p->last < INTERVAL)
    return;
  p->last = now;
  double el = now - p->t0, rate = done > p->base && el > 0 ? (double)(done - p->base) / el : 0.0;
  char line[256], eta[32] = "";
  int n;
  if (p->total) {
    n = snprintf(line, sizeof line, "%s: %zu/%zu %s (%.1f%%)", p->label, done, p->total, p->unit,
                 100.0 * (double)done / (double)p->total);
    if (rate > 0 && done < p->total)
      fmt_duration(eta, sizeof eta, (double)(p->total - done) / rate);
  } else {
    n = snprintf(line, sizeof line, "%s: %zu %s", p->label, done, p->unit);
  }
  if (n < 0 || (size_t)n >= sizeof line)
    n = (int)sizeof line - 1;
  size_t used = (size_t)n;
  char el_s[32];
  fmt_duration(el_s, sizeof el_s, el);
  if (rate >= 100)
    used += (size_t)snprintf(line + used, sizeof line - used, ", %.0f %s/s", rate, p->unit);
  else if (rate > 0)
    used += (size_t)snprintf(line + used, sizeof line - used, ", %.3g %s/s", rate, p->unit);
  if (used < sizeof line && eta[0])
    used += (size_t)snprintf(line + used, sizeof line - used, ", ETA %s", eta);
  else if (used < sizeof line)
    used += (size_t)snprintf(line + used, sizeof line - used, ", %s elapsed", el_s);
  if (used < sizeof line && failed)
    used += (size_t)snprintf(line + used, sizeof line - used, ", %zu failed", failed);
  if (used < sizeof line && p->note[0])
    snprintf(line + used, sizeof line - used, " [%s]", p->note);
  fprintf(stderr, "\r%s\033[K", line);
  fflush(stderr);
  p->drawn = 1;
}

void cli_progress_tick(cli_progress *p) {
  if (p)
    cli_progress_update(p, p->done, p->failed);
}

void cli_progress_note(cli_progress *p, const char *note) {
  if (!p)
    return;
  snprintf(p->note, sizeof p->note, "%s", note ? note : "");
}

void cli_progress_clear(cli_progress *p) {
  if (p && p->drawn) {
    fputs("\r\033[K", stderr);
    fflush(stderr);
    p->drawn = 0;
  }
}

void cli_progress_end(cli_progress *p) {
  cli_progress_clear(p);
  if (p)
    p->enabled = 0;
}
