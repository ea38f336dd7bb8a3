/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tables of numbers read from CSV with a header row (include/impactfit/table.h). The CSV dialect is
 * the one impactfit writes: no quoting, '\n' (or "\r\n") line ends, numeric cells parsed strictly,
 * and an optional "status" column whose value OK marks usable rows. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/common_impl.h"
#include "../common/io_impl.h"
#include "table_impl.h"

struct impactfit_table {
  size_t ncols, rows, cap;
  char **names;
  double **cols;
  unsigned char *ok;
};

void impactfit_table_free(impactfit_table *t) {
  if (!t)
    return;
  for (size_t j = 0; j < t->ncols; j++) {
    if (t->names)
      free(t->names[j]);
    if (t->cols)
      free(t->cols[j]);
  }
  free(t->names);
  free(t->cols);
  free(t->ok);
  free(t);
}

int impactfit__table_new(size_t ncols, const char *const *names, impactfit_table **out, impactfit_error *err) {
  *out = NULL;
  impactfit_table *t = calloc(1, sizeof *t);
  if (!t)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  t->names = calloc(ncols ? ncols : 1, sizeof *t->names);
  t->cols = calloc(ncols ? ncols : 1, sizeof *t->cols);
  t->ncols = ncols;
  int bad = !t->names || !t->cols;
  for (size_t j = 0; j < ncols && !bad; j++)
    bad = !(t->names[j] = strdup(names[j]));
  if (bad) {
    impactfit_table_free(t);
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  }
  *out = t;
  return IMPACTFIT_OK;
}

int impactfit__table_add_row(impactfit_table *t, const double *values, int ok, impactfit_error *err) {
  if (t->rows == t->cap) {
    size_t nc = t->cap ? 2 * t->cap : 64;
    unsigned char *nok = realloc(t->ok, nc);
    if (!nok)
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
    t->ok = nok;
    for (size_t j = 0; j < t->ncols; j++) {
      double *nv = realloc(t->cols[j], nc * sizeof *nv);
      if (!nv)
        return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
      t->cols[j] = nv;
    }
    t->cap = nc;
  }
  for (size_t j = 0; j < t->ncols; j++)
    t->cols[j][t->rows] = values[j];
  t->ok[t->rows] = (unsigned char)(ok != 0);
  t->rows++;
  return IMPACTFIT_OK;
}

/* Splits line [p, end) at commas into at most max fields (NUL-terminating them in place). */
static size_t split(char *p, char **fields, size_t max) {
  size_t n = 0;
  for (;;) {
    if (n < max)
      fields[n] = p;
    n++;
    char *c = strchr(p, ',');
    if (!c)
      break;
    *c = '\0';
    p = c + 1;
  }
  return n;
}

int impactfit_table_parse_csv(const char *text, size_t len, const char *name, impactfit_table **out,
                              impactfit_error *err) {
  *out = NULL;
  char *buf = malloc(len + 1);
  if (!buf)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  memcpy(buf, text, len);
  buf[len] = '\0';
  if (memchr(text, '\0', len)) {
    free(buf);
    return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "%s: NUL byte in a CSV file", name);
  }
  int st = IMPACTFIT_OK;
  impactfit_table *t = NULL;
  char **fields = NULL;
  double *vals = NULL;
  size_t nf = 0;
  long status_col = -1;
  int line = 0;
  char *p = buf;
  while (*p) {
    char *nl = strchr(p, '\n');
    if (nl)
      *nl = '\0';
    size_t l = strlen(p);
    if (l && p[l - 1] == '\r')
      p[l - 1] = '\0';
    line++;
    if (line == 1) {
      nf = 1;
      for (char *q = p; *q; q++)
        nf += (*q == ',');
      fields = malloc(nf * sizeof *fields);
      if (!fields) {
        st = IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
        goto done;
      }
      split(p, fields, nf);
      const char *names[4096];
      size_t nc = 0;
      if (nf > 4096) {
        st = IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "%s:1: more than 4096 columns", name);
        goto done;
      }
      for (size_t j = 0; j < nf; j++) {
        if (!fields[j][0]) {
          st = IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "%s:1: empty column name (column %zu)", name, j + 1);
          goto done;
        }
        /* a name with a control character (a stray \r, say) could not be written back and read again */
        for (const char *q = fields[j]; *q; q++)
          if ((unsigned char)*q < 0x20 || *q == 0x7f) {
            st = IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "%s:1: control character 0x%02x in the name of column %zu",
                                 name, (unsigned)(unsigned char)*q, j + 1);
            goto done;
          }
        for (size_t k = 0; k < j; k++)
          if (strcmp(fields[k], fields[j]) == 0) {
            st = IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "%s:1: column '%s' appears twice", name, fields[j]);
            goto done;
          }
        if (strcmp(fields[j], "status") == 0)
          status_col = (long)j;
        else
          names[nc++] = fields[j];
      }
      if ((st = impactfit__table_new(nc, names, &t, err)))
        goto done;
      vals = malloc((nc ? nc : 1) * sizeof *vals);
      if (!vals) {
        st = IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
        goto done;
      }
    } else if (p[0]) {
      size_t n = split(p, fields, nf);
      if (n != nf) {
        st = IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "%s:%d: %zu fields, the header has %zu", name, line, n, nf);
        goto done;
      }
      int ok = (status_col < 0) || strcmp(fields[status_col], "OK") == 0;
      size_t c = 0;
      for (size_t j = 0; j < nf; j++) {
        if ((long)j == status_col)
          continue;
        if (!fields[j][0] && !ok) {
          vals[c++] = 0.0;
          continue;
        }
        char what[128];
        snprintf(what, sizeof what, "%s:%d: column %.60s", name, line, t->names[c]);
        impactfit_error e2;
        if (impactfit__parse_number(what, fields[j], &vals[c], &e2)) {
          st = IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "%s", e2.message);
          goto done;
        }
        c++;
      }
      if ((st = impactfit__table_add_row(t, vals, ok, err)))
        goto done;
    }
    if (!nl)
      break;
    p = nl + 1;
  }
  if (!t)
    st = IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "%s: empty (no header row)", name);
done:
  free(buf);
  free(fields);
  free(vals);
  if (st) {
    impactfit_table_free(t);
    return st;
  }
  *out = t;
  return IMPACTFIT_OK;
}

int impactfit_table_read_csv(const char *path, impactfit_table **out, impactfit_error *err) {
  *out = NULL;
  char *text;
  size_t len;
  int st = impactfit__read_file(path, &text, &len, err);
  if (st)
    return st;
  st = impactfit_table_parse_csv(text, len, path, out, err);
  free(text);
  return st;
}

size_t impactfit_table_rows(const impactfit_table *t) { return t->rows; }
size_t impactfit_table_cols(const impactfit_table *t) { return t->ncols; }
const char *impactfit_table_col_name(const impactfit_table *t, size_t j) { return j < t->ncols ? t->names[j] : NULL; }
const double *impactfit_table_col(const impactfit_table *t, size_t j) { return j < t->ncols ? t->cols[j] : NULL; }
int impactfit_table_row_ok(const impactfit_table *t, size_t i) { return i < t->rows && t->ok[i]; }

int impactfit_table_find(const impactfit_table *t, const char *name) {
  for (size_t j = 0; j < t->ncols; j++)
    if (strcmp(t->names[j], name) == 0)
      return (int)j;
  return -1;
}

int impactfit_table_to_csv(const impactfit_table *t, char **text, size_t *len, impactfit_error *err) {
  size_t cap = 64 + t->ncols * 40 + t->rows * (t->ncols * 32 + 2);
  for (size_t j = 0; j < t->ncols; j++)
    cap += strlen(t->names[j]);
  char *s = malloc(cap), *p = s;
  if (!s)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  for (size_t j = 0; j < t->ncols; j++)
    p += sprintf(p, "%s%s", j ? "," : "", t->names[j]);
  *p++ = '\n';
  for (size_t i = 0; i < t->rows; i++) {
    for (size_t j = 0; j < t->ncols; j++) {
      if (j)
        *p++ = ',';
      p += impactfit__fmt_g17(p, t->cols[j][i]);
    }
    *p++ = '\n';
  }
  *p = '\0';
  *text = s;
  *len = (size_t)(p - s);
  return IMPACTFIT_OK;
}
