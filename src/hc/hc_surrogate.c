/* A surrogate for Δτ(ε, n): a tensor-product Chebyshev interpolant of ln Δτ (include/impactfit/hc.h).
 *
 * Variables X = 2 ln(1+ε)/ln(1+ε_max) − 1 and Y = 2 (n − n_min)/(n_max − n_min) − 1 on [−1, 1]².
 * Δτ is analytic in ε with its nearest singularity at ε = −1 (where 1 + ε x' vanishes at the start),
 * which would limit a series in ε itself to a Bernstein ellipse barely wider than the interval;
 * in ln(1+ε) that point is at −∞. ln Δτ grows like n/(n+1)·ln ε for large ε, nearly linear in X.
 * Interpolation at the Chebyshev–Gauss points x_p = cos(π(p + ½)/(N+1)) gives the coefficients by
 * a discrete cosine sum (exact for the interpolant, near-best in the maximum norm):
 *     c_ij = (2 − δ_i0)(2 − δ_j0)/((N+1)(M+1)) Σ_p Σ_q g(x_p, y_q) cos(iπ(p+½)/(N+1)) cos(jπ(q+½)/(M+1)).
 * GSL's gsl_cheb is one-dimensional and evaluates its function at its own nodes per series, so
 * the two-dimensional sum and a two-level Clenshaw recurrence are written here (tested in
 * tests/test_hc.c: interpolation at the nodes to 1e-13, held-out simulations to 1e-9).
 */
#include "hc_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_math.h> /* M_PI, M_LN2 (not in strict C11) */

#include "../common/common_impl.h"

struct impactfit_hc_dtau_surrogate {
  impactfit_hc_dtau_surrogate_params p;
  double lmax;  /* ln(1 + ε_max) */
  double *c;    /* (deg_eps+1) × (deg_n+1), row i = T_i(X) */
};

impactfit_hc_dtau_surrogate_params impactfit_hc_dtau_surrogate_default_params(void) {
  impactfit_hc_dtau_surrogate_params p;
  p.eps_max = 100.0;
  p.n_min = 1.0;
  p.n_max = 2.0;
  p.deg_eps = 36;
  p.deg_n = 12;
  return p;
}

void impactfit_hc_dtau_surrogate_free(impactfit_hc_dtau_surrogate *s) {
  if (!s)
    return;
  free(s->c);
  free(s);
}

int impactfit_hc_dtau_surrogate_build(impactfit_impact_workspace *ws,
                                      const impactfit_hc_dtau_surrogate_params *p,
                                      impactfit_hc_dtau_surrogate **out, impactfit_error *err) {
  if (!ws || !p || !out)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no workspace, parameters or output given");
  *out = NULL;
  if (!(isfinite(p->eps_max) && p->eps_max > 0.0 && p->eps_max <= 1e4))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "eps_max must be in (0, 1e4] (got %g)", p->eps_max);
  if (!(isfinite(p->n_min) && isfinite(p->n_max) && p->n_min > 0.0 && p->n_min < p->n_max))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "the n range must satisfy 0 < n_min < n_max (got %g, %g)", p->n_min, p->n_max);
  if (p->deg_eps < 1 || p->deg_eps > 200 || p->deg_n < 1 || p->deg_n > 200)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "degrees must be 1..200 (got %d, %d)", p->deg_eps,
                           p->deg_n);
  size_t N = (size_t)p->deg_eps + 1, M = (size_t)p->deg_n + 1;
  impactfit_hc_dtau_surrogate *s = calloc(1, sizeof *s);
  double *g = malloc(N * M * sizeof *g);
  double *ce = malloc(N * N * sizeof *ce), *cn = malloc(M * M * sizeof *cn);
  if (s)
    s->c = calloc(N * M, sizeof *s->c);
  int st = IMPACTFIT_OK;
  if (!s || !s->c || !g || !ce || !cn) {
    st = IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory for the surrogate");
    goto fail;
  }
  s->p = *p;
  s->lmax = log1p(p->eps_max);
  /* cos(iπ(p+½)/N) tables; the nodes are their i = 1 rows. */
  for (size_t i = 0; i < N; i++)
    for (size_t q = 0; q < N; q++)
      ce[i * N + q] = cos(M_PI * (double)i * ((double)q + 0.5) / (double)N);
  for (size_t j = 0; j < M; j++)
    for (size_t q = 0; q < M; q++)
      cn[j * M + q] = cos(M_PI * (double)j * ((double)q + 0.5) / (double)M);
  for (size_t a = 0; a < N; a++) {
    double X = (N > 1) ? ce[1 * N + a] : 0.0;
    double eps = expm1(0.5 * (X + 1.0) * s->lmax);
    for (size_t b = 0; b < M; b++) {
      double Y = cn[1 * M + b];
      double n = p->n_min + 0.5 * (Y + 1.0) * (p->n_max - p->n_min);
      double dt;
      if ((st = impactfit_hc_impact_time(ws, eps, n, &dt, NULL, err)))
        goto fail;
      g[a * M + b] = log(dt);
    }
  }
  for (size_t i = 0; i < N; i++)
    for (size_t j = 0; j < M; j++) {
      double sum = 0.0;
      for (size_t a = 0; a < N; a++) {
        double inner = 0.0;
        for (size_t b = 0; b < M; b++)
          inner += g[a * M + b] * cn[j * M + b];
        sum += ce[i * N + a] * inner;
      }
      s->c[i * M + j] = sum * (i ? 2.0 : 1.0) * (j ? 2.0 : 1.0) / (double)(N * M);
    }
  free(g);
  free(ce);
  free(cn);
  *out = s;
  return IMPACTFIT_OK;
fail:
  free(g);
  free(ce);
  free(cn);
  impactfit_hc_dtau_surrogate_free(s);
  return st;
}

/* Σ_k a[k·stride] T_k(x), k = 0..n−1 (Clenshaw). */
static double clenshaw(const double *a, size_t n, size_t stride, double x) {
  double b1 = 0.0, b2 = 0.0;
  for (size_t k = n; k-- > 1;) {
    double b0 = 2.0 * x * b1 - b2 + a[k * stride];
    b2 = b1;
    b1 = b0;
  }
  return x * b1 - b2 + a[0];
}

int impactfit_hc_dtau_surrogate_eval(const impactfit_hc_dtau_surrogate *s, double eps, double n,
                                     double *dtau, impactfit_error *err) {
  if (!s || !dtau)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no surrogate or output given");
  if (!(isfinite(eps) && eps >= 0.0 && eps <= s->p.eps_max))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "eps = %g is outside the surrogate's range [0, %g]",
                           eps, s->p.eps_max);
  if (!(isfinite(n) && n >= s->p.n_min && n <= s->p.n_max))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "n = %g is outside the surrogate's range [%g, %g]", n,
                           s->p.n_min, s->p.n_max);
  size_t N = (size_t)s->p.deg_eps + 1, M = (size_t)s->p.deg_n + 1;
  double X = 2.0 * log1p(eps) / s->lmax - 1.0;
  double Y = 2.0 * (n - s->p.n_min) / (s->p.n_max - s->p.n_min) - 1.0;
  /* b_i = Σ_j c_ij T_j(Y), then Σ_i b_i T_i(X). */
  double b1 = 0.0, b2 = 0.0;
  for (size_t i = N; i-- > 0;) {
    double bi = clenshaw(s->c + i * M, M, 1, Y);
    if (i == 0) {
      *dtau = exp(X * b1 - b2 + bi);
      return IMPACTFIT_OK;
    }
    double b0 = 2.0 * X * b1 - b2 + bi;
    b2 = b1;
    b1 = b0;
  }
  return IMPACTFIT_OK; /* not reached: N ≥ 2 */
}

const double *impactfit_hc_dtau_surrogate_coefficients(const impactfit_hc_dtau_surrogate *s,
                                                       impactfit_hc_dtau_surrogate_params *p) {
  if (!s)
    return NULL;
  if (p)
    *p = s->p;
  return s->c;
}

static double surrogate_fn(double eps, double n, const void *ctx) {
  double d = NAN;
  impactfit_hc_dtau_surrogate_eval((const impactfit_hc_dtau_surrogate *)ctx, eps, n, &d, NULL);
  return d;
}

int impactfit_hc_dtau_surrogate_error(impactfit_impact_workspace *ws,
                                      const impactfit_hc_dtau_surrogate *s,
                                      const impactfit_hc_dtau_grid_params *p,
                                      impactfit_hc_dtau_stats *out, impactfit_error *err) {
  if (!s || !p)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no surrogate or grid given");
  if (!(p->eps_max <= s->p.eps_max && p->n_min >= s->p.n_min && p->n_max <= s->p.n_max))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "the grid [0, %g] x [%g, %g] is not inside the surrogate's domain "
                           "[0, %g] x [%g, %g]", p->eps_max, p->n_min, p->n_max, s->p.eps_max,
                           s->p.n_min, s->p.n_max);
  return impactfit__dtau_error(ws, surrogate_fn, s, p, out, err);
}
