/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Formulas with named constants: evaluation and symbolic derivatives by GNU libmatheval, and a
 * syntax tree of our own for printing the formula as C (see fit_impl.h for why there are two). The
 * grammar follows libmatheval's: + − left-associative, * / left-associative, unary minus, ^ binding
 * tighter than unary minus and left-associative (x^2^3 = (x^2)^3, −x^2 = −(x^2), x^−2^2 = x^(−(2^2))). */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <math.h>
#include <matheval.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/common_impl.h"
#include "../common/io_impl.h"
#include "fit_impl.h"

enum { N_NUM, N_NAME, N_NEG, N_ADD, N_SUB, N_MUL, N_DIV, N_POW, N_FUN };

typedef struct node {
  int kind;
  int a, b;   /* children */
  double num; /* N_NUM */
  int idx;    /* N_NAME: name index; N_FUN: function index */
} node;

static const struct fun {
  const char *name, *c_name;
  double (*fn)(double);
} funs[] = {
    {"exp", "exp", exp},       {"log", "log", log},       {"sqrt", "sqrt", sqrt},    {"sin", "sin", sin},
    {"cos", "cos", cos},       {"tan", "tan", tan},       {"asin", "asin", asin},    {"acos", "acos", acos},
    {"atan", "atan", atan},    {"sinh", "sinh", sinh},    {"cosh", "cosh", cosh},    {"tanh", "tanh", tanh},
    {"asinh", "asinh", asinh}, {"acosh", "acosh", acosh}, {"atanh", "atanh", atanh}, {"erf", "erf", erf},
    {"abs", "fabs", fabs},
};
#define N_FUNS (sizeof funs / sizeof funs[0])

/* libmatheval's other functions and constants: refused (no C spelling) or reserved as names. */
static const char *const unsupported[] = {"cot",    "sec",   "csc",   "acot",  "asec", "acsc",  "coth",     "sech",
                                          "csch",   "acoth", "asech", "acsch", "step", "delta", "nandelta", "log2e",
                                          "log10e", "ln2",   "ln10",  "pi_2",  "pi_4", "sqrt2", "sqrt1_2"};

struct impactfit__formula {
  node *nodes;
  int n, cap, root;
  char **names;
  size_t n_names, n_vars;
  char *text;
  /* What libmatheval sees: the text and names with a variable named e or pi (which shadows the
   * constant, see impactfit__formula_create) renamed to impactfit_var_e_ / impactfit_var_pi_. */
  char *mv_text;
  char **mv_names;
  void *ev;
  void **dev; /* per constant */
};

typedef struct parser {
  impactfit__formula *f;
  const char *s, *p;
  impactfit_error *err;
  int st;
} parser;

static int new_node(parser *ps, int kind, int a, int b) {
  impactfit__formula *f = ps->f;
  if (f->n == f->cap) {
    int nc = f->cap ? 2 * f->cap : 32;
    node *nn = realloc(f->nodes, (size_t)nc * sizeof *nn);
    if (!nn) {
      ps->st = IMPACTFIT__FAIL(ps->err, IMPACTFIT_ENOMEM, "out of memory");
      return -1;
    }
    f->nodes = nn;
    f->cap = nc;
  }
  node *nd = &f->nodes[f->n];
  memset(nd, 0, sizeof *nd);
  nd->kind = kind;
  nd->a = a;
  nd->b = b;
  return f->n++;
}

static void skip(parser *ps) {
  while (*ps->p == ' ' || *ps->p == '\t')
    ps->p++;
}

static int fail(parser *ps, const char *what) {
  if (!ps->st)
    ps->st = IMPACTFIT__FAIL(ps->err, IMPACTFIT_EINVAL, "formula: %s at column %d of '%s'", what,
                             (int)(ps->p - ps->s) + 1, ps->s);
  return -1;
}

static int parse_expr(parser *ps);
static int parse_power(parser *ps);

/* long: the recursive-descent parser's primary expressions, one branch per token kind */
static int parse_primary(parser *ps) {
  skip(ps);
  const char *p = ps->p;
  if (*p == '(') {
    ps->p++;
    int e = parse_expr(ps);
    if (e < 0)
      return -1;
    skip(ps);
    if (*ps->p != ')')
      return fail(ps, "')' expected");
    ps->p++;
    return e;
  }
  if (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))) {
    const char *q = p;
    while (isdigit((unsigned char)*q))
      q++;
    if (*q == '.')
      for (q++; isdigit((unsigned char)*q);)
        q++;
    if ((*q == 'e' || *q == 'E') &&
        (isdigit((unsigned char)q[1]) || ((q[1] == '+' || q[1] == '-') && isdigit((unsigned char)q[2])))) {
      q += 2;
      while (isdigit((unsigned char)*q))
        q++;
    }
    char tok[64];
    if ((size_t)(q - p) >= sizeof tok)
      return fail(ps, "number too long");
    memcpy(tok, p, (size_t)(q - p));
    tok[q - p] = '\0';
    double v = impactfit__strtod_c(tok, NULL);
    if (!isfinite(v))
      return fail(ps, "number out of range");
    int nd = new_node(ps, N_NUM, -1, -1);
    if (nd >= 0)
      ps->f->nodes[nd].num = v;
    ps->p = q;
    return nd;
  }
  if (isalpha((unsigned char)*p) || *p == '_') {
    const char *q = p;
    while (isalnum((unsigned char)*q) || *q == '_')
      q++;
    size_t len = (size_t)(q - p);
    ps->p = q;
    skip(ps);
    if (*ps->p == '(') {
      for (size_t k = 0; k < N_FUNS; k++)
        if (strlen(funs[k].name) == len && strncmp(funs[k].name, p, len) == 0) {
          ps->p++;
          int e = parse_expr(ps);
          if (e < 0)
            return -1;
          skip(ps);
          if (*ps->p != ')')
            return fail(ps, "')' expected");
          ps->p++;
          int nd = new_node(ps, N_FUN, e, -1);
          if (nd >= 0)
            ps->f->nodes[nd].idx = (int)k;
          return nd;
        }
      ps->p = p;
      return fail(ps, "unknown or unsupported function");
    }
    /* names first: a variable named e or pi shadows the constant */
    for (size_t k = 0; k < ps->f->n_names; k++)
      if (strlen(ps->f->names[k]) == len && strncmp(ps->f->names[k], p, len) == 0) {
        int nd = new_node(ps, N_NAME, -1, -1);
        if (nd >= 0)
          ps->f->nodes[nd].idx = (int)k;
        return nd;
      }
    if ((len == 1 && *p == 'e') || (len == 2 && strncmp(p, "pi", 2) == 0)) {
      int nd = new_node(ps, N_NUM, -1, -1);
      if (nd >= 0)
        ps->f->nodes[nd].num = (len == 1) ? exp(1.0) : 4.0 * atan(1.0);
      return nd;
    }
    ps->p = p;
    return fail(ps, "a name that is neither a variable nor a declared constant");
  }
  return fail(ps, *p ? "number, name or '(' expected" : "unexpected end");
}

/* the right operand of ^: a primary, or a negated power chain */
static int parse_pow_rhs(parser *ps) {
  skip(ps);
  if (*ps->p == '-') {
    ps->p++;
    int e = parse_power(ps);
    return e < 0 ? -1 : new_node(ps, N_NEG, e, -1);
  }
  return parse_primary(ps);
}

static int parse_power(parser *ps) {
  int l = parse_primary(ps);
  for (;;) {
    if (l < 0)
      return -1;
    skip(ps);
    if (*ps->p != '^')
      return l;
    ps->p++;
    int r = parse_pow_rhs(ps);
    if (r < 0)
      return -1;
    l = new_node(ps, N_POW, l, r);
  }
}

static int parse_unary(parser *ps) {
  skip(ps);
  if (*ps->p == '-') {
    ps->p++;
    int e = parse_unary(ps);
    return e < 0 ? -1 : new_node(ps, N_NEG, e, -1);
  }
  return parse_power(ps);
}

static int parse_term(parser *ps) {
  int l = parse_unary(ps);
  for (;;) {
    if (l < 0)
      return -1;
    skip(ps);
    char c = *ps->p;
    if (c != '*' && c != '/')
      return l;
    ps->p++;
    int r = parse_unary(ps);
    if (r < 0)
      return -1;
    l = new_node(ps, c == '*' ? N_MUL : N_DIV, l, r);
  }
}

static int parse_expr(parser *ps) {
  int l = parse_term(ps);
  for (;;) {
    if (l < 0)
      return -1;
    skip(ps);
    char c = *ps->p;
    if (c != '+' && c != '-')
      return l;
    ps->p++;
    int r = parse_term(ps);
    if (r < 0)
      return -1;
    l = new_node(ps, c == '+' ? N_ADD : N_SUB, l, r);
  }
}

void impactfit__formula_free(impactfit__formula *f) {
  if (!f)
    return;
  if (f->dev)
    for (size_t j = 0; j + f->n_vars < f->n_names; j++)
      if (f->dev[j])
        evaluator_destroy(f->dev[j]);
  free(f->dev);
  if (f->ev)
    evaluator_destroy(f->ev);
  for (size_t k = 0; k < f->n_names; k++) {
    free(f->names[k]);
    if (f->mv_names)
      free(f->mv_names[k]);
  }
  free(f->names);
  free(f->mv_names);
  free(f->nodes);
  free(f->text);
  free(f->mv_text);
  free(f);
}

static int is_const_name(const char *s) { return strcmp(s, "e") == 0 || strcmp(s, "pi") == 0; }

/* The text with every identifier that names a shadowing variable (e, pi) replaced by its libmatheval
 * name; numbers (whose exponent may read 'e') are copied as they are. NULL when out of memory. */
static char *shadow_text(const char *text, char *const *names, char *const *mv_names, size_t n_vars) {
  size_t cap = 2 * strlen(text) + 64, len = 0;
  char *out = malloc(cap);
  const char *p = text;
  while (out && *p) {
    const char *q = p, *rep = NULL;
    if (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))) {
      while (isdigit((unsigned char)*q) || *q == '.')
        q++;
      if ((*q == 'e' || *q == 'E') &&
          (isdigit((unsigned char)q[1]) || ((q[1] == '+' || q[1] == '-') && isdigit((unsigned char)q[2])))) {
        q += 2;
        while (isdigit((unsigned char)*q))
          q++;
      }
    } else if (isalpha((unsigned char)*p) || *p == '_') {
      while (isalnum((unsigned char)*q) || *q == '_')
        q++;
      for (size_t k = 0; k < n_vars; k++)
        if (is_const_name(names[k]) && strlen(names[k]) == (size_t)(q - p) &&
            strncmp(names[k], p, (size_t)(q - p)) == 0)
          rep = mv_names[k];
    } else {
      q++;
    }
    size_t add = rep ? strlen(rep) : (size_t)(q - p);
    if (len + add + 1 > cap) {
      cap = 2 * (len + add + 1);
      char *np = realloc(out, cap);
      if (!np) {
        free(out);
        return NULL;
      }
      out = np;
    }
    memcpy(out + len, rep ? rep : p, add);
    len += add;
    p = q;
  }
  if (out)
    out[len] = '\0';
  return out;
}

static int valid_name(const char *s) {
  if (!s || !(isalpha((unsigned char)s[0]) || s[0] == '_') || strlen(s) > 30)
    return 0;
  for (const char *p = s; *p; p++)
    if (!isalnum((unsigned char)*p) && *p != '_')
      return 0;
  return 1;
}

static int reserved(const char *s) {
  if (strcmp(s, "e") == 0 || strcmp(s, "pi") == 0)
    return 1;
  for (size_t k = 0; k < N_FUNS; k++)
    if (strcmp(s, funs[k].name) == 0)
      return 1;
  for (size_t k = 0; k < sizeof unsupported / sizeof unsupported[0]; k++)
    if (strcmp(s, unsupported[k]) == 0)
      return 1;
  return 0;
}

int impactfit__formula_create(const char *text, const char *const *names, size_t n_vars, size_t n_consts,
                              impactfit__formula **out, impactfit_error *err) {
  *out = NULL;
  if (!text || !text[0])
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "formula: empty");
  size_t nn = n_vars + n_consts;
  for (size_t k = 0; k < nn; k++) {
    if (!valid_name(names[k]))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                             "formula: '%s' is not a valid name (a letter or _, then "
                             "letters, digits, _; at most 30)",
                             names[k] ? names[k] : "");
    if (reserved(names[k]) && !(k < n_vars && is_const_name(names[k])))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                             "formula: the name '%s' is reserved by libmatheval (a "
                             "function, or the constant e or pi, which only a variable may shadow); rename it",
                             names[k]);
    for (size_t j = 0; j < k; j++)
      if (strcmp(names[j], names[k]) == 0)
        return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "formula: the name '%s' is used twice", names[k]);
  }
  impactfit__formula *f = calloc(1, sizeof *f);
  if (!f)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  f->names = calloc(nn, sizeof *f->names);
  f->mv_names = calloc(nn, sizeof *f->mv_names);
  f->dev = calloc(n_consts ? n_consts : 1, sizeof *f->dev);
  f->text = strdup(text);
  if (!f->names || !f->mv_names || !f->dev || !f->text) {
    impactfit__formula_free(f);
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  }
  f->n_vars = n_vars;
  for (size_t k = 0; k < nn; k++) {
    f->n_names = k + 1;
    char mv[48];
    snprintf(mv, sizeof mv, "impactfit_var_%s_", names[k]);
    if (!(f->names[k] = strdup(names[k])) ||
        !(f->mv_names[k] = strdup(k < n_vars && is_const_name(names[k]) ? mv : names[k]))) {
      impactfit__formula_free(f);
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
    }
  }
  if (!(f->mv_text = shadow_text(text, f->names, f->mv_names, n_vars))) {
    impactfit__formula_free(f);
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  }
  parser ps = {.f = f, .s = text, .p = text, .err = err, .st = 0};
  f->root = parse_expr(&ps);
  skip(&ps);
  if (f->root >= 0 && *ps.p)
    fail(&ps, "unexpected character");
  if (ps.st) {
    impactfit__formula_free(f);
    return ps.st;
  }
  /* every constant must appear (otherwise it cannot be fitted) */
  for (size_t k = n_vars; k < nn; k++) {
    int used = 0;
    for (int i = 0; i < f->n; i++)
      used |= (f->nodes[i].kind == N_NAME && f->nodes[i].idx == (int)k);
    if (!used) {
      impactfit__formula_free(f);
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "formula: the constant '%s' does not appear in '%s'", names[k],
                             text);
    }
  }
  f->ev = evaluator_create(f->mv_text);
  if (!f->ev) {
    impactfit__formula_free(f);
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "formula: libmatheval cannot parse '%s'", text);
  }
  for (size_t j = 0; j < n_consts; j++)
    if (!(f->dev[j] = evaluator_derivative(f->ev, f->mv_names[n_vars + j]))) {
      impactfit__formula_free(f);
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "formula: no derivative with respect to %s", names[n_vars + j]);
    }
  *out = f;
  return IMPACTFIT_OK;
}

double impactfit__formula_eval(const impactfit__formula *f, const double *vals) {
  return evaluator_evaluate(f->ev, (int)f->n_names, f->mv_names, (double *)vals);
}

double impactfit__formula_deriv(const impactfit__formula *f, size_t j, const double *vals) {
  return evaluator_evaluate(f->dev[j], (int)f->n_names, f->mv_names, (double *)vals);
}

static double tree(const impactfit__formula *f, int i, const double *v) {
  const node *nd = &f->nodes[i];
  switch (nd->kind) {
  case N_NUM:
    return nd->num;
  case N_NAME:
    return v[nd->idx];
  case N_NEG:
    return -tree(f, nd->a, v);
  case N_ADD:
    return tree(f, nd->a, v) + tree(f, nd->b, v);
  case N_SUB:
    return tree(f, nd->a, v) - tree(f, nd->b, v);
  case N_MUL:
    return tree(f, nd->a, v) * tree(f, nd->b, v);
  case N_DIV:
    return tree(f, nd->a, v) / tree(f, nd->b, v);
  case N_POW:
    return pow(tree(f, nd->a, v), tree(f, nd->b, v));
  default:
    return funs[nd->idx].fn(tree(f, nd->a, v));
  }
}

double impactfit__formula_eval_tree(const impactfit__formula *f, const double *vals) { return tree(f, f->root, vals); }

typedef struct outbuf {
  char *p;
  size_t size, len;
  int overflow;
} outbuf;

static void put(outbuf *o, const char *s) {
  size_t l = strlen(s);
  if (o->len + l + 1 > o->size) {
    o->overflow = 1;
    return;
  }
  memcpy(o->p + o->len, s, l + 1);
  o->len += l;
}

static void emit(const impactfit__formula *f, int i, const char *const *c_names, outbuf *o) {
  const node *nd = &f->nodes[i];
  char num[40];
  static const char *ops[] = {[N_ADD] = " + ", [N_SUB] = " - ", [N_MUL] = " * ", [N_DIV] = " / "};
  switch (nd->kind) {
  case N_NUM:
    impactfit__snprintf_c(num, sizeof num, "%.17g", nd->num);
    if (!strpbrk(num, ".eEin"))
      strcat(num, ".0"); /* a double literal: 1/2 must not be integer division */
    put(o, num);
    break;
  case N_NAME:
    put(o, c_names[nd->idx]);
    break;
  case N_NEG:
    put(o, "(-");
    emit(f, nd->a, c_names, o);
    put(o, ")");
    break;
  case N_POW:
    put(o, "pow(");
    emit(f, nd->a, c_names, o);
    put(o, ", ");
    emit(f, nd->b, c_names, o);
    put(o, ")");
    break;
  case N_FUN:
    put(o, funs[nd->idx].c_name);
    put(o, "(");
    emit(f, nd->a, c_names, o);
    put(o, ")");
    break;
  default:
    put(o, "(");
    emit(f, nd->a, c_names, o);
    put(o, ops[nd->kind]);
    emit(f, nd->b, c_names, o);
    put(o, ")");
  }
}

int impactfit__formula_to_c(const impactfit__formula *f, const char *const *c_names, char *buf, size_t size) {
  outbuf o = {buf, size, 0, 0};
  if (size)
    buf[0] = '\0';
  emit(f, f->root, c_names, &o);
  return o.overflow ? -1 : (int)o.len;
}
