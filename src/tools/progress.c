/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The progress line (progress.h). */
#define _DEFAULT_SOURCE /* TIOCGWINSZ, struct winsize */
#define _POSIX_C_SOURCE 200809L
#include "progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define INTERVAL 0.2 /* seconds between redraws: five a second at most */

/* INTERVAL, or the test hook IMPACTFIT_TEST_PROGRESS_INTERVAL=SECONDS (progress.h) */
static double interval(void) {
  static double iv = -1.0;
  if (iv < 0.0) {
    const char *v = getenv("IMPACTFIT_TEST_PROGRESS_INTERVAL");
    char *end = NULL;
    double x = v && v[0] ? strtod(v, &end) : -1.0;
    iv = end && *end == '\0' && x >= 0.0 && x <= 60.0 ? x : INTERVAL;
  }
  return iv;
}

double cli_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void cli_progress_start(cli_progress *p, const char *label, const char *unit, size_t total, size_t already, int quiet) {
  memset(p, 0, sizeof *p);
  p->enabled = !quiet && isatty(STDERR_FILENO);
  struct winsize ws;
  p->cols = p->enabled && ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 ? ws.ws_col : 80;
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

/* "12345/50000 points (24.7%)" or "12345 points", then (with_rate) ", 1234 points/s", and ", ETA 0:31"
 * or ", 0:12 elapsed", counted from `base` at `t0`; returns the length written. */
static size_t fmt_counts(char *line, size_t size, size_t done, size_t total, size_t base, const char *unit, double t0,
                         double now, int with_rate) {
  double el = now - t0, rate = done > base && el > 0 ? (double)(done - base) / el : 0.0;
  char eta[32] = "";
  int n;
  if (total) {
    n = snprintf(line, size, "%zu/%zu %s (%.1f%%)", done, total, unit, 100.0 * (double)done / (double)total);
    if (rate > 0 && done < total)
      fmt_duration(eta, sizeof eta, (double)(total - done) / rate);
  } else {
    n = snprintf(line, size, "%zu %s", done, unit);
  }
  if (n < 0 || (size_t)n >= size)
    return size - 1;
  size_t used = (size_t)n;
  char el_s[32];
  fmt_duration(el_s, sizeof el_s, el);
  if (with_rate && rate >= 100)
    used += (size_t)snprintf(line + used, size - used, ", %.0f %s/s", rate, unit);
  else if (with_rate && rate > 0)
    used += (size_t)snprintf(line + used, size - used, ", %.3g %s/s", rate, unit);
  if (used < size && eta[0])
    used += (size_t)snprintf(line + used, size - used, ", ETA %s", eta);
  else if (used < size)
    used += (size_t)snprintf(line + used, size - used, ", %s elapsed", el_s);
  return used < size ? used : size - 1;
}

/* The line of a step: "[NOTE I/N] WHAT: 1234/5000 cases (24.7%), 12 cases/s, ETA 2:10" (I: the item
 * in progress, N: the items; LABEL instead of NOTE when there is none), at most `width` characters:
 * without the rate, then with WHAT shortened ("..."), when wider. */
static void fmt_step(const cli_progress *p, char *line, size_t size, double now, size_t width) {
  char head[200], counts[128];
  size_t cur = p->total && p->done >= p->total ? p->total : p->done + 1;
  if (p->total)
    snprintf(head, sizeof head, "[%s %zu/%zu]", p->note[0] ? p->note : p->label, cur, p->total);
  else
    snprintf(head, sizeof head, "[%s]", p->note[0] ? p->note : p->label);
  size_t fixed = 0, what = strlen(p->step);
  for (int with_rate = 1; with_rate >= 0; with_rate--) {
    if (!p->step_total && !p->step_done) { /* nothing counted: what, and for how long */
      char el[32];
      fmt_duration(el, sizeof el, now - p->step_t0);
      snprintf(counts, sizeof counts, "%s elapsed", el);
    } else {
      fmt_counts(counts, sizeof counts, p->step_done, p->step_total, 0, p->step_unit, p->step_t0, now, with_rate);
    }
    fixed = strlen(head) + 1 + 2 + strlen(counts); /* head, ' ', ': ' */
    if (fixed + what <= width && snprintf(line, size, "%s %s: %s", head, p->step, counts) >= 0)
      return;
  }
  int keep = width > fixed + 3 ? (int)(width - fixed - 3) : 0; /* WHAT cut short, "..." */
  if (snprintf(line, size, "%s %.*s...: %s", head, keep, p->step, counts) < 0)
    line[0] = '\0';
  if (strlen(line) > width)
    line[width] = '\0';
}

static void draw(cli_progress *p, double now) {
  p->last = now;
  char line[320];
  size_t width = p->cols > 1 && (size_t)p->cols - 1 < sizeof line ? (size_t)p->cols - 1 : sizeof line - 1;
  if (p->step[0]) {
    fmt_step(p, line, sizeof line, now, width);
  } else { /* "sweep demo: 12345/50000 points (24.7%), 1234 points/s, ETA 0:31, 3 failed [note]" */
    int n = snprintf(line, sizeof line, "%s: ", p->label);
    size_t used = n < 0 ? 0 : (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
    used += fmt_counts(line + used, sizeof line - used, p->done, p->total, p->base, p->unit, p->t0, now, 1);
    if (used < sizeof line && p->failed)
      used += (size_t)snprintf(line + used, sizeof line - used, ", %zu failed", p->failed);
    if (used < sizeof line && p->note[0])
      snprintf(line + used, sizeof line - used, " [%s]", p->note);
    if (strlen(line) > width) /* a wrapped line could not be redrawn in place */
      line[width] = '\0';
  }
  fprintf(stderr, "\r%s\033[K", line);
  fflush(stderr);
  p->drawn = 1;
}

void cli_progress_update(cli_progress *p, size_t done, size_t failed) {
  if (!p || !p->enabled)
    return;
  p->done = done;
  p->failed = failed;
  double now = cli_now();
  if (now - p->last >= interval())
    draw(p, now);
}

void cli_progress_step(cli_progress *p, const char *what, const char *unit, size_t total) {
  if (!p)
    return;
  snprintf(p->step, sizeof p->step, "%s", what && what[0] ? what : "working");
  p->step_unit = unit ? unit : "";
  p->step_total = total;
  p->step_done = 0;
  p->step_t0 = cli_now();
  if (p->enabled && p->step_t0 - p->last >= interval()) /* says at once what the step does */
    draw(p, p->step_t0);
}

void cli_progress_step_update(cli_progress *p, size_t done) {
  if (!p || !p->step[0])
    return;
  p->step_done = done;
  if (!p->enabled)
    return;
  double now = cli_now();
  if (now - p->last >= interval())
    draw(p, now);
}

void cli_progress_step_end(cli_progress *p) {
  if (p)
    p->step[0] = '\0';
}

int cli_progress_step_poll(void *ctx, size_t done, size_t failed) {
  (void)failed;
  cli_progress_step_update(ctx, done);
  return 0;
}

void cli_progress_tick(cli_progress *p) {
  if (p && p->step[0])
    cli_progress_step_update(p, p->step_done);
  else if (p)
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

/* ---- the test hook IMPACTFIT_TEST_HOLD_AFTER (progress.h) ---- */
static int hold_state = -1; /* -1: the environment not read yet; 0: off (or held already); 1: armed */
static size_t hold_at;

static void hold_read_env(void) {
  if (hold_state < 0) {
    const char *v = getenv("IMPACTFIT_TEST_HOLD_AFTER");
    char *end = NULL;
    hold_state = 0;
    if (v && v[0] >= '0' && v[0] <= '9') {
      unsigned long long n = strtoull(v, &end, 10);
      if (*end == '\0') {
        hold_at = (size_t)n;
        hold_state = 1;
      }
    }
  }
}

int cli_test_hold_due(size_t done) {
  hold_read_env();
  if (hold_state != 1 || done < hold_at)
    return 0;
  hold_state = 0;
  return 1;
}

void cli_test_hold_from(size_t start) {
  hold_read_env();
  if (hold_state == 1 && start >= hold_at)
    hold_state = 0;
}

void cli_test_hold_wait(int (*stopped)(void)) {
  /* 10 ms naps, 10 minutes at most: a signal with the default action ends the process meanwhile */
  for (long i = 0; i < 60000 && !(stopped && stopped()); i++)
    nanosleep(&(struct timespec){0, 10000000L}, NULL);
}
