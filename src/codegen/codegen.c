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
  out(b, " *   fit file     %s  (xxh64 %s)\n", base_name(impactfit_fitfile_path(f)), impactfit_fitfile_hash(f));
  out(b, " *   sweep file   %s  (xxh64 %s; path relative to the fit file)\n", impactfit_fitfile_sweep_ref(f),
      impactfit_sweep_hash(s));
  out(b, " *   problem      %s", pr->name);
  for (size_t j = 0; j < pr->n_options; j++)
    out(b, "%s%s = %s", j ? ", " : "; options ", pr->options[j].name, impactfit_sweep_option_value(s, j));
  out(b, "\n *   fixed       ");
  size_t col = 0;
  const char *sep = " ";
  for (size_t i = 0; i < pr->n_params; i++)
    if (!impactfit_sweep_param_is_swept(s, i) && !(pr->params[i].flags & IMPACTFIT_SWEEP_TOLERANCE)) {
      if (col > 60) {
        out(b, ",\n *               ");
        col = 0;
        sep = " ";
      }
      size_t n0 = b->len;
      out(b, "%s%s = %.17g", sep, pr->params[i].name, impactfit_sweep_param_value(s, i));
      col += b->len - n0;
      sep = ", ";
    }
  out(b, "\n *   tolerances  ");
  sep = " ";
  for (size_t i = 0; i < pr->n_params; i++)
    if ((pr->params[i].flags & IMPACTFIT_SWEEP_TOLERANCE)) {
      out(b, "%s%s = %.17g%s", sep, pr->params[i].name, impactfit_sweep_param_value(s, i),
          impactfit_sweep_param_is_swept(s, i) ? " (swept)" : "");
      sep = ", ";
    }
  if (sep[0] == ' ')
    out(b, " none (the problem has no tolerance parameter)");
  out(b, "\n *   grid         %zu points, last axis fastest:\n", impactfit_sweep_point_count(s));
  for (size_t a = 0; a < impactfit_sweep_axis_count(s); a++) {
    const impactfit_sweep_axis *ax = impactfit_sweep_get_axis(s, a);
    out(b, " *                  %s: %s %.17g .. %.17g, %zu values\n", ax->name, kind_name(ax->kind), ax->start, ax->stop,
        ax->count);
  }
}

static void banner_result(sbuf *b, const impactfit_fit_result *r, int minimax, int exact) {
  out(b, " *     %zu points; %s", r->n_points, r->method);
  if (r->iterations)
    out(b, ", %d iterations", r->iterations);
  out(b, "\n");
  for (size_t j = 0; j < r->n_params; j++)
    out(b, " *     %-8s = %.17g  +- %.3g (standard error)\n", r->names[j], r->value[j], r->se[j]);
  if (r->n_params > 1) {
    out(b, " *     correlation:");
    for (size_t j = 0; j < r->n_params; j++) {
      out(b, "%s", j ? "\n *                 " : " ");
      for (size_t k = 0; k < r->n_params; k++)
        out(b, " %+.6f", r->corr[j][k]);
    }
    out(b, "\n");
  }
  if (minimax)
    out(b, " *     (standard errors of a minimax fit: the least-squares formulas at these constants)\n");
  out(b, " *     chi^2 = %.6g, rms residual = %.6g, max |f - y| = %.6g, max |f - y|/|y| = %.6g\n", r->chisq, r->rms,
      r->max_abs, r->max_rel);
  if (exact)
    out(b, " *     mean |f - y| = %.6g, mean |f - y|/|y| = %.6g (exact data: the form's own errors)\n", r->mean_abs,
        r->mean_rel);
}

int impactfit_codegen_header(const impactfit_fitfile *f, char **text, size_t *len, impactfit_error *err) {
  *text = NULL;
  if (len)
    *len = 0;
  sbuf b = {malloc(4096), 0, 4096, 0};
  if (!b.p)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  const char *name = impactfit_fitfile_name(f);
  char NAME[128];
  upper(NAME, name, sizeof NAME);
  size_t ns = impactfit_fitfile_stage_count(f);
  for (size_t i = 0; i < ns; i++) {
    impactfit_fit_stage st;
    impactfit_fitfile_stage(f, i, &st);
    if (!st.results || !st.table) {
      free(b.p);
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "codegen: the fit file has not been run");
    }
  }
  out(&b, "%s", IMPACTFIT_GENERATED_LICENSE);
  out(&b, "/* DO NOT EDIT: generated by `impactfit fit` (impactfit %s, %s); regenerate with\n", IMPACTFIT_VERSION_STRING,
      "src/codegen/codegen.c");
  out(&b, " *     impactfit sweep SWEEP_FILE --out DIR && impactfit fit FIT_FILE --data DIR\n");
  out(&b, " *\n * Inputs:\n");
  banner_sweep(&b, f);
  for (size_t i = 0; i < ns; i++) {
    impactfit_fit_stage st;
    impactfit_fitfile_stage(f, i, &st);
    out(&b, " *\n * Stage %s: %s = ", st.name, st.y);
    const impactfit_fit_form *form = st.spec->form;
    if (form == impactfit_fit_formula)
      out(&b, "%s", st.spec->formula);
    else if (form == impactfit_fit_polynomial)
      out(&b, "polynomial of degree %d in %s", st.spec->degree, st.x);
    else
      out(&b, "%s with x = %s", form->equation + 4, st.x);
    out(&b, "%s%s\n", st.group ? ", fitted for each value of " : "", st.group ? st.group : "");
    out(&b, " *   data %s%s; %zu rows used", strcmp(st.data, "sweep") == 0 ? "the sweep" : "the table of stage ",
        strcmp(st.data, "sweep") == 0 ? "" : st.data, st.rows_used - st.rows_failed);
    if (st.where)
      out(&b, " (where %s)", st.where);
    if (st.rows_failed)
      out(&b, ", %zu failed rows skipped", st.rows_failed);
    impactfit_fit_objective obj = st.spec->objective;
    int minimax = obj == IMPACTFIT_FIT_MINIMAX_ABSOLUTE || obj == IMPACTFIT_FIT_MINIMAX_RELATIVE;
    if (minimax)
      out(&b, "\n *   objective: minimax, smallest max %s (NLopt SLSQP on the epigraph form, from the least-squares "
              "fit\n *   with the same residuals)",
          obj == IMPACTFIT_FIT_MINIMAX_RELATIVE ? "|f - y|/|y|" : "|f - y|");
    else
      out(&b, "\n *   objective: %s, %s",
          obj == IMPACTFIT_FIT_RELATIVE ? "relative residuals (f - y)/y" : "absolute residuals f - y",
          form->linear ? "linear least squares" : "nonlinear least squares");
    if (st.weights)
      out(&b, ",\n *   %s-rule weights in %s%s%s (the sum approximates the integral over the grid)", st.weights, st.x,
          st.x2 ? " and " : "", st.x2 ? st.x2 : "");
    out(&b, "\n");
    if (st.spec->ridge > 0.0) {
      out(&b, " *   ridge regularisation%s: N lambda^2 sum_j ((a_j - s_j)/max(1, |s_j|))^2 added, lambda = %.17g,\n"
              " *   centre s = the start values:", minimax ? " (of the least-squares start)" : "", st.spec->ridge);
      for (size_t j = 0; j < st.results[0].n_params; j++)
        out(&b, "%s %s = %.17g", j % 4 == 0 ? "\n *    " : ",", st.results[0].names[j], st.spec->start[j]);
      out(&b, "\n");
    }
    for (size_t g = 0; g < st.n_groups; g++) {
      if (st.group)
        out(&b, " *   %s = %.17g:\n", st.group, st.group_values[g]);
      banner_result(&b, &st.results[g], minimax, impactfit_fitfile_exact(f));
    }
  }
  out(&b, " */\n#ifndef IMPACTFIT_GENERATED_%s_H\n#define IMPACTFIT_GENERATED_%s_H\n\n#include <math.h>\n#include "
          "<stddef.h>\n",
      NAME, NAME);
  for (size_t i = 0; i < ns; i++) {
    impactfit_fit_stage st;
    impactfit_fitfile_stage(f, i, &st);
    const impactfit_fit_result *r = &st.results[0];
    size_t p = r->n_params;
    char prefix[160], cnames[IMPACTFIT_FIT_MAX_PARAMS][224], expr[8192];
    const char *cptr[IMPACTFIT_FIT_MAX_PARAMS];
    snprintf(prefix, sizeof prefix, "impactfit_%s_%s", name, st.name);
    out(&b, "\n/* stage %s */\n", st.name);
    if (st.group) {
      char SNAME[128];
      upper(SNAME, st.name, sizeof SNAME);
      out(&b, "#define IMPACTFIT_%s_%s_GROUPS %zu\n", NAME, SNAME, st.n_groups);
      out(&b, "static const double %s_%s[%zu] = {", prefix, st.group, st.n_groups);
      for (size_t g = 0; g < st.n_groups; g++)
        out(&b, "%s%.17g", g ? ", " : "", st.group_values[g]);
      out(&b, "};\n");
      for (size_t j = 0; j < p; j++) {
        out(&b, "static const double %s_%s[%zu] = {", prefix, r->names[j], st.n_groups);
        for (size_t g = 0; g < st.n_groups; g++)
          out(&b, "%s%.17g", g ? ", " : "", st.results[g].value[j]);
        out(&b, "};\n");
        snprintf(cnames[j], sizeof cnames[j], "%s_%s[group_index]", prefix, r->names[j]);
        cptr[j] = cnames[j];
      }
    } else {
      for (size_t j = 0; j < p; j++) {
        out(&b, "static const double %s_%s = %.17g;\n", prefix, r->names[j], r->value[j]);
        snprintf(cnames[j], sizeof cnames[j], "%s_%s", prefix, r->names[j]);
        cptr[j] = cnames[j];
      }
    }
    if (impactfit__fit_model_to_c(st.model, st.x, st.x2, cptr, expr, sizeof expr) < 0) {
      free(b.p);
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "codegen: stage %s: the formula is too long for a header", st.name);
    }
    if (st.group)
      out(&b, "/* %s for group group_index (%s = %s_%s[group_index], 0 <= group_index < %zu) */\n"
              "static inline double %s(size_t group_index, double %s) {\n  return %s;\n}\n",
          st.y, st.group, prefix, st.group, st.n_groups, prefix, st.x, expr);
    else if (st.x2)
      out(&b, "/* %s(%s, %s) */\nstatic inline double %s(double %s, double %s) {\n  return %s;\n}\n", st.y, st.x, st.x2,
          prefix, st.x, st.x2, expr);
    else
      out(&b, "/* %s(%s) */\nstatic inline double %s(double %s) {\n  return %s;\n}\n", st.y, st.x, prefix, st.x, expr);
  }
  out(&b, "\n#endif\n");
  if (b.nomem) {
    free(b.p);
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  }
  *text = b.p;
  if (len)
    *len = b.len;
  return IMPACTFIT_OK;
}
