/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A growable text (include/impactfit/common.h): the registry's answers, notes and messages, never cut. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impactfit/common.h"

/* room for `more` characters and the NUL */
static int grow(impactfit_text *t, size_t more) {
  if (t->len + more + 1 <= t->cap)
    return 0;
  size_t cap = t->cap ? t->cap : 256;
  while (cap < t->len + more + 1)
    cap *= 2;
  char *s = realloc(t->s, cap);
  if (!s) {
    t->failed = 1;
    return -1;
  }
  t->s = s;
  t->cap = cap;
  return 0;
}

void impactfit_text_appendf(impactfit_text *t, const char *fmt, ...) {
  if (!t || t->failed)
    return;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0 || grow(t, (size_t)n))
    return;
  va_start(ap, fmt);
  vsnprintf(t->s + t->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  t->len += (size_t)n;
}

const char *impactfit_text_str(const impactfit_text *t) { return t && t->s ? t->s : ""; }

char *impactfit_text_take(impactfit_text *t) {
  if (!t)
    return NULL;
  char *s = t->s;
  if (!s && (s = malloc(1)))
    s[0] = '\0';
  t->s = NULL;
  t->len = t->cap = 0;
  t->failed = 0;
  return s;
}

void impactfit_text_free(impactfit_text *t) {
  if (!t)
    return;
  free(t->s);
  t->s = NULL;
  t->len = t->cap = 0;
  t->failed = 0;
}
