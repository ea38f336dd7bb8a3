/* Chebyshev surrogates of the exact inverse solution (include/impactfit/surrogate.h). */
#include <float.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "../common/common_impl.h"
#include "impactfit/inverse.h"
#include "impactfit/surrogate.h"
#include "impactfit/version.h"

#define R_MIN_LOG (-23.025850929940457) /* ln 1e-10: the r piece ends at e = 1 − 1e-10 */

/* Two pieces of the e range; in each, a tensor-product Chebyshev series in (n, m, v) with
 * v = ln e (piece 0) or v = ln(1 − e) (piece 1). */
struct impactfit_surrogate {
  impactfit_surrogate_spec spec;
  char name[64];
  double lo[2][3], hi[2][3];
  int N[2][3];         /* nodes = degree + 1 */
  double *coef[2];     /* N0*N1*N2 each, halving of index 0 folded in */
};

impactfit_surrogate_spec impactfit_surrogate_copt_spec(void) {
  impactfit_surrogate_spec s;
  memset(&s, 0, sizeof s);
  s.name = "copt";
  s.transition = impactfit_transition_C;
  s.n_lo = 1.0;
  s.n_hi = 2.0;
  s.m_lo = s.m_hi = 0.0;
  s.e_lo = 1e-4;
  s.e_split = 0.5;
  s.deg_n = 14;
  s.deg_m = 0;
  s.deg_t = 36;
  s.deg_r = 64;
  s.check_points = 400;
  s.seed = 20201;
  return s;
}

impactfit_surrogate_spec impactfit_surrogate_zhang_spec(const impactfit_transition *tr) {
  impactfit_surrogate_spec s;
  memset(&s, 0, sizeof s);
  s.name = (tr == impactfit_transition_A) ? "zhang_a" : "zhang_c";
  s.transition = tr;
  s.n_lo = 1.0;
  s.n_hi = 2.0;
  s.m_lo = 0.0;
  s.m_hi = 2.0;
  s.e_lo = 0.01;
  s.e_split = 0.5;
  s.deg_n = 10;
  s.deg_m = 12;
  s.deg_t = 18;
  s.deg_r = 32;
  s.check_points = 400;
  s.seed = 20211;
  return s;
}

void impactfit_surrogate_free(impactfit_surrogate *s) {
  if (!s)
    return;
  free(s->coef[0]);
  free(s->coef[1]);
  free(s);
}

static double node(int k, int N) { return cos(IMPACTFIT__PI * (k + 0.5) / N); }

static double to_unit(double x, double lo, double hi) {
  return (hi > lo) ? (2.0 * x - lo - hi) / (hi - lo) : 0.0;
}

/* Chebyshev polynomials T_0..T_{N−1} at u. */
static void cheb_t(double u, int N, double *T) {
  T[0] = 1.0;
  if (N > 1)
    T[1] = u;
  for (int i = 2; i < N; i++)
    T[i] = 2.0 * u * T[i - 1] - T[i - 2];
}

static double eval_piece(const impactfit_surrogate *s, int P, double n, double m, double v) {
  double Tn[64], Tm[64], Tt[128];
  cheb_t(to_unit(n, s->lo[P][0], s->hi[P][0]), s->N[P][0], Tn);
  cheb_t(to_unit(m, s->lo[P][1], s->hi[P][1]), s->N[P][1], Tm);
  cheb_t(to_unit(v, s->lo[P][2], s->hi[P][2]), s->N[P][2], Tt);
  double y = 0.0;
  const double *c = s->coef[P];
  for (int i = 0; i < s->N[P][0]; i++)
    for (int j = 0; j < s->N[P][1]; j++) {
      double a = 0.0;
      for (int k = 0; k < s->N[P][2]; k++)
        a += c[k] * Tt[k];
      y += Tn[i] * Tm[j] * a;
      c += s->N[P][2];
    }
  return y;
}

static double eval_y(const impactfit_surrogate *s, double n, double m, double e) {
  if (e <= s->spec.e_split)
    return eval_piece(s, 0, n, m, log(e));
  double r = log1p(-e);
  return eval_piece(s, 1, n, m, r < R_MIN_LOG ? R_MIN_LOG : r);
}

static int in_box(const impactfit_surrogate *s, double n, double m, double e) {
  return n >= s->spec.n_lo && n <= s->spec.n_hi && m >= s->spec.m_lo && m <= s->spec.m_hi &&
         e >= s->spec.e_lo && e <= 1.0;
}

int impactfit_surrogate_zeta(const impactfit_surrogate *s, double n, double m, double e, double *zeta,
                             impactfit_error *err) {
  if (!s || !zeta)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no surrogate given");
  if (!in_box(s, n, m, e))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "(n, m, e) = (%g, %g, %g) is outside the surrogate's box n in [%g, %g], "
                           "m in [%g, %g], e in [%g, 1]",
                           n, m, e, s->spec.n_lo, s->spec.n_hi, s->spec.m_lo, s->spec.m_hi, s->spec.e_lo);
  *zeta = (e == 1.0) ? 0.0 : exp(eval_y(s, n, m, e)) * (1.0 - e);
  return 0;
}

static unsigned long long lcg(unsigned long long *st) {
  *st = *st * 6364136223846793005ULL + 1442695040888963407ULL;
  return *st;
}
static double unif(unsigned long long *st) { return (lcg(st) >> 11) * (1.0 / 9007199254740992.0); }

int impactfit_surrogate_build(const impactfit_surrogate_spec *spec, impactfit_surrogate **out,
                              impactfit_surrogate_report *report, impactfit_error *err) {
  impactfit__gsl_quiet();
  if (!spec || !out)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no specification given");
  *out = NULL;
  if (!spec->name || !spec->name[0] || strlen(spec->name) >= 64)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "surrogate name must have 1..63 characters");
  for (const char *p = spec->name; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "surrogate name '%s': use [a-z0-9_]", spec->name);
  if (!(spec->n_lo > 0.0 && spec->n_hi >= spec->n_lo && spec->m_lo >= 0.0 && spec->m_hi >= spec->m_lo &&
        spec->e_lo > 0.0 && spec->e_lo < 1.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "invalid surrogate box");
  if (spec->deg_n < 0 || spec->deg_n > 60 || spec->deg_m < 0 || spec->deg_m > 60 || spec->deg_t < 1 ||
      spec->deg_t > 120 || (spec->n_hi == spec->n_lo && spec->deg_n) || (spec->m_hi == spec->m_lo && spec->deg_m))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "invalid surrogate degrees");
  if (!(spec->e_split > spec->e_lo && spec->e_split < 1.0) || spec->deg_r < 1 || spec->deg_r > 120)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "invalid surrogate split or degree in ln(1 - e)");
  impactfit_surrogate *s = calloc(1, sizeof *s);
  if (!s)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  s->spec = *spec;
  strcpy(s->name, spec->name);
  s->spec.name = s->name;
  for (int P = 0; P < 2; P++) {
    s->lo[P][0] = spec->n_lo;
    s->hi[P][0] = spec->n_hi;
    s->lo[P][1] = spec->m_lo;
    s->hi[P][1] = spec->m_hi;
    s->N[P][0] = spec->deg_n + 1;
    s->N[P][1] = spec->deg_m + 1;
  }
  s->lo[0][2] = log(spec->e_lo);
  s->hi[0][2] = log(spec->e_split);
  s->N[0][2] = spec->deg_t + 1;
  s->lo[1][2] = R_MIN_LOG;
  s->hi[1][2] = log1p(-spec->e_split);
  s->N[1][2] = spec->deg_r + 1;
  double t0 = omp_get_wtime();
  long solves = 0;
  for (int P = 0; P < 2; P++) {
    int N0 = s->N[P][0], N1 = s->N[P][1], N2 = s->N[P][2];
    size_t total = (size_t)N0 * N1 * N2;
    double *F = malloc(total * sizeof *F), *G = malloc(total * sizeof *G);
    s->coef[P] = malloc(total * sizeof *s->coef[P]);
    if (!F || !G || !s->coef[P]) {
      free(F);
      free(G);
      impactfit_surrogate_free(s);
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory for %zu coefficients", total);
    }
    /* exact y at the nodes: one continuation run over the e nodes per (n, m) node */
    int fail = 0;
    impactfit_error first;
    impactfit_error_clear(&first);
#pragma omp parallel
    {
      impactfit_inverse_workspace *ws = impactfit_inverse_alloc();
      double e[128];
      int kk[128];
      impactfit_inverse_result r[128];
      int st[128];
#pragma omp for schedule(dynamic, 1)
      for (int ij = 0; ij < N0 * N1; ij++) {
        int i = ij / N1, j = ij % N1;
        impactfit_inverse_params p = impactfit_inverse_default_params();
        p.n = (N0 > 1) ? 0.5 * (s->lo[P][0] + s->hi[P][0]) + 0.5 * (s->hi[P][0] - s->lo[P][0]) * node(i, N0)
                       : s->lo[P][0];
        p.m = (N1 > 1) ? 0.5 * (s->lo[P][1] + s->hi[P][1]) + 0.5 * (s->hi[P][1] - s->lo[P][1]) * node(j, N1)
                       : s->lo[P][1];
        p.transition = spec->transition;
        p.tol = 1e-12;
        p.surrogate_guess = 0; /* independent of the committed surrogate */
        /* the nodes in increasing e, for the continuation: node(k) decreases with k, so e rises
         * with k in the r piece (e = 1 − e^v) and falls with k in the t piece (e = e^v) */
        for (int q = 0; q < N2; q++) {
          int k = (P == 0) ? N2 - 1 - q : q;
          double v = 0.5 * (s->lo[P][2] + s->hi[P][2]) + 0.5 * (s->hi[P][2] - s->lo[P][2]) * node(k, N2);
          e[q] = (P == 0) ? exp(v) : -expm1(v);
          kk[q] = k;
        }
        impactfit_error e1;
        impactfit_error_clear(&e1);
        if (!ws || impactfit_inverse_solve_run(ws, &p, e, (size_t)N2, r, st, &e1)) {
#pragma omp critical
          {
            if (!fail)
              first = e1;
            fail = 1;
          }
          continue;
        }
        for (int q = 0; q < N2; q++)
          F[((size_t)i * N1 + j) * N2 + kk[q]] = log(r[q].zeta) - log1p(-e[q]);
      }
      impactfit_inverse_free(ws);
    }
    if (fail) {
      free(F);
      free(G);
      impactfit_surrogate_free(s);
      if (err)
        *err = first;
      return first.status ? first.status : IMPACTFIT_ENOCONV;
    }
    /* c = Π_d (2/N_d) Σ_k f cos(π a (k+½)/N_d), one dimension at a time; index 0 halved */
    int N[3] = {N0, N1, N2};
    double *src = F, *dst = G;
    for (int d = 0; d < 3; d++) {
      size_t stride = (d == 0) ? (size_t)N1 * N2 : (d == 1) ? (size_t)N2 : 1;
      int Nd = N[d];
      for (size_t base = 0; base < total; base++) {
        size_t idx = (base / stride) % (size_t)Nd;
        size_t start = base - idx * stride;
        double sum = 0.0;
        for (int k = 0; k < Nd; k++)
          sum += src[start + k * stride] * cos(IMPACTFIT__PI * idx * (k + 0.5) / Nd);
        double c = (2.0 / Nd) * sum;
        if (idx == 0)
          c *= 0.5;
        dst[base] = c;
      }
      double *tmp = src;
      src = dst;
      dst = tmp;
    }
    memcpy(s->coef[P], src, total * sizeof *s->coef[P]);
    free(F);
    free(G);
    solves += (long)total;
  }
  impactfit_surrogate_report rep;
  memset(&rep, 0, sizeof rep);
  rep.solves = solves;
  /* held-out check: simulate with the surrogate's ζ at random points */
  int M = spec->check_points > 0 ? spec->check_points : 0;
  double *chk = M ? malloc(6 * (size_t)M * sizeof *chk) : NULL;
  if (M && !chk) {
    impactfit_surrogate_free(s);
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  }
  unsigned long long rs = spec->seed * 2654435761ULL + 1;
  for (int q = 0; q < M; q++) {
    chk[6 * q] = spec->n_lo + (spec->n_hi - spec->n_lo) * unif(&rs);
    chk[6 * q + 1] = spec->m_lo + (spec->m_hi - spec->m_lo) * unif(&rs);
    /* half uniform in ln e over [e_lo, 1], half uniform in ln(1 − e) over [1e-10, 1 − e_lo] */
    if (q % 2 == 0)
      chk[6 * q + 2] = exp(log(spec->e_lo) * unif(&rs));
    else
      chk[6 * q + 2] = -expm1(R_MIN_LOG + (log1p(-spec->e_lo) - R_MIN_LOG) * unif(&rs));
  }
#pragma omp parallel
  {
    impactfit_impact_workspace *iw = impactfit_impact_alloc();
    impactfit_inverse_workspace *ws = impactfit_inverse_alloc();
#pragma omp for schedule(dynamic, 4)
    for (int q = 0; q < M; q++) {
      double n = chk[6 * q], m = chk[6 * q + 1], e = chk[6 * q + 2], z;
      impactfit_surrogate_zeta(s, n, m, e, &z, NULL);
      impactfit_impact_params p = impactfit_impact_scaled_params(n, m, z);
      p.transition = spec->transition;
      p.locate_extrema = 0;
      impactfit_impact_result r;
      impactfit_inverse_params ip = impactfit_inverse_default_params();
      ip.n = n;
      ip.m = m;
      ip.transition = spec->transition;
      ip.tol = 1e-12;
      ip.surrogate_guess = 0;
      impactfit_inverse_result ir;
      int ok = iw && ws && !impactfit_impact_solve(iw, &p, &r, NULL) &&
               !impactfit_inverse_solve(ws, &ip, e, z, &ir, NULL);
      chk[6 * q + 3] = ok ? fabs(r.e_out - e) : INFINITY;
      chk[6 * q + 4] = ok ? fabs(z / ir.zeta - 1.0) : INFINITY;
    }
    impactfit_impact_free(iw);
    impactfit_inverse_free(ws);
  }
  rep.check_points = M;
  for (int q = 0; q < M; q++) {
    if (chk[6 * q + 3] > rep.max_e_error || !isfinite(chk[6 * q + 3])) {
      rep.max_e_error = chk[6 * q + 3];
      rep.worst_n = chk[6 * q];
      rep.worst_m = chk[6 * q + 1];
      rep.worst_e = chk[6 * q + 2];
    }
    if (chk[6 * q + 4] > rep.max_zeta_rel || !isfinite(chk[6 * q + 4]))
      rep.max_zeta_rel = chk[6 * q + 4];
  }
  free(chk);
  rep.build_seconds = omp_get_wtime() - t0;
  if (report)
    *report = rep;
  if (M && !isfinite(rep.max_e_error)) {
    impactfit_surrogate_free(s);
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOCONV, "a held-out check point of the surrogate failed");
  }
  *out = s;
  return 0;
}

static void write_unit(FILE *f, const char *var, double lo, double hi, int N) {
  if (N > 1)
    fprintf(f, "(2.0 * %s - (%.17g)) / (%.17g)", var, lo + hi, hi - lo);
  else
    fprintf(f, "0.0");
}

int impactfit_surrogate_write_header(const impactfit_surrogate *s, const impactfit_surrogate_report *rep,
                                     const char *command, FILE *f, impactfit_error *err) {
  if (!s || !f)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no surrogate or file given");
  const impactfit_surrogate_spec *sp = &s->spec;
  const char *nm = s->name;
  char guard[96];
  size_t gi = 0;
  for (const char *p = nm; *p && gi < sizeof guard - 1; p++)
    guard[gi++] = (*p >= 'a' && *p <= 'z') ? (char)(*p - 'a' + 'A') : *p;
  guard[gi] = '\0';
  int has_m = s->N[0][1] > 1;
  fprintf(f, "/* DO NOT EDIT: generated by impactfit %s", IMPACTFIT_VERSION_STRING);
  if (command)
    fprintf(f, " (%s)", command);
  fprintf(f, ".\n *\n");
  fprintf(f, " * Surrogate of the exact scaled damping zeta(n, m, e) such that a simulated impact of\n"
             " *   x'' + zeta x^m x' + ((n+1)/2) x^n = 0,  x(0) = 0, x'(0) = 1   (transition %s)\n"
             " * gives e_out = e. Tensor-product Chebyshev series of y = ln zeta - ln(1 - e) in (n, m, ln e)\n"
             " * for e <= %.17g and in (n, m, ln(1 - e)) above (y is not analytic in e at e = 1; see\n"
             " * include/impactfit/surrogate.h), interpolating exact solves (impactfit inverse solver,\n"
             " * tol 1e-12) at the Chebyshev points of the first kind.\n *\n",
          sp->transition->name, sp->e_split);
  fprintf(f, " * Box: n in [%.17g, %.17g], m in [%.17g, %.17g], e in [%.17g, 1].\n", sp->n_lo, sp->n_hi,
          sp->m_lo, sp->m_hi, sp->e_lo);
  fprintf(f, " * Degrees: %d in n, %d in m, %d in ln e, %d in ln(1 - e) (%ld exact solves).\n", sp->deg_n,
          sp->deg_m, sp->deg_t, sp->deg_r, rep ? rep->solves : 0L);
  if (rep && rep->check_points)
    fprintf(f,
            " * Checked on %d held-out points (n, m uniform; e uniform in ln e and in ln(1 - e), seed %lu)\n"
            " * by simulating with the surrogate's zeta: max |e_out - e| = %.3e (at n = %.6f,\n"
            " * m = %.6f, e = %.10g), max |zeta/zeta_exact - 1| = %.3e.\n",
            rep->check_points, sp->seed, rep->max_e_error, rep->worst_n, rep->worst_m, rep->worst_e,
            rep->max_zeta_rel);
  fprintf(f, " * Use: c = zeta mass v / delta_m0^(m+1), delta_m0 = [(n+1) mass v^2 / (2k)]^(1/(n+1));\n"
             " * Zhang et al.'s alpha = 3 (1 - e)(m + 1) e^(-(m+1)/(n+1)) / (4 zeta).\n */\n");
  fprintf(f, "#ifndef IMPACTFIT_GENERATED_%s_SURROGATE_H\n#define IMPACTFIT_GENERATED_%s_SURROGATE_H\n\n"
             "#include <math.h>\n\n",
          guard, guard);
  for (int P = 0; P < 2; P++) {
    size_t total = (size_t)s->N[P][0] * s->N[P][1] * s->N[P][2];
    fprintf(f, "static const double impactfit_%s_coef%d[%zu] = {\n", nm, P, total);
    for (size_t i = 0; i < total; i++)
      fprintf(f, "%s%.17g,%s", (i % 4 == 0) ? "    " : " ", s->coef[P][i],
              (i % 4 == 3 || i + 1 == total) ? "\n" : "");
    fprintf(f, "};\n\n");
  }
  fprintf(f, "/* sum_ijk c_ijk T_i(u0) T_j(u1) T_k(u2) */\n"
             "static inline double impactfit_%s_series(const double *c, int N0, int N1, int N2, double u0,\n"
             "                                           double u1, double u2) {\n"
             "  double T0[64], T1[64], T2[128];\n"
             "  const double u[3] = {u0, u1, u2};\n  double *T[3] = {T0, T1, T2};\n"
             "  const int N[3] = {N0, N1, N2};\n"
             "  for (int d = 0; d < 3; d++) {\n    T[d][0] = 1.0;\n    if (N[d] > 1)\n      T[d][1] = u[d];\n"
             "    for (int i = 2; i < N[d]; i++)\n      T[d][i] = 2.0 * u[d] * T[d][i - 1] - T[d][i - 2];\n  }\n"
             "  double y = 0.0;\n"
             "  for (int i = 0; i < N0; i++)\n    for (int j = 0; j < N1; j++) {\n      double a = 0.0;\n"
             "      for (int k = 0; k < N2; k++)\n        a += c[k] * T2[k];\n      y += T0[i] * T1[j] * a;\n"
             "      c += N2;\n    }\n  return y;\n}\n\n",
          nm);
  fprintf(f, "/* zeta(n, %se) on the box above; -1 outside it; 0 at e = 1. */\n", has_m ? "m, " : "");
  fprintf(f, "static inline double impactfit_%s_zeta(double n, %sdouble e) {\n", nm, has_m ? "double m, " : "");
  if (!has_m)
    fprintf(f, "  const double m = %.17g;\n", sp->m_lo);
  fprintf(f,
          "  if (!(n >= %.17g && n <= %.17g && m >= %.17g && m <= %.17g && e >= %.17g && e <= 1.0))\n"
          "    return -1.0;\n"
          "  if (e == 1.0)\n    return 0.0;\n  double y;\n",
          sp->n_lo, sp->n_hi, sp->m_lo, sp->m_hi, sp->e_lo);
  for (int P = 0; P < 2; P++) {
    if (P == 0)
      fprintf(f, "  if (e <= %.17g) {\n    double v = log(e);\n", sp->e_split);
    else
      fprintf(f, "  } else {\n    double v = log1p(-e);\n    if (v < %.17g)\n      v = %.17g;\n", R_MIN_LOG,
              R_MIN_LOG);
    fprintf(f, "    y = impactfit_%s_series(impactfit_%s_coef%d, %d, %d, %d, ", nm, nm, P, s->N[P][0], s->N[P][1],
            s->N[P][2]);
    write_unit(f, "n", s->lo[P][0], s->hi[P][0], s->N[P][0]);
    fprintf(f, ",\n        ");
    write_unit(f, "m", s->lo[P][1], s->hi[P][1], s->N[P][1]);
    fprintf(f, ", ");
    write_unit(f, "v", s->lo[P][2], s->hi[P][2], s->N[P][2]);
    fprintf(f, ");\n");
  }
  fprintf(f, "  }\n  return exp(y) * (1.0 - e);\n}\n\n");
  fprintf(f, "/* The damping coefficient in the user's units: c = zeta mass v / delta_m0^(m+1); -1 outside\n"
             " * the box or for k, mass, v <= 0. */\n");
  fprintf(f, "static inline double impactfit_%s_c(double n, %sdouble e, double k, double mass, double v) {\n",
          nm, has_m ? "double m, " : "");
  if (!has_m)
    fprintf(f, "  const double m = %.17g;\n", sp->m_lo);
  fprintf(f, "  double z = impactfit_%s_zeta(n, %se);\n", nm, has_m ? "m, " : "");
  fprintf(f, "  if (z < 0.0 || !(k > 0.0 && mass > 0.0 && v > 0.0))\n    return -1.0;\n"
             "  double d = pow((n + 1.0) * mass * v * v / (2.0 * k), 1.0 / (n + 1.0));\n"
             "  return z * mass * v / pow(d, m + 1.0);\n}\n\n");
  if (has_m) {
    fprintf(f, "/* Zhang et al. (2021)'s modification parameter alpha; -1 outside the box or at e = 1. */\n");
    fprintf(f, "static inline double impactfit_%s_alpha(double n, double m, double e) {\n"
               "  double z = impactfit_%s_zeta(n, m, e);\n  if (!(z > 0.0))\n    return -1.0;\n"
               "  return 0.75 * (1.0 - e) * (m + 1.0) * exp(-(m + 1.0) / (n + 1.0) * log(e)) / z;\n}\n\n",
            nm, nm);
  }
  fprintf(f, "#endif\n");
  if (ferror(f))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EIO, "write error");
  return 0;
}
