/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Ramaswamy–Humbert fits (include/impactfit/hc.h, docs/MODEL.md §4): the ε(e) form with its
 * measured error and refits (least squares, minimax), and the measured error of the 10-constant
 * Δτ(ε, n) surface.
 *
 * Least squares: GSL's multifit_nlinear (trust region, Levenberg–Marquardt) with analytic
 * Jacobians, on the relative residuals with trapezoid weights. Minimax: the maximum of |r_i| is not differentiable, so it is posed in epigraph form,
 *     minimise t over (α, β, t) subject to r_i(α, β) − t ≤ 0 and −r_i(α, β) − t ≤ 0,
 * a smooth problem with exact gradients, solved by NLopt's SLSQP (sequential quadratic
 * programming handles the ~2000 active-set constraints directly and converges to a point where
 * the extremal residuals equioscillate); it is started from the least-squares solution and from the
 * published constants and the better result is kept. A derivative-free method on max|r_i| would
 * stall on the kinks of the max.
 */
#include "hc_impl.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h> /* M_SQRT1_2 */
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_vector.h>
#include <nlopt.h>

#include "../common/common_impl.h"

/* ---- the ε(e) form ---------------------------------------------------------------------------- */

/* ε and dε/dα, dε/dβ; returns 0, or EINVAL at the form's pole (2|p| ≥ 3). */
static int rh_form(double e, double alpha, double beta, double *eps, double *da, double *db) {
  double eb = exp(-beta), ebe = exp(-beta * e);
  double p = alpha * (ebe - eb);
  if (!(fabs(2.0 * p) < 3.0) || !isfinite(p))
    return IMPACTFIT_EINVAL;
  double A = 3.0 + 2.0 * p, B = 3.0 - 2.0 * p, G = (1.0 - e) * (1.0 + e) / (2.0 * e);
  /* ε = A G / (A/B + e) = A B G / (A + e B) */
  double D = A + e * B, N = A * B * G;
  *eps = N / D;
  if (da || db) {
    double dN = -8.0 * p * G, dD = 2.0 - 2.0 * e;
    double dp = (dN * D - N * dD) / (D * D);
    if (da)
      *da = dp * (ebe - eb);
    if (db)
      *db = dp * alpha * (eb - e * ebe);
  }
  return IMPACTFIT_OK;
}

int impactfit_hc_rh_eps(double e, double alpha, double beta, double *eps, impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  if (!eps)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no output given");
  if (!(isfinite(e) && e > 0.0 && e <= 1.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "coefficient of restitution e must be in (0, 1] (got %.17g)", e);
  if (!isfinite(alpha) || !isfinite(beta))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "alpha and beta must be finite");
  if (rh_form(e, alpha, beta, eps, NULL, NULL))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "Ramaswamy-Humbert form: 2|p| >= 3 at e = %g (alpha = %g, beta = %g)",
                           e, alpha, beta);
  return IMPACTFIT_OK;
}

impactfit_hc_rh_fit_params impactfit_hc_rh_fit_default_params(void) {
  impactfit_hc_rh_fit_params p;
  p.e_min = 0.01;
  p.e_max = 1.0;
  p.points = 991;
  p.alpha0 = IMPACTFIT_HC_RH_ALPHA;
  p.beta0 = IMPACTFIT_HC_RH_BETA;
  return p;
}

const char *impactfit_hc_objective_name(impactfit_hc_objective obj) {
  switch (obj) {
  case IMPACTFIT_HC_LSQ:
    return "lsq";
  case IMPACTFIT_HC_MINIMAX:
    return "minimax";
  default:
    return NULL;
  }
}

int impactfit__eps_rel_error(impactfit__eps_fn fn, void *ctx, double e, double *rel, impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  double ee = (e == 1.0) ? IMPACTFIT__E_NEAR_ONE : e, x, f;
  int st = impactfit_hc_eps(ee, &x, err);
  if (st)
    return st;
  if ((st = fn(ee, ctx, &f, err)))
    return st;
  *rel = fabs(f - x) / x;
  if (!isfinite(*rel))
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENONFINITE, "non-finite relative error at e = %g", e);
  return IMPACTFIT_OK;
}

/* The e grid with the exact ε at each point (at e = 1 both evaluated at 1 − 2^−26). */
typedef struct eps_grid {
  size_t n;
  double *e;      /* reported e */
  double *e_eval; /* e where both are evaluated */
  double *eps;    /* exact ε at e_eval */
} eps_grid;

static void eps_grid_free(eps_grid *g) {
  free(g->e);
  g->e = g->e_eval = g->eps = NULL;
}

static int eps_grid_make(const impactfit_hc_rh_fit_params *p, eps_grid *g, impactfit_error *err) {
  memset(g, 0, sizeof *g);
  if (!p)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no parameters given");
  if (!(isfinite(p->e_min) && isfinite(p->e_max) && p->e_min > 0.0 && p->e_max <= 1.0 && p->e_min < p->e_max))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "the e range must satisfy 0 < e_min < e_max <= 1 "
                           "(got %.17g, %.17g)",
                           p->e_min, p->e_max);
  if (p->points < 2 || p->points > 10000000)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "grid points must be 2..1e7 (got %zu)", p->points);
  g->n = p->points;
  g->e = malloc(3 * g->n * sizeof *g->e);
  if (!g->e)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory for %zu grid points", g->n);
  g->e_eval = g->e + g->n;
  g->eps = g->e + 2 * g->n;
  for (size_t i = 0; i < g->n; i++) {
    g->e[i] = impactfit__grid(p->e_min, p->e_max, g->n, i);
    g->e_eval[i] = (g->e[i] == 1.0) ? IMPACTFIT__E_NEAR_ONE : g->e[i];
    int st = impactfit_hc_eps(g->e_eval[i], &g->eps[i], err);
    if (st) {
      eps_grid_free(g);
      return st;
    }
  }
  return IMPACTFIT_OK;
}

static int rh_stats(double alpha, double beta, const eps_grid *g, impactfit_hc_eps_stats *out, impactfit_error *err) {
  impactfit_hc_eps_stats s = {.max = 0.0, .mean = 0.0, .rms = 0.0, .e_at_max = g->e[0], .points = g->n};
  double sum = 0.0, sum2 = 0.0;
  for (size_t i = 0; i < g->n; i++) {
    double f;
    if (rh_form(g->e_eval[i], alpha, beta, &f, NULL, NULL))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                             "Ramaswamy-Humbert form: 2|p| >= 3 at e = %g (alpha = %g, beta = %g)", g->e[i], alpha,
                             beta);
    double r = fabs(f - g->eps[i]) / g->eps[i];
    sum += r;
    sum2 += r * r;
    if (r > s.max) {
      s.max = r;
      s.e_at_max = g->e[i];
    }
  }
  s.mean = sum / (double)g->n;
  s.rms = sqrt(sum2 / (double)g->n);
  *out = s;
  return IMPACTFIT_OK;
}

int impactfit_hc_rh_eps_error(double alpha, double beta, const impactfit_hc_rh_fit_params *p,
                              impactfit_hc_eps_stats *out, impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  if (!out)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no output given");
  if (!isfinite(alpha) || !isfinite(beta))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "alpha and beta must be finite");
  eps_grid g;
  int st = eps_grid_make(p, &g, err);
  if (st)
    return st;
  st = rh_stats(alpha, beta, &g, out, err);
  eps_grid_free(&g);
  return st;
}

/* ---- least squares on the relative error ---- */

/* √w_i of the trapezoid rule on the uniform grid: √(1/2) at the two ends, 1 inside (so that Σ w r²
 * approximates the integral of r² over [e_min, e_max] and the constants do not depend on the grid's
 * spacing to first order; the same weights as `weights = trapezoid` in fits/ramaswamy_eps.ini). */
static double trap_sw(const eps_grid *g, size_t i) { return (i == 0 || i + 1 == g->n) ? M_SQRT1_2 : 1.0; }

static int rh_lsq_f(const gsl_vector *x, void *vp, gsl_vector *f) {
  const eps_grid *g = vp;
  double a = gsl_vector_get(x, 0), b = gsl_vector_get(x, 1);
  for (size_t i = 0; i < g->n; i++) {
    double v;
    if (rh_form(g->e_eval[i], a, b, &v, NULL, NULL))
      return GSL_EDOM;
    gsl_vector_set(f, i, trap_sw(g, i) * (v / g->eps[i] - 1.0));
  }
  return GSL_SUCCESS;
}

static int rh_lsq_df(const gsl_vector *x, void *vp, gsl_matrix *J) {
  const eps_grid *g = vp;
  double a = gsl_vector_get(x, 0), b = gsl_vector_get(x, 1);
  for (size_t i = 0; i < g->n; i++) {
    double v, da, db;
    if (rh_form(g->e_eval[i], a, b, &v, &da, &db))
      return GSL_EDOM;
    gsl_matrix_set(J, i, 0, trap_sw(g, i) * da / g->eps[i]);
    gsl_matrix_set(J, i, 1, trap_sw(g, i) * db / g->eps[i]);
  }
  return GSL_SUCCESS;
}

/* Runs GSL's trust-region least squares; x holds the start and receives the solution. */
static int lsq_solve(gsl_multifit_nlinear_fdf *fdf, double *x, size_t np, size_t maxiter, int *iters,
                     impactfit_error *err) {
  gsl_multifit_nlinear_parameters fp = gsl_multifit_nlinear_default_parameters();
  fp.trs = gsl_multifit_nlinear_trs_lm;
  fp.scale = gsl_multifit_nlinear_scale_more;
  gsl_multifit_nlinear_workspace *w = gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &fp, fdf->n, np);
  if (!w)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory for the least-squares solver");
  gsl_vector_view x0 = gsl_vector_view_array(x, np);
  int st = gsl_multifit_nlinear_init(&x0.vector, fdf, w);
  int info = 0;
  if (st == GSL_SUCCESS)
    st = gsl_multifit_nlinear_driver(maxiter, 1e-12, 1e-12, 0.0, NULL, NULL, &info, w);
  if (st == GSL_SUCCESS) {
    gsl_vector *sol = gsl_multifit_nlinear_position(w);
    for (size_t i = 0; i < np; i++)
      x[i] = gsl_vector_get(sol, i);
  }
  if (iters)
    *iters = (int)gsl_multifit_nlinear_niter(w);
  gsl_multifit_nlinear_free(w);
  if (st == GSL_EDOM)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOCONV, "least squares: the iteration left the domain of the fitted form");
  if (st != GSL_SUCCESS)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOCONV, "least squares did not converge: %s", gsl_strerror(st));
  for (size_t i = 0; i < np; i++)
    if (!isfinite(x[i]))
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENOCONV, "least squares gave a non-finite constant");
  return IMPACTFIT_OK;
}

/* ---- minimax ---- */

typedef struct mm_ctx {
  const eps_grid *g;
  int domain_error;
} mm_ctx;

static double mm_obj(unsigned n, const double *x, double *grad, void *data) {
  (void)data;
  if (grad) {
    for (unsigned i = 0; i < n; i++)
      grad[i] = 0.0;
    grad[2] = 1.0;
  }
  return x[2];
}

/* c_i = r_i − t, c_{N+i} = −r_i − t (≤ 0). */
static void mm_con(unsigned m, double *res, unsigned n, const double *x, double *grad, void *data) {
  mm_ctx *c = data;
  const eps_grid *g = c->g;
  size_t N = g->n;
  (void)m;
  for (size_t i = 0; i < N; i++) {
    double v, da, db;
    if (rh_form(g->e_eval[i], x[0], x[1], &v, &da, &db)) {
      c->domain_error = 1;
      v = 1e3 * g->eps[i];
      da = db = 0.0;
    }
    double r = v / g->eps[i] - 1.0;
    res[i] = r - x[2];
    res[N + i] = -r - x[2];
    if (grad) {
      double *gi = grad + i * n, *gj = grad + (N + i) * n;
      gi[0] = da / g->eps[i];
      gi[1] = db / g->eps[i];
      gi[2] = -1.0;
      gj[0] = -gi[0];
      gj[1] = -gi[1];
      gj[2] = -1.0;
    }
  }
}

static int minimax_from(const eps_grid *g, double a0, double b0, double *a, double *b, double *tmax, int *iters) {
  impactfit_hc_eps_stats s0;
  if (rh_stats(a0, b0, g, &s0, NULL))
    return IMPACTFIT_EINVAL;
  nlopt_opt opt = nlopt_create(NLOPT_LD_SLSQP, 3);
  if (!opt)
    return IMPACTFIT_ENOMEM;
  mm_ctx c = {g, 0};
  double *tol = malloc(2 * g->n * sizeof *tol);
  if (!tol) {
    nlopt_destroy(opt);
    return IMPACTFIT_ENOMEM;
  }
  for (size_t i = 0; i < 2 * g->n; i++)
    tol[i] = 1e-15;
  double x[3] = {a0, b0, 1.5 * s0.max}; /* strictly feasible: SLSQP may stall on an active start */
  double lb[3] = {0.0, 1e-9, 0.0}, ub[3] = {50.0, 50.0, HUGE_VAL};
  nlopt_set_lower_bounds(opt, lb);
  nlopt_set_upper_bounds(opt, ub);
  nlopt_set_min_objective(opt, mm_obj, NULL);
  nlopt_add_inequality_mconstraint(opt, (unsigned)(2 * g->n), mm_con, &c, tol);
  nlopt_set_xtol_rel(opt, 1e-13);

  nlopt_set_maxeval(opt, 2000);
  double fval;
  nlopt_result res = nlopt_optimize(opt, x, &fval);
  if (iters)
    *iters = nlopt_get_numevals(opt);
  nlopt_destroy(opt);
  free(tol);
  if (res < 0 && res != NLOPT_ROUNDOFF_LIMITED)
    return IMPACTFIT_ENOCONV;
  /* The reported t may sit a hair below max|r| (constraint tolerance): measure it. */
  impactfit_hc_eps_stats s;
  if (rh_stats(x[0], x[1], g, &s, NULL)) /* also catches an end point at the form's pole */
    return IMPACTFIT_ENOCONV;
  *a = x[0];
  *b = x[1];
  *tmax = s.max;
  return IMPACTFIT_OK;
}

int impactfit_hc_rh_eps_refit(const impactfit_hc_rh_fit_params *p, impactfit_hc_objective obj, impactfit_hc_rh_fit *out,
                              impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  if (!out)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no output given");
  if (obj != IMPACTFIT_HC_LSQ && obj != IMPACTFIT_HC_MINIMAX)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "unknown objective %d", (int)obj);
  if (p && !(isfinite(p->alpha0) && isfinite(p->beta0)))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "the starting alpha and beta must be finite");
  eps_grid g;
  int st = eps_grid_make(p, &g, err);
  if (st)
    return st;
  impactfit_hc_eps_stats s0;
  if ((st = rh_stats(p->alpha0, p->beta0, &g, &s0, err))) {
    eps_grid_free(&g);
    return st;
  }
  double x[2] = {p->alpha0, p->beta0};
  gsl_multifit_nlinear_fdf fdf;
  fdf.f = rh_lsq_f;
  fdf.df = rh_lsq_df;
  fdf.fvv = NULL;
  fdf.n = g.n;
  fdf.p = 2;
  fdf.params = &g;
  int iters = 0;
  st = lsq_solve(&fdf, x, 2, 500, &iters, err);
  if (!st && obj == IMPACTFIT_HC_MINIMAX) {
    /* SLSQP from the least-squares solution, the published constants and their midpoint; each
     * run is restarted from its result while that still improves (a run can stop early when the
     * active set at its start is degenerate); the best is kept. */
    double starts[3][2] = {{x[0], x[1]}, {p->alpha0, p->beta0}, {0.5 * (x[0] + p->alpha0), 0.5 * (x[1] + p->beta0)}};
    double best = HUGE_VAL, ba = x[0], bb = x[1];
    int total = 0;
    for (int k = 0; k < 3; k++) {
      double a = starts[k][0], b = starts[k][1], t = HUGE_VAL;
      for (int round = 0; round < 4; round++) {
        double a1, b1, t1;
        int it = 0;
        if (minimax_from(&g, a, b, &a1, &b1, &t1, &it))
          break;
        total += it;
        int better = t1 < t * (1.0 - 1e-12);
        if (t1 < t)
          a = a1, b = b1, t = t1;
        if (!better)
          break;
      }
      if (t < best)
        best = t, ba = a, bb = b;
    }
    if (!(best < HUGE_VAL))
      st = IMPACTFIT__FAIL(err, IMPACTFIT_ENOCONV, "minimax refit: SLSQP failed from every start");
    x[0] = ba;
    x[1] = bb;
    iters = total;
  }
  if (!st) {
    out->alpha = x[0];
    out->beta = x[1];
    out->iterations = iters;
    st = rh_stats(x[0], x[1], &g, &out->err, err);
  }
  eps_grid_free(&g);
  return st;
}

/* ---- the Δτ(ε, n) surface ---------------------------------------------------------------------- */

const double impactfit_hc_rh_dtau_published[10] = {0.180, 0.880, 0.853, 1.018, 0.461,
                                                   1.434, 0.864, 0.771, 0.023, 2.695};

double impactfit_hc_rh_dtau(const double c[10], double eps, double n) {
  return c[0] * exp(-c[1] * eps) + (c[2] - c[3] * exp(-c[4] * n)) * eps + (c[5] * n - c[6]) * exp(-c[7] * n) -
         c[8] * n + c[9];
}

impactfit_hc_dtau_grid_params impactfit_hc_dtau_grid_default_params(void) {
  impactfit_hc_dtau_grid_params p;
  p.eps_max = 20.0;
  p.n_min = 1.0;
  p.n_max = 2.0;
  p.eps_points = 201;
  p.n_points = 51;
  return p;
}

typedef struct dtau_grid {
  size_t n;
  double *eps, *nn, *dtau;
} dtau_grid;

static void dtau_grid_free(dtau_grid *g) {
  free(g->eps);
  g->eps = g->nn = g->dtau = NULL;
}

static int dtau_grid_make(impactfit_impact_workspace *ws, const impactfit_hc_dtau_grid_params *p, dtau_grid *g,
                          impactfit_error *err) {
  memset(g, 0, sizeof *g);
  if (!ws || !p)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no workspace or parameters given");
  if (!(isfinite(p->eps_max) && p->eps_max > 0.0 && p->eps_max <= 1e6))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "eps_max must be in (0, 1e6] (got %.17g)", p->eps_max);
  if (!(isfinite(p->n_min) && isfinite(p->n_max) && p->n_min > 0.0 && p->n_min <= p->n_max))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "the n range must satisfy 0 < n_min <= n_max "
                           "(got %.17g, %.17g)",
                           p->n_min, p->n_max);
  if (p->eps_points < 2 || p->n_points < 1 || p->eps_points > 100000 || p->n_points > 100000 ||
      (p->n_points == 1) != (p->n_min == p->n_max))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "grid sizes: eps_points 2..1e5, n_points 1..1e5 (1 exactly when "
                           "n_min = n_max); got %zu, %zu",
                           p->eps_points, p->n_points);
  g->n = p->eps_points * p->n_points;
  g->eps = malloc(3 * g->n * sizeof *g->eps);
  if (!g->eps)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory for %zu grid points", g->n);
  g->nn = g->eps + g->n;
  g->dtau = g->eps + 2 * g->n;
  size_t k = 0;
  for (size_t j = 0; j < p->n_points; j++)
    for (size_t i = 0; i < p->eps_points; i++, k++) {
      g->eps[k] = impactfit__grid(0.0, p->eps_max, p->eps_points, i);
      g->nn[k] = impactfit__grid(p->n_min, p->n_max, p->n_points, j);
      int st = impactfit_hc_impact_time(ws, g->eps[k], g->nn[k], &g->dtau[k], NULL, err);
      if (st) {
        dtau_grid_free(g);
        return st;
      }
    }
  return IMPACTFIT_OK;
}

int impactfit__dtau_error(impactfit_impact_workspace *ws, impactfit__dtau_fn fn, const void *ctx,
                          const impactfit_hc_dtau_grid_params *p, impactfit_hc_dtau_stats *out, impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  if (!out)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no output given");
  dtau_grid g;
  int st = dtau_grid_make(ws, p, &g, err);
  if (st)
    return st;
  impactfit_hc_dtau_stats s = {
      .max = 0.0, .mean = 0.0, .rms = 0.0, .eps_at_max = g.eps[0], .n_at_max = g.nn[0], .points = g.n};
  double sum = 0.0, sum2 = 0.0;
  for (size_t k = 0; k < g.n; k++) {
    double r = fabs(fn(g.eps[k], g.nn[k], ctx) - g.dtau[k]) / g.dtau[k];
    sum += r;
    sum2 += r * r;
    if (r > s.max || !isfinite(r)) {
      s.max = r;
      s.eps_at_max = g.eps[k];
      s.n_at_max = g.nn[k];
    }
  }
  dtau_grid_free(&g);
  s.mean = sum / (double)s.points;
  s.rms = sqrt(sum2 / (double)s.points);
  if (!isfinite(s.max) || !isfinite(s.mean) || !isfinite(s.rms))
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENONFINITE, "non-finite error statistics");
  *out = s;
  return IMPACTFIT_OK;
}

static double rh_dtau_fn(double eps, double n, const void *ctx) {
  return impactfit_hc_rh_dtau((const double *)ctx, eps, n);
}

static int check_constants(const double c[10], impactfit_error *err) {
  if (!c)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no constants given");
  for (int i = 0; i < 10; i++)
    if (!isfinite(c[i]))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "constant %d is not finite", i);
  return IMPACTFIT_OK;
}

int impactfit_hc_rh_dtau_error(impactfit_impact_workspace *ws, const double c[10],
                               const impactfit_hc_dtau_grid_params *p, impactfit_hc_dtau_stats *out,
                               impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  int st = check_constants(c, err);
  if (st)
    return st;
  return impactfit__dtau_error(ws, rh_dtau_fn, c, p, out, err);
}
