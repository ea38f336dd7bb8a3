/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Internals of the fit module shared with codegen (not installed). */
#ifndef IMPACTFIT_FIT_IMPL_H
#define IMPACTFIT_FIT_IMPL_H

#include <stddef.h>

#include "impactfit/fit.h"

/* ---- formulas (formula.c) ----
 * A formula is parsed twice: by GNU libmatheval, which evaluates it and its symbolic derivatives
 * during the fit, and by the small recursive-descent parser of formula.c, whose syntax tree is
 * printed as C for generated headers (libmatheval prints numbers with 6 digits, so its own text
 * cannot be used). After a fit, impactfit__formula_check_tree compares both at every data point,
 * so a difference between the two parsers is an error, not a silently wrong header. */
typedef struct impactfit__formula impactfit__formula;

/* names: the variables (1 or 2) then the constants; all are copied. */
int impactfit__formula_create(const char *text, const char *const *names, size_t n_vars, size_t n_consts,
                              impactfit__formula **out, impactfit_error *err);
void impactfit__formula_free(impactfit__formula *f);
/* vals: the variables then the constants, in the order of names. */
double impactfit__formula_eval(const impactfit__formula *f, const double *vals);
/* d f / d constant j at vals. */
double impactfit__formula_deriv(const impactfit__formula *f, size_t j, const double *vals);
/* The same expression evaluated by our own syntax tree (what the generated C computes). */
double impactfit__formula_eval_tree(const impactfit__formula *f, const double *vals);
/* Prints the tree as a C expression; c_names gives the C spelling of every name. Returns the
 * length, or −1 when it does not fit in size. */
int impactfit__formula_to_c(const impactfit__formula *f, const char *const *c_names, char *buf, size_t size);

/* ---- models ---- */
struct impactfit_fit_model {
  impactfit_fit_spec spec; /* strings point into the copies below */
  char *formula, *var1, *var2, *method;
  char **constants;
  double start[IMPACTFIT_FIT_MAX_PARAMS];
  size_t p;
  int nvars;
  char names[IMPACTFIT_FIT_MAX_PARAMS][32];
  impactfit__formula *fx;
};

/* Writes the model as a C expression in the variables x_c (and x2_c) and constants c_names[j]. */
int impactfit__fit_model_to_c(const impactfit_fit_model *m, const char *x_c, const char *x2_c,
                              const char *const *c_names, char *buf, size_t size);

#endif
