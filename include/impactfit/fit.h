/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit — curve and surface fits of sweep results, and fit files that chain them.
 *
 * A fit finds the constants p of a model y ≈ f(x; p) (or f(x, x2; p) for a surface) from N data
 * points by least squares, minimising
 *     χ² = Σ w_i r_i²,   r_i = f(x_i; p) − y_i            (objective "absolute"), or
 *                        r_i = (f(x_i; p) − y_i) / y_i    (objective "relative", every y_i ≠ 0),
 * with quadrature weights w_i (default 1; see impactfit_fit_run_weighted), or by minimax, minimising
 *     max_i |r_i|                                         ("minimax_absolute", "minimax_relative").
 * Forms (constant type objects, looked up by name):
 *     polynomial   y = a0 + a1 x + … + ad x^d          linear: gsl_multifit_wlinear (SVD)
 *     power        y = a x^b + c                        nonlinear: gsl_multifit_nlinear
 *     exp          y = a e^(b x)
 *     double_exp   y = a e^(b x) + c e^(d x)
 *     alpha_pow    y = alpha (x^beta − 1)               the c_opt form of Poursina–Nikravesh
 *     formula      y = any expression of one or two variables and named constants, parsed and
 *                  differentiated symbolically by GNU libmatheval (Jacobian exact; GSL's finite
 *                  differences where a derivative is not finite, e.g. log of a negative x)
 * The relative objective is the weighted problem with weights 1/y_i² (same minimiser).
 * Minimax: the maximum is not differentiable, so the fit solves the equivalent smooth epigraph
 * problem: minimise t over (p, t) subject to r_i(p) − t ≤ 0 and −r_i(p) − t ≤ 0 for every i, with
 * NLopt's SLSQP (exact gradients from the form's Jacobian), started from the least-squares fit with
 * the same residuals (GSL) and from the start values, each run restarted from its result while
 * that improves; the best is kept (ENOCONV when no run improves on the least-squares maximum:
 * SLSQP can stall on ill-conditioned forms, e.g. measured on the 10-constant Ramaswamy–Humbert
 * Δτ surface). At the solution the largest residuals equioscillate (for a
 * linear family on an interval: p + 1 alternating extrema, Chebyshev's theorem). Why NLopt and not
 * a Remez exchange: the forms are nonlinear and the data are discrete points; SLSQP handles the 2N
 * constraints directly.
 * Ridge regularisation (ridge = λ > 0, start values required; for a minimax fit it applies to
 * the least-squares start): adds
 *     N λ² Σ_j ((p_j − s_j)/max(1, |s_j|))²
 * to χ², s_j the start values: for constants the data determine, a small λ changes nothing (the
 * data term grows with N like the penalty); along directions in which the data leave χ² flat (e.g.
 * two terms of a form that trade off), the constants stay near their start values instead of
 * drifting to infinity, so the fit converges and is reproducible. The standard errors then come
 * from the regularised normal matrix (JᵀWJ + N λ² D²), which bounds them along those directions by
 * about rms/(λ √N).
 * Nonlinear fits use GSL's trust-region driver (method lm by default; lmaccel, dogleg, ddogleg,
 * subspace2D), stopping when a step changes every constant by less than xtol (relative) or the
 * scaled gradient falls below gtol. Starting values are given, or, for power, exp and alpha_pow,
 * found by scanning the exponent on a grid and solving for the linear constants (variable
 * projection); double_exp and formula need them.
 * Results (impactfit_fit_result): constants, standard errors se_j = √(s² C_jj) with
 * C = (JᵀWJ)⁻¹ at the minimum and s² = χ²/(N − p), the correlation matrix C_jk/√(C_jj C_kk),
 * χ², rms = √(χ²/N), and on the data the largest and the mean |f − y| and |f − y|/|y|. N > p is
 * required. For a minimax fit the standard errors are those formulas evaluated at the minimax
 * constants: a scale of how well the data determine each constant, not a statistical error.
 *
 * Tables (the data a fit reads) are in table.h; fit files, which chain fits on a sweep's output,
 * in fitfile.h.
 */
#ifndef IMPACTFIT_FIT_H
#define IMPACTFIT_FIT_H

#include <stddef.h>

#include "impactfit/common.h"
#include "impactfit/table.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct impactfit_fit_form {
  const char *name;     /* "polynomial", "power", "exp", "double_exp", "alpha_pow", "formula" */
  const char *equation; /* "y = a x^b + c" */
  int linear;           /* solved by linear least squares */
} impactfit_fit_form;

IMPACTFIT_EXPORT extern const impactfit_fit_form *const impactfit_fit_polynomial;
IMPACTFIT_EXPORT extern const impactfit_fit_form *const impactfit_fit_power;
IMPACTFIT_EXPORT extern const impactfit_fit_form *const impactfit_fit_exp;
IMPACTFIT_EXPORT extern const impactfit_fit_form *const impactfit_fit_double_exp;
IMPACTFIT_EXPORT extern const impactfit_fit_form *const impactfit_fit_alpha_pow;
IMPACTFIT_EXPORT extern const impactfit_fit_form *const impactfit_fit_formula;
/* Looks a form up by name; NULL when unknown. */
IMPACTFIT_EXPORT const impactfit_fit_form *impactfit_fit_form_from_name(const char *name);

#define IMPACTFIT_FIT_MAX_PARAMS 16

typedef enum impactfit_fit_objective {
  IMPACTFIT_FIT_ABSOLUTE = 0,         /* least squares, r = f − y */
  IMPACTFIT_FIT_RELATIVE = 1,         /* least squares, r = (f − y)/y */
  IMPACTFIT_FIT_MINIMAX_ABSOLUTE = 2, /* smallest max |f − y| */
  IMPACTFIT_FIT_MINIMAX_RELATIVE = 3  /* smallest max |f − y|/|y| */
} impactfit_fit_objective;

/* "absolute", "relative", "minimax_absolute", "minimax_relative"; NULL for an unknown value. */
IMPACTFIT_EXPORT const char *impactfit_fit_objective_name(impactfit_fit_objective obj);
/* By name; −1 when unknown. */
IMPACTFIT_EXPORT int impactfit_fit_objective_from_name(const char *name);

typedef struct impactfit_fit_spec {
  const impactfit_fit_form *form;
  int degree; /* polynomial: 0 .. IMPACTFIT_FIT_MAX_PARAMS − 1 */
  impactfit_fit_objective objective;
  const char *method;           /* nonlinear: "lm" (default), "lmaccel", "dogleg", "ddogleg",
                                        "subspace2D" */
  const char *formula;          /* formula: the expression (libmatheval syntax: + - * / ^,
                                        exp log sqrt sin cos tan asin acos atan sinh cosh tanh
                                        asinh acosh atanh erf abs, constants e and pi; a
                                        variable named e or pi shadows the constant) */
  const char *var1, *var2;      /* formula: names of x and x2 in the expression (var2 NULL
                                        for a curve) */
  const char *const *constants; /* formula: names of the fitted constants */
  size_t n_constants;
  const double *start; /* starting values, one per constant, or NULL */
  size_t n_start;
  double xtol, gtol; /* nonlinear stopping tolerances (default 1e-13, 1e-13) */
  int max_iter;      /* nonlinear iteration bound (default 1000) */
  double ridge;      /* ridge regularisation λ ≥ 0 toward start (default 0: none;
                                        nonlinear forms, start values required; for minimax: its
                                        least-squares start) */
} impactfit_fit_spec;

IMPACTFIT_EXPORT impactfit_fit_spec impactfit_fit_default_spec(void);

typedef struct impactfit_fit_result {
  size_t n_params;
  char names[IMPACTFIT_FIT_MAX_PARAMS][32];
  double value[IMPACTFIT_FIT_MAX_PARAMS];
  double se[IMPACTFIT_FIT_MAX_PARAMS]; /* standard errors */
  double corr[IMPACTFIT_FIT_MAX_PARAMS][IMPACTFIT_FIT_MAX_PARAMS];
  size_t n_points;
  double chisq;              /* Σ r_i² of the objective */
  double rms;                /* √(χ²/N) */
  double max_abs, max_rel;   /* max |f − y|; max |f − y|/|y| over y ≠ 0 */
  double mean_abs, mean_rel; /* mean |f − y|; mean |f − y|/|y| over y ≠ 0 (unweighted) */
  int iterations;            /* nonlinear: trust-region iterations; linear: 0; minimax: those of
                                  the least-squares start plus SLSQP's evaluations */
  int finite_diff;           /* 1 when the Jacobian was taken by finite differences */
  char method[128];          /* "linear least squares (SVD)", "lm", ... */
} impactfit_fit_result;

/* A compiled model: the spec checked, a formula parsed (opaque; not thread-safe to create, since
 * libmatheval's parser is not; fitting and evaluating one model from several threads is not
 * supported either). */
typedef struct impactfit_fit_model impactfit_fit_model;

/* Checks the spec and compiles it (EINVAL with a message: unknown form, degree, formula syntax,
 * a name in the formula that is neither a variable nor a constant, reserved names, start values
 * of the wrong count or missing where required). The strings of spec are copied. */
IMPACTFIT_EXPORT int impactfit_fit_model_create(const impactfit_fit_spec *spec, impactfit_fit_model **out,
                                                impactfit_error *err);
IMPACTFIT_EXPORT void impactfit_fit_model_free(impactfit_fit_model *m); /* NULL is a no-op */
IMPACTFIT_EXPORT size_t impactfit_fit_model_param_count(const impactfit_fit_model *m);
IMPACTFIT_EXPORT int impactfit_fit_model_variables(const impactfit_fit_model *m); /* 1 or 2 */

/* Fits the model to (x[i], x2[i], y[i]), i < n (x2 only for a two-variable formula). Returns 0;
 * EINVAL (n ≤ p, non-finite data, y = 0 with a relative objective), ENOCONV (no convergence in
 * max_iter, a singular Jacobian, or SLSQP failing from every start) or ENONFINITE (the model is not
 * finite at the data). */
IMPACTFIT_EXPORT int impactfit_fit_run(impactfit_fit_model *m, size_t n, const double *x, const double *x2,
                                       const double *y, impactfit_fit_result *res, impactfit_error *err);
/* The same with quadrature weights w[i] > 0 (finite; normalised to mean 1 here) multiplying the
 * squared residuals of least squares (w = NULL: all 1). The minimax objective ignores them (its
 * least-squares start uses them). */
IMPACTFIT_EXPORT int impactfit_fit_run_weighted(impactfit_fit_model *m, size_t n, const double *x, const double *x2,
                                                const double *y, const double *w, impactfit_fit_result *res,
                                                impactfit_error *err);

/* f(x, x2; params). */
IMPACTFIT_EXPORT double impactfit_fit_model_eval(const impactfit_fit_model *m, const double *params, double x,
                                                 double x2);

/* ---- uses of a fit result ------------------------------------------------------------------- */

/* The standard deviation of a fitted function value g(p) from the constants' covariance
 * (first-order propagation, the delta method):
 *     sd = √(Σ_j Σ_k ∂g/∂p_j ∂g/∂p_k se_j se_k corr_jk),
 * grad[j] = ∂g/∂p_j at the fitted constants, j < r->n_params (the units of g per unit of p_j).
 * E.g. for the fit's own model value at x, grad is the model's gradient there; for a polynomial,
 * grad = (1, x, x², …). Exact for a g linear in p (then sd² is the variance of g(p̂) under the fit's
 * covariance); for a nonlinear g the first-order term. The sum is taken in that order, j outer. A
 * negative sum (rounding, a covariance that is not positive semidefinite) gives 0; NaN inputs give
 * NaN. tests/test_report_numerics.c: a straight line's σ √(1/N + (x − x̄)²/Sxx). */
IMPACTFIT_EXPORT double impactfit_fit_result_sd(const impactfit_fit_result *r, const double *grad);

/* The Mahalanobis distance of the point p from the fitted constants over the first k of them,
 *     d = √(Δᵀ C⁻¹ Δ),   Δ_j = p_j − value_j,   C_jk = se_j se_k corr_jk   (j, k < k),
 * in units of standard deviations: the region d ≤ √(χ²_k quantile) is the joint confidence region
 * of those k constants (√(χ²_2(0.95)) = 2.4477 for a pair). For k = 2 the closed form
 *     d² = (x² − 2ρxy + y²)/(1 − ρ²),  x = Δ_0/se_0, y = Δ_1/se_1, ρ = corr_01;
 * otherwise a Cholesky factorisation of the correlation matrix (GSL). k = 1 gives |Δ_0|/se_0.
 * Returns NaN when k is 0 or more than n_params, a standard error is not positive, or the
 * correlation matrix of those constants is not positive definite (|ρ| = 1 for a pair: perfectly
 * correlated constants have no such distance); a negative d² from rounding gives 0.
 * tests/test_report_numerics.c: an explicit 3×3 inverse and the diagonal case. */
IMPACTFIT_EXPORT double impactfit_fit_result_distance(const impactfit_fit_result *r, const double *p, size_t k);

/* Trapezoid-rule quadrature weights of n points of a grid (fit files' `weights = trapezoid`):
 *     w_i = ½ (b − a)   along x, a and b the distinct x values next below and next above x_i (x_i
 *                       itself at the ends of the range: ½ h there, h inside on a uniform grid),
 * times the same factor along x2 when x2 is not NULL (a product grid; repeated values are one grid
 * line). Then Σ w_i f(x_i) is the trapezoid rule for ∫ f dx over [min x, max x] on a 1-D grid of
 * distinct points (exact for f linear), and a least-squares fit with these weights minimises that
 * integral of r², so that its constants depend on the grid's density only to second order in the
 * spacing. Fewer than two distinct values along an axis leave that factor 1. Returns 0, EINVAL for
 * a NULL array with n > 0 or non-finite values, ENOMEM. tests/test_report_numerics.c. */
IMPACTFIT_EXPORT int impactfit_fit_trapezoid_weights(const double *x, const double *x2, size_t n, double *w,
                                                     impactfit_error *err);

#ifdef __cplusplus
}
#endif
#endif /* IMPACTFIT_FIT_H */
