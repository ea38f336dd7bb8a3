/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fit files: stages of fits on a sweep's output, chained through their tables (include/impactfit/fitfile.h). */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/common_impl.h"
#include "../common/io_impl.h"
#include "fit_impl.h"
#include "fitfile_impl.h"
#include "table_impl.h"

#define MAX_CONDS 16

enum { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE };
static const char *const op_text[] = {"=", "!=", "<", "<=", ">", ">="};

typedef struct cond {
  char col[64];
  int op;
  double value;
} cond;

enum {
  K_DATA,
  K_WHERE,
  K_GROUP,
  K_X,
  K_X2,
  K_Y,
  K_FORM,
  K_DEGREE,
  K_OBJECTIVE,
  K_METHOD,
  K_FORMULA,
  K_CONSTANTS,
  K_START,
  K_XTOL,
  K_GTOL,
  K_MAX_ITER,
  K_WEIGHTS,
  K_RIDGE,
  K_COUNT
};
static const char *const keys[K_COUNT] = {"data",  "where",  "group",     "x",        "x2",      "y",
                                          "form",  "degree", "objective", "method",   "formula", "constants",
                                          "start", "xtol",   "gtol",      "max_iter", "weights", "ridge"};

typedef struct stage {
  char *name;
  int line;           /* line of the first key of the stage */
  char *key[K_COUNT]; /* values by key index, see keys[] */
  int key_line[K_COUNT];
  char **constants;
  size_t n_constants;
  double start[IMPACTFIT_FIT_MAX_PARAMS];
  size_t n_start;
  cond conds[MAX_CONDS];
  size_t n_conds;
  int src;       /* −1: the sweep; otherwise an earlier stage */
  int trapezoid; /* weights = trapezoid */
  impactfit_fit_spec spec;
  impactfit_fit_model *model;
  size_t n_groups;
  double *group_values;
  impactfit_fit_result *results;
  size_t rows_used, rows_failed;
  double x_lo, x_hi, x2_lo, x2_hi; /* the range of x (and x2) over the rows fitted */
  impactfit_table *table;
} stage;


struct impactfit_fitfile {
  char *path, *name, *sweep_ref, *sweep_path;
  char hash[17];
  int name_line, sweep_line;
  int exact, exact_line; /* [fit] exact = yes */
  impactfit_sweep *sweep;
  stage *stages;
  size_t n, cap;
  impactfit_fitfile_progress_fn progress;
  void *progress_ctx;
};

void impactfit_fitfile_set_progress(impactfit_fitfile *f, impactfit_fitfile_progress_fn fn, void *ctx) {
  if (!f)
    return;
  f->progress = fn;
  f->progress_ctx = ctx;
}

static void stage_clear(stage *s) {
  free(s->name);
  for (int k = 0; k < K_COUNT; k++)
    free(s->key[k]);
  for (size_t j = 0; j < s->n_constants; j++)
    free(s->constants[j]);
  free(s->constants);
  impactfit_fit_model_free(s->model);
  free(s->group_values);
  free(s->results);
  impactfit_table_free(s->table);
}

void impactfit_fitfile_free(impactfit_fitfile *f) {
  if (!f)
    return;
  for (size_t i = 0; i < f->n; i++)
    stage_clear(&f->stages[i]);
  free(f->stages);
  free(f->path);
  free(f->name);
  free(f->sweep_ref);
  free(f->sweep_path);
  impactfit_sweep_free(f->sweep);
  free(f);
}

static int is_ident(const char *s) { return impactfit__identifier(s) && strlen(s) < 48; }

/* Splits "a, b, c" into trimmed items; returns the count or −1 (empty item, too many). */
static int split_list(const char *v, char items[][64], int max) {
  int n = 0;
  const char *p = v;
  for (;;) {
    while (*p == ' ' || *p == '\t')
      p++;
    const char *c = strchr(p, ',');
    size_t len = c ? (size_t)(c - p) : strlen(p);
    while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
      len--;
    if (!len || len >= 64 || n == max)
      return -1;
    memcpy(items[n], p, len);
    items[n][len] = '\0';
    n++;
    if (!c)
      return n;
    p = c + 1;
  }
}

static int on_key(void *user, const char *section, const char *name, const char *value, int line, int continuation,
                  impactfit_error *err) {
  impactfit_fitfile *f = user;
  if (continuation)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "continuation lines are not allowed in fit files");
  if (strcmp(section, "fit") == 0) {
    char **dst;
    int *dl;
    if (strcmp(name, "exact") == 0) {
      if (f->exact_line)
        return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "exact given twice (first on line %d)", f->exact_line);
      if (strcmp(value, "yes") != 0 && strcmp(value, "no") != 0)
        return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "exact is yes or no, not '%s'", value);
      f->exact = strcmp(value, "yes") == 0;
      f->exact_line = line;
      return IMPACTFIT_OK;
    }
    if (strcmp(name, "name") == 0)
      dst = &f->name, dl = &f->name_line;
    else if (strcmp(name, "sweep") == 0)
      dst = &f->sweep_ref, dl = &f->sweep_line;
    else
      return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "unknown key '%s' in [fit] (keys: name, sweep, exact)", name);
    if (*dst)
      return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "%s given twice (first on line %d)", name, *dl);
    if (!value[0])
      return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "%s: empty value", name);
    if (strcmp(name, "name") == 0 && !is_ident(value))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "name '%s' must be a C identifier (letters, digits, _)", value);
    if (!(*dst = strdup(value)))
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
    *dl = line;
    return IMPACTFIT_OK;
  }
  if (strncmp(section, "stage ", 6) != 0)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "unknown section [%s] (sections: [fit], [stage NAME])", section);
  const char *sname = section + 6;
  while (*sname == ' ')
    sname++;
  if (!is_ident(sname) || strcmp(sname, "sweep") == 0)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stage name '%s' must be a C identifier other than 'sweep'", sname);
  stage *s = NULL;
  for (size_t i = 0; i < f->n; i++)
    if (strcmp(f->stages[i].name, sname) == 0)
      s = &f->stages[i];
  if (s && s != &f->stages[f->n - 1])
    return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "stage %s appears twice (first on line %d)", sname, s->line);
  if (!s) {
    if (f->n == f->cap) {
      size_t nc = f->cap ? 2 * f->cap : 8;
      stage *ns = realloc(f->stages, nc * sizeof *ns);
      if (!ns)
        return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
      f->stages = ns;
      f->cap = nc;
    }
    s = &f->stages[f->n++];
    memset(s, 0, sizeof *s);
    s->line = line;
    if (!(s->name = strdup(sname)))
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  }
  int k;
  for (k = 0; k < K_COUNT; k++)
    if (strcmp(keys[k], name) == 0)
      break;
  if (k == K_COUNT)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE,
                           "unknown key '%s' in a stage (keys: data, where, group, x, x2, y, form, degree, "
                           "objective, method, formula, constants, start, xtol, gtol, max_iter, weights, ridge)",
                           name);
  if (s->key[k])
    return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "%s given twice (first on line %d)", name, s->key_line[k]);
  if (!value[0])
    return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "%s: empty value", name);
  if (!(s->key[k] = strdup(value)))
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  s->key_line[k] = line;
  return IMPACTFIT_OK;
}

/* The required keys, the data source (the sweep or an earlier stage) and the column names of stage si. */
static int stage_source(impactfit_fitfile *f, size_t si, int *line, impactfit_error *err) {
  stage *s = &f->stages[si];
  static const int required[] = {K_DATA, K_X, K_Y, K_FORM};
  for (size_t r = 0; r < sizeof required / sizeof required[0]; r++)
    if (!s->key[required[r]])
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stage %s: '%s' is required", s->name, keys[required[r]]);
  *line = s->key_line[K_DATA];
  s->src = -2;
  if (strcmp(s->key[K_DATA], "sweep") == 0)
    s->src = -1;
  for (size_t j = 0; j < si; j++)
    if (strcmp(f->stages[j].name, s->key[K_DATA]) == 0)
      s->src = (int)j;
  if (s->src == -2)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stage %s: data '%s' is neither 'sweep' nor an earlier stage",
                           s->name, s->key[K_DATA]);
  for (int k = K_GROUP; k <= K_Y; k++)
    if (s->key[k] && !is_ident(s->key[k])) {
      *line = s->key_line[k];
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stage %s: %s = '%s' is not a column name", s->name, keys[k],
                             s->key[k]);
    }
  return IMPACTFIT_OK;
}

/* The stage's where = 'column op value, ...' into s->conds. */
static int stage_where(stage *s, impactfit_error *err) {
  char items[MAX_CONDS][64];
  int n = split_list(s->key[K_WHERE], items, MAX_CONDS);
  if (n < 0)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "stage %s: where: expected 'column op value, ...' (at most %d)",
                           s->name, MAX_CONDS);
  for (int i = 0; i < n; i++) {
    cond *c = &s->conds[s->n_conds++];
    char *p = items[i];
    size_t l = 0;
    while (isalnum((unsigned char)p[l]) || p[l] == '_')
      l++;
    memcpy(c->col, p, l);
    c->col[l] = '\0';
    p += l;
    while (*p == ' ')
      p++;
    int op = -1;
    for (int o = 5; o >= 0; o--) /* two-character operators first */
      if (strncmp(p, op_text[o], strlen(op_text[o])) == 0 && (op < 0 || strlen(op_text[o]) > strlen(op_text[op])))
        op = o;
    if (!l || op < 0)
      return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE,
                             "stage %s: where: '%s' is not 'column op value' (op: = != < <= > >=)", s->name, items[i]);
    c->op = op;
    p += strlen(op_text[op]);
    while (*p == ' ')
      p++;
    char what[96];
    snprintf(what, sizeof what, "stage %s: where %s", s->name, c->col);
    int st = impactfit__parse_number(what, p, &c->value, err);
    if (st)
      return st;
  }
  return IMPACTFIT_OK;
}

/* The stage's form, degree, and for form = formula its formula and constants, into sp. */
static int stage_form(stage *s, impactfit_fit_spec *sp, int *line, impactfit_error *err) {
  *line = s->key_line[K_FORM];
  sp->form = impactfit_fit_form_from_name(s->key[K_FORM]);
  if (!sp->form)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "stage %s: unknown form '%s' (polynomial, power, exp, double_exp, "
                           "alpha_pow, formula)",
                           s->name, s->key[K_FORM]);
  if (sp->form == impactfit_fit_polynomial) {
    if (!s->key[K_DEGREE])
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stage %s: a polynomial needs degree = d", s->name);
  } else if (s->key[K_DEGREE]) {
    *line = s->key_line[K_DEGREE];
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stage %s: degree is for polynomials only", s->name);
  }
  if (s->key[K_DEGREE]) {
    *line = s->key_line[K_DEGREE];
    double d;
    int st = impactfit__parse_number("degree", s->key[K_DEGREE], &d, err);
    if (st)
      return st;
    if (d != floor(d) || d < 0 || d >= IMPACTFIT_FIT_MAX_PARAMS)
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stage %s: degree must be a whole number 0..%d", s->name,
                             IMPACTFIT_FIT_MAX_PARAMS - 1);
    sp->degree = (int)d;
  }
  int is_formula = (sp->form == impactfit_fit_formula);
  if (!is_formula && (s->key[K_FORMULA] || s->key[K_CONSTANTS] || s->key[K_X2])) {
    *line = s->key[K_FORMULA]     ? s->key_line[K_FORMULA]
            : s->key[K_CONSTANTS] ? s->key_line[K_CONSTANTS]
                                  : s->key_line[K_X2];
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stage %s: formula, constants and x2 belong to form = formula",
                           s->name);
  }
  if (is_formula) {
    if (!s->key[K_FORMULA] || !s->key[K_CONSTANTS])
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stage %s: a formula needs formula = ... and constants = ...",
                             s->name);
    *line = s->key_line[K_CONSTANTS];
    char items[IMPACTFIT_FIT_MAX_PARAMS][64];
    int n = split_list(s->key[K_CONSTANTS], items, IMPACTFIT_FIT_MAX_PARAMS);
    if (n < 0)
      return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "stage %s: constants: a list of 1..%d names", s->name,
                             IMPACTFIT_FIT_MAX_PARAMS);
    s->constants = calloc((size_t)n, sizeof *s->constants);
    if (!s->constants)
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
    for (int i = 0; i < n; i++) {
      if (!(s->constants[i] = strdup(items[i])))
        return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
      s->n_constants = (size_t)i + 1;
    }
    sp->formula = s->key[K_FORMULA];
    sp->var1 = s->key[K_X];
    sp->var2 = s->key[K_X2];
    sp->constants = (const char *const *)s->constants;
    sp->n_constants = s->n_constants;
  }
  return IMPACTFIT_OK;
}

/* The stage's objective, weights, ridge, method, start and tolerances, into sp. */
static int stage_options(stage *s, impactfit_fit_spec *sp, int *line, impactfit_error *err) {
  if (s->key[K_OBJECTIVE]) {
    *line = s->key_line[K_OBJECTIVE];
    int o = impactfit_fit_objective_from_name(s->key[K_OBJECTIVE]);
    if (o < 0)
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                             "stage %s: objective is absolute, relative, minimax_absolute or "
                             "minimax_relative, not '%s'",
                             s->name, s->key[K_OBJECTIVE]);
    sp->objective = (impactfit_fit_objective)o;
  }
  if (s->key[K_WEIGHTS]) {
    *line = s->key_line[K_WEIGHTS];
    if (strcmp(s->key[K_WEIGHTS], "trapezoid") == 0)
      s->trapezoid = 1;
    else if (strcmp(s->key[K_WEIGHTS], "equal") != 0)
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stage %s: weights is equal or trapezoid, not '%s'", s->name,
                             s->key[K_WEIGHTS]);
  }
  if (s->key[K_RIDGE]) {
    *line = s->key_line[K_RIDGE];
    int st = impactfit__parse_number("ridge", s->key[K_RIDGE], &sp->ridge, err);
    if (st)
      return st;
  }
  if (s->key[K_METHOD])
    sp->method = s->key[K_METHOD];
  if (s->key[K_START]) {
    *line = s->key_line[K_START];
    char items[IMPACTFIT_FIT_MAX_PARAMS][64];
    int n = split_list(s->key[K_START], items, IMPACTFIT_FIT_MAX_PARAMS);
    if (n < 0)
      return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "stage %s: start: a list of numbers", s->name);
    for (int i = 0; i < n; i++) {
      int st = impactfit__parse_number("start", items[i], &s->start[i], err);
      if (st)
        return st;
    }
    s->n_start = (size_t)n;
    sp->start = s->start;
    sp->n_start = s->n_start;
  }
  static const int tol_keys[] = {K_XTOL, K_GTOL, K_MAX_ITER};
  for (size_t t = 0; t < 3; t++) {
    int k = tol_keys[t];
    if (!s->key[k])
      continue;
    *line = s->key_line[k];
    double v;
    int st = impactfit__parse_number(keys[k], s->key[k], &v, err);
    if (st)
      return st;
    if (k == K_XTOL)
      sp->xtol = v;
    else if (k == K_GTOL)
      sp->gtol = v;
    else if (v != floor(v) || v < 1 || v > 1e7)
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stage %s: max_iter must be a whole number 1..1e7", s->name);
    else
      sp->max_iter = (int)v;
  }
  return IMPACTFIT_OK;
}

/* Checks a stage and compiles its model. Messages without location (the caller adds it). */
static int stage_setup(impactfit_fitfile *f, size_t si, int *line, impactfit_error *err) {
  stage *s = &f->stages[si];
  *line = s->line;
  int st = stage_source(f, si, line, err);
  if (st)
    return st;
  if (s->key[K_WHERE]) {
    *line = s->key_line[K_WHERE];
    if ((st = stage_where(s, err)))
      return st;
  }
  impactfit_fit_spec sp = impactfit_fit_default_spec();
  if ((st = stage_form(s, &sp, line, err)) || (st = stage_options(s, &sp, line, err)))
    return st;
  *line = s->key_line[K_FORM];
  s->spec = sp;
  impactfit_error e2;
  impactfit_error_clear(&e2);
  st = impactfit_fit_model_create(&s->spec, &s->model, &e2);
  if (st) {
    if (sp.form == impactfit_fit_formula && s->key[K_FORMULA])
      *line = s->key_line[K_FORMULA];
    return IMPACTFIT__FAIL(err, st, "stage %s: %s", s->name, e2.message);
  }
  return IMPACTFIT_OK;
}

static int load_sweep_file(void *ctx, const char *path, impactfit_sweep **out, impactfit_error *err) {
  (void)ctx;
  return impactfit_sweep_load(path, out, err);
}

int impactfit_fitfile_load(const char *path, impactfit_fitfile **out, impactfit_error *err) {
  *out = NULL;
  char *text;
  size_t len;
  int st = impactfit__read_file(path, &text, &len, err);
  if (st)
    return st;
  st = impactfit__fitfile_parse(text, len, path, load_sweep_file, NULL, out, err);
  free(text);
  return st;
}

int impactfit__fitfile_parse(const char *text, size_t len, const char *path, impactfit__sweep_loader load,
                             void *load_ctx, impactfit_fitfile **out, impactfit_error *err) {
  *out = NULL;
  if (!text || !path || !load)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no fit file given");
  int st;
  impactfit_fitfile *f = calloc(1, sizeof *f);
  if (!f || !(f->path = strdup(path))) {
    free(f);
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  }
  impactfit__hash_hex(text, len, f->hash);
  st = impactfit__ini_parse(text, len, path, on_key, f, err);
  if (st)
    goto done;
  if (!f->sweep_ref) {
    st = IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s: [fit] sweep = FILE is required", path);
    goto done;
  }
  if (!f->name) {
    /* default: the file's base name without .ini */
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t bl = strlen(b);
    if (bl > 4 && strcmp(b + bl - 4, ".ini") == 0)
      bl -= 4;
    f->name = strndup(b, bl);
    if (!f->name || !is_ident(f->name)) {
      st = IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s: the file name is not a C identifier; set [fit] name = ...",
                           path);
      goto done;
    }
  }
  if (f->n == 0) {
    st = IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s: no [stage NAME] section", path);
    goto done;
  }
  /* the sweep file, relative to the fit file */
  {
    const char *slash = strrchr(path, '/');
    size_t dl = (f->sweep_ref[0] == '/' || !slash) ? 0 : (size_t)(slash - path) + 1;
    f->sweep_path = malloc(dl + strlen(f->sweep_ref) + 1);
    if (!f->sweep_path) {
      st = IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
      goto done;
    }
    memcpy(f->sweep_path, path, dl);
    strcpy(f->sweep_path + dl, f->sweep_ref);
    impactfit_error e2;
    impactfit_error_clear(&e2);
    if ((st = load(load_ctx, f->sweep_path, &f->sweep, &e2))) {
      st = IMPACTFIT__FAIL(err, st == IMPACTFIT_EIO ? IMPACTFIT_EINVAL : st, "%s:%d: sweep: %s", path, f->sweep_line,
                           e2.message);
      goto done;
    }
  }
  for (size_t i = 0; i < f->n; i++) {
    int line = 0;
    impactfit_error e2;
    impactfit_error_clear(&e2);
    if ((st = stage_setup(f, i, &line, &e2))) {
      st = IMPACTFIT__FAIL(err, st, "%s:%d: %s", path, line, e2.message);
      goto done;
    }
  }
done:
  if (st) {
    impactfit_fitfile_free(f);
    return st;
  }
  *out = f;
  return IMPACTFIT_OK;
}

const char *impactfit_fitfile_name(const impactfit_fitfile *f) { return f->name; }
const char *impactfit_fitfile_path(const impactfit_fitfile *f) { return f->path; }
const char *impactfit_fitfile_hash(const impactfit_fitfile *f) { return f->hash; }
const char *impactfit_fitfile_sweep_ref(const impactfit_fitfile *f) { return f->sweep_ref; }
const char *impactfit_fitfile_sweep_path(const impactfit_fitfile *f) { return f->sweep_path; }
const impactfit_sweep *impactfit_fitfile_sweep(const impactfit_fitfile *f) { return f->sweep; }
int impactfit_fitfile_exact(const impactfit_fitfile *f) { return f->exact; }
size_t impactfit_fitfile_stage_count(const impactfit_fitfile *f) { return f->n; }

int impactfit_fitfile_stage(const impactfit_fitfile *f, size_t i, impactfit_fit_stage *out) {
  if (i >= f->n)
    return IMPACTFIT_EINVAL;
  const stage *s = &f->stages[i];
  memset(out, 0, sizeof *out);
  out->name = s->name;
  out->data = s->key[K_DATA];
  out->where = s->key[K_WHERE];
  out->group = s->key[K_GROUP];
  out->x = s->key[K_X];
  out->x2 = s->key[K_X2];
  out->y = s->key[K_Y];
  out->spec = &s->spec;
  out->model = s->model;
  out->n_groups = s->n_groups;
  out->group_values = s->group_values;
  out->results = s->results;
  out->rows_used = s->rows_used;
  out->rows_failed = s->rows_failed;
  out->x_lo = s->x_lo;
  out->x_hi = s->x_hi;
  out->x2_lo = s->x2_lo;
  out->x2_hi = s->x2_hi;
  out->table = s->table;
  out->weights = s->trapezoid ? "trapezoid" : NULL;
  return IMPACTFIT_OK;
}

static int col_or_fail(const impactfit_table *t, const char *tname, const stage *s, const char *col,
                       impactfit_error *err) {
  int j = impactfit_table_find(t, col);
  if (j < 0) {
    char all[512] = "";
    size_t used = 0;
    for (size_t k = 0; k < impactfit_table_cols(t) && used < sizeof all; k++)
      used += (size_t)snprintf(all + used, sizeof all - used, "%s%s", k ? ", " : "", impactfit_table_col_name(t, k));
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stage %s: no column '%s' in %s (columns: %s)", s->name, col, tname,
                           all);
  }
  return j;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static int cond_holds(const cond *c, double v) {
  switch (c->op) {
  case OP_EQ:
    return v == c->value || fabs(v - c->value) <= 1e-12 * fmax(fabs(v), fabs(c->value));
  case OP_NE:
    return !(v == c->value || fabs(v - c->value) <= 1e-12 * fmax(fabs(v), fabs(c->value)));
  case OP_LT:
    return v < c->value;
  case OP_LE:
    return v <= c->value;
  case OP_GT:
    return v > c->value;
  default:
    return v >= c->value;
  }
}

/* Column indices of a stage in its data table (-1 for an absent x2 or group). */
typedef struct stage_cols {
  int x, y, x2, g, c[MAX_CONDS];
} stage_cols;

/* Resolves the stage's columns in table t (named tname in messages). */
static int stage_columns(const impactfit_table *t, const char *tname, const stage *s, stage_cols *jc,
                         impactfit_error *err) {
  if ((jc->x = col_or_fail(t, tname, s, s->key[K_X], err)) < 0)
    return IMPACTFIT_EINVAL;
  if ((jc->y = col_or_fail(t, tname, s, s->key[K_Y], err)) < 0)
    return IMPACTFIT_EINVAL;
  jc->x2 = jc->g = -1;
  if (s->key[K_X2] && (jc->x2 = col_or_fail(t, tname, s, s->key[K_X2], err)) < 0)
    return IMPACTFIT_EINVAL;
  if (s->key[K_GROUP] && (jc->g = col_or_fail(t, tname, s, s->key[K_GROUP], err)) < 0)
    return IMPACTFIT_EINVAL;
  for (size_t c = 0; c < s->n_conds; c++)
    if ((jc->c[c] = col_or_fail(t, tname, s, s->conds[c].col, err)) < 0)
      return IMPACTFIT_EINVAL;
  return IMPACTFIT_OK;
}

/* The rows of t that pass the stage's filters and did not fail, into sel; counts s->rows_used (passing)
 * and s->rows_failed. Returns their number. */
static size_t select_rows(const impactfit_table *t, stage *s, const stage_cols *jc, size_t *sel) {
  size_t rows = impactfit_table_rows(t), nsel = 0;
  s->rows_used = s->rows_failed = 0;
  for (size_t i = 0; i < rows; i++) {
    int pass = 1;
    for (size_t c = 0; c < s->n_conds && pass; c++)
      pass = impactfit_table_row_ok(t, i) ? cond_holds(&s->conds[c], impactfit_table_col(t, (size_t)jc->c[c])[i]) : 1;
    if (!pass)
      continue;
    s->rows_used++;
    if (!impactfit_table_row_ok(t, i)) {
      s->rows_failed++;
      continue;
    }
    sel[nsel++] = i;
  }
  return nsel;
}

/* The stage's output table: group value (when grouped), the parameters, their standard errors, points,
 * rms, max_abs, max_rel. */
static int stage_table_new(const stage *s, int grouped, impactfit_table **out, impactfit_error *err) {
  size_t p = impactfit_fit_model_param_count(s->model), nc = 0;
  char cn[2 * IMPACTFIT_FIT_MAX_PARAMS + 8][64];
  const char *cnp[2 * IMPACTFIT_FIT_MAX_PARAMS + 8];
  if (grouped)
    snprintf(cn[nc++], 64, "%s", s->key[K_GROUP]);
  for (size_t j = 0; j < p; j++)
    snprintf(cn[nc++], 64, "%s", s->model->names[j]);
  for (size_t j = 0; j < p; j++)
    snprintf(cn[nc++], 64, "%s_se", s->model->names[j]);
  static const char *const tail[] = {"points", "rms", "max_abs", "max_rel"};
  for (size_t j = 0; j < 4; j++)
    snprintf(cn[nc++], 64, "%s", tail[j]);
  for (size_t j = 0; j < nc; j++)
    cnp[j] = cn[j];
  return impactfit__table_new(nc, cnp, out, err);
}

/* Work arrays of a stage, rows + 1 each. */
typedef struct stage_bufs {
  double *x, *x2, *y, *g, *w;
  size_t *sel;
} stage_bufs;

/* Fits group gi (group value b->g[gi] when grouped) of the selected rows into s->results[gi] and adds
 * its row to out. */
static int fit_group(stage *s, const impactfit_table *t, const stage_cols *jc, const stage_bufs *b, size_t nsel,
                     size_t gi, impactfit_table *out, impactfit_error *err) {
  int jg = jc->g, jx2 = jc->x2;
  size_t p = impactfit_fit_model_param_count(s->model);
  double *x = b->x, *x2 = b->x2, *y = b->y, *g = b->g, *w = b->w;
  size_t n = 0;
  for (size_t k = 0; k < nsel; k++) {
    size_t i = b->sel[k];
    if (jg >= 0 && impactfit_table_col(t, (size_t)jg)[i] != g[gi])
      continue;
    x[n] = impactfit_table_col(t, (size_t)jc->x)[i];
    y[n] = impactfit_table_col(t, (size_t)jc->y)[i];
    x2[n] = jx2 >= 0 ? impactfit_table_col(t, (size_t)jx2)[i] : 0.0;
    n++;
  }
  impactfit_error e2;
  impactfit_error_clear(&e2);
  impactfit_fit_result *r = &s->results[gi];
  int st;
  if (s->trapezoid && (st = impactfit_fit_trapezoid_weights(x, jx2 >= 0 ? x2 : NULL, n, w, err)))
    return st;
  st = impactfit_fit_run_weighted(s->model, n, x, jx2 >= 0 ? x2 : NULL, y, s->trapezoid ? w : NULL, r, &e2);
  if (st) {
    if (jg >= 0)
      return IMPACTFIT__FAIL(err, st, "stage %s, %s = %.17g: %s", s->name, s->key[K_GROUP], g[gi], e2.message);
    return IMPACTFIT__FAIL(err, st, "stage %s: %s", s->name, e2.message);
  }
  if (jg >= 0)
    s->group_values[gi] = g[gi];
  double row[2 * IMPACTFIT_FIT_MAX_PARAMS + 8];
  size_t c = 0;
  if (jg >= 0)
    row[c++] = g[gi];
  for (size_t j = 0; j < p; j++)
    row[c++] = r->value[j];
  for (size_t j = 0; j < p; j++)
    row[c++] = r->se[j];
  row[c++] = (double)r->n_points;
  row[c++] = r->rms;
  row[c++] = r->max_abs;
  row[c++] = r->max_rel;
  return impactfit__table_add_row(out, row, 1, err);
}

static int run_stage(impactfit_fitfile *f, size_t si, const impactfit_table *sweep_data, impactfit_error *err) {
  stage *s = &f->stages[si];
  const impactfit_table *t = s->src < 0 ? sweep_data : f->stages[s->src].table;
  const char *tname = s->src < 0 ? "the sweep's data" : f->stages[s->src].name;
  stage_cols jc;
  if (stage_columns(t, tname, s, &jc, err))
    return IMPACTFIT_EINVAL;
  int jg = jc.g;
  size_t rows = impactfit_table_rows(t);
  stage_bufs b;
  b.x = malloc((rows + 1) * sizeof *b.x), b.x2 = malloc((rows + 1) * sizeof *b.x2);
  b.y = malloc((rows + 1) * sizeof *b.y);
  b.g = malloc((rows + 1) * sizeof *b.g);
  b.w = malloc((rows + 1) * sizeof *b.w);
  b.sel = malloc((rows + 1) * sizeof *b.sel);
  double *g = b.g;
  int st = IMPACTFIT_OK;
  impactfit_table *out = NULL;
  if (!b.x || !b.x2 || !b.y || !g || !b.w || !b.sel) {
    st = IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
    goto done;
  }
  size_t nsel = select_rows(t, s, &jc, b.sel);
  s->x_lo = s->x2_lo = INFINITY;
  s->x_hi = s->x2_hi = -INFINITY;
  for (size_t k = 0; k < nsel; k++) {
    double xv = impactfit_table_col(t, (size_t)jc.x)[b.sel[k]];
    s->x_lo = fmin(s->x_lo, xv);
    s->x_hi = fmax(s->x_hi, xv);
    if (jc.x2 >= 0) {
      double x2v = impactfit_table_col(t, (size_t)jc.x2)[b.sel[k]];
      s->x2_lo = fmin(s->x2_lo, x2v);
      s->x2_hi = fmax(s->x2_hi, x2v);
    }
  }
  /* groups: distinct values of the group column, ascending */
  size_t ng = 1;
  if (jg >= 0) {
    for (size_t k = 0; k < nsel; k++)
      g[k] = impactfit_table_col(t, (size_t)jg)[b.sel[k]];
    qsort(g, nsel, sizeof *g, cmp_double);
    ng = 0;
    for (size_t k = 0; k < nsel; k++)
      if (ng == 0 || g[k] != g[ng - 1])
        g[ng++] = g[k];
    if (ng == 0) {
      st = IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stage %s: no data rows pass the filters", s->name);
      goto done;
    }
  }
  free(s->group_values);
  free(s->results);
  s->group_values = (jg >= 0) ? malloc(ng * sizeof *s->group_values) : NULL;
  s->results = calloc(ng, sizeof *s->results);
  s->n_groups = ng;
  if ((jg >= 0 && !s->group_values) || !s->results) {
    st = IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
    goto done;
  }
  if ((st = stage_table_new(s, jg >= 0, &out, err)))
    goto done;
  for (size_t gi = 0; gi < ng; gi++) {
    if ((st = fit_group(s, t, &jc, &b, nsel, gi, out, err)))
      goto done;
    if (f->progress)
      f->progress(f->progress_ctx, si, f->n, gi + 1, ng);
  }
  impactfit_table_free(s->table);
  s->table = out;
  out = NULL;
done:
  impactfit_table_free(out);
  free(b.x);
  free(b.x2);
  free(b.y);
  free(b.g);
  free(b.w);
  free(b.sel);
  return st;
}

int impactfit_fitfile_run(impactfit_fitfile *f, const impactfit_table *data, impactfit_error *err) {
  return impactfit_fitfile_run_table(f, data, IMPACTFIT_FITFILE_SAME_GRID, err);
}

int impactfit_fitfile_run_table(impactfit_fitfile *f, const impactfit_table *data, unsigned flags,
                                impactfit_error *err) {
  if (!f || !data)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no fit file or data given");
  if (flags & ~IMPACTFIT_FITFILE_SAME_GRID)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "unknown flags %#x", flags & ~IMPACTFIT_FITFILE_SAME_GRID);
  if (flags & IMPACTFIT_FITFILE_SAME_GRID) {
    size_t total = impactfit_sweep_point_count(f->sweep);
    int ji = impactfit_table_find(data, "index");
    if (impactfit_table_rows(data) != total || ji < 0)
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                             "the data has %zu rows%s; the sweep %s has %zu points: run the sweep "
                             "again",
                             impactfit_table_rows(data), ji < 0 ? " and no index column" : "",
                             impactfit_sweep_name(f->sweep), total);
    const double *idx = impactfit_table_col(data, (size_t)ji);
    for (size_t i = 0; i < total; i++)
      if (idx[i] != (double)i)
        return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "the data's row %zu has index %.17g: not the output of sweep %s",
                               i, idx[i], impactfit_sweep_name(f->sweep));
  }
  for (size_t i = 0; i < f->n; i++) {
    int st = run_stage(f, i, data, err);
    if (st)
      return st;
  }
  return IMPACTFIT_OK;
}
