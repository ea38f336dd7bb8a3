/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Status codes and error reports (include/impactfit/common.h). */
#include "common_impl.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "impactfit/version.h"

const char *impactfit_strerror(int status) {
  switch (status) {
#define IMPACTFIT__STATUS_MSG(name, value, msg) \
  case value:                                   \
    return msg;
    IMPACTFIT_STATUS_LIST(IMPACTFIT__STATUS_MSG)
#undef IMPACTFIT__STATUS_MSG
  default:
    return "unknown status";
  }
}

const char *impactfit_status_name(int status) {
  switch (status) {
#define IMPACTFIT__STATUS_NAME(name, value, msg) \
  case value:                                    \
    return #name;
    IMPACTFIT_STATUS_LIST(IMPACTFIT__STATUS_NAME)
#undef IMPACTFIT__STATUS_NAME
  default:
    return "UNKNOWN";
  }
}

int impactfit_status_is_input_error(int status) { return status == IMPACTFIT_EINVAL || status == IMPACTFIT_EPARSE; }

void impactfit_error_clear(impactfit_error *err) {
  if (!err)
    return;
  err->status = IMPACTFIT_OK;
  err->message[0] = '\0';
  err->file = NULL;
  err->line = 0;
}

const char *impactfit_version(void) { return IMPACTFIT_VERSION_STRING; }

int impactfit_all_or_none(size_t n, const double *values, const char *const *names, int *all, impactfit_error *err) {
  size_t given = 0;
  for (size_t i = 0; i < n; i++)
    given += !isnan(values[i]);
  if (all)
    *all = n > 0 && given == n;
  if (given == 0 || given == n)
    return 0;
  char set[256] = "", got[256] = "";
  for (size_t i = 0, g = 0; i < n; i++) {
    size_t len = strlen(set);
    snprintf(set + len, sizeof set - len, "%s%s", i == 0 ? "" : (i + 1 == n ? " and " : ", "), names[i]);
    if (!isnan(values[i])) {
      len = strlen(got);
      snprintf(got + len, sizeof got - len, "%s%s", g == 0 ? "" : (g + 1 == given ? " and " : ", "), names[i]);
      g++;
    }
  }
  if (n == 2)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "give both %s, or neither (only %s given)", set, got);
  return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "give all of %s, or none (only %s given)", set, got);
}

/* Edit distance (insertions, deletions, substitutions, transpositions of neighbours), ignoring
 * case, between a[0..la) and b; words longer than 63 characters are not compared (returns a large
 * value). */
static int lower(char c) { return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c; } /* ASCII, any locale */

static size_t edit_distance(const char *a, size_t la, const char *b) {
  size_t lb = strlen(b);
  if (la > 63 || lb > 63)
    return 1000;
  size_t d[64][64];
  for (size_t i = 0; i <= la; i++)
    d[i][0] = i;
  for (size_t j = 0; j <= lb; j++)
    d[0][j] = j;
  for (size_t i = 1; i <= la; i++)
    for (size_t j = 1; j <= lb; j++) {
      int same = lower(a[i - 1]) == lower(b[j - 1]);
      size_t best = d[i - 1][j - 1] + !same;
      if (d[i - 1][j] + 1 < best)
        best = d[i - 1][j] + 1;
      if (d[i][j - 1] + 1 < best)
        best = d[i][j - 1] + 1;
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1]) &&
          d[i - 2][j - 2] + 1 < best)
        best = d[i - 2][j - 2] + 1;
      d[i][j] = best;
    }
  return d[la][lb];
}

const char *impactfit_closest_name(const char *word, const char *const *candidates, size_t n) {
  if (!word || !candidates)
    return NULL;
  size_t len = strlen(word);
  const char *best = NULL;
  size_t bestd = (size_t)-1;
  /* at most 1 edit for short words, 2 from 5 characters on: closer guesses are noise */
  size_t limit = len < 5 ? 1 : 2;
  for (size_t i = 0; i < n; i++) {
    size_t dist = edit_distance(word, len, candidates[i]);
    if (dist < bestd) {
      bestd = dist;
      best = candidates[i];
    }
  }
  return bestd <= limit ? best : NULL;
}

int impactfit_version_in_range(long key, long min, long max) {
  return key != 0 && (min == 0 || key >= min) && (max == 0 || key <= max);
}

int impactfit__fail(impactfit_error *err, int status, const char *file, int line, const char *fmt, ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    impactfit_shorten_numbers(err->message); /* numbers as typed: "got 0.6", not 0.59999999999999998 */
    err->status = status;
    err->file = file;
    err->line = line;
  }
  return status;
}

/* The GSL handler scope (common_impl.h). gsl_set_error_handler() writes one process-wide pointer
 * and is not thread-safe: only the first thread to enter and the last to leave touch it, under
 * gsl_lock. A thread already inside (a nested impactfit call) only counts on its own. */
static pthread_mutex_t gsl_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long gsl_threads;             /* threads inside a scope (gsl_lock) */
static gsl_error_handler_t *gsl_host;         /* the handler found at the first entry (gsl_lock) */
static _Thread_local unsigned long gsl_depth; /* this thread's nesting */

impactfit__gsl_scope impactfit__gsl_enter(void) {
  impactfit__gsl_scope s = {0};
  if (gsl_depth++ > 0)
    return s;
  pthread_mutex_lock(&gsl_lock);
  if (gsl_threads++ == 0)
    gsl_host = gsl_set_error_handler_off();
  pthread_mutex_unlock(&gsl_lock);
  return s;
}

void impactfit__gsl_leave(impactfit__gsl_scope *s) {
  (void)s;
  if (--gsl_depth > 0)
    return;
  pthread_mutex_lock(&gsl_lock);
  if (--gsl_threads == 0)
    gsl_set_error_handler(gsl_host);
  pthread_mutex_unlock(&gsl_lock);
}
