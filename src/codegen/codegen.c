/* SPDX-License-Identifier: 0BSD */
/* Generated C headers (include/impactfit/codegen.h). */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/common_impl.h"
#include "../common/io_impl.h"
#include "../fit/fit_impl.h"
#include "impactfit/codegen.h"
#include "impactfit/version.h"

typedef struct sbuf {
  char *p;
  size_t len, cap;
  int nomem;
} sbuf;

static void out(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out(sbuf *b, const char *fmt, ...) {
  if (b->nomem)
    return;
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    void *loc = impactfit__locale_push(); /* numbers in the C locale whatever the host set */
    int n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
    impactfit__locale_pop(loc);
    va_end(ap);
    if (n < 0) {
      b->nomem = 1;
      return;
    }
    if ((size_t)n < b->cap - b->len) {
      b->len += (size_t)n;
      return;
    }
    size_t nc = 2 * b->cap + (size_t)n + 1;
    char *np = realloc(b->p, nc);
    if (!np) {
      b->nomem = 1;
      return;
    }
    b->p = np;
    b->cap = nc;
  }
}

static const char *base_name(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

static void upper(char *dst, const char *src, size_t size) {
  size_t i = 0;
  for (; src[i] && i + 1 < size; i++)
    dst[i] = (char)toupper((unsigned char)src[i]);
  dst[i] = '\0';
}

static const char *kind_name(impactfit_sweep_axis_kind k) {
  return k == IMPACTFIT_AXIS_LIST ? "list" : k == IMPACTFIT_AXIS_LINEAR ? "linear" : "log";
}

static void banner_sweep(sbuf *b, const impactfit_fitfile *f) {
  const impactfit_sweep *s = impactfit_fitfile_sweep(f);
  const impactfit_sweep_problem *pr = impactfit_sweep_get_problem(s);
  out(b, "  problem      %s", pr->name);
  for (size_t j = 0; j < pr->n_options; j++)
    out(b, "%s%s = %s", j ? ", " : "; options ", pr->options[j].name, impactfit_sweep_option_value(s, j));
  out(b, "\n  fixed       ");
  size_t col = 0;
  const char *sep = " ";
  for (size_t i = 0; i < pr->n_params; i++)
    if (!impactfit_sweep_param_is_swept(s, i) && !(pr->params[i].flags & IMPACTFIT_SWEEP_TOLERANCE)) {
      if (col > 60) {
        out(b, ",\n              ");
        col = 0;
        sep = " ";
      }
      size_t n0 = b->len;
      out(b, "%s%s = %.17g", sep, pr->params[i].name, impactfit_sweep_param_value(s, i));
      col += b->len - n0;
      sep = ", ";
    }
  out(b, "\n  tolerances  ");
  sep = " ";
  for (size_t i = 0; i < pr->n_params; i++)
    if ((pr->params[i].flags & IMPACTFIT_SWEEP_TOLERANCE)) {
      out(b, "%s%s = %.17g%s", sep, pr->params[i].name, impactfit_sweep_param_value(s, i),
          impactfit_sweep_param_is_swept(s, i) ? " (swept)" : "");
      sep = ", ";
    }
  if (sep[0] == ' ')
    out(b, " none (the problem has no tolerance parameter)");
  out(b, "\n  grid         %zu points, last axis fastest:\n", impactfit_sweep_point_count(s));
  for (size_t a = 0; a < impactfit_sweep_axis_count(s); a++) {
    const impactfit_sweep_axis *ax = impactfit_sweep_get_axis(s, a);
    out(b, "                 %s: %s %.17g .. %.17g, %zu values\n", ax->name, kind_name(ax->kind), ax->start, ax->stop,
        ax->count);
  }
}

static void banner_result(sbuf *b, const impactfit_fit_result *r, int minimax, int exact) {
  out(b, "    %zu points; %s", r->n_points, r->method);
  if (r->iterations)
    out(b, ", %d iterations", r->iterations);
  out(b, "\n");
  for (size_t j = 0; j < r->n_params; j++)
    out(b, "    %-8s = %.17g  +- %.3g (standard error)\n", r->names[j], r->value[j], r->se[j]);
  if (r->n_params > 1) {
    out(b, "    correlation:");
    for (size_t j = 0; j < r->n_params; j++) {
      out(b, "%s", j ? "\n                " : " ");
      for (size_t k = 0; k < r->n_params; k++)
        out(b, " %+.6f", r->corr[j][k]);
    }
    out(b, "\n");
  }
  if (minimax)
    out(b, "    (standard errors of a minimax fit: the least-squares formulas at these constants)\n");
  out(b, "    chi^2 = %.6g, rms residual = %.6g, max |f - y| = %.6g, max |f - y|/|y| = %.6g\n", r->chisq, r->rms,
      r->max_abs, r->max_rel);
  if (exact)
    out(b, "    mean |f - y| = %.6g, mean |f - y|/|y| = %.6g (exact data: the form's own errors)\n", r->mean_abs,
        r->mean_rel);
}

/* The banner part of one fit file: inputs, then every stage with its statistics. */
static void banner_fitfile(sbuf *b, const impactfit_fitfile *f) {
  size_t ns = impactfit_fitfile_stage_count(f);
  for (size_t i = 0; i < ns; i++) {
    impactfit_fit_stage st;
    impactfit_fitfile_stage(f, i, &st);
    out(b, "\nStage %s: %s = ", st.name, st.y);
    const impactfit_fit_form *form = st.spec->form;
    if (form == impactfit_fit_formula)
      out(b, "%s", st.spec->formula);
    else if (form == impactfit_fit_polynomial)
      out(b, "polynomial of degree %d in %s", st.spec->degree, st.x);
    else
      out(b, "%s with x = %s", form->equation + 4, st.x);
    out(b, "%s%s\n", st.group ? ", fitted for each value of " : "", st.group ? st.group : "");
    out(b, "  data %s%s; %zu rows used", strcmp(st.data, "sweep") == 0 ? "the sweep" : "the table of stage ",
        strcmp(st.data, "sweep") == 0 ? "" : st.data, st.rows_used - st.rows_failed);
    if (st.where)
      out(b, " (where %s)", st.where);
    if (st.rows_failed)
      out(b, ", %zu failed rows skipped", st.rows_failed);
    impactfit_fit_objective obj = st.spec->objective;
    int minimax = obj == IMPACTFIT_FIT_MINIMAX_ABSOLUTE || obj == IMPACTFIT_FIT_MINIMAX_RELATIVE;
    if (minimax)
      out(b,
          "\n  objective: minimax, smallest max %s (NLopt SLSQP on the epigraph form, from the least-squares "
          "fit\n  with the same residuals)",
          obj == IMPACTFIT_FIT_MINIMAX_RELATIVE ? "|f - y|/|y|" : "|f - y|");
    else
      out(b, "\n  objective: %s, %s",
          obj == IMPACTFIT_FIT_RELATIVE ? "relative residuals (f - y)/y" : "absolute residuals f - y",
          form->linear ? "linear least squares" : "nonlinear least squares");
    if (st.weights)
      out(b, ",\n  %s-rule weights in %s%s%s (the sum approximates the integral over the grid)", st.weights, st.x,
          st.x2 ? " and " : "", st.x2 ? st.x2 : "");
    out(b, "\n");
    if (st.spec->ridge > 0.0) {
      out(b,
          "  ridge regularisation%s: N lambda^2 sum_j ((a_j - s_j)/max(1, |s_j|))^2 added, lambda = %.17g,\n"
          "  centre s = the start values:",
          minimax ? " (of the least-squares start)" : "", st.spec->ridge);
      for (size_t j = 0; j < st.results[0].n_params; j++)
        out(b, "%s %s = %.17g", j % 4 == 0 ? "\n   " : ",", st.results[0].names[j], st.spec->start[j]);
      out(b, "\n");
    }
    for (size_t g = 0; g < st.n_groups; g++) {
      if (st.group)
        out(b, "  %s = %.17g:\n", st.group, st.group_values[g]);
      banner_result(b, &st.results[g], minimax, impactfit_fitfile_exact(f));
    }
  }
}

static const char *const stat_names[] = {"se", "rms", "max_abs", "max_rel"};

/* The definitions of one fit file: per stage the constants, the statistics arrays, the function. */
static int defs_fitfile(impactfit_codegen *g, const impactfit_fitfile *f, impactfit_error *err) {
  const char *name = impactfit_fitfile_name(f);
  char NAME[128];
  upper(NAME, name, sizeof NAME);
  size_t ns = impactfit_fitfile_stage_count(f);
  for (size_t i = 0; i < ns; i++) {
    impactfit_fit_stage st;
    impactfit_fitfile_stage(f, i, &st);
    const impactfit_fit_result *r = &st.results[0];
    size_t p = r->n_params, G = st.n_groups;
    char prefix[160], cnames[IMPACTFIT_FIT_MAX_PARAMS][224], expr[8192], nm[224], com[512];
    const char *cptr[IMPACTFIT_FIT_MAX_PARAMS];
    snprintf(prefix, sizeof prefix, "impactfit_%s_%s", name, st.name);
    for (size_t j = 0; j < p; j++)
      for (size_t k = 0; k < sizeof stat_names / sizeof stat_names[0]; k++)
        if (strcmp(r->names[j], stat_names[k]) == 0)
          return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                                 "codegen: stage %s: a constant named '%s' would clash with the header's statistics "
                                 "array %s_%s",
                                 st.name, r->names[j], prefix, r->names[j]);
    size_t used = 0;
    com[0] = '\0';
    for (size_t j = 0; j < p && used < sizeof com; j++)
      used += (size_t)snprintf(com + used, sizeof com - used, "%s%s", j ? ", " : "", r->names[j]);
    impactfit_codegen_code(g, "\n/* stage %s */\n", st.name);
    double *buf = malloc(sizeof(double) * (G * p + 1));
    if (!buf)
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
    if (st.group) {
      char SNAME[128];
      upper(SNAME, st.name, sizeof SNAME);
      impactfit_codegen_code(g, "#define IMPACTFIT_%s_%s_GROUPS %zu\n", NAME, SNAME, G);
      snprintf(nm, sizeof nm, "%s_%s", prefix, st.group);
      impactfit_codegen_array(g, nm, st.group_values, G, NULL);
      for (size_t j = 0; j < p; j++) {
        for (size_t k = 0; k < G; k++)
          buf[k] = st.results[k].value[j];
        snprintf(nm, sizeof nm, "%s_%s", prefix, r->names[j]);
        impactfit_codegen_array(g, nm, buf, G, NULL);
        snprintf(cnames[j], sizeof cnames[j], "%s_%s[group_index]", prefix, r->names[j]);
        cptr[j] = cnames[j];
      }
    } else {
      for (size_t j = 0; j < p; j++) {
        snprintf(cnames[j], sizeof cnames[j], "%s_%s", prefix, r->names[j]);
        impactfit_codegen_scalar(g, cnames[j], r->value[j], NULL);
        cptr[j] = cnames[j];
      }
    }
    /* the statistics of the banner as data */
    char c2[640];
    size_t dims[2] = {G, p};
    for (size_t k = 0; k < G; k++)
      memcpy(buf + k * p, st.results[k].se, sizeof(double) * p);
    snprintf(c2, sizeof c2, "standard errors of %s%s", com, st.group ? " for each group" : "");
    snprintf(nm, sizeof nm, "%s_se", prefix);
    impactfit_codegen_array_nd(g, nm, buf, st.group ? 2 : 1, st.group ? dims : dims + 1, c2);
    for (int w = 0; w < 3; w++) {
      for (size_t k = 0; k < G; k++)
        buf[k] = w == 0 ? st.results[k].rms : w == 1 ? st.results[k].max_abs : st.results[k].max_rel;
      snprintf(nm, sizeof nm, "%s_%s", prefix, stat_names[w + 1]);
      if (st.group)
        impactfit_codegen_array(g, nm, buf, G,
                                w == 0 ? "rms residual, max |f - y| and max |f - y|/|y| for each group" : NULL);
      else
        impactfit_codegen_scalar(g, nm, buf[0], w == 0 ? "rms residual, max |f - y| and max |f - y|/|y|" : NULL);
    }
    free(buf);
    if (impactfit__fit_model_to_c(st.model, st.x, st.x2, cptr, expr, sizeof expr) < 0)
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "codegen: stage %s: the formula is too long for a header", st.name);
    char sig[512];
    if (st.group) {
      snprintf(com, sizeof com, "%s for group group_index (%s = %s_%s[group_index], 0 <= group_index < %zu)", st.y,
               st.group, prefix, st.group, G);
      snprintf(sig, sizeof sig, "double %s(size_t group_index, double %s)", prefix, st.x);
    } else if (st.x2) {
      snprintf(com, sizeof com, "%s(%s, %s)", st.y, st.x, st.x2);
      snprintf(sig, sizeof sig, "double %s(double %s, double %s)", prefix, st.x, st.x2);
    } else {
      snprintf(com, sizeof com, "%s(%s)", st.y, st.x);
      snprintf(sig, sizeof sig, "double %s(double %s)", prefix, st.x);
    }
    /* the box: the range of the data the stage was fitted to; NaN outside it (an extrapolated fit is no answer) */
    char box[512], guard[512];
    if (st.x2)
      snprintf(guard, sizeof guard,
               "  if (!(%s >= %.17g && %s <= %.17g && %s >= %.17g && %s <= %.17g))\n    return NAN;\n", st.x, st.x_lo,
               st.x, st.x_hi, st.x2, st.x2_lo, st.x2, st.x2_hi);
    else
      snprintf(guard, sizeof guard, "  if (!(%s >= %.17g && %s <= %.17g))\n    return NAN;\n", st.x, st.x_lo, st.x,
               st.x_hi);
    if (st.x2)
      snprintf(box, sizeof box, "%s on %.17g <= %s <= %.17g, %.17g <= %s <= %.17g (the data fitted); NaN outside", com,
               st.x_lo, st.x, st.x_hi, st.x2_lo, st.x2, st.x2_hi);
    else
      snprintf(box, sizeof box, "%s on %.17g <= %s <= %.17g (the data fitted); NaN outside", com, st.x_lo, st.x,
               st.x_hi);
    impactfit_codegen_function(g, box, sig, "%s  return %s;\n", guard, expr);
  }
  return IMPACTFIT_OK;
}

int impactfit_codegen_join(impactfit_codegen *g, const impactfit_fitfile *const *files, size_t n,
                           impactfit_error *err) {
  if (!g || (n && !files))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "codegen_join: no writer or fit files given");
  for (size_t fi = 0; fi < n; fi++) {
    const impactfit_fitfile *f = files[fi];
    if (!f)
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "codegen_join: fit file %zu is NULL", fi);
    for (size_t i = 0; i < impactfit_fitfile_stage_count(f); i++) {
      impactfit_fit_stage st;
      impactfit_fitfile_stage(f, i, &st);
      if (!st.results || !st.table)
        return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "codegen: the fit file %s has not been run",
                               impactfit_fitfile_name(f));
    }
  }
  for (size_t fi = 0; fi < n; fi++) {
    const impactfit_fitfile *f = files[fi];
    const impactfit_sweep *s = impactfit_fitfile_sweep(f);
    impactfit_codegen_text(g, "\nInputs of %s (paths relative to the fit file):", impactfit_fitfile_name(f));
    impactfit_codegen_provenance(g, "fit file", base_name(impactfit_fitfile_path(f)), impactfit_fitfile_hash(f));
    impactfit_codegen_provenance(g, "sweep file", impactfit_fitfile_sweep_ref(f), impactfit_sweep_hash(s));
    sbuf b = {malloc(4096), 0, 4096, 0};
    if (!b.p)
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
    banner_sweep(&b, f);
    banner_fitfile(&b, f);
    if (b.nomem) {
      free(b.p);
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
    }
    if (b.len && b.p[b.len - 1] == '\n')
      b.p[--b.len] = '\0';
    int st = impactfit_codegen_text(g, "%s", b.p);
    free(b.p);
    if (st)
      return IMPACTFIT__FAIL(err, st, "codegen: cannot write the banner of %s", impactfit_fitfile_name(f));
  }
  for (size_t fi = 0; fi < n; fi++) {
    int st = defs_fitfile(g, files[fi], err);
    if (st)
      return st;
  }
  return IMPACTFIT_OK;
}

int impactfit_codegen_header(const impactfit_fitfile *f, char **text, size_t *len, impactfit_error *err) {
  if (text)
    *text = NULL;
  if (len)
    *len = 0;
  if (!f || !text)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "codegen: no fit file or result given");
  impactfit_codegen *g;
  int st = impactfit_codegen_begin(
      impactfit_fitfile_name(f), "impactfit sweep SWEEP_FILE --out DIR && impactfit fit FIT_FILE --data DIR", &g, err);
  if (st)
    return st;
  if ((st = impactfit_codegen_join(g, &f, 1, err))) {
    impactfit_codegen_abort(g);
    return st;
  }
  return impactfit_codegen_finish(g, text, len, err);
}
