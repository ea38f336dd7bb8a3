/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Sweep definitions built by API calls (include/impactfit/sweep.h, impactfit_sweep_def_*).
 *
 * The builder records the calls and writes them as a canonical definition text (the INI format of
 * impactfit_sweep_load, numbers with %.17g in the C locale, so every double is kept exactly); the
 * sweep is that text parsed with the one problem given. One validator (the parser) for files and
 * for built definitions, and a built sweep has a hash (XXH64 of its canonical text) like a loaded
 * one: resumed runs and fits can check that they belong to it. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/common_impl.h"
#include "sweep_internal.h"

struct impactfit_sweep_def {
  const impactfit_sweep_problem *problem;
  char *name;
  char *fixed, *axes, *outputs; /* the [fixed] and [axes] lines, the outputs value */
  size_t fixed_len, axes_len;
  int nomem;
};

static int add(impactfit_sweep_def *d, char **buf, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int add(impactfit_sweep_def *d, char **buf, size_t *len, const char *fmt, ...) {
  char tmp[1100];
  va_list ap;
  va_start(ap, fmt);
  void *loc = impactfit__locale_push();
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  impactfit__locale_pop(loc);
  va_end(ap);
  if (n < 0 || (size_t)n >= sizeof tmp)
    return IMPACTFIT_EINVAL;
  char *nb = realloc(*buf, *len + (size_t)n + 1);
  if (!nb) {
    d->nomem = 1;
    return IMPACTFIT_ENOMEM;
  }
  memcpy(nb + *len, tmp, (size_t)n + 1);
  *buf = nb;
  *len += (size_t)n;
  return IMPACTFIT_OK;
}

static int param_index(const impactfit_sweep_problem *pr, const char *param) {
  for (size_t i = 0; param && i < pr->n_params; i++)
    if (strcmp(pr->params[i].name, param) == 0)
      return (int)i;
  return -1;
}

static int check_name(const impactfit_sweep_def *d, const char *what, const char *key, impactfit_error *err) {
  if (!d)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no definition given");
  if (!key || !impactfit__identifier(key))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s: expected a name, got '%s'", what, key ? key : "");
  return IMPACTFIT_OK;
}

int impactfit_sweep_def_new(const impactfit_sweep_problem *problem, const char *name, impactfit_sweep_def **out,
                            impactfit_error *err) {
  if (!out)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no output given");
  *out = NULL;
  if (!problem || !problem->name)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no problem given");
  if (!name || !*name || strchr(name, '\n'))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "a built sweep needs a name (one line)");
  impactfit_sweep_def *d = calloc(1, sizeof *d);
  if (!d || !(d->name = strdup(name))) {
    free(d);
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  }
  d->problem = problem;
  *out = d;
  return IMPACTFIT_OK;
}

void impactfit_sweep_def_free(impactfit_sweep_def *d) {
  if (!d)
    return;
  free(d->name);
  free(d->fixed);
  free(d->axes);
  free(d->outputs);
  free(d);
}

int impactfit_sweep_def_fixed(impactfit_sweep_def *d, const char *param, double value, impactfit_error *err) {
  int st = check_name(d, "fixed", param, err);
  if (st)
    return st;
  if (!d->problem->specialize && param_index(d->problem, param) < 0) /* else: the options decide (build) */
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "problem %s has no parameter '%s'", d->problem->name, param);
  char num[32];
  impactfit__fmt_g17(num, value);
  if (add(d, &d->fixed, &d->fixed_len, "%s = %s\n", param, num))
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  return IMPACTFIT_OK;
}

int impactfit_sweep_def_option(impactfit_sweep_def *d, const char *option, const char *value, impactfit_error *err) {
  int st = check_name(d, "option", option, err);
  if (st)
    return st;
  if (!value || !*value || strlen(value) > 200 || strpbrk(value, "\n\r;#"))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "option %s: expected one word, got '%s'", option, value ? value : "");
  if (add(d, &d->fixed, &d->fixed_len, "%s = %s\n", option, value))
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  return IMPACTFIT_OK;
}

int impactfit_sweep_def_axis(impactfit_sweep_def *d, const char *param, impactfit_sweep_axis_kind kind, double start,
                             double stop, size_t count, impactfit_error *err) {
  int st = check_name(d, "axis", param, err);
  if (st)
    return st;
  if (kind != IMPACTFIT_AXIS_LINEAR && kind != IMPACTFIT_AXIS_LOG)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "axis %s: a range is linear or log (lists: "
                           "impactfit_sweep_def_axis_values)",
                           param);
  char a[32], b[32];
  impactfit__fmt_g17(a, start);
  impactfit__fmt_g17(b, stop);
  if (add(d, &d->axes, &d->axes_len, "%s = %s %s, %s, %zu\n", param, kind == IMPACTFIT_AXIS_LOG ? "log" : "linear", a,
          b, count))
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  return IMPACTFIT_OK;
}

int impactfit_sweep_def_axis_values(impactfit_sweep_def *d, const char *param, const double *values, size_t n,
                                    impactfit_error *err) {
  int st = check_name(d, "axis", param, err);
  if (st)
    return st;
  if (!values || n == 0)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "axis %s: no values", param);
  /* 6 values a line: every line stays below the 200 characters of the inih build the library reads
   * definitions with */
  st = add(d, &d->axes, &d->axes_len, "%s = list", param);
  for (size_t i = 0; i < n && !st; i++) {
    char num[32];
    impactfit__fmt_g17(num, values[i]);
    st = add(d, &d->axes, &d->axes_len, "%s%s%s", i && i % 6 == 0 ? "\n   " : " ", num, i + 1 < n ? "," : "\n");
  }
  if (st)
    return IMPACTFIT__FAIL(err, st, "out of memory");
  return IMPACTFIT_OK;
}

int impactfit_sweep_def_outputs(impactfit_sweep_def *d, const char *const *outputs, size_t n, impactfit_error *err) {
  if (!d)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no definition given");
  char *list = NULL;
  size_t len = 0;
  for (size_t i = 0; i < n; i++) {
    if (!outputs[i] || !impactfit__identifier(outputs[i])) {
      free(list);
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "outputs: expected names");
    }
    if (add(d, &list, &len, "%s%s", i ? ", " : "", outputs[i])) {
      free(list);
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
    }
  }
  free(d->outputs);
  d->outputs = list;
  return IMPACTFIT_OK;
}

int impactfit_sweep_def_text(const impactfit_sweep_def *d, char **text, size_t *len, impactfit_error *err) {
  if (!d || !text)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no definition given");
  *text = NULL;
  if (len)
    *len = 0;
  if (d->nomem)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory while building the definition");
  impactfit_sweep_def *w = (impactfit_sweep_def *)d; /* add() only marks nomem */
  char *t = NULL;
  size_t n = 0;
  int st = add(w, &t, &n, "; built by API calls (impactfit_sweep_def_*)\n[sweep]\nproblem = %s\n", d->problem->name);
  if (!st && d->outputs)
    st = add(w, &t, &n, "outputs = %s\n", d->outputs);
  if (!st && d->fixed) {
    st = add(w, &t, &n, "[fixed]\n");
    char *nt = st ? NULL : realloc(t, n + d->fixed_len + 1);
    if (!nt)
      st = IMPACTFIT_ENOMEM;
    else {
      t = nt;
      memcpy(t + n, d->fixed, d->fixed_len + 1);
      n += d->fixed_len;
    }
  }
  if (!st) {
    st = add(w, &t, &n, "[axes]\n");
    if (!st && d->axes) {
      char *nt = realloc(t, n + d->axes_len + 1);
      if (!nt)
        st = IMPACTFIT_ENOMEM;
      else {
        t = nt;
        memcpy(t + n, d->axes, d->axes_len + 1);
        n += d->axes_len;
      }
    }
  }
  if (st) {
    free(t);
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory while building the definition");
  }
  *text = t;
  if (len)
    *len = n;
  return IMPACTFIT_OK;
}

int impactfit_sweep_def_build(const impactfit_sweep_def *d, impactfit_sweep **out, impactfit_error *err) {
  if (!out)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no output given");
  *out = NULL;
  char *text;
  size_t len;
  int st = impactfit_sweep_def_text(d, &text, &len, err);
  if (st)
    return st;
  const impactfit_sweep_problem *one[1] = {d->problem};
  st = impactfit_sweep_parse_with(text, len, d->name, one, 1, out, err);
  free(text);
  return st;
}
