#define _POSIX_C_SOURCE 200809L
/* Surrogates of the inverse solution (surrogate.h) and the committed generated header.
 *
 * 1. The Chebyshev machinery against an exact inverse: for n = 1, m = 0 (Kelvin–Voigt) under C,
 *    e(ξ) = exp(−2ξ acos ξ/√(1−ξ²)) (ξ < 1), exp(−2ξ acosh ξ/√(ξ²−1)) (ξ > 1), and ζ = 2ξ in the
 *    scaled problem (K = 1, mass = v = 1). ξ(e) by bisection on the closed form.
 * 2. The committed include/impactfit/generated/copt_surrogate.h, on points not used to build it:
 *    simulate with its ζ and require |e_out − e| ≤ 1e-10 (the issue asks for 1e-6; the header's
 *    banner states the measured figure).
 * 3. Regenerating that header with the same specification gives the same bytes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impactfit/generated/copt_surrogate.h"
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
  CHECK(impactfit_copt_zeta(0.5, 0.5) == -1.0 && impactfit_copt_zeta(1.5, 1e-5) == -1.0, "header: -1 outside the box");
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

int main(int argc, char **argv) {
  test_kelvin_voigt();
  test_committed_header();
  if (argc > 1)
    test_regenerate(argv[1]);
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
