/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Sweep definition files, grid enumeration and the CSV header (include/impactfit/sweep.h). */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/common_impl.h"
#include "sweep_internal.h"

#define MAX_POINTS 1e9 /* a billion points: about 7 hours at 40,000 points/s; check() runs on all of them first */


static int find_param(const impactfit_sweep_problem *pr, const char *name) {
  for (size_t i = 0; i < pr->n_params; i++)
    if (strcmp(pr->params[i].name, name) == 0)
      return (int)i;
  return -1;
}

static int find_option(const impactfit_sweep_problem *pr, const char *name) {
  for (size_t i = 0; i < pr->n_options; i++)
    if (strcmp(pr->options[i].name, name) == 0)
      return (int)i;
  return -1;
}

/* Checks a value against a parameter's range and integrality. */
static int check_value(const impactfit_sweep_param *p, double v, impactfit_error *err) {
  int lo_ok = (p->flags & IMPACTFIT_SWEEP_MIN_EXCLUSIVE) ? v > p->min : v >= p->min;
  int hi_ok = (p->flags & IMPACTFIT_SWEEP_MAX_EXCLUSIVE) ? v < p->max : v <= p->max;
  if (!lo_ok || !hi_ok) {
    char lo[64] = "", hi[64] = "";
    if (p->min > -HUGE_VAL)
      snprintf(lo, sizeof lo, "%s %g", (p->flags & IMPACTFIT_SWEEP_MIN_EXCLUSIVE) ? ">" : ">=", p->min);
    if (p->max < HUGE_VAL)
      snprintf(hi, sizeof hi, "%s%s %g", lo[0] ? " and " : "",
               (p->flags & IMPACTFIT_SWEEP_MAX_EXCLUSIVE) ? "<" : "<=", p->max);
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s = %.17g is out of range (must be %s%s)", p->name, v, lo, hi);
  }
  if ((p->flags & IMPACTFIT_SWEEP_INTEGER) && v != floor(v))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s = %.17g must be a whole number", p->name, v);
  return IMPACTFIT_OK;
}

static void list_names(char *buf, size_t size, const impactfit_sweep_problem *pr, int params, int options) {
  size_t used = 0;
  buf[0] = '\0';
  if (params)
    for (size_t i = 0; i < pr->n_params && used < size; i++)
      used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? ", " : "", pr->params[i].name);
  if (options)
    for (size_t i = 0; i < pr->n_options && used < size; i++)
      used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? ", " : "", pr->options[i].name);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* *dup = a value listed twice, or NaN. Sorting a copy: a list may hold millions of values (continuation
 * lines), where comparing every pair would take hours. */
static int find_duplicate(const double *v, size_t n, double *dup, impactfit_error *err) {
  *dup = NAN;
  double *w = malloc((n ? n : 1) * sizeof *w);
  if (!w)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  memcpy(w, v, n * sizeof *w);
  qsort(w, n, sizeof *w, cmp_double);
  for (size_t i = 1; i < n; i++)
    if (w[i] == w[i - 1]) {
      *dup = w[i];
      break;
    }
  free(w);
  return IMPACTFIT_OK;
}

/* ---- parsing ---- */

typedef struct parse_ctx {
  impactfit_sweep *s;
  /* keys seen before the problem is known are kept and applied afterwards */
  struct pending {
    char section[16];
    char *name, *value;
    int line, continuation;
  } * pend;
  size_t npend, cappend;
  int problem_line;
  char problem_name[64];
  const impactfit_sweep_problem *const *problems; /* the problems a definition may name; NULL: built-ins */
  size_t n_problems;
  double max_points; /* MAX_POINTS, or less (fuzzing) */
} parse_ctx;

static const impactfit_sweep_problem *lookup(const parse_ctx *c, const char *name) {
  if (!c->problems)
    return impactfit_sweep_problem_from_name(name);
  for (size_t i = 0; i < c->n_problems; i++)
    if (c->problems[i] && c->problems[i]->name && strcmp(c->problems[i]->name, name) == 0)
      return c->problems[i];
  return NULL;
}

static const impactfit_sweep_problem *known_at(const parse_ctx *c, size_t i) {
  if (!c->problems)
    return impactfit_sweep_problem_at(i);
  return i < c->n_problems ? c->problems[i] : NULL;
}

static int append_values(impactfit_sweep_axis *ax, double **store, size_t *cap, const char *text,
                         impactfit_error *err) {
  /* comma-separated numbers; empty fields are errors except a trailing comma */
  const char *p = text;
  for (;;) {
    while (*p == ' ' || *p == '\t')
      p++;
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
      len--;
    if (len == 0) {
      if (!comma && ax->count > 0 && p != text)
        break; /* trailing comma */
      return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "%s: empty value in the list", ax->name);
    }
    char tok[128];
    if (len >= sizeof tok)
      return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "%s: value too long: '%.40s...'", ax->name, p);
    memcpy(tok, p, len);
    tok[len] = '\0';
    double v;
    int st = impactfit__parse_number(ax->name, tok, &v, err);
    if (st)
      return st;
    if (ax->count == *cap) {
      size_t nc = *cap ? 2 * *cap : 16;
      double *nv = realloc(*store, nc * sizeof *nv);
      if (!nv)
        return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
      *store = nv;
      *cap = nc;
    }
    (*store)[ax->count++] = v;
    if (!comma)
      break;
    p = comma + 1;
    if (!*p)
      break;
  }
  return IMPACTFIT_OK;
}

static int parse_axis(impactfit_sweep *s, size_t ai, const char *value, double max_points, impactfit_error *err) {
  impactfit_sweep_axis *ax = &s->axes[ai];
  const char *p = value;
  size_t wl = 0;
  while (p[wl] && !isspace((unsigned char)p[wl]))
    wl++;
  const char *rest = p + wl;
  while (isspace((unsigned char)*rest))
    rest++;
  if (wl == 4 && strncmp(p, "list", 4) == 0) {
    ax->kind = IMPACTFIT_AXIS_LIST;
    if (!*rest)
      return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "%s: 'list' needs at least one value", ax->name);
    return append_values(ax, &s->axis_values[ai], &s->axis_cap[ai], rest, err);
  }
  int lin = (wl == 6 && strncmp(p, "linear", 6) == 0), lg = (wl == 3 && strncmp(p, "log", 3) == 0);
  if (!lin && !lg)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE,
                           "%s: expected 'list a, b, ...', 'linear start, stop, count' or "
                           "'log start, stop, count', got '%s'",
                           ax->name, value);
  ax->kind = lin ? IMPACTFIT_AXIS_LINEAR : IMPACTFIT_AXIS_LOG;
  impactfit_sweep_axis tmp = *ax;
  double *three = NULL;
  size_t cap = 0;
  tmp.count = 0;
  int st = append_values(&tmp, &three, &cap, rest, err);
  if (!st && tmp.count != 3)
    st = IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "%s: a %s range is 'start, stop, count' (3 numbers, got %zu)", ax->name,
                         lin ? "linear" : "log", tmp.count);
  if (st) {
    free(three);
    return st;
  }
  double a = three[0], b = three[1], c = three[2];
  free(three);
  if (c != floor(c) || c < 1)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s: count must be a whole number >= 1, got %.17g", ax->name, c);
  if (c > max_points)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s: count %.17g is too large (the grid has at most %.3g points)",
                           ax->name, c, max_points);
  size_t n = (size_t)c;
  if (n == 1 && a != b)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s: a range with count 1 needs start = stop", ax->name);
  if (lg && (a == 0.0 || b == 0.0 || (a < 0.0) != (b < 0.0)))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "%s: a log range needs start and stop non-zero and of the same sign "
                           "(got %.17g, %.17g)",
                           ax->name, a, b);
  if (n > 100000000)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s: count %zu is too large (at most 1e8 per axis)", ax->name, n);
  /* A range is kept as its ends: its values are computed when a point needs them
   * (impactfit_sweep_axis_value), so memory does not grow with the count; each is checked once here. */
  for (size_t i = 0; i < n; i++)
    if (!isfinite(impactfit_sweep_range_value(lin ? IMPACTFIT_AXIS_LINEAR : IMPACTFIT_AXIS_LOG, a, b, n, i)))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s: the range overflows", ax->name);
  free(s->axis_values[ai]);
  s->axis_values[ai] = NULL;
  s->axis_cap[ai] = 0;
  ax->count = n;
  ax->start = a;
  ax->stop = b;
  return IMPACTFIT_OK;
}

/* [sweep] outputs = name, name ...: the outputs wanted. */
static int key_outputs(impactfit_sweep *s, const char *value, int line, impactfit_error *err) {
  const impactfit_sweep_problem *pr = s->problem;
  if (s->outputs_line)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "outputs given twice (first on line %d)", s->outputs_line);
  s->outputs_line = line;
  memset(s->wanted, 0, pr->n_outputs);
  const char *p = value;
  int any = 0;
  while (*p) {
    while (*p == ' ' || *p == '\t' || *p == ',')
      p++;
    size_t len = 0;
    while (p[len] && p[len] != ',' && p[len] != ' ' && p[len] != '\t')
      len++;
    if (!len)
      break;
    size_t k;
    for (k = 0; k < pr->n_outputs; k++)
      if (strlen(pr->outputs[k]) == len && strncmp(pr->outputs[k], p, len) == 0)
        break;
    if (k == pr->n_outputs) {
      char all[512] = "";
      size_t used = 0;
      for (size_t j = 0; j < pr->n_outputs && used < sizeof all; j++)
        used += (size_t)snprintf(all + used, sizeof all - used, "%s%s", j ? ", " : "", pr->outputs[j]);
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "unknown output '%.*s' of %s (outputs: %s)", (int)len, p, pr->name,
                             all);
    }
    if (s->wanted[k])
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "output '%s' listed twice", pr->outputs[k]);
    s->wanted[k] = 1;
    any = 1;
    p += len;
  }
  if (!any)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "outputs: no output named");
  return IMPACTFIT_OK;
}

/* [fixed] name = value for the string option oi: one of its choices when it has a list. */
static int key_option(impactfit_sweep *s, int oi, const char *name, const char *value, int line, impactfit_error *err) {
  const impactfit_sweep_option *o = &s->problem->options[oi];
  if (s->option_line[oi])
    return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "%s given twice (first on line %d)", name, s->option_line[oi]);
  if (!value[0])
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s: empty value", name);
  if (o->choices) {
    int ok = 0;
    size_t vl = strlen(value);
    for (const char *q = o->choices; *q;) {
      const char *bar = strchr(q, '|');
      size_t len = bar ? (size_t)(bar - q) : strlen(q);
      if (len == vl && strncmp(q, value, len) == 0)
        ok = 1;
      if (!bar)
        break;
      q = bar + 1;
    }
    if (!ok)
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s: expected one of %s, got '%s'", name, o->choices, value);
  }
  char *copy = strdup(value);
  if (!copy)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  s->options[oi] = copy;
  s->option_line[oi] = line;
  return IMPACTFIT_OK;
}

/* [fixed] name = value: a numeric parameter or a string option. */
static int key_fixed(impactfit_sweep *s, const char *name, const char *value, int line, impactfit_error *err) {
  const impactfit_sweep_problem *pr = s->problem;
  int pi = find_param(pr, name), oi = find_option(pr, name);
  if (pi >= 0) {
    if (s->param_line[pi])
      return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "%s given twice (first on line %d)", name, s->param_line[pi]);
    double v;
    int st = impactfit__parse_number(name, value, &v, err);
    if (!st)
      st = check_value(&pr->params[pi], v, err);
    if (st)
      return st;
    s->fixed[pi] = v;
    s->param_line[pi] = line;
    return IMPACTFIT_OK;
  }
  if (oi >= 0)
    return key_option(s, oi, name, value, line, err);
  char all[512];
  list_names(all, sizeof all, pr, 1, 1);
  return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "unknown parameter '%s' of problem %s (it has: %s)", name, pr->name,
                         all);
}

/* [axes] name = values: a new axis, or (continuation) more values of the list axis on the line before. */
static int key_axis(parse_ctx *c, const char *name, const char *value, int line, int continuation,
                    impactfit_error *err) {
  impactfit_sweep *s = c->s;
  const impactfit_sweep_problem *pr = s->problem;
  int pi = find_param(pr, name);
  if (pi < 0) {
    char all[512];
    list_names(all, sizeof all, pr, 1, 0);
    if (find_option(pr, name) >= 0)
      return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE,
                             "%s is a string option and cannot be swept; fix it in [fixed] (one sweep "
                             "file per value)",
                             name);
    return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "unknown parameter '%s' of problem %s (it has: %s)", name, pr->name,
                           all);
  }
  if (continuation) {
    /* an indented line continues the list of the axis on the line before */
    if (s->n_axes == 0 || s->axes[s->n_axes - 1].param != pi || s->axes[s->n_axes - 1].kind != IMPACTFIT_AXIS_LIST)
      return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "continuation lines are only allowed in list axes");
    size_t ai = s->n_axes - 1;
    return append_values(&s->axes[ai], &s->axis_values[ai], &s->axis_cap[ai], value, err);
  }
  for (size_t a = 0; a < s->n_axes; a++)
    if (s->axes[a].param == pi)
      return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "duplicate axis %s (first on line %d)", name, s->axes[a].line);
  size_t ai = s->n_axes++;
  impactfit_sweep_axis *ax = &s->axes[ai];
  ax->name = pr->params[pi].name;
  ax->param = pi;
  ax->line = line;
  ax->count = 0;
  return parse_axis(s, ai, value, c->max_points, err);
}

static int apply_key(parse_ctx *c, const char *section, const char *name, const char *value, int line, int continuation,
                     impactfit_error *err) {
  impactfit_sweep *s = c->s;
  if (strcmp(section, "sweep") == 0) {
    if (continuation)
      return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "continuation lines are only allowed in list axes");
    if (strcmp(name, "outputs") == 0)
      return key_outputs(s, value, line, err);
    return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "unknown key '%s' in [sweep] (keys: problem, outputs)", name);
  }
  if (strcmp(section, "fixed") == 0) {
    if (continuation)
      return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "continuation lines are only allowed in list axes");
    return key_fixed(s, name, value, line, err);
  }
  if (strcmp(section, "axes") == 0)
    return key_axis(c, name, value, line, continuation, err);
  return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "unknown section [%s] (sections: sweep, fixed, axes)", section);
}

static int on_key(void *user, const char *section, const char *name, const char *value, int line, int continuation,
                  impactfit_error *err) {
  parse_ctx *c = user;
  if (strcmp(section, "sweep") == 0 && strcmp(name, "problem") == 0) {
    if (continuation)
      return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "continuation lines are only allowed in list axes");
    if (c->problem_line)
      return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "problem given twice (first on line %d)", c->problem_line);
    c->problem_line = line;
    snprintf(c->problem_name, sizeof c->problem_name, "%s", value);
    if (!lookup(c, value)) {
      char all[512] = "";
      size_t used = 0;
      const impactfit_sweep_problem *p;
      for (size_t i = 0; (p = known_at(c, i)) && used < sizeof all; i++)
        used += (size_t)snprintf(all + used, sizeof all - used, "%s%s", i ? ", " : "", p->name);
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "unknown problem '%s' (problems: %s)", value, all);
    }
    return IMPACTFIT_OK;
  }
  if (c->npend == c->cappend) {
    size_t nc = c->cappend ? 2 * c->cappend : 32;
    struct pending *np = realloc(c->pend, nc * sizeof *np);
    if (!np)
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
    c->pend = np;
    c->cappend = nc;
  }
  struct pending *q = &c->pend[c->npend];
  if (strlen(section) >= sizeof q->section)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "unknown section [%s] (sections: sweep, fixed, axes)", section);
  snprintf(q->section, sizeof q->section, "%s", section);
  q->name = strdup(name);
  q->value = strdup(value);
  q->line = line;
  q->continuation = continuation;
  c->npend++;
  if (!q->name || !q->value)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  return IMPACTFIT_OK;
}

void impactfit_sweep_free(impactfit_sweep *s) {
  if (!s)
    return;
  if (s->problem) {
    for (size_t j = 0; j < s->problem->n_options; j++)
      free(s->options[j]);
    for (size_t a = 0; a < s->problem->n_params; a++)
      free(s->axis_values[a]);
  }
  free(s->options);
  free(s->option_line);
  free(s->axis_values);
  free(s->axis_cap);
  free(s->axes);
  free(s->fixed);
  free(s->swept);
  free(s->param_line);
  free(s->wanted);
  free(s->header);
  free(s->name);
  if (s->owned && s->owned->release)
    s->owned->release(s->owned);
  free(s);
}

static int build_header(impactfit_sweep *s, impactfit_error *err) {
  const impactfit_sweep_problem *pr = s->problem;
  size_t len = 64;
  for (size_t i = 0; i < pr->n_params; i++)
    len += strlen(pr->params[i].name) + 1;
  for (size_t k = 0; k < pr->n_outputs; k++)
    len += strlen(pr->outputs[k]) + 1;
  s->header = malloc(len);
  if (!s->header)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  char *p = s->header;
  p += sprintf(p, "index");
  for (size_t i = 0; i < pr->n_params; i++)
    p += sprintf(p, ",%s", pr->params[i].name);
  for (size_t k = 0; k < pr->n_outputs; k++)
    if (s->wanted[k])
      p += sprintf(p, ",%s", pr->outputs[k]);
  sprintf(p, ",status,rhs_evals\n");
  return IMPACTFIT_OK;
}

/* The sweep's per-parameter and per-option arrays for problem pr, with the defaults (every output
 * wanted, every parameter at its default). */
static int sweep_arrays(impactfit_sweep *s, const impactfit_sweep_problem *pr, impactfit_error *err) {
  size_t np = pr->n_params, no = pr->n_options;
  s->fixed = calloc(np ? np : 1, sizeof *s->fixed);
  s->swept = calloc(np ? np : 1, 1);
  s->param_line = calloc(np ? np : 1, sizeof *s->param_line);
  s->axes = calloc(np ? np : 1, sizeof *s->axes);
  s->axis_values = calloc(np ? np : 1, sizeof *s->axis_values);
  s->axis_cap = calloc(np ? np : 1, sizeof *s->axis_cap);
  s->options = calloc(no ? no : 1, sizeof *s->options);
  s->option_line = calloc(no ? no : 1, sizeof *s->option_line);
  s->wanted = malloc(pr->n_outputs ? pr->n_outputs : 1);
  if (!s->fixed || !s->swept || !s->param_line || !s->axes || !s->axis_values || !s->axis_cap || !s->options ||
      !s->option_line || !s->wanted)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  memset(s->wanted, 1, pr->n_outputs);
  for (size_t i = 0; i < np; i++)
    s->fixed[i] = pr->params[i].def;
  return IMPACTFIT_OK;
}

/* The axes of the sweep named name: none both fixed and swept, no value listed twice, every value
 * allowed; marks the swept parameters and returns the number of grid points in *total_out. */
static int check_axes(impactfit_sweep *s, const char *name, double *total_out, impactfit_error *err) {
  const impactfit_sweep_problem *pr = s->problem;
  int st;
  double total = 1.0;
  for (size_t a = 0; a < s->n_axes; a++) {
    impactfit_sweep_axis *ax = &s->axes[a];
    const impactfit_sweep_param *p = &pr->params[ax->param];
    if (s->param_line[ax->param])
      return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "%s:%d: %s is both fixed (line %d) and swept", name, ax->line,
                             ax->name, s->param_line[ax->param]);
    ax->values = s->axis_values[a];
    if (ax->kind == IMPACTFIT_AXIS_LIST) {
      ax->start = ax->values[0];
      ax->stop = ax->values[ax->count - 1];
      double dup;
      if ((st = find_duplicate(ax->values, ax->count, &dup, err)))
        return st;
      if (!isnan(dup))
        return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s:%d: %s lists %.17g twice", name, ax->line, ax->name, dup);
    }
    for (size_t i = 0; i < ax->count; i++) {
      impactfit_error e2;
      impactfit_error_clear(&e2);
      if (check_value(p, impactfit_sweep_axis_value(ax, i), &e2))
        return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s:%d: %s", name, ax->line, e2.message);
    }
    s->swept[ax->param] = 1;
    total *= (double)ax->count;
  }
  *total_out = total;
  return IMPACTFIT_OK;
}

/* Every required parameter fixed or swept, the options' defaults filled in, and the options validated
 * by a state allocation as the problem sees them (problem_line for its message). */
static int check_options(impactfit_sweep *s, const char *name, int problem_line, impactfit_error *err) {
  const impactfit_sweep_problem *pr = s->problem;
  size_t np = pr->n_params, no = pr->n_options;
  for (size_t i = 0; i < np; i++)
    if ((pr->params[i].flags & IMPACTFIT_SWEEP_REQUIRED) && !s->param_line[i] && !s->swept[i])
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s: problem %s needs %s (%s): fix it or sweep it", name, pr->name,
                             pr->params[i].name, pr->params[i].help);
  for (size_t j = 0; j < no; j++)
    if (!s->options[j] && !(s->options[j] = strdup(pr->options[j].def)))
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  void *state = NULL;
  impactfit_error e2;
  impactfit_error_clear(&e2);
  int st = pr->alloc(&state, (const char *const *)s->options, s->wanted, &e2);
  if (pr->free)
    pr->free(state);
  if (st)
    return IMPACTFIT__FAIL(err, st, "%s:%d: %s", name, problem_line, e2.message);
  return IMPACTFIT_OK;
}

/* Every point must pass the problem's own check before anything runs. */
static int check_points(const impactfit_sweep *s, const char *name, impactfit_error *err) {
  const impactfit_sweep_problem *pr = s->problem;
  size_t np = pr->n_params;
  int st = IMPACTFIT_OK;
  double *in = malloc((np ? np : 1) * sizeof *in);
  if (!in)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  for (size_t idx = 0; idx < s->total; idx++) {
    impactfit_sweep_point(s, idx, in);
    impactfit_error e2;
    impactfit_error_clear(&e2);
    st = pr->check((const char *const *)s->options, in, &e2);
    if (st) {
      char where[256] = "";
      size_t used = 0;
      for (size_t a = 0; a < s->n_axes && used < sizeof where; a++)
        used += (size_t)snprintf(where + used, sizeof where - used, "%s%s = %.17g", a ? ", " : "", s->axes[a].name,
                                 in[s->axes[a].param]);
      st = IMPACTFIT__FAIL(err, impactfit_status_is_input_error(st) ? st : IMPACTFIT_EINVAL, "%s: point %zu (%s): %s",
                           name, idx, where, e2.message);
      break;
    }
  }
  free(in);
  return st;
}

/* A problem a definition may name: name, alloc, free and solve or solve_run; its CSV columns (index,
 * parameters, outputs, status, rhs_evals) C identifiers, each once. what: "problem 2 of 3" or its name. */
static int check_problem(const impactfit_sweep_problem *p, const char *what, impactfit_error *err) {
  if (!p || !p->name || (p->n_params && !p->params) || (p->n_outputs && !p->outputs) || !p->alloc || !p->free ||
      !(p->solve || p->solve_run) || (p->specialize && !p->release))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "%s is incomplete (name, alloc, free and solve or solve_run are required; release with "
                           "specialize)",
                           what);
  size_t nc = p->n_params + p->n_outputs;
  for (size_t a = 0; a < nc; a++) {
    const char *na = a < p->n_params ? p->params[a].name : p->outputs[a - p->n_params];
    int bad = !na || !impactfit__identifier(na) || strcmp(na, "index") == 0 || strcmp(na, "status") == 0 ||
              strcmp(na, "rhs_evals") == 0;
    for (size_t b = a + 1; b < nc && !bad; b++)
      bad = strcmp(na, b < p->n_params ? p->params[b].name : p->outputs[b - p->n_params]) == 0;
    if (bad)
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                             "problem %s: column '%s' is not a C identifier, is reserved (index, status, "
                             "rhs_evals) or appears twice among the parameters and outputs",
                             p->name, na ? na : "(null)");
  }
  return IMPACTFIT_OK;
}

/* The problem a definition of pr is, from the options it fixes (pr->specialize): *out, owned by the
 * sweep. The first [fixed] line of each option counts (a second is an error found later). */
static int specialize(parse_ctx *c, const impactfit_sweep_problem *pr, const char *name,
                      const impactfit_sweep_problem **out, impactfit_error *err) {
  size_t no = pr->n_options;
  const char **opt = calloc(no ? no : 1, sizeof *opt);
  int *line = calloc(no ? no : 1, sizeof *line);
  if (!opt || !line) {
    free(opt);
    free(line);
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  }
  int at = c->problem_line;
  for (size_t j = 0; j < no; j++)
    opt[j] = pr->options[j].def;
  for (size_t k = 0; k < c->npend; k++) {
    int oi = strcmp(c->pend[k].section, "fixed") == 0 ? find_option(pr, c->pend[k].name) : -1;
    if (oi >= 0 && !line[oi]) {
      opt[oi] = c->pend[k].value;
      line[oi] = c->pend[k].line;
      at = at > line[oi] ? at : line[oi];
    }
  }
  impactfit_sweep_problem *sp = NULL;
  impactfit_error e2;
  impactfit_error_clear(&e2);
  int st = pr->specialize(pr, opt, &sp, &e2);
  free(opt);
  free(line);
  if (!st && (!sp || strcmp(sp->name ? sp->name : "", pr->name) != 0))
    st = IMPACTFIT__FAIL(&e2, IMPACTFIT_EINVAL, "problem %s: its specialize hook gave no problem of that name",
                         pr->name);
  if (!st)
    st = check_problem(sp, pr->name, &e2);
  if (st) {
    if (sp && sp->release)
      sp->release(sp);
    return IMPACTFIT__FAIL(err, st, "%s:%d: %s", name, at, e2.message);
  }
  c->s->owned = sp;
  *out = sp;
  return IMPACTFIT_OK;
}

static int parse(const char *text, size_t len, const char *name, const impactfit_sweep_problem *const *problems,
                 size_t n_problems, double max_points, impactfit_sweep **out, impactfit_error *err) {
  *out = NULL;
  if (!text || !name)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no definition given");
  impactfit_sweep *s = calloc(1, sizeof *s);
  parse_ctx c;
  memset(&c, 0, sizeof c);
  c.s = s;
  c.problems = problems;
  c.n_problems = n_problems;
  c.max_points = max_points;
  int st = IMPACTFIT_OK;
  if (!s || !(s->name = strdup(name))) {
    free(s);
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  }
  impactfit__hash_hex(text, len, s->hash);
  st = impactfit__ini_parse(text, len, name, on_key, &c, err);
  if (st)
    goto done;
  if (!c.problem_line) {
    st = IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "%s: no problem named ([sweep] problem = ...)", name);
    goto done;
  }
  const impactfit_sweep_problem *pr = lookup(&c, c.problem_name);
  if (pr->specialize && (st = specialize(&c, pr, name, &pr, err)))
    goto done;
  s->problem = pr;
  if ((st = sweep_arrays(s, pr, err)))
    goto done;
  /* apply the keys in file order; the first error wins */
  for (size_t k = 0; k < c.npend; k++) {
    impactfit_error e2;
    impactfit_error_clear(&e2);
    struct pending *q = &c.pend[k];
    st = apply_key(&c, q->section, q->name, q->value, q->line, q->continuation, &e2);
    if (st) {
      st = IMPACTFIT__FAIL(err, st, "%s:%d: %s", name, q->line, e2.message);
      goto done;
    }
  }
  if (s->n_axes == 0) {
    st = IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "%s: no axes ([axes] must name at least one parameter)", name);
    goto done;
  }
  double total = 1.0;
  if ((st = check_axes(s, name, &total, err)))
    goto done;
  if (total > c.max_points) {
    st = IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s: the grid has %.3g points (at most %.3g)", name, total,
                         c.max_points);
    goto done;
  }
  s->total = (size_t)total;
  if ((st = check_options(s, name, c.problem_line, err)) || (pr->check && (st = check_points(s, name, err))))
    goto done;
  st = build_header(s, err);
done:
  for (size_t k = 0; k < c.npend; k++) {
    free(c.pend[k].name);
    free(c.pend[k].value);
  }
  free(c.pend);
  if (st) {
    impactfit_sweep_free(s);
    return st;
  }
  *out = s;
  return IMPACTFIT_OK;
}

int impactfit__sweep_parse_problem(const char *text, size_t len, const char *name,
                                   const impactfit_sweep_problem *forced, impactfit_sweep **out, impactfit_error *err) {
  return impactfit_sweep_parse_with(text, len, name, &forced, 1, out, err);
}

int impactfit_sweep_parse_with(const char *text, size_t len, const char *name,
                               const impactfit_sweep_problem *const *problems, size_t n_problems, impactfit_sweep **out,
                               impactfit_error *err) {
  if (out)
    *out = NULL;
  if (!out)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no output given");
  if (problems)
    for (size_t i = 0; i < n_problems; i++) {
      char what[64];
      snprintf(what, sizeof what, "problem %zu of %zu", i + 1, n_problems);
      int st = check_problem(problems[i], what, err);
      if (st)
        return st;
    }
  return parse(text, len, name, problems, problems ? n_problems : 0, MAX_POINTS, out, err);
}

int impactfit_sweep_load_with(const char *path, const impactfit_sweep_problem *const *problems, size_t n_problems,
                              impactfit_sweep **out, impactfit_error *err) {
  *out = NULL;
  char *text;
  size_t len;
  int st = impactfit__read_file(path, &text, &len, err);
  if (st)
    return st;
  st = impactfit_sweep_parse_with(text, len, path, problems, n_problems, out, err);
  free(text);
  return st;
}

int impactfit__sweep_parse_bounded(const char *text, size_t len, const char *name, double max_points,
                                   impactfit_sweep **out, impactfit_error *err) {
  if (!(max_points >= 1.0 && max_points <= MAX_POINTS))
    max_points = MAX_POINTS;
  return parse(text, len, name, NULL, 0, max_points, out, err);
}

int impactfit_sweep_parse(const char *text, size_t len, const char *name, impactfit_sweep **out, impactfit_error *err) {
  return parse(text, len, name, NULL, 0, MAX_POINTS, out, err);
}

int impactfit_sweep_load(const char *path, impactfit_sweep **out, impactfit_error *err) {
  *out = NULL;
  char *text;
  size_t len;
  int st = impactfit__read_file(path, &text, &len, err);
  if (st)
    return st;
  st = impactfit_sweep_parse(text, len, path, out, err);
  free(text);
  return st;
}

/* ---- accessors and enumeration ---- */

const impactfit_sweep_problem *impactfit_sweep_get_problem(const impactfit_sweep *s) { return s->problem; }
const char *impactfit_sweep_name(const impactfit_sweep *s) { return s->name; }
const char *impactfit_sweep_hash(const impactfit_sweep *s) { return s->hash; }
size_t impactfit_sweep_point_count(const impactfit_sweep *s) { return s->total; }
size_t impactfit_sweep_axis_count(const impactfit_sweep *s) { return s->n_axes; }
const impactfit_sweep_axis *impactfit_sweep_get_axis(const impactfit_sweep *s, size_t i) {
  return i < s->n_axes ? &s->axes[i] : NULL;
}
int impactfit_sweep_param_is_swept(const impactfit_sweep *s, size_t i) {
  return i < s->problem->n_params && s->swept[i];
}
double impactfit_sweep_param_value(const impactfit_sweep *s, size_t i) {
  return i < s->problem->n_params ? s->fixed[i] : 0.0;
}
const char *impactfit_sweep_option_value(const impactfit_sweep *s, size_t j) {
  return j < s->problem->n_options ? s->options[j] : NULL;
}
int impactfit_sweep_output_wanted(const impactfit_sweep *s, size_t k) {
  return k < s->problem->n_outputs && s->wanted[k];
}
const char *impactfit_sweep_csv_header(const impactfit_sweep *s) { return s->header; }

int impactfit_sweep_point(const impactfit_sweep *s, size_t index, double *in) {
  if (index >= s->total)
    return IMPACTFIT_EINVAL;
  memcpy(in, s->fixed, s->problem->n_params * sizeof *in);
  size_t r = index;
  for (size_t a = s->n_axes; a-- > 0;) {
    const impactfit_sweep_axis *ax = &s->axes[a];
    in[ax->param] = impactfit_sweep_axis_value(ax, r % ax->count);
    r /= ax->count;
  }
  return IMPACTFIT_OK;
}


double impactfit_sweep_axis_value(const impactfit_sweep_axis *ax, size_t i) {
  return ax->kind == IMPACTFIT_AXIS_LIST ? ax->values[i]
                                         : impactfit_sweep_range_value(ax->kind, ax->start, ax->stop, ax->count, i);
}

double impactfit_sweep_range_value(impactfit_sweep_axis_kind kind, double start, double stop, size_t count, size_t i) {
  if (i == 0)
    return start;
  if (i == count - 1)
    return stop;
  double t = (double)i / (double)(count - 1);
  if (kind != IMPACTFIT_AXIS_LOG)
    return start + (stop - start) * t;
  double la = log10(fabs(start)), lb = log10(fabs(stop));
  return ((start < 0.0) ? -1.0 : 1.0) * pow(10.0, la + (lb - la) * t);
}
