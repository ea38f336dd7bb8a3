/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Test helpers for running sweeps and fit files in-process (after testutil.h, which provides
 * CHECK): a growing text buffer, the sweep runner's row callback that appends to it, and the
 * pipeline of a committed fit file (its sweep, its stages, and the header it generates compared
 * byte for byte with the committed one). */
#ifndef IMPACTFIT_TESTSWEEP_H
#define IMPACTFIT_TESTSWEEP_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impactfit/impactfit.h"

typedef struct sink {
  char *p;
  size_t len, cap;
} sink;

static inline void append(sink *s, const char *t, size_t len) {
  if (s->len + len + 1 > s->cap) {
    s->cap = 2 * (s->len + len + 1);
    s->p = realloc(s->p, s->cap);
  }
  memcpy(s->p + s->len, t, len);
  s->len += len;
  s->p[s->len] = '\0';
}

/* impactfit_sweep_run's row callback: ctx is a sink */
static inline int on_rows(void *ctx, size_t first, size_t count, const char *rows, size_t len) {
  (void)first;
  (void)count;
  append(ctx, rows, len);
  return 0;
}

/* The whole file at path, NUL-terminated (NULL if it cannot be read); its length in *len. */
static inline char *read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  sink s = {NULL, 0, 0};
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0)
    append(&s, buf, n);
  fclose(f);
  *len = s.len;
  return s.p;
}

/* Runs SRC/fits/FIT_NAME.ini: its sweep in-process, then its stages, and checks that the header it
 * generates equals SRC/include/impactfit/generated/FIT_NAME.h byte for byte. Returns the fitted
 * fit file (NULL on failure) and, if data is not NULL, the sweep's table in *data. */
static inline impactfit_fitfile *fit_pipeline(const char *src, const char *fit_name, impactfit_table **data) {
  char path[4096];
  snprintf(path, sizeof path, "%s/fits/%s.ini", src, fit_name);
  impactfit_error err;
  impactfit_error_clear(&err);
  impactfit_fitfile *f = NULL;
  if (impactfit_fitfile_load(path, &f, &err)) {
    CHECK(0, "load %s: %.150s", fit_name, err.message);
    return NULL;
  }
  const impactfit_sweep *s = impactfit_fitfile_sweep(f);
  impactfit_sweep_summary sum;
  impactfit_table *t = NULL;
  int st = impactfit_sweep_run_table(s, NULL, &t, &sum, &err);
  if (!st)
    st = impactfit_fitfile_run_table(f, t, IMPACTFIT_FITFILE_SAME_GRID, &err);
  CHECK(st == 0 && sum.failed == 0, "%s: sweep and fits run: %.150s", fit_name, err.message);
  if (st) {
    impactfit_table_free(t);
    impactfit_fitfile_free(f);
    return NULL;
  }
  char *text = NULL;
  size_t len = 0, got = 0;
  impactfit_codegen_header(f, &text, &len, &err);
  snprintf(path, sizeof path, "%s/include/impactfit/generated/%s.h", src, fit_name);
  char *old = read_all(path, &got);
  CHECK(text && old && got == len && memcmp(old, text, len) == 0,
        "%s: regenerated header equals the committed one (regenerate it with impactfit fit)", fit_name);
  free(old);
  free(text);
  if (data)
    *data = t;
  else
    impactfit_table_free(t);
  return f;
}

#endif
