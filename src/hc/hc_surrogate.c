/* SPDX-License-Identifier: GPL-3.0-or-later */
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

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_math.h> /* M_PI, M_LN2 (not in strict C11) */

#include "../common/common_impl.h"
#include "impactfit/codegen.h"
#include "../common/io_impl.h"
#include "impactfit/version.h"

struct impactfit_hc_dtau_surrogate {
  impactfit_hc_dtau_surrogate_params p;
  double lmax; /* ln(1 + ε_max) */
  double *c;   /* (deg_eps+1) × (deg_n+1), row i = T_i(X) */
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

int impactfit_hc_dtau_surrogate_build(impactfit_impact_workspace *ws, const impactfit_hc_dtau_surrogate_params *p,
                                      impactfit_hc_dtau_surrogate **out, impactfit_error *err) {
  if (!ws || !p || !out)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no workspace, parameters or output given");
  *out = NULL;
  if (!(isfinite(p->eps_max) && p->eps_max > 0.0 && p->eps_max <= 1e4))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "eps_max must be in (0, 1e4] (got %.17g)", p->eps_max);
  if (!(isfinite(p->n_min) && isfinite(p->n_max) && p->n_min > 0.0 && p->n_min < p->n_max))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "the n range must satisfy 0 < n_min < n_max (got %.17g, %.17g)",
                           p->n_min, p->n_max);
  if (p->deg_eps < 1 || p->deg_eps > 200 || p->deg_n < 1 || p->deg_n > 200)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "degrees must be 1..200 (got %d, %d)", p->deg_eps, p->deg_n);
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

int impactfit_hc_dtau_surrogate_eval(const impactfit_hc_dtau_surrogate *s, double eps, double n, double *dtau,
                                     impactfit_error *err) {
  if (!s || !dtau)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no surrogate or output given");
  if (!(isfinite(eps) && eps >= 0.0 && eps <= s->p.eps_max))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "eps = %.17g is outside the surrogate's range [0, %g]", eps,
                           s->p.eps_max);
  if (!(isfinite(n) && n >= s->p.n_min && n <= s->p.n_max))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "n = %.17g is outside the surrogate's range [%g, %g]", n, s->p.n_min,
                           s->p.n_max);
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

int impactfit_hc_dtau_audit(impactfit_impact_workspace *ws, const impactfit_hc_dtau_grid_params *p,
                            const impactfit_hc_dtau_surrogate_params *sp, impactfit_hc_dtau_stats out[2],
                            impactfit_error *err) {
  if (!out)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no output given");
  impactfit_hc_dtau_surrogate *sur = NULL;
  int st = impactfit_hc_rh_dtau_error(ws, impactfit_hc_rh_dtau_published, p, &out[0], err);
  if (!st)
    st = impactfit_hc_dtau_surrogate_build(ws, sp, &sur, err);
  if (!st)
    st = impactfit_hc_dtau_surrogate_error(ws, sur, p, &out[1], err);
  impactfit_hc_dtau_surrogate_free(sur);
  return st;
}

int impactfit_hc_dtau_surrogate_error(impactfit_impact_workspace *ws, const impactfit_hc_dtau_surrogate *s,
                                      const impactfit_hc_dtau_grid_params *p, impactfit_hc_dtau_stats *out,
                                      impactfit_error *err) {
  if (!s || !p)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no surrogate or grid given");
  if (!(p->eps_max <= s->p.eps_max && p->n_min >= s->p.n_min && p->n_max <= s->p.n_max))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "the grid [0, %g] x [%g, %g] is not inside the surrogate's domain "
                           "[0, %g] x [%g, %g]",
                           p->eps_max, p->n_min, p->n_max, s->p.eps_max, s->p.n_min, s->p.n_max);
  return impactfit__dtau_error(ws, surrogate_fn, s, p, out, err);
}

/* ---- the generated header ---- */

static int c_identifier(const char *s) {
  if (!s || !(isalpha((unsigned char)s[0]) || s[0] == '_') || strlen(s) > 64)
    return 0;
  for (const char *p = s; *p; p++)
    if (!isalnum((unsigned char)*p) && *p != '_')
      return 0;
  return 1;
}

/* A double as a C double literal that reads back exactly (%.17g, with ".0" when it would be an
 * integer literal). */
static const char *c_double(char *buf, size_t size, double v) {
  snprintf(buf, size, "%.17g", v);
  if (!strpbrk(buf, ".eEin"))
    strncat(buf, ".0", size - strlen(buf) - 1);
  return buf;
}

/* Written by the header writer of include/impactfit/codegen.h (numbers in the C locale). */
int impactfit_hc_dtau_surrogate_write_header(const impactfit_hc_dtau_surrogate *s, const impactfit_hc_dtau_stats *check,
                                             const char *name, const char *command, FILE *f, impactfit_error *err) {
  if (!s || !f)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no surrogate or file given");
  if (!c_identifier(name))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "the header's name must be a C identifier (got '%s')",
                           name ? name : "");
  char NAME[80];
  size_t k = 0;
  for (; name[k] && k < sizeof NAME - 1; k++)
    NAME[k] = (char)toupper((unsigned char)name[k]);
  NAME[k] = '\0';
  const impactfit_hc_dtau_surrogate_params *p = &s->p;
  int N = p->deg_eps + 1, M = p->deg_n + 1;
  impactfit_codegen *g;
  int st = impactfit_codegen_begin(name, command, &g, err);
  if (st)
    return st;
  impactfit_codegen_text(g,
                         "\nSurrogate of the dimensionless Hunt-Crossley contact duration dtau(eps, n): the time until "
                         "x\n"
                         "returns to 0 in x'' + x^n (eps x' + 1) = 0, x(0) = 0, x'(0) = 1 (Ramaswamy & Humbert's\n"
                         "scaling tau = omega_i t, x = delta omega_i / v, omega_i = (k v^(n-1)/mass)^(1/(n+1))).\n"
                         "ln dtau as a tensor-product Chebyshev series in X = 2 ln(1+eps)/ln(1+eps_max) - 1 and\n"
                         "Y = 2 (n - n_min)/(n_max - n_min) - 1, interpolating %d simulations "
                         "(impactfit_hc_impact_time,\n"
                         "about 1e-13 relative) at the Chebyshev-Gauss points of both variables (see\n"
                         "include/impactfit/hc.h, impactfit_hc_dtau_surrogate_build).\n\n",
                         N * M);
  impactfit_codegen_text(g, "Box: eps in [0, %.17g], n in [%.17g, %.17g]; degrees %d in X, %d in Y.", p->eps_max,
                         p->n_min, p->n_max, p->deg_eps, p->deg_n);
  if (check)
    impactfit_codegen_text(g,
                           "Checked against simulations on %zu held-out points (a grid of the box with its edges, "
                           "none\n"
                           "of them a node): max relative error %.3e (at eps = %.6g, n = %.6g), mean %.3e.",
                           check->points, check->max, check->eps_at_max, check->n_at_max, check->mean);
  impactfit_codegen_text(g, "Use: dt = dtau / omega_i (impactfit_%s_dt below).", name);
  char b1[40], b2[40], b3[40];
  impactfit_codegen_code(g,
                         "#define IMPACTFIT_%s_EPS_MAX %s\n#define IMPACTFIT_%s_N_MIN %s\n#define IMPACTFIT_%s_N_MAX "
                         "%s\n\n",
                         NAME, c_double(b1, sizeof b1, p->eps_max), NAME, c_double(b2, sizeof b2, p->n_min), NAME,
                         c_double(b3, sizeof b3, p->n_max));
  char an[96];
  snprintf(an, sizeof an, "impactfit_%s_coef", name);
  const size_t dims[2] = {(size_t)N, (size_t)M};
  impactfit_codegen_array_nd(g, an, s->c, 2, dims, "c[i][j]: coefficient of T_i(X) T_j(Y)");
  impactfit_codegen_code(g, "\n");
  char sig[200];
  snprintf(sig, sizeof sig, "double impactfit_%s(double eps, double n)", name);
  impactfit_codegen_function(g,
                             "dtau(eps, n) on the box (two-level Clenshaw recurrence, the operations of\n"
                             " * impactfit_hc_dtau_surrogate_eval); NaN outside it.",
                             sig,
                             "  if (!(eps >= 0.0 && eps <= IMPACTFIT_%s_EPS_MAX && n >= IMPACTFIT_%s_N_MIN && n <= "
                             "IMPACTFIT_%s_N_MAX))\n"
                             "    return NAN;\n"
                             "  const double X = 2.0 * log1p(eps) / %s - 1.0;\n"
                             "  const double Y = 2.0 * (n - IMPACTFIT_%s_N_MIN) / (IMPACTFIT_%s_N_MAX - "
                             "IMPACTFIT_%s_N_MIN) - 1.0;\n"
                             "  double b1 = 0.0, b2 = 0.0;\n"
                             "  for (int i = %d; i-- > 0;) {\n"
                             "    const double *a = impactfit_%s_coef[i];\n"
                             "    double c1 = 0.0, c2 = 0.0;\n"
                             "    for (int j = %d; j-- > 1;) {\n"
                             "      double c0 = 2.0 * Y * c1 - c2 + a[j];\n"
                             "      c2 = c1;\n"
                             "      c1 = c0;\n"
                             "    }\n"
                             "    double bi = Y * c1 - c2 + a[0];\n"
                             "    if (i == 0)\n"
                             "      return exp(X * b1 - b2 + bi);\n"
                             "    double b0 = 2.0 * X * b1 - b2 + bi;\n"
                             "    b2 = b1;\n"
                             "    b1 = b0;\n"
                             "  }\n"
                             "  return NAN; /* not reached */\n",
                             NAME, NAME, NAME, c_double(b1, sizeof b1, s->lmax), NAME, NAME, NAME, N, name, M);
  impactfit_codegen_code(g, "\n");
  snprintf(sig, sizeof sig, "double impactfit_%s_dt(double eps, double n, double k, double mass, double v)", name);
  impactfit_codegen_function(g,
                             "Contact duration in s of an impact with stiffness k (N/m^n), effective mass (kg) and "
                             "approach\n * velocity v (m/s): dtau / omega_i (omega_i by pow, so to rounding what "
                             "impactfit_hc_omega\n * gives); NaN outside the box or for k, mass, v <= 0.",
                             sig,
                             "  double d = impactfit_%s(eps, n);\n"
                             "  if (!(d >= 0.0) || !(k > 0.0 && mass > 0.0 && v > 0.0))\n"
                             "    return NAN;\n"
                             "  return d / pow(k * pow(v, n - 1.0) / mass, 1.0 / (n + 1.0));\n",
                             name);
  char *text;
  size_t len;
  if ((st = impactfit_codegen_finish(g, &text, &len, err)))
    return st;
  size_t w = fwrite(text, 1, len, f);
  free(text);
  if (w != len || ferror(f))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EIO, "write error");
  return IMPACTFIT_OK;
}

long impactfit_hc_dtau_surrogate_simulations(const impactfit_hc_dtau_surrogate_params *p) {
  return ((long)p->deg_eps + 1) * ((long)p->deg_n + 1);
}
