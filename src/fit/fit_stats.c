/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Uses of a fit result (fit.h): the standard deviation of a fitted value, the Mahalanobis distance
 * of a point from the constants, and the trapezoid quadrature weights of fit files. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>

#include "impactfit/fit.h"
#include "../common/common_impl.h"

double impactfit_fit_result_sd(const impactfit_fit_result *r, const double *g) {
  double v = 0.0;
  for (size_t j = 0; j < r->n_params; j++)
    for (size_t k = 0; k < r->n_params; k++)
      v += g[j] * g[k] * r->se[j] * r->se[k] * r->corr[j][k];
  return isnan(v) ? v : sqrt(fmax(v, 0.0));
}

double impactfit_fit_result_distance(const impactfit_fit_result *r, const double *p, size_t k) {
  IMPACTFIT__GSL_SCOPE;
  if (k == 0 || k > r->n_params)
    return NAN;
  for (size_t j = 0; j < k; j++)
    if (!(r->se[j] > 0.0))
      return NAN;
  if (k == 1)
    return fabs(p[0] - r->value[0]) / r->se[0];
  if (k == 2) { /* the closed form (the inverse of a 2 × 2 correlation matrix) */
    double x = (p[0] - r->value[0]) / r->se[0], y = (p[1] - r->value[1]) / r->se[1], rho = r->corr[0][1];
    if (!(fabs(rho) < 1.0))
      return NAN;
    return sqrt(fmax((x * x - 2.0 * rho * x * y + y * y) / (1.0 - rho * rho), 0.0));
  }
  /* d² = zᵀ R⁻¹ z with z_j = Δ_j/se_j and R the correlation matrix: R = L Lᵀ, solve L u = z, d = |u| */
  gsl_matrix *R = gsl_matrix_alloc(k, k);
  gsl_vector *z = gsl_vector_alloc(k);
  double d = NAN;
  if (R && z) {
    for (size_t i = 0; i < k; i++) {
      gsl_vector_set(z, i, (p[i] - r->value[i]) / r->se[i]);
      for (size_t j = 0; j < k; j++)
        gsl_matrix_set(R, i, j, i == j ? 1.0 : r->corr[i][j]);
    }
    if (gsl_linalg_cholesky_decomp1(R) == GSL_SUCCESS) {
      /* forward substitution with the lower triangle: u = L⁻¹ z */
      double s = 0.0;
      for (size_t i = 0; i < k; i++) {
        double u = gsl_vector_get(z, i);
        for (size_t j = 0; j < i; j++)
          u -= gsl_matrix_get(R, i, j) * gsl_vector_get(z, j);
        u /= gsl_matrix_get(R, i, i);
        gsl_vector_set(z, i, u);
        s += u * u;
      }
      d = sqrt(s);
    }
  }
  gsl_matrix_free(R);
  gsl_vector_free(z);
  return d;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Multiplies w[k] by the trapezoid weight of v[k] among the distinct values of v (tmp: n doubles). */
static void trapezoid_axis(const double *v, size_t n, double *tmp, double *w) {
  memcpy(tmp, v, n * sizeof *tmp);
  qsort(tmp, n, sizeof *tmp, cmp_double);
  size_t K = 0;
  for (size_t k = 0; k < n; k++)
    if (K == 0 || tmp[k] != tmp[K - 1])
      tmp[K++] = tmp[k];
  if (K < 2)
    return;
  for (size_t i = 0; i < n; i++) {
    size_t lo = 0, hi = K - 1; /* binary search for v[i] */
    while (lo < hi) {
      size_t mid = (lo + hi) / 2;
      if (tmp[mid] < v[i])
        lo = mid + 1;
      else
        hi = mid;
    }
    double a = tmp[lo > 0 ? lo - 1 : 0], b = tmp[lo + 1 < K ? lo + 1 : K - 1];
    w[i] *= 0.5 * (b - a);
  }
}

int impactfit_fit_trapezoid_weights(const double *x, const double *x2, size_t n, double *w, impactfit_error *err) {
  if (n == 0)
    return 0;
  if (!x || !w)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "trapezoid weights: NULL array");
  for (size_t i = 0; i < n; i++)
    if (!isfinite(x[i]) || (x2 && !isfinite(x2[i])))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "trapezoid weights: point %zu is not finite", i);
  double *tmp = malloc(n * sizeof *tmp);
  if (!tmp)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "trapezoid weights: out of memory for %zu points", n);
  for (size_t i = 0; i < n; i++)
    w[i] = 1.0;
  trapezoid_axis(x, n, tmp, w);
  if (x2)
    trapezoid_axis(x2, n, tmp, w);
  free(tmp);
  return 0;
}
