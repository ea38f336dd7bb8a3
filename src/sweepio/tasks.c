/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A run computed by several processes (sweep_io.h): the parts (a task's rows and failures in memory)
 * and the scheduler that hands out tasks and writes their parts in order. No transport here. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/common_impl.h"
#include "sweepio_impl.h"

/* ---- parts ---- */

/* Room for n bytes (and a NUL) in *buf of capacity *cap, growing by doubling; 0 or -1. */
static int grow(char **buf, size_t *cap, size_t n) {
  if (n + 1 <= *cap)
    return 0;
  size_t c = 2 * (n + 1);
  char *q = realloc(*buf, c);
  if (!q)
    return -1;
  *buf = q;
  *cap = c;
  return 0;
}

void impactfit_sweep_part_start(impactfit_sweep_part *p, size_t first, size_t count) {
  p->first = first;
  p->count = count;
  p->rows_len = p->fails_len = 0;
  p->covered = p->failed = 0;
  p->bad = 0;
}

int impactfit_sweep_part_rows(void *ctx, size_t first, size_t count, const char *rows, size_t len) {
  impactfit_sweep_part *p = ctx;
  if (first != p->first + p->covered || grow(&p->rows, &p->rows_cap, p->rows_len + len)) {
    p->bad = 1;
    return IMPACTFIT_EIO;
  }
  memcpy(p->rows + p->rows_len, rows, len);
  p->rows_len += len;
  p->covered = first + count - p->first;
  return 0;
}

void impactfit_sweep_part_failure(void *ctx, size_t index, int status, const char *message) {
  impactfit_sweep_part *p = ctx;
  char line[700];
  int n = snprintf(line, sizeof line, "%zu %d %s\n", index, status, message ? message : "");
  if (n < 0 || (size_t)n >= sizeof line)
    n = (int)sizeof line - 1, line[n - 1] = '\n';
  p->failed++;
  if (grow(&p->fails, &p->fails_cap, p->fails_len + (size_t)n)) {
    p->bad = 1;
    return;
  }
  memcpy(p->fails + p->fails_len, line, (size_t)n);
  p->fails_len += (size_t)n;
}

int impactfit_sweep_part_reserve(impactfit_sweep_part *p, size_t rows_len, size_t fails_len) {
  if (rows_len + 1 > p->rows_cap) { /* exactly what arrives: a received part is not appended to */
    char *q = realloc(p->rows, rows_len + 1);
    if (!q)
      return IMPACTFIT_ENOMEM;
    p->rows = q;
    p->rows_cap = rows_len + 1;
  }
  if (fails_len + 1 > p->fails_cap) {
    char *q = realloc(p->fails, fails_len + 1);
    if (!q)
      return IMPACTFIT_ENOMEM;
    p->fails = q;
    p->fails_cap = fails_len + 1;
  }
  p->rows_len = rows_len;
  p->fails_len = fails_len;
  return 0;
}

int impactfit_sweep_part_run(const impactfit_sweep *s, const impactfit_sweep_run_params *rp, impactfit_sweep_part *p,
                             impactfit_error *err) {
  impactfit_sweep_run_params q = *rp;
  q.first = p->first;
  q.count = p->count;
  q.work = p->count < 1000000 ? p->count : 1000000; /* one parallel block per task */
  return impactfit_sweep_run(s, &q, impactfit_sweep_part_rows, impactfit_sweep_part_failure, p, NULL, err);
}

void impactfit_sweep_part_free(impactfit_sweep_part *p) {
  free(p->rows);
  free(p->fails);
  p->rows = p->fails = NULL;
  p->rows_cap = p->fails_cap = p->rows_len = p->fails_len = 0;
}

/* Passes the failure lines of a part to the output. */
static void write_failures(impactfit_sweep_output *o, const char *p, size_t len) {
  const char *end = p + len;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    if (!nl)
      break;
    char line[700];
    size_t l = (size_t)(nl - p) < sizeof line - 1 ? (size_t)(nl - p) : sizeof line - 1;
    memcpy(line, p, l);
    line[l] = '\0';
    size_t index;
    int status, off = 0;
    if (sscanf(line, "%zu %d %n", &index, &status, &off) == 2)
      impactfit_sweep_output_failure(o, index, status, line + off);
    p = nl + 1;
  }
}

/* ---- the scheduler ---- */

struct impactfit_sweep_tasks {
  impactfit_sweep_output *o;
  int workers;
  size_t G, S, last, next_pos, next_task, next_write, window; /* S: groups per task at most */
  impactfit_sweep_part *ring;
  size_t *per_worker;
  int stopping, write_blocked, status;
};

int impactfit_sweep_tasks_new(const impactfit_sweep *s, const impactfit_sweep_run_params *rp, int workers, int threads,
                              impactfit_sweep_output *o, size_t *points_per_worker, impactfit_sweep_tasks **out,
                              impactfit_error *err) {
  *out = NULL;
  impactfit_sweep_tasks *t = calloc(1, sizeof *t);
  if (t)
    t->window = 4 * (size_t)(workers > 0 ? workers : 1) + 4;
  if (!t || !(t->ring = calloc(t->window, sizeof *t->ring))) {
    free(t);
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory for the results of the ranks");
  }
  t->o = o;
  t->workers = workers;
  t->per_worker = points_per_worker;
  t->next_pos = rp->first;
  t->last = rp->count ? rp->first + rp->count : impactfit_sweep_point_count(s);
  /* groups of G points, about four units per thread of the processes */
  const impactfit_sweep_problem *pr = impactfit_sweep_get_problem(s);
  size_t B = impactfit_sweep_block_size(s, rp->block);
  size_t L = pr->solve_run ? impactfit_sweep_get_axis(s, impactfit_sweep_axis_count(s) - 1)->count : 1;
  t->G = L < B ? L : B;
  t->S = 4 * (size_t)(threads > 0 ? threads : 1);
  while (t->S > 1 && t->S * t->G > 262144) /* bounded memory per task */
    t->S /= 2;
  *out = t;
  return 0;
}

impactfit_sweep_part *impactfit_sweep_tasks_claim(impactfit_sweep_tasks *t, int worker) {
  if (t->stopping || t->next_pos >= t->last || t->next_task >= t->next_write + t->window)
    return NULL;
  /* guided: S groups, fewer towards the end (the remaining groups over twice the processes) */
  size_t g0 = t->next_pos / t->G, groups_left = (t->last - 1) / t->G - g0 + 1;
  size_t q = (groups_left + 2 * (size_t)t->workers - 1) / (2 * (size_t)t->workers);
  if (q > t->S)
    q = t->S;
  if (q < 1)
    q = 1;
  size_t end = (g0 + q) * t->G;
  if (end > t->last)
    end = t->last;
  size_t task = t->next_task++;
  impactfit_sweep_part *p = &t->ring[task % t->window];
  impactfit_sweep_part_start(p, t->next_pos, end - t->next_pos);
  p->state = IMPACTFIT_SWEEP_PART_ASSIGNED;
  p->worker = worker;
  p->task = task;
  t->next_pos = end;
  return p;
}

impactfit_sweep_part *impactfit_sweep_tasks_find(impactfit_sweep_tasks *t, size_t task, int worker) {
  impactfit_sweep_part *p = &t->ring[task % t->window];
  return p->state == IMPACTFIT_SWEEP_PART_ASSIGNED && p->task == task && p->worker == worker ? p : NULL;
}

impactfit_sweep_part *impactfit_sweep_tasks_slot(impactfit_sweep_tasks *t, size_t i) { return &t->ring[i]; }
size_t impactfit_sweep_tasks_window(const impactfit_sweep_tasks *t) { return t->window; }

void impactfit_sweep_tasks_stop(impactfit_sweep_tasks *t, int status) {
  t->stopping = 1;
  if (!t->status)
    t->status = status;
}

int impactfit_sweep_tasks_stopping(const impactfit_sweep_tasks *t) { return t->stopping; }

void impactfit_sweep_tasks_done(impactfit_sweep_tasks *t, impactfit_sweep_part *p, int interrupted) {
  p->state = IMPACTFIT_SWEEP_PART_DONE;
  if (interrupted) /* its process was stopped (a signal on its node): stop everybody */
    impactfit_sweep_tasks_stop(t, IMPACTFIT_EINTR);
}

/* Ends the writing with status (the run stops). */
static void block_writes(impactfit_sweep_tasks *t, int status) {
  t->write_blocked = 1;
  impactfit_sweep_tasks_stop(t, status);
}

void impactfit_sweep_tasks_write(impactfit_sweep_tasks *t) {
  while (!t->write_blocked && t->next_write < t->next_task) {
    impactfit_sweep_part *p = &t->ring[t->next_write % t->window];
    if (p->state != IMPACTFIT_SWEEP_PART_DONE || p->task != t->next_write)
      return;
    if (p->bad) {
      block_writes(t, IMPACTFIT_ENOMEM);
      return;
    }
    write_failures(t->o, p->fails, p->fails_len);
    if ((p->covered || p->rows_len) &&
        impactfit_sweep_output_rows(t->o, p->first, p->covered, p->rows ? p->rows : "", p->rows_len)) {
      block_writes(t, IMPACTFIT_EIO);
      return;
    }
    if (p->covered < p->count) { /* an interrupted task ends what can be written */
      block_writes(t, IMPACTFIT_EINTR);
      return;
    }
    if (t->per_worker) /* rows, i.e. points computed (a shard computes part of each task) */
      for (size_t i = 0; i < p->rows_len; i++)
        t->per_worker[p->worker] += p->rows[i] == '\n';
    p->state = IMPACTFIT_SWEEP_PART_FREE;
    t->next_write++;
  }
}

int impactfit_sweep_tasks_finished(const impactfit_sweep_tasks *t) {
  return t->next_pos >= t->last && t->next_write == t->next_task;
}

int impactfit_sweep_tasks_status(const impactfit_sweep_tasks *t) {
  if (t->status)
    return t->status;
  return impactfit_sweep_tasks_finished(t) ? 0 : IMPACTFIT_EINTR;
}

void impactfit_sweep_tasks_free(impactfit_sweep_tasks *t) {
  if (!t)
    return;
  for (size_t i = 0; i < t->window; i++)
    impactfit_sweep_part_free(&t->ring[i]);
  free(t->ring);
  free(t);
}
