/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Least-squares fits of the forms of include/impactfit/fit.h with GSL.
 *
 * Linear (polynomial): gsl_multifit_wlinear, i.e. an SVD of the column-scaled, weighted design
 * matrix; it returns C = (XᵀWX)⁻¹, scaled here by s² = χ²/(N − p).
 * Nonlinear: gsl_multifit_nlinear's trust-region driver with analytic Jacobians (libmatheval's
 * symbolic derivatives for formulas, GSL's forward differences when one is not finite). The
 * covariance is gsl_multifit_nlinear_covar of the weighted Jacobian at the minimum, also scaled by s².
 * Starting values for power, exp and alpha_pow: the nonlinear exponent is scanned on a grid and,
 * for each value, the constants that enter linearly are solved for by weighted linear least squares
 * (variable projection); the best grid point starts the trust-region iteration.
 * Ridge regularisation: p extra residuals √N λ (a_j − s_j)/max(1, |s_j|) appended to the weighted
 * residual vector (weight 1), so GSL's driver and covariance see the regularised problem.
 * Minimax: the epigraph problem with NLopt SLSQP (see fit.h), from the least-squares solution. */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <nlopt.h>

#include "../common/common_impl.h"
#include "fit_impl.h"

static const impactfit_fit_form f_poly = {"polynomial", "y = a0 + a1 x + ... + ad x^d", 1};
static const impactfit_fit_form f_power = {"power", "y = a x^b + c", 0};
static const impactfit_fit_form f_exp = {"exp", "y = a exp(b x)", 0};
static const impactfit_fit_form f_dexp = {"double_exp", "y = a exp(b x) + c exp(d x)", 0};
static const impactfit_fit_form f_apow = {"alpha_pow", "y = alpha (x^beta - 1)", 0};
static const impactfit_fit_form f_formula = {"formula", "y = formula(x[, x2]; constants)", 0};
const impactfit_fit_form *const impactfit_fit_polynomial = &f_poly;
const impactfit_fit_form *const impactfit_fit_power = &f_power;
const impactfit_fit_form *const impactfit_fit_exp = &f_exp;
const impactfit_fit_form *const impactfit_fit_double_exp = &f_dexp;
const impactfit_fit_form *const impactfit_fit_alpha_pow = &f_apow;
const impactfit_fit_form *const impactfit_fit_formula = &f_formula;

static const impactfit_fit_form *const all_forms[] = {&f_poly, &f_power, &f_exp, &f_dexp, &f_apow, &f_formula};

const impactfit_fit_form *impactfit_fit_form_from_name(const char *name) {
  if (!name)
    return NULL;
  for (size_t i = 0; i < sizeof all_forms / sizeof all_forms[0]; i++)
    if (strcmp(all_forms[i]->name, name) == 0)
      return all_forms[i];
  return NULL;
}

static const char *const objective_names[] = {"absolute", "relative", "minimax_absolute", "minimax_relative"};

const char *impactfit_fit_objective_name(impactfit_fit_objective obj) {
  return ((int)obj >= 0 && (int)obj < 4) ? objective_names[obj] : NULL;
}

int impactfit_fit_objective_from_name(const char *name) {
  for (int k = 0; name && k < 4; k++)
    if (strcmp(objective_names[k], name) == 0)
      return k;
  return -1;
}

static int is_minimax(const impactfit_fit_model *m) {
  return m->spec.objective == IMPACTFIT_FIT_MINIMAX_ABSOLUTE || m->spec.objective == IMPACTFIT_FIT_MINIMAX_RELATIVE;
}

/* residuals relative to y */
static int is_relative(const impactfit_fit_model *m) {
  return m->spec.objective == IMPACTFIT_FIT_RELATIVE || m->spec.objective == IMPACTFIT_FIT_MINIMAX_RELATIVE;
}

impactfit_fit_spec impactfit_fit_default_spec(void) {
  impactfit_fit_spec s;
  memset(&s, 0, sizeof s);
  s.form = &f_poly;
  s.degree = 1;
  s.objective = IMPACTFIT_FIT_ABSOLUTE;
  s.method = "lm";
  s.xtol = 1e-13;
  s.gtol = 1e-13;
  s.max_iter = 1000;
  return s;
}

static const gsl_multifit_nlinear_trs *trs_from_name(const char *name) {
  if (!name || strcmp(name, "lm") == 0)
    return gsl_multifit_nlinear_trs_lm;
  if (strcmp(name, "lmaccel") == 0)
    return gsl_multifit_nlinear_trs_lmaccel;
  if (strcmp(name, "dogleg") == 0)
    return gsl_multifit_nlinear_trs_dogleg;
  if (strcmp(name, "ddogleg") == 0)
    return gsl_multifit_nlinear_trs_ddogleg;
  if (strcmp(name, "subspace2D") == 0)
    return gsl_multifit_nlinear_trs_subspace2D;
  return NULL;
}

void impactfit_fit_model_free(impactfit_fit_model *m) {
  if (!m)
    return;
  impactfit__formula_free(m->fx);
  if (m->constants)
    for (size_t j = 0; j < m->spec.n_constants; j++)
      free(m->constants[j]);
  free(m->constants);
  free(m->formula);
  free(m->var1);
  free(m->var2);
  free(m->method);
  free(m);
}

static char *dup_or_null(const char *s, int *nomem) {
  if (!s)
    return NULL;
  char *d = strdup(s);
  if (!d)
    *nomem = 1;
  return d;
}

/* The spec's method, objective, ridge and tolerances. */
static int check_spec_options(const impactfit_fit_spec *spec, const impactfit_fit_form *form, impactfit_error *err) {
  if (!trs_from_name(spec->method))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "fit: unknown method '%s' (lm, lmaccel, dogleg, ddogleg, subspace2D)",
                           spec->method);
  if (!impactfit_fit_objective_name(spec->objective))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "fit: unknown objective");
  if (!(isfinite(spec->ridge) && spec->ridge >= 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "fit: ridge must be a finite number >= 0");
  if (spec->ridge > 0.0 && (form->linear || !spec->start))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "fit: ridge regularisation is for nonlinear forms with start values "
                           "(its centre)");
  if (!(spec->xtol > 0 && spec->xtol < 1) || !(spec->gtol > 0 && spec->gtol < 1) || spec->max_iter < 1)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "fit: xtol and gtol must be in (0, 1), max_iter >= 1");
  return IMPACTFIT_OK;
}

/* A formula model: copies of the formula, its variable(s) and constants (the parameter names), and
 * the compiled formula. *nomem is set when a copy failed. */
static int model_formula(impactfit_fit_model *m, const impactfit_fit_spec *spec, int *nomem, impactfit_error *err) {
  if (!spec->formula || !spec->var1 || !spec->constants || spec->n_constants == 0 ||
      spec->n_constants > IMPACTFIT_FIT_MAX_PARAMS)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "fit: a formula needs the formula, its variable(s) and 1..%d "
                           "constants",
                           IMPACTFIT_FIT_MAX_PARAMS);
  m->p = spec->n_constants;
  m->nvars = spec->var2 ? 2 : 1;
  m->formula = dup_or_null(spec->formula, nomem);
  m->var1 = dup_or_null(spec->var1, nomem);
  m->var2 = dup_or_null(spec->var2, nomem);
  m->constants = calloc(m->p, sizeof *m->constants);
  if (!m->constants)
    *nomem = 1;
  for (size_t j = 0; j < m->p && m->constants; j++) {
    m->constants[j] = dup_or_null(spec->constants[j], nomem);
    snprintf(m->names[j], sizeof m->names[j], "%s", spec->constants[j] ? spec->constants[j] : "");
  }
  if (*nomem)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  m->spec.formula = m->formula;
  m->spec.var1 = m->var1;
  m->spec.var2 = m->var2;
  m->spec.constants = (const char *const *)m->constants;
  const char *all[2 + IMPACTFIT_FIT_MAX_PARAMS];
  all[0] = m->var1;
  if (m->var2)
    all[1] = m->var2;
  for (size_t j = 0; j < m->p; j++)
    all[m->nvars + j] = m->constants[j];
  return impactfit__formula_create(m->formula, all, (size_t)m->nvars, m->p, &m->fx, err);
}

/* The start values of the spec (one finite value per constant; none for a polynomial), required by
 * the double exponential and formulas. */
static int model_start(impactfit_fit_model *m, const impactfit_fit_spec *spec, const impactfit_fit_form *form,
                       impactfit_error *err) {
  if (spec->start) {
    if (form == &f_poly)
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "fit: a polynomial fit is linear and takes no start values");
    if (spec->n_start != m->p)
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "fit: %zu start values given, the form has %zu constants",
                             spec->n_start, m->p);
    for (size_t j = 0; j < m->p; j++) {
      if (!isfinite(spec->start[j]))
        return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "fit: start values must be finite");
      m->start[j] = spec->start[j];
    }
    m->spec.start = m->start;
    m->spec.n_start = m->p;
  } else if (form == &f_dexp || form == &f_formula) {
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "fit: form %s needs start values (one per constant)", form->name);
  }
  return IMPACTFIT_OK;
}

int impactfit_fit_model_create(const impactfit_fit_spec *spec, impactfit_fit_model **out, impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  *out = NULL;
  if (!spec || !spec->form)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "fit: no form given");
  const impactfit_fit_form *form = impactfit_fit_form_from_name(spec->form->name);
  if (form != spec->form)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "fit: unknown form");
  int st = check_spec_options(spec, form, err);
  if (st)
    return st;
  impactfit_fit_model *m = calloc(1, sizeof *m);
  if (!m)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  m->spec = *spec;
  m->nvars = 1;
  int nomem = 0;
  m->method = dup_or_null(spec->method ? spec->method : "lm", &nomem);
  m->spec.method = m->method;
  m->spec.start = NULL;
  m->spec.formula = m->spec.var1 = m->spec.var2 = NULL;
  m->spec.constants = NULL;
  static const char *const pn[] = {"a", "b", "c"}, *const en[] = {"a", "b"}, *const dn[] = {"a", "b", "c", "d"},
                           *const an[] = {"alpha", "beta"};
  const char *const *names = NULL;
  if (form == &f_poly) {
    if (spec->degree < 0 || spec->degree >= IMPACTFIT_FIT_MAX_PARAMS) {
      st = IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "fit: polynomial degree must be 0..%d (got %d)",
                           IMPACTFIT_FIT_MAX_PARAMS - 1, spec->degree);
      goto done;
    }
    m->p = (size_t)spec->degree + 1;
    for (size_t j = 0; j < m->p; j++)
      snprintf(m->names[j], sizeof m->names[j], "a%zu", j);
  } else if (form == &f_power) {
    m->p = 3, names = pn;
  } else if (form == &f_exp) {
    m->p = 2, names = en;
  } else if (form == &f_dexp) {
    m->p = 4, names = dn;
  } else if (form == &f_apow) {
    m->p = 2, names = an;
  } else if ((st = model_formula(m, spec, &nomem, err))) {
    goto done;
  }
  if (names)
    for (size_t j = 0; j < m->p; j++)
      snprintf(m->names[j], sizeof m->names[j], "%s", names[j]);
  if (nomem) {
    st = IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
    goto done;
  }
  st = model_start(m, spec, form, err);
done:
  if (st) {
    impactfit_fit_model_free(m);
    return st;
  }
  *out = m;
  return IMPACTFIT_OK;
}

size_t impactfit_fit_model_param_count(const impactfit_fit_model *m) { return m->p; }
int impactfit_fit_model_variables(const impactfit_fit_model *m) { return m->nvars; }

double impactfit_fit_model_eval(const impactfit_fit_model *m, const double *a, double x, double x2) {
  const impactfit_fit_form *f = m->spec.form;
  if (f == &f_poly) {
    double y = a[m->p - 1];
    for (size_t j = m->p - 1; j-- > 0;)
      y = y * x + a[j];
    return y;
  }
  if (f == &f_power)
    return a[0] * pow(x, a[1]) + a[2];
  if (f == &f_exp)
    return a[0] * exp(a[1] * x);
  if (f == &f_dexp)
    return a[0] * exp(a[1] * x) + a[2] * exp(a[3] * x);
  if (f == &f_apow)
    return a[0] * (pow(x, a[1]) - 1.0);
  double v[2 + IMPACTFIT_FIT_MAX_PARAMS];
  v[0] = x;
  if (m->nvars == 2)
    v[1] = x2;
  memcpy(v + m->nvars, a, m->p * sizeof *a);
  return impactfit__formula_eval(m->fx, v);
}

/* Row i of the Jacobian d f / d a_j (unweighted). Returns 0 if every entry is finite. */
static int jac_row(const impactfit_fit_model *m, const double *a, double x, double x2, double *J) {
  const impactfit_fit_form *f = m->spec.form;
  if (f == &f_power) {
    double xb = pow(x, a[1]);
    J[0] = xb, J[1] = a[0] * xb * log(x), J[2] = 1.0;
  } else if (f == &f_exp) {
    double e = exp(a[1] * x);
    J[0] = e, J[1] = a[0] * x * e;
  } else if (f == &f_dexp) {
    double e1 = exp(a[1] * x), e2 = exp(a[3] * x);
    J[0] = e1, J[1] = a[0] * x * e1, J[2] = e2, J[3] = a[2] * x * e2;
  } else if (f == &f_apow) {
    double xb = pow(x, a[1]);
    J[0] = xb - 1.0, J[1] = a[0] * xb * log(x);
  } else if (f == &f_formula) {
    double v[2 + IMPACTFIT_FIT_MAX_PARAMS];
    v[0] = x;
    if (m->nvars == 2)
      v[1] = x2;
    memcpy(v + m->nvars, a, m->p * sizeof *a);
    for (size_t j = 0; j < m->p; j++)
      J[j] = impactfit__formula_deriv(m->fx, j, v);
  } else {
    double xp = 1.0;
    for (size_t j = 0; j < m->p; j++, xp *= x)
      J[j] = xp;
  }
  for (size_t j = 0; j < m->p; j++)
    if (!isfinite(J[j]))
      return -1;
  return 0;
}

typedef struct fit_data {
  const impactfit_fit_model *m;
  size_t n;
  const double *x, *x2, *y;
  int bad;        /* a non-finite model value or derivative was met */
  size_t nridge;  /* p when ridge-regularised (rows n .. n+p−1), else 0 */
  double ridge_w; /* √N λ */
} fit_data;

static double ridge_scale(const impactfit_fit_model *m, size_t j) { return fmax(1.0, fabs(m->start[j])); }

static int f_cb(const gsl_vector *p, void *vd, gsl_vector *f) {
  fit_data *d = vd;
  for (size_t i = 0; i < d->n; i++) {
    double v = impactfit_fit_model_eval(d->m, p->data, d->x[i], d->x2 ? d->x2[i] : 0.0) - d->y[i];
    if (!isfinite(v)) {
      d->bad = 1;
      return GSL_EDOM;
    }
    gsl_vector_set(f, i, v);
  }
  for (size_t j = 0; j < d->nridge; j++)
    gsl_vector_set(f, d->n + j, d->ridge_w * (p->data[j] - d->m->start[j]) / ridge_scale(d->m, j));
  return GSL_SUCCESS;
}

static int df_cb(const gsl_vector *p, void *vd, gsl_matrix *J) {
  fit_data *d = vd;
  for (size_t i = 0; i < d->n; i++)
    if (jac_row(d->m, p->data, d->x[i], d->x2 ? d->x2[i] : 0.0, gsl_matrix_ptr(J, i, 0))) {
      d->bad = 2;
      return GSL_EDOM;
    }
  for (size_t j = 0; j < d->nridge; j++)
    for (size_t k = 0; k < d->nridge; k++)
      gsl_matrix_set(J, d->n + j, k, j == k ? d->ridge_w / ridge_scale(d->m, j) : 0.0);
  return GSL_SUCCESS;
}

/* Weighted linear least squares for a few basis functions; returns χ² (HUGE_VAL on failure). */
static double small_lls(gsl_matrix *X, const gsl_vector *w, const gsl_vector *y, gsl_vector *c, gsl_matrix *cov,
                        gsl_multifit_linear_workspace *ws) {
  double chisq;
  for (size_t i = 0; i < X->size1; i++)
    for (size_t j = 0; j < X->size2; j++)
      if (!isfinite(gsl_matrix_get(X, i, j)))
        return HUGE_VAL;
  if (gsl_multifit_wlinear(X, w, y, c, cov, &chisq, ws) != GSL_SUCCESS || !isfinite(chisq))
    return HUGE_VAL;
  return chisq;
}

/* Starting values by variable projection over a grid of the exponent (see the file comment). */
static int auto_start(const impactfit_fit_model *m, size_t n, const double *x, const double *y, const double *wt,
                      double *a, impactfit_error *err) {
  const impactfit_fit_form *f = m->spec.form;
  size_t nb = (f == &f_power) ? 2 : 1;
  gsl_matrix *X = gsl_matrix_alloc(n, nb), *cov = gsl_matrix_alloc(nb, nb);
  gsl_vector *c = gsl_vector_alloc(nb);
  gsl_vector_const_view yv = gsl_vector_const_view_array(y, n), wv = gsl_vector_const_view_array(wt, n);
  gsl_multifit_linear_workspace *ws = gsl_multifit_linear_alloc(n, nb);
  if (!X || !cov || !c || !ws) {
    gsl_matrix_free(X);
    gsl_matrix_free(cov);
    gsl_vector_free(c);
    gsl_multifit_linear_free(ws);
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  }
  double xmax = 0.0;
  for (size_t i = 0; i < n; i++)
    xmax = fmax(xmax, fabs(x[i]));
  double best = HUGE_VAL;
  /* exponent grid: power and alpha_pow b in ±{0.05 .. 5}; exp b·max|x| in ±{0.01 .. 30} */
  static const double g[] = {0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0, 20.0, 30.0};
  for (size_t k = 0; k < 2 * sizeof g / sizeof g[0]; k++) {
    double b = g[k / 2] * ((k & 1) ? -1.0 : 1.0);
    if (f == &f_exp)
      b /= (xmax > 0.0 ? xmax : 1.0);
    else if (fabs(b) > 5.0 || fabs(b) < 0.05)
      continue;
    for (size_t i = 0; i < n; i++) {
      if (f == &f_power) {
        gsl_matrix_set(X, i, 0, pow(x[i], b));
        gsl_matrix_set(X, i, 1, 1.0);
      } else if (f == &f_exp) {
        gsl_matrix_set(X, i, 0, exp(b * x[i]));
      } else {
        gsl_matrix_set(X, i, 0, pow(x[i], b) - 1.0);
      }
    }
    double chisq = small_lls(X, &wv.vector, &yv.vector, c, cov, ws);
    if (chisq < best) {
      best = chisq;
      a[0] = gsl_vector_get(c, 0);
      a[1] = b;
      if (f == &f_power)
        a[2] = gsl_vector_get(c, 1);
    }
  }
  gsl_matrix_free(X);
  gsl_matrix_free(cov);
  gsl_vector_free(c);
  gsl_multifit_linear_free(ws);
  if (best == HUGE_VAL)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOCONV, "fit: no starting values found for form %s; give start = ...",
                           f->name);
  return IMPACTFIT_OK;
}

/* χ² (with the quadrature weights qw, NULL: 1), errors and max errors at the solution a. */
static void finish_stats(const impactfit_fit_model *m, size_t n, const double *x, const double *x2, const double *y,
                         const double *qw, const double *a, impactfit_fit_result *res) {
  double chisq = 0.0, max_abs = 0.0, max_rel = 0.0, sum_abs = 0.0, sum_rel = 0.0;
  size_t nrel = 0;
  for (size_t i = 0; i < n; i++) {
    double fv = impactfit_fit_model_eval(m, a, x[i], x2 ? x2[i] : 0.0), d = fv - y[i];
    double r = is_relative(m) ? d / y[i] : d;
    chisq += qw ? qw[i] * r * r : r * r;
    max_abs = fmax(max_abs, fabs(d));
    sum_abs += fabs(d);
    if (y[i] != 0.0) {
      max_rel = fmax(max_rel, fabs(d / y[i]));
      sum_rel += fabs(d / y[i]);
      nrel++;
    }
  }
  res->chisq = chisq;
  res->rms = sqrt(chisq / (double)n);
  res->max_abs = max_abs;
  res->max_rel = max_rel;
  res->mean_abs = sum_abs / (double)n;
  res->mean_rel = nrel ? sum_rel / (double)nrel : 0.0;
}

/* Standard errors and correlations from C = (JᵀWJ)⁻¹ (cov, p × p) and s² = χ²/(N − p). */
static void finish_cov(const gsl_matrix *cov, size_t n, impactfit_fit_result *res) {
  size_t p = res->n_params;
  double s2 = res->chisq / (double)(n - p);
  for (size_t j = 0; j < p; j++)
    res->se[j] = sqrt(fmax(0.0, gsl_matrix_get(cov, j, j)) * s2);
  for (size_t j = 0; j < p; j++)
    for (size_t k = 0; k < p; k++) {
      double cjj = gsl_matrix_get(cov, j, j), ckk = gsl_matrix_get(cov, k, k);
      double r = (cjj > 0.0 && ckk > 0.0) ? gsl_matrix_get(cov, j, k) / sqrt(cjj * ckk) : (j == k ? 1.0 : 0.0);
      res->corr[j][k] = (j == k) ? 1.0 : fmax(-1.0, fmin(1.0, r));
    }
}

static int fit_linear(impactfit_fit_model *m, size_t n, const double *x, const double *y, const double *wt,
                      const double *qw, impactfit_fit_result *res, impactfit_error *err) {
  size_t p = m->p;
  gsl_matrix *X = gsl_matrix_alloc(n, p), *cov = gsl_matrix_alloc(p, p);
  gsl_vector *c = gsl_vector_alloc(p);
  gsl_multifit_linear_workspace *ws = gsl_multifit_linear_alloc(n, p);
  int st = IMPACTFIT_OK;
  if (!X || !cov || !c || !ws) {
    st = IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
    goto done;
  }
  for (size_t i = 0; i < n; i++) {
    double xp = 1.0;
    for (size_t j = 0; j < p; j++, xp *= x[i])
      gsl_matrix_set(X, i, j, xp);
  }
  gsl_vector_const_view yv = gsl_vector_const_view_array(y, n), wv = gsl_vector_const_view_array(wt, n);
  double chisq;
  size_t rank = 0;
  int gs = gsl_multifit_wlinear_tsvd(X, &wv.vector, &yv.vector, DBL_EPSILON * (double)p, c, cov, &chisq, &rank, ws);
  if (gs != GSL_SUCCESS || rank < p) {
    st = IMPACTFIT__FAIL(err, IMPACTFIT_ENOCONV,
                         "fit: the polynomial design matrix is rank deficient (rank %zu of %zu"
                         "): too few distinct x values for degree %d",
                         rank, p, m->spec.degree);
    goto done;
  }
  for (size_t j = 0; j < p; j++)
    res->value[j] = gsl_vector_get(c, j);
  finish_stats(m, n, x, NULL, y, qw, res->value, res);
  finish_cov(cov, n, res);
  snprintf(res->method, sizeof res->method, "linear least squares (GSL wlinear, SVD)");
done:
  gsl_matrix_free(X);
  gsl_matrix_free(cov);
  gsl_vector_free(c);
  gsl_multifit_linear_free(ws);
  return st;
}

/* The trust-region solve from a0 with weights wv; a second attempt with GSL's finite-difference
 * Jacobian (*fd set) when a symbolic derivative was not finite (d->bad == 2). *wp: the workspace
 * (freed by the caller), *gs_out: GSL's status. */
static int nlinear_solve(const impactfit_fit_model *m, fit_data *d, gsl_multifit_nlinear_fdf *fdf,
                         const gsl_multifit_nlinear_parameters *fp, const gsl_vector *a0, const gsl_vector *wv,
                         gsl_multifit_nlinear_workspace **wp, int *gs_out, int *fd, impactfit_error *err) {
  size_t nr = fdf->n, p = fdf->p;
  int info = 0, gs = GSL_SUCCESS;
  for (int attempt = 0; attempt < 2; attempt++) {
    /* attempt 1: GSL's finite-difference Jacobian, when a symbolic derivative was not finite */
    if (attempt == 1) {
      if (d->bad != 2)
        break;
      fdf->df = NULL;
      *fd = 1;
    }
    d->bad = 0;
    gsl_multifit_nlinear_free(*wp);
    *wp = gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, fp, nr, p);
    if (!*wp) {
      *gs_out = gs;
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
    }
    gs = gsl_multifit_nlinear_winit(a0, wv, fdf, *wp);
    if (gs == GSL_SUCCESS)
      gs = gsl_multifit_nlinear_driver((size_t)m->spec.max_iter, m->spec.xtol, m->spec.gtol, 0.0, NULL, NULL, &info,
                                       *wp);
    if (!(gs != GSL_SUCCESS && d->bad == 2))
      break;
  }
  *gs_out = gs;
  return IMPACTFIT_OK;
}

/* The weighted Jacobian J (nr × p) at the solution a (value: its elements), for the covariance: the model's own derivatives,
 * or (when *fd is set or a derivative is not finite) GSL's unweighted forward differences, the rows
 * weighted by √wt; then the ridge rows. Sets *fd when finite differences were used. fvec: work. */
static int covariance_jacobian(const impactfit_fit_model *m, fit_data *d, gsl_multifit_nlinear_fdf *fdf,
                               const gsl_multifit_nlinear_parameters *fp, const double *wt, const gsl_vector *a,
                               const double *value, gsl_vector *fvec, gsl_matrix *J, int *fd, impactfit_error *err) {
  size_t n = d->n, nr = fdf->n, p = fdf->p;
  const double *x = d->x, *x2 = d->x2;
  int jbad = 0;
  for (size_t i = 0; i < n && !jbad; i++) {
    double *row = gsl_matrix_ptr(J, i, 0);
    jbad = *fd || jac_row(m, value, x[i], x2 ? x2[i] : 0.0, row);
    for (size_t j = 0; j < p && !jbad; j++)
      row[j] *= sqrt(wt[i]);
  }
  for (size_t j = 0; j < d->nridge; j++)
    for (size_t k = 0; k < p; k++)
      gsl_matrix_set(J, n + j, k, j == k ? d->ridge_w / ridge_scale(m, j) : 0.0);
  if (jbad) {
    /* unweighted forward differences (GSL), then the rows weighted as above */
    gsl_vector *work = gsl_vector_alloc(nr);
    fdf->df = NULL;
    int ok = work && f_cb(a, d, fvec) == GSL_SUCCESS &&
             gsl_multifit_nlinear_df(fp->h_df, GSL_MULTIFIT_NLINEAR_FWDIFF, a, NULL, fdf, fvec, J, work) == GSL_SUCCESS;
    gsl_vector_free(work);
    if (!ok)
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENONFINITE, "fit: no finite Jacobian at the solution");
    for (size_t i = 0; i < nr; i++)
      for (size_t j = 0; j < p; j++)
        *gsl_matrix_ptr(J, i, j) *= sqrt(wt[i]);
    *fd = 1;
  }
  return IMPACTFIT_OK;
}

/* wt: the weights of the n data residuals (quadrature × 1/y² for relative residuals); with ridge
 * regularisation wt has n + p entries (the last p are 1). */
static int fit_nonlinear(impactfit_fit_model *m, size_t n, const double *x, const double *x2, const double *y,
                         const double *wt, const double *qw, impactfit_fit_result *res, impactfit_error *err) {
  size_t p = m->p;
  double a0[IMPACTFIT_FIT_MAX_PARAMS];
  int st;
  if (m->spec.start)
    memcpy(a0, m->spec.start, p * sizeof *a0);
  else if ((st = auto_start(m, n, x, y, wt, a0, err)))
    return st;
  fit_data d = {.m = m,
                .n = n,
                .x = x,
                .x2 = x2,
                .y = y,
                .bad = 0,
                .nridge = m->spec.ridge > 0.0 ? p : 0,
                .ridge_w = sqrt((double)n) * m->spec.ridge};
  size_t nr = n + d.nridge; /* residuals */
  gsl_multifit_nlinear_fdf fdf;
  memset(&fdf, 0, sizeof fdf);
  fdf.f = f_cb;
  fdf.df = df_cb;
  fdf.n = nr;
  fdf.p = p;
  fdf.params = &d;
  gsl_multifit_nlinear_parameters fp = gsl_multifit_nlinear_default_parameters();
  fp.trs = trs_from_name(m->spec.method);
  gsl_vector_view a0v = gsl_vector_view_array(a0, p);
  gsl_vector_const_view wv = gsl_vector_const_view_array(wt, nr);
  gsl_matrix *cov = gsl_matrix_alloc(p, p), *J = gsl_matrix_alloc(nr, p);
  gsl_vector *fvec = gsl_vector_alloc(nr);
  st = IMPACTFIT_OK;
  gsl_multifit_nlinear_workspace *w = NULL;
  int fd = 0, gs = GSL_SUCCESS;
  if (!cov || !J || !fvec) {
    st = IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
    goto done;
  }
  if ((st = nlinear_solve(m, &d, &fdf, &fp, &a0v.vector, &wv.vector, &w, &gs, &fd, err)))
    goto done;
  if (d.bad == 1) {
    st = IMPACTFIT__FAIL(err, IMPACTFIT_ENONFINITE,
                         "fit: the model is not finite at some data point for the "
                         "constants tried (check the form against the data, or the start values)");
    goto done;
  }
  if (gs == GSL_EMAXITER) {
    st = IMPACTFIT__FAIL(err, IMPACTFIT_ENOCONV, "fit: no convergence in %d iterations", m->spec.max_iter);
    goto done;
  }
  if (gs != GSL_SUCCESS && gs != GSL_ENOPROG) {
    st = IMPACTFIT__FAIL(err, IMPACTFIT_ENOCONV, "fit: GSL nonlinear least squares failed: %s", gsl_strerror(gs));
    goto done;
  }
  const gsl_vector *a = gsl_multifit_nlinear_position(w);
  for (size_t j = 0; j < p; j++) {
    res->value[j] = gsl_vector_get(a, j);
    if (!isfinite(res->value[j])) {
      st = IMPACTFIT__FAIL(err, IMPACTFIT_ENONFINITE, "fit: constant %s is not finite", m->names[j]);
      goto done;
    }
  }
  res->iterations = (int)gsl_multifit_nlinear_niter(w);
  finish_stats(m, n, x, x2, y, qw, res->value, res);
  /* covariance from the weighted Jacobian at the solution: ours, or GSL's finite differences */
  if ((st = covariance_jacobian(m, &d, &fdf, &fp, wt, a, res->value, fvec, J, &fd, err)))
    goto done;
  if (gsl_multifit_nlinear_covar(J, 0.0, cov) != GSL_SUCCESS) {
    st = IMPACTFIT__FAIL(err, IMPACTFIT_ENOCONV,
                         "fit: singular Jacobian at the solution (constants not "
                         "determined by the data)");
    goto done;
  }
  for (size_t j = 0; j < p; j++)
    if (!isfinite(gsl_matrix_get(cov, j, j))) {
      st = IMPACTFIT__FAIL(err, IMPACTFIT_ENOCONV, "fit: singular Jacobian at the solution");
      goto done;
    }
  finish_cov(cov, n, res);
  res->finite_diff = fd;
  snprintf(res->method, sizeof res->method, "GSL multifit_nlinear %s%s%s%s", m->spec.method,
           d.nridge ? ", ridge-regularised" : "", fd ? ", finite-difference Jacobian" : "",
           gs == GSL_ENOPROG ? ", stopped: no further progress" : "");
done:
  gsl_multifit_nlinear_free(w);
  gsl_matrix_free(cov);
  gsl_matrix_free(J);
  gsl_vector_free(fvec);
  return st;
}

/* ---- minimax ---- */

typedef struct mm_data {
  const impactfit_fit_model *m;
  size_t n;
  const double *x, *x2, *y;
  int domain; /* the model or its Jacobian was not finite somewhere */
} mm_data;

/* Jacobian row at a: analytic, or central differences where that is not finite. */
static void mm_jac_row(const mm_data *d, const double *a, size_t i, double *J) {
  const impactfit_fit_model *m = d->m;
  double x2 = d->x2 ? d->x2[i] : 0.0;
  if (!jac_row(m, a, d->x[i], x2, J))
    return;
  double b[IMPACTFIT_FIT_MAX_PARAMS];
  memcpy(b, a, m->p * sizeof *b);
  for (size_t j = 0; j < m->p; j++) {
    double h = 1e-7 * fmax(fabs(a[j]), 1e-3);
    b[j] = a[j] + h;
    double fp = impactfit_fit_model_eval(m, b, d->x[i], x2);
    b[j] = a[j] - h;
    double fm = impactfit_fit_model_eval(m, b, d->x[i], x2);
    b[j] = a[j];
    J[j] = (fp - fm) / (2.0 * h);
  }
}

static double mm_obj(unsigned n, const double *v, double *grad, void *data) {
  (void)data;
  if (grad) {
    for (unsigned j = 0; j < n; j++)
      grad[j] = 0.0;
    grad[n - 1] = 1.0;
  }
  return v[n - 1];
}

/* c_i = r_i − t ≤ 0 and c_{N+i} = −r_i − t ≤ 0, v = (a, t). */
static void mm_con(unsigned nc, double *c, unsigned nv, const double *v, double *grad, void *data) {
  mm_data *d = data;
  const impactfit_fit_model *m = d->m;
  size_t N = d->n, p = m->p;
  double t = v[p], J[IMPACTFIT_FIT_MAX_PARAMS];
  (void)nc;
  for (size_t i = 0; i < N; i++) {
    double sc = is_relative(m) ? 1.0 / d->y[i] : 1.0;
    double r = (impactfit_fit_model_eval(m, v, d->x[i], d->x2 ? d->x2[i] : 0.0) - d->y[i]) * sc;
    if (grad)
      mm_jac_row(d, v, i, J);
    int ok = isfinite(r);
    for (size_t j = 0; ok && grad && j < p; j++)
      ok = isfinite(J[j]);
    if (!ok) { /* push SLSQP back to where the model is finite */
      d->domain = 1;
      r = 10.0 * (fabs(t) + 1.0);
      for (size_t j = 0; j < p; j++)
        J[j] = 0.0;
    }
    c[i] = r - t;
    c[N + i] = -r - t;
    if (grad) {
      double *gi = grad + i * nv, *gj = grad + (N + i) * nv;
      for (size_t j = 0; j < p; j++) {
        gi[j] = J[j] * sc;
        gj[j] = -J[j] * sc;
      }
      gi[p] = gj[p] = -1.0;
    }
  }
}

/* max |r_i| at a; HUGE_VAL where the model is not finite. */
static double mm_max(const mm_data *d, const double *a) {
  double mx = 0.0;
  for (size_t i = 0; i < d->n; i++) {
    double sc = is_relative(d->m) ? 1.0 / d->y[i] : 1.0;
    double r = fabs((impactfit_fit_model_eval(d->m, a, d->x[i], d->x2 ? d->x2[i] : 0.0) - d->y[i]) * sc);
    if (!isfinite(r))
      return HUGE_VAL;
    mx = fmax(mx, r);
  }
  return mx;
}

/* One SLSQP run from a (replaced by its end point when that is better); returns the max |r|. */
static double mm_run(mm_data *d, double *a, double *tol, int *evals) {
  size_t p = d->m->p;
  double t0 = mm_max(d, a);
  if (!(t0 < HUGE_VAL))
    return HUGE_VAL;
  nlopt_opt opt = nlopt_create(NLOPT_LD_SLSQP, (unsigned)(p + 1));
  if (!opt)
    return HUGE_VAL;
  double v[IMPACTFIT_FIT_MAX_PARAMS + 1];
  memcpy(v, a, p * sizeof *v);
  v[p] = 1.5 * t0 + 1e-300; /* strictly feasible: SLSQP may stall on an active start */
  nlopt_set_min_objective(opt, mm_obj, NULL);
  nlopt_add_inequality_mconstraint(opt, (unsigned)(2 * d->n), mm_con, d, tol);
  nlopt_set_xtol_rel(opt, 1e-13);
  nlopt_set_maxeval(opt, 3000);
  double fval;
  nlopt_result r = nlopt_optimize(opt, v, &fval);
  *evals += nlopt_get_numevals(opt);
  nlopt_destroy(opt);
  if (r < 0 && r != NLOPT_ROUNDOFF_LIMITED)
    return t0;
  double t = mm_max(d, v); /* the reported t may sit a hair below max |r| */
  if (t < t0) {
    memcpy(a, v, p * sizeof *a);
    return t;
  }
  return t0;
}

/* Least squares with the same residuals, then SLSQP on the epigraph form from that solution and
 * from the start values; each run is restarted from its end while that still improves (a run can
 * stop early when the active set at its start is degenerate). */
static int fit_minimax(impactfit_fit_model *m, size_t n, const double *x, const double *x2, const double *y,
                       const double *wt, const double *qw, impactfit_fit_result *res, impactfit_error *err) {
  size_t p = m->p;
  int st = m->spec.form->linear ? fit_linear(m, n, x, y, wt, qw, res, err)
                                : fit_nonlinear(m, n, x, x2, y, wt, qw, res, err);
  if (st)
    return st;
  char lsq_method[128];
  snprintf(lsq_method, sizeof lsq_method, "%s", res->method);
  double *tol = malloc(2 * n * sizeof *tol);
  if (!tol)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  for (size_t i = 0; i < 2 * n; i++)
    tol[i] = 1e-15;
  mm_data d = {.m = m, .n = n, .x = x, .x2 = x2, .y = y, .domain = 0};
  double starts[2][IMPACTFIT_FIT_MAX_PARAMS], best[IMPACTFIT_FIT_MAX_PARAMS], tbest = HUGE_VAL;
  int nstarts = 1, evals = 0;
  memcpy(starts[0], res->value, p * sizeof(double));
  memcpy(best, res->value, p * sizeof(double));
  if (m->spec.start) {
    memcpy(starts[1], m->spec.start, p * sizeof(double));
    nstarts = 2;
  }
  for (int k = 0; k < nstarts; k++) {
    double a[IMPACTFIT_FIT_MAX_PARAMS], t = HUGE_VAL;
    memcpy(a, starts[k], p * sizeof *a);
    for (int round = 0; round < 8; round++) {
      double t1 = mm_run(&d, a, tol, &evals);
      int better = t1 < t * (1.0 - 1e-12);
      t = fmin(t, t1);
      if (!better)
        break;
    }
    if (t < tbest) {
      tbest = t;
      memcpy(best, a, p * sizeof *a);
    }
  }
  free(tol);
  if (!(tbest < HUGE_VAL))
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOCONV, "fit: minimax: SLSQP failed from every start");
  /* No progress at all means SLSQP stalled (seen on ill-conditioned forms with many constants):
   * a least-squares result must not pass for a minimax one. Exact fits (max |r| at rounding
   * level) are already optimal. */
  double scale = 1.0;
  if (!is_relative(m))
    for (size_t i = 0; i < n; i++)
      scale = i ? fmax(scale, fabs(y[i])) : fabs(y[i]);
  double t_lsq = mm_max(&d, starts[0]);
  if (!(tbest < t_lsq * (1.0 - 1e-9)) && t_lsq > 1e-13 * scale)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOCONV,
                           "fit: minimax: SLSQP made no progress from the least-squares fit "
                           "(max residual %.6g after %d evaluations); the form may be ill-conditioned",
                           t_lsq, evals);
  memcpy(res->value, best, p * sizeof *best);
  res->iterations += evals;
  finish_stats(m, n, x, x2, y, qw, res->value, res);
  /* the least-squares standard-error formulas at the minimax constants (see fit.h) */
  gsl_matrix *J = gsl_matrix_alloc(n, p), *cov = gsl_matrix_alloc(p, p);
  if (!J || !cov) {
    gsl_matrix_free(J);
    gsl_matrix_free(cov);
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  }
  int bad = 0;
  for (size_t i = 0; i < n; i++) {
    double *row = gsl_matrix_ptr(J, i, 0);
    mm_jac_row(&d, res->value, i, row);
    for (size_t j = 0; j < p; j++) {
      row[j] *= sqrt(wt[i]);
      bad |= !isfinite(row[j]);
    }
  }
  if (bad || gsl_multifit_nlinear_covar(J, 0.0, cov) != GSL_SUCCESS)
    st = IMPACTFIT__FAIL(err, IMPACTFIT_ENOCONV, "fit: minimax: singular Jacobian at the solution");
  for (size_t j = 0; j < p && !st; j++)
    if (!isfinite(gsl_matrix_get(cov, j, j)))
      st = IMPACTFIT__FAIL(err, IMPACTFIT_ENOCONV, "fit: minimax: singular Jacobian at the solution");
  if (!st)
    finish_cov(cov, n, res);
  gsl_matrix_free(J);
  gsl_matrix_free(cov);
  snprintf(res->method, sizeof res->method, "NLopt SLSQP minimax (epigraph form) from %.80s", lsq_method);
  return st;
}

int impactfit_fit_run(impactfit_fit_model *m, size_t n, const double *x, const double *x2, const double *y,
                      impactfit_fit_result *res, impactfit_error *err) {
  return impactfit_fit_run_weighted(m, n, x, x2, y, NULL, res, err);
}

/* The data of a fit: finite, x > 0 for the power forms, y ≠ 0 for relative objectives, weights
 * finite and > 0. */
static int check_data(const impactfit_fit_model *m, size_t n, const double *x, const double *x2, const double *y,
                      const double *w, impactfit_error *err) {
  int needs_pos = (m->spec.form == &f_power || m->spec.form == &f_apow);
  for (size_t i = 0; i < n; i++) {
    if (!isfinite(x[i]) || !isfinite(y[i]) || (x2 && m->nvars == 2 && !isfinite(x2[i])))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "fit: data point %zu is not finite", i);
    if (needs_pos && !(x[i] > 0.0))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "fit: form %s needs x > 0 (point %zu has x = %g)",
                             m->spec.form->name, i, x[i]);
    if (is_relative(m) && y[i] == 0.0)
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "fit: relative objective with y = 0 at point %zu", i);
    if (w && !(isfinite(w[i]) && w[i] > 0.0))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "fit: weight %zu is not a finite number > 0", i);
  }
  return IMPACTFIT_OK;
}

/* The C translation of a formula must compute what libmatheval computed, at every data point with the
 * fitted constants. */
static int check_translation(const impactfit_fit_model *m, size_t n, const double *x, const double *x2,
                             const double *value, impactfit_error *err) {
  double v[2 + IMPACTFIT_FIT_MAX_PARAMS];
  memcpy(v + m->nvars, value, m->p * sizeof *v);
  for (size_t i = 0; i < n; i++) {
    v[0] = x[i];
    if (m->nvars == 2)
      v[1] = x2[i];
    double a = impactfit__formula_eval(m->fx, v), b = impactfit__formula_eval_tree(m->fx, v);
    if (!(fabs(a - b) <= 1e-13 * fmax(fabs(a), fabs(b))) && !(a == b))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                             "formula: libmatheval and the C translation disagree at point "
                             "%zu (%.17g vs %.17g); add parentheses to make the formula unambiguous",
                             i, a, b);
  }
  return IMPACTFIT_OK;
}

int impactfit_fit_run_weighted(impactfit_fit_model *m, size_t n, const double *x, const double *x2, const double *y,
                               const double *w, impactfit_fit_result *res, impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  memset(res, 0, sizeof *res);
  if (!m || !x || !y || (m->nvars == 2 && !x2))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "fit: missing data");
  size_t p = m->p;
  res->n_params = p;
  res->n_points = n;
  for (size_t j = 0; j < p; j++)
    snprintf(res->names[j], sizeof res->names[j], "%s", m->names[j]);
  if (n <= p)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "fit: %zu data points for %zu constants (needs more points than "
                           "constants)",
                           n, p);
  int st = check_data(m, n, x, x2, y, w, err);
  if (st)
    return st;
  /* wt: n data weights, then p ones for the ridge rows; qw: the quadrature weights (mean 1) */
  double *wt = malloc((n + p) * sizeof *wt), *qw = w ? malloc(n * sizeof *qw) : NULL;
  if (!wt || (w && !qw)) {
    free(wt);
    free(qw);
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  }
  if (w) {
    double sum = 0.0;
    for (size_t i = 0; i < n; i++)
      sum += w[i];
    for (size_t i = 0; i < n; i++)
      qw[i] = w[i] * ((double)n / sum);
  }
  for (size_t i = 0; i < n; i++) {
    wt[i] = is_relative(m) ? 1.0 / (y[i] * y[i]) : 1.0;
    if (qw)
      wt[i] *= qw[i];
  }
  for (size_t j = 0; j < p; j++)
    wt[n + j] = 1.0;
  st = is_minimax(m)          ? fit_minimax(m, n, x, x2, y, wt, qw, res, err)
       : m->spec.form->linear ? fit_linear(m, n, x, y, wt, qw, res, err)
                              : fit_nonlinear(m, n, x, x2, y, wt, qw, res, err);
  free(wt);
  free(qw);
  if (st || (m->fx && (st = check_translation(m, n, x, x2, res->value, err))))
    return st;
  for (size_t j = 0; j < p; j++)
    if (!isfinite(res->se[j]))
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENONFINITE, "fit: standard error of %s is not finite", m->names[j]);
  return IMPACTFIT_OK;
}

int impactfit__fit_model_to_c(const impactfit_fit_model *m, const char *x_c, const char *x2_c,
                              const char *const *c_names, char *buf, size_t size) {
  const impactfit_fit_form *f = m->spec.form;
  int len;
  if (f == &f_poly) {
    /* Horner, the order impactfit_fit_model_eval uses */
    size_t used = 0;
    char *p = buf;
    if (size < 16)
      return -1;
    p[0] = '\0';
    for (size_t j = m->p; j-- > 1;)
      used += (size_t)snprintf(p + used, size > used ? size - used : 0, "(");
    used += (size_t)snprintf(p + used, size > used ? size - used : 0, "%s", c_names[m->p - 1]);
    for (size_t j = m->p - 1; j-- > 0;)
      used += (size_t)snprintf(p + used, size > used ? size - used : 0, " * %s + %s)", x_c, c_names[j]);
    return used < size ? (int)used : -1;
  }
  if (f == &f_power)
    len = snprintf(buf, size, "%s * pow(%s, %s) + %s", c_names[0], x_c, c_names[1], c_names[2]);
  else if (f == &f_exp)
    len = snprintf(buf, size, "%s * exp(%s * %s)", c_names[0], c_names[1], x_c);
  else if (f == &f_dexp)
    len = snprintf(buf, size, "%s * exp(%s * %s) + %s * exp(%s * %s)", c_names[0], c_names[1], x_c, c_names[2],
                   c_names[3], x_c);
  else if (f == &f_apow)
    len = snprintf(buf, size, "%s * (pow(%s, %s) - 1.0)", c_names[0], x_c, c_names[1]);
  else {
    const char *all[2 + IMPACTFIT_FIT_MAX_PARAMS];
    all[0] = x_c;
    if (m->nvars == 2)
      all[1] = x2_c;
    for (size_t j = 0; j < m->p; j++)
      all[m->nvars + j] = c_names[j];
    return impactfit__formula_to_c(m->fx, all, buf, size);
  }
  return (len >= 0 && (size_t)len < size) ? len : -1;
}
