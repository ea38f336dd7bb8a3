/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _POSIX_C_SOURCE 200809L
/* Surrogates of the inverse solution (surrogate.h) and the committed generated headers.
 *
 * 1. The Chebyshev machinery against an exact inverse: for n = 1, m = 0 (Kelvin–Voigt) under C,
 *    e(ξ) = exp(−2ξ acos ξ/√(1−ξ²)) (ξ < 1), exp(−2ξ acosh ξ/√(ξ²−1)) (ξ > 1), and ζ = 2ξ in the
 *    scaled problem (K = 1, mass = v = 1). ξ(e) by bisection on the closed form.
 * 2. The committed include/impactfit/generated/copt_surrogate.h, on points not used to build it:
 *    simulate with its ζ and require |e_out − e| ≤ 1e-10 (the issue asks for 1e-6; the header's
 *    banner states the measured figure).
 * 3. Regenerating that header with the same specification gives the same bytes.
 * 4. Pieces in m, grading and truncation, on a small piecewise surrogate (n = 1.5, condition C,
 *    pieces [0, n] graded 3 and [n, 2]): an interpolant reproduces its data at the interpolation
 *    nodes, so at every node (n, m(s_j), e(v_k)) the surrogate's y = ln ζ − ln(1 − e) must equal an
 *    independent exact solve (tol 1e-12, hence y to ~1e-11) to 1e-9: a wrong piece, grading, unit
 *    map or cosine sum gives errors of order 1e-3 and more. Truncation with bound D changes y by
 *    at most D (the dropped |coefficients| sum to ≤ D and |T_k| ≤ 1): checked at random points.
 * 5. The committed Zhang surrogates (zhang_c_surrogate.h, zhang_a_surrogate.h): the issue's
 *    requirement max |e_out − e| ≤ 1e-6 on held-out points (seed and distribution other than the
 *    build's: a third of the points within 10^-U(0,8) of m = n), simulating in the user's units
 *    with the header's λ for random k, mass, v; at m = 0 the C surrogate's ζ equals the c_opt
 *    surrogate's (the same problem; the two are built independently) to 1e-6 relative.
 * 6. The seam e = 1/2 of the Zhang headers on a scan finer than the build's: the banner's figure holds.
 * Measured when written: 1.4e-11 at the nodes (4.), truncation 8.6e-7 ≤ 1e-6, 2.7e-8 (C) and
 * 2.1e-8 (A) on the held-out points (5.). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impactfit/generated/copt_surrogate.h"
#include "impactfit/generated/zhang_a_surrogate.h"
#include "impactfit/generated/zhang_c_surrogate.h"
#include "impactfit/impactfit.h"
#include "testutil.h"

static double kv_e(double xi) {
  if (xi < 1.0)
    return exp(-2 * xi * acos(xi) / sqrt(1 - xi * xi));
  if (xi == 1.0)
    return exp(-2.0);
  return exp(-2 * xi * acosh(xi) / sqrt(xi * xi - 1));
}

/* ξ(e) by bisection on the closed form; for e ≥ 1/2 on 1 − e = −expm1(ln e(ξ)) (1 − e is exact
 * in double there), which keeps full relative accuracy in ξ as e → 1. */
static double kv_xi(double e) {
  double lo = 0.0, hi = 1.0;
  while (kv_e(hi) > e)
    hi *= 2;
  double om = 1.0 - e;
  for (int i = 0; i < 2000; i++) {
    double mid = 0.5 * (lo + hi);
    if (!(mid > lo && mid < hi))
      break;
    int more; /* e(mid) > e: more damping needed */
    if (e >= 0.5 && mid < 1.0)
      more = -expm1(-2 * mid * acos(mid) / sqrt(1 - mid * mid)) < om;
    else
      more = kv_e(mid) > e;
    if (more)
      lo = mid;
    else
      hi = mid;
  }
  return 0.5 * (lo + hi);
}

static void test_kelvin_voigt(void) {
  impactfit_surrogate_spec sp = impactfit_surrogate_copt_spec();
  sp.name = "kv";
  sp.n_lo = sp.n_hi = 1.0;
  sp.deg_n = 0;
  sp.check_points = 50;
  impactfit_surrogate *s = NULL;
  impactfit_surrogate_report rep;
  impactfit_error err;
  int st = impactfit_surrogate_build(&sp, &s, &rep, &err);
  CHECK(st == 0, "KV surrogate built: %s", err.message);
  if (st)
    return;
  CHECK(rep.solves == (sp.deg_t + 1) + (sp.deg_r + 1), "KV surrogate: %ld solves", rep.solves);
  double worst = 0.0;
  for (int i = 0; i <= 400; i++) {
    double e = (i % 2) ? exp(log(1e-4) * i / 400.0) : -expm1(log(1e-10) * i / 400.0);
    if (e < 1e-4)
      e = 1e-4;
    double z;
    impactfit_surrogate_zeta(s, 1.0, 0.0, e, &z, NULL);
    double want = 2 * kv_xi(e);
    if (e < 1.0) {
      double d = fabs(z / want - 1);
      if (d > worst)
        worst = d;
    }
  }
  CHECK_ABS(worst, 0.0, 1e-9, "KV surrogate against the exact zeta(e) over [1e-4, 1 - 1e-10]");
  CHECK_ABS(rep.max_e_error, 0.0, 1e-10, "KV surrogate: its own held-out check");
  double z;
  CHECK(impactfit_surrogate_zeta(s, 1.0, 0.0, 1.0, &z, NULL) == 0 && z == 0.0, "zeta(e = 1) = 0");
  CHECK(impactfit_surrogate_zeta(s, 1.5, 0.0, 0.5, &z, &err) == IMPACTFIT_EINVAL, "outside the box: EINVAL");
  CHECK(impactfit_surrogate_zeta(s, 1.0, 0.0, 1e-5, &z, &err) == IMPACTFIT_EINVAL, "below e_lo: EINVAL");
  impactfit_surrogate_free(s);
}

static void test_committed_header(void) {
  impactfit_impact_workspace *ws = impactfit_impact_alloc();
  unsigned long long r = 424242;
  double worst = 0.0, wn = 0, we = 0;
  for (int i = 0; i < 200; i++) {
    r = r * 6364136223846793005ULL + 1442695040888963407ULL;
    double n = 1.0 + (r >> 11) * (1.0 / 9007199254740992.0);
    r = r * 6364136223846793005ULL + 1442695040888963407ULL;
    double u = (r >> 11) * (1.0 / 9007199254740992.0);
    double e = (i % 2) ? exp(log(1e-4) * u) : -expm1(log(1e-9) * u); /* both ends of [1e-4, 1) */
    double z = impactfit_copt_zeta(n, e);
    impactfit_impact_params p = impactfit_impact_scaled_params(n, 0.0, z);
    impactfit_impact_result res;
    if (impactfit_impact_solve(ws, &p, &res, NULL)) {
      CHECK(0, "header: simulation at n=%g e=%g failed", n, e);
      continue;
    }
    double d = fabs(res.e_out - e);
    if (d > worst) {
      worst = d;
      wn = n;
      we = e;
    }
  }
  CHECK_ABS(worst, 0.0, 1e-10, "committed c_opt surrogate: max |e_out - e| on held-out points (at n=%g e=%g)", wn, we);
  CHECK(isnan(impactfit_copt_zeta(0.5, 0.5)) && isnan(impactfit_copt_zeta(1.5, 1e-5)) &&
            isnan(impactfit_copt_zeta(2.7, 0.7)) && isnan(impactfit_copt_c(2.7, 0.7, 1e8, 0.05, 2)),
        "header: NaN outside the box (n = 2.7 above it: a negative damping before)");
  CHECK(impactfit_copt_zeta(1.5, 1.0) == 0.0, "header: zeta(e = 1) = 0");
  /* the header's c in the user's units equals the library's conversion of its zeta */
  double c, z = impactfit_copt_zeta(1.5, 0.5);
  impactfit_copt_from_zeta(1.5, z, 1e8, 0.05, 2.0, &c, NULL);
  CHECK_REL(impactfit_copt_c(1.5, 0.5, 1e8, 0.05, 2.0), c, 1e-13, "header: c(n, e, k, mass, v)");
  impactfit_impact_free(ws);
}

static void test_regenerate(const char *committed) {
  FILE *f = fopen(committed, "rb");
  CHECK(f != NULL, "committed header readable: %s", committed);
  if (!f)
    return;
  static char want[1 << 20], got[1 << 20];
  size_t nw = fread(want, 1, sizeof want, f);
  fclose(f);
  impactfit_surrogate_spec sp = impactfit_surrogate_copt_spec();
  impactfit_surrogate *s = NULL;
  impactfit_surrogate_report rep;
  if (impactfit_surrogate_build(&sp, &s, &rep, NULL)) {
    CHECK(0, "regenerate: build failed");
    return;
  }
  char command[256];
  snprintf(command, sizeof command, "impactfit surrogate copt --deg-n %d --deg-m %d --deg-t %d --deg-r %d --check %d",
           sp.deg_n, sp.deg_m, sp.deg_t, sp.deg_r, sp.check_points);
  FILE *m = fmemopen(got, sizeof got, "w");
  impactfit_surrogate_write_header(s, &rep, command, m, NULL);
  long ng = ftell(m);
  fclose(m);
  impactfit_surrogate_free(s);
  CHECK(ng == (long)nw && memcmp(want, got, nw) == 0,
        "regenerated c_opt surrogate equals the committed header byte for byte (%ld vs %zu bytes)", ng, nw);
}

static unsigned long long rng = 12345;
static double urand(void) {
  rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
  return (rng >> 11) * (1.0 / 9007199254740992.0);
}

static impactfit_surrogate_spec small_pieces_spec(double drop) {
  impactfit_surrogate_spec sp = impactfit_surrogate_zhang_spec(impactfit_transition_C);
  sp.name = "pieces";
  sp.n_lo = sp.n_hi = 1.5;
  sp.check_points = 0;
  sp.drop = drop;
  const int lo[2][3] = {{0, 10, 10}, {0, 6, 16}}, hi[2][3] = {{0, 6, 10}, {0, 4, 16}};
  memcpy(sp.piece[0].deg, lo, sizeof lo);
  memcpy(sp.piece[1].deg, hi, sizeof hi);
  return sp;
}

static double exact_y(double n, double m, double e, const impactfit_transition *tr) {
  static impactfit_inverse_workspace *ws = NULL;
  if (!ws)
    ws = impactfit_inverse_alloc();
  impactfit_inverse_params p = impactfit_inverse_default_params();
  p.n = n;
  p.m = m;
  p.transition = tr;
  p.tol = 1e-12;
  p.surrogate_guess = 0;
  impactfit_inverse_result r;
  if (impactfit_inverse_solve(ws, &p, e, 0.0, &r, NULL))
    return NAN;
  return log(r.zeta) - log1p(-e);
}

static void test_pieces(void) {
  impactfit_surrogate_spec sp = small_pieces_spec(0.0);
  impactfit_surrogate *s = NULL, *st = NULL;
  impactfit_surrogate_report rep, rept;
  impactfit_error err;
  int rc = impactfit_surrogate_build(&sp, &s, &rep, &err);
  CHECK(rc == 0, "piecewise surrogate built: %s", err.message);
  if (rc)
    return;
  CHECK(rep.coefficients == rep.solves, "no truncation: every coefficient kept (%ld of %ld)", rep.coefficients,
        rep.solves);
  /* the interpolation nodes of every block */
  double worst = 0.0, n = 1.5;
  int nodes = 0;
  for (int j = 0; j < 2; j++)
    for (int P = 0; P < 2; P++) {
      const impactfit_surrogate_piece *pc = &sp.piece[j];
      int N1 = pc->deg[P][1] + 1, N2 = pc->deg[P][2] + 1;
      double vlo = P ? log(1e-10) : log(sp.e_lo), vhi = P ? log1p(-sp.e_split) : log(sp.e_split);
      for (int a = 0; a < N1; a++)
        for (int k = 0; k < N2; k += 3) {
          double sj = 0.5 + 0.5 * cos(M_PI * (a + 0.5) / N1);
          double lo = pc->lo_const + pc->lo_n * n, hi = pc->hi_const + pc->hi_n * n;
          double m = lo + (hi - lo) * (1.0 - pow(1.0 - sj, pc->grade));
          double v = 0.5 * (vlo + vhi) + 0.5 * (vhi - vlo) * cos(M_PI * (k + 0.5) / N2);
          double e = P ? -expm1(v) : exp(v), z;
          impactfit_surrogate_zeta(s, n, m, e, &z, NULL);
          double d = fabs(log(z) - log1p(-e) - exact_y(n, m, e, impactfit_transition_C));
          worst = (d > worst || isnan(d)) ? d : worst;
          nodes++;
        }
    }
  CHECK_ABS(worst, 0.0, 1e-9, "piecewise surrogate reproduces exact solves at %d of its nodes", nodes);
  /* truncation: y changes by at most the bound */
  sp = small_pieces_spec(1e-6);
  rc = impactfit_surrogate_build(&sp, &st, &rept, &err);
  CHECK(rc == 0 && rept.coefficients < rep.coefficients, "truncated surrogate: %ld of %ld coefficients kept",
        rept.coefficients, rep.coefficients);
  double dmax = 0.0;
  for (int i = 0; i < 2000 && !rc; i++) {
    double m = 2.0 * urand(), e = (i % 2) ? exp(log(0.01) * urand()) : -expm1(log(1e-10) + log(1e8) * urand());
    double z1, z2;
    impactfit_surrogate_zeta(s, n, m, e, &z1, NULL);
    impactfit_surrogate_zeta(st, n, m, e, &z2, NULL);
    dmax = fmax(dmax, fabs(log(z1) - log(z2)));
  }
  CHECK(dmax <= 1e-6 + 1e-13 && dmax > 0.0, "truncation changes ln zeta by %.3g, at most the bound 1e-6", dmax);
  CHECK(impactfit_surrogate_zeta(s, 1.5, 2.1, 0.5, &dmax, &err) == IMPACTFIT_EINVAL, "m outside the box: EINVAL");
  impactfit_surrogate_free(s);
  impactfit_surrogate_free(st);
  /* specifications that are not valid */
  impactfit_surrogate_spec bad = small_pieces_spec(0.0);
  bad.piece[1].lo_n = 0.9; /* a gap between the pieces */
  CHECK(impactfit_surrogate_build(&bad, &s, NULL, &err) == IMPACTFIT_EINVAL && !s, "pieces with a gap: EINVAL");
  bad = small_pieces_spec(0.0);
  bad.piece[0].grade = 0.5;
  CHECK(impactfit_surrogate_build(&bad, &s, NULL, &err) == IMPACTFIT_EINVAL, "grade < 1: EINVAL");
  bad = small_pieces_spec(0.0);
  bad.piece[1].hi_const = 1.9; /* does not end at m_hi */
  CHECK(impactfit_surrogate_build(&bad, &s, NULL, &err) == IMPACTFIT_EINVAL, "last piece short of m_hi: EINVAL");
  bad = small_pieces_spec(0.0);
  bad.drop = -1.0;
  CHECK(impactfit_surrogate_build(&bad, &s, NULL, &err) == IMPACTFIT_EINVAL, "negative drop: EINVAL");
}

typedef double (*zhang_c_fn)(double, double, double, double, double, double);
typedef double (*zhang_alpha_fn)(double, double, double);

/* The committed Zhang header for transition tr: |e_out − e| with the header's λ in user units. */
static void test_zhang_header(const char *name, const impactfit_transition *tr, zhang_c_fn cfun, zhang_alpha_fn afun) {
  impactfit_impact_workspace *ws = impactfit_impact_alloc();
  double worst = 0.0, wn = 0, wm = 0, we = 0, arel = 0.0;
  int failed = 0;
  for (int i = 0; i < 900; i++) {
    double n = 1.0 + urand(), m = 2.0 * urand();
    if (i % 3 == 2) /* close to m = n, on either side */
      m = n + ((i % 2) ? 1.0 : -1.0) * pow(10.0, -8.0 * urand()) * ((i % 2) ? 2.0 - n : n) * 0.999;
    double e = (i % 2) ? exp(log(0.01) * urand()) : -expm1(log(1e-9) + (log(0.99) - log(1e-9)) * urand());
    double k = exp(log(1e5) + log(1e5) * urand()), mass = exp(log(1e-3) + log(1e4) * urand());
    double v = exp(log(1e-2) + log(1e3) * urand());
    impactfit_impact_params p = impactfit_impact_default_params();
    p.n = n;
    p.m = m;
    p.k = k;
    p.mass = mass;
    p.v = v;
    p.c = cfun(n, m, e, k, mass, v);
    p.transition = tr;
    impactfit_impact_result r;
    impactfit_error err;
    if (!(p.c > 0.0) || impactfit_impact_solve(ws, &p, &r, &err)) {
      fprintf(stderr, "%s: n=%.17g m=%.17g e=%.17g k=%g mass=%g v=%g c=%g: %s\n", name, n, m, e, k, mass, v, p.c,
              p.c > 0.0 ? err.message : "no lambda");
      failed++;
      continue;
    }
    double d = fabs(r.e_out - e);
    if (d > worst) {
      worst = d;
      wn = n;
      wm = m;
      we = e;
    }
    /* alpha from the header equals Zhang's conversion of its zeta */
    double zeta = r.zeta, alpha;
    if (e < 1.0 && !impactfit_zhang_alpha_from_zeta(n, m, e, zeta, &alpha, NULL, NULL))
      arel = fmax(arel, fabs(afun(n, m, e) / alpha - 1.0));
  }
  CHECK(failed == 0, "%s: %d simulations with the header's lambda failed", name, failed);
  CHECK_ABS(worst, 0.0, 1e-6, "%s: max |e_out - e| on 900 held-out points (at n=%g m=%.10g e=%g)", name, wn, wm, we);
  CHECK_REL(arel, 0.0, 1e-12, "%s: alpha agrees with Zhang's conversion of the header's zeta", name);
  if (tr == impactfit_transition_C) { /* m = 0 is c_opt: two surrogates built independently */
    double zrel = 0.0;
    for (int i = 0; i < 400; i++) {
      double n = 1.0 + urand(),
             e = (i % 2) ? exp(log(0.01) * urand()) : -expm1(log(1e-9) + (log(0.99) - log(1e-9)) * urand());
      zrel = fmax(zrel, fabs(impactfit_zhang_c_zeta(n, 0.0, e) / impactfit_copt_zeta(n, e) - 1.0));
    }
    CHECK_ABS(zrel, 0.0, 1e-6, "%s at m = 0 agrees with copt_surrogate.h (zeta, relative)", name);
  }
  CHECK(isnan(afun(0.5, 1.0, 0.5)) && isnan(afun(1.5, 2.5, 0.5)) && isnan(afun(1.5, 1.0, 0.001)) &&
            isnan(afun(1.5, 1.0, 1.0)),
        "%s: alpha is NaN outside the box and at e = 1", name);
  impactfit_impact_free(ws);
}

/* The banner's "max |e_out - e| = X" of the committed header dir/name (NAN if not found). */
static double banner_max(const char *dir, const char *name) {
  char path[4096], line[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "r");
  double x = NAN;
  while (f && fgets(line, sizeof line, f)) {
    const char *p = strstr(line, "max |e_out - e| = ");
    if (p) {
      x = atof(p + strlen("max |e_out - e| = "));
      break;
    }
  }
  if (f)
    fclose(f);
  return x;
}

/* 6. The seam e = 1/2 of the Zhang headers, where the series in ln e and in ln(1 - e) meet, on scans
 * other than the build's (the build: 17 n x (65 m uniform + 33 in the last tenth below m = n) x 5 e):
 * 9 n x 81 m uniform, and 33 n x 41 m in [0.9 n, n] where the C header's error peaks (m ~ 0.96 n), at
 * e = 1/2, 1/2 +- 1e-6, in scaled units, and the audit's point. The banner's figure must hold there
 * to 1 % (a scan finds the maximum of a smooth error to within its spacing; measured: the C banner
 * 4.288e-8, these scans 4.24e-8, one of 65 n x 201 m near m = n 4.302e-8). An independent audit
 * found 3.22e-8 at n = 2, m = 1.44, e = 1/2 on the C header whose banner said 2.697e-8 (measured at
 * the ends of m only); that banner fails here. */
static void test_zhang_seam(const char *dir, const char *name, const impactfit_transition *tr,
                            double (*zfun)(double, double, double)) {
  double stated = banner_max(dir, name);
  CHECK(stated > 0.0, "%s: the banner states max |e_out - e|", name);
  impactfit_impact_workspace *ws = impactfit_impact_alloc();
  double worst = 0.0, wn = 0, wm = 0, we = 0;
  int failed = 0;
  const double es[3] = {0.5 - 1e-6, 0.5, 0.5 + 1e-6};
  const int uniform = 9 * 81 * 3, near = 33 * 41 * 3;
  for (int i = 0; i <= uniform + near; i++) {
    double n = 2.0, m = 1.44, e = 0.5; /* the last point: the audit's */
    if (i < uniform) {
      n = 1.0 + 0.125 * (i / (81 * 3));
      m = 2.0 * ((i / 3) % 81) / 80.0;
      e = es[i % 3];
    } else if (i < uniform + near) {
      int k = i - uniform;
      n = 1.0 + (k / (41 * 3)) / 32.0;
      m = n * (0.9 + 0.1 * ((k / 3) % 41) / 40.0);
      e = es[k % 3];
    }
    impactfit_impact_params p = impactfit_impact_scaled_params(n, m, zfun(n, m, e));
    p.transition = tr;
    impactfit_impact_result r;
    impactfit_error err;
    if (!(p.c > 0.0) || impactfit_impact_solve(ws, &p, &r, &err)) {
      failed++;
      continue;
    }
    double d = fabs(r.e_out - e);
    if (d > worst) {
      worst = d;
      wn = n;
      wm = m;
      we = e;
    }
  }
  CHECK(failed == 0, "%s: %d seam simulations failed", name, failed);
  CHECK(worst <= 1.01 * stated,
        "%s: max |e_out - e| on the seam %.4g (n = %g, m = %g, e = %.17g) > the banner's %.4g + 1 %%", name, worst, wn,
        wm, we, stated);
  printf("%s: seam scans max |e_out - e| = %.4g (n = %g, m = %g, e = %.17g), banner %.4g\n", name, worst, wn, wm, we,
         stated);
  impactfit_impact_free(ws);
}

int main(int argc, char **argv) {
  test_kelvin_voigt();
  test_committed_header();
  test_pieces();
  test_zhang_header("zhang_c_surrogate.h", impactfit_transition_C, impactfit_zhang_c_c, impactfit_zhang_c_alpha);
  test_zhang_header("zhang_a_surrogate.h", impactfit_transition_A, impactfit_zhang_a_c, impactfit_zhang_a_alpha);
  if (argc > 1) {
    test_regenerate(argv[1]);
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", argv[1]);
    char *slash = strrchr(dir, '/');
    if (slash)
      *slash = '\0';
    else
      snprintf(dir, sizeof dir, ".");
    test_zhang_seam(dir, "zhang_c_surrogate.h", impactfit_transition_C, impactfit_zhang_c_zeta);
    test_zhang_seam(dir, "zhang_a_surrogate.h", impactfit_transition_A, impactfit_zhang_a_zeta);
  }
  impactfit_surrogate_spec bad = impactfit_surrogate_copt_spec();
  bad.name = "Bad Name";
  impactfit_surrogate *s = NULL;
  CHECK(impactfit_surrogate_build(&bad, &s, NULL, NULL) == IMPACTFIT_EINVAL && !s, "invalid name: EINVAL");
  bad = impactfit_surrogate_copt_spec();
  bad.e_split = 2.0;
  CHECK(impactfit_surrogate_build(&bad, &s, NULL, NULL) == IMPACTFIT_EINVAL, "invalid split: EINVAL");
  impactfit_surrogate_free(NULL);
  return tu_report("test_surrogate");
}
