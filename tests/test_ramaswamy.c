/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The committed Ramaswamy–Humbert headers (include/impactfit/generated/ramaswamy_eps.h,
 * ramaswamy_dtau.h, ramaswamy_dtau_surrogate.h) against a fresh run and against independent results.
 *
 * ramaswamy_eps.h and ramaswamy_dtau.h: the fit file's sweep is run in-process and its stages are
 * fitted; the header generated now must equal the committed file byte for byte, its constants must
 * be the fitted doubles and its inline functions (compiled here) must evaluate to the fit model at
 * every data point. Independently:
 *  - the minimax constants must agree with the hc module's own minimax refit
 *    (impactfit_hc_rh_eps_refit: a separate least-squares solver and SLSQP loop with several
 *    starts) on the same grid, to 1e-6;
 *  - the least-squares constants must equal a fit with the trapezoid weights written out here (h/2
 *    at the ends 0.01 and 0.999, h inside), which checks the fit file's weights;
 *  - the error statistics in the header must equal those of impactfit_hc_rh_eps_error (same
 *    constants, exact ε from the library), on e in [0.01, 0.999];
 *  - the Δτ surface must reproduce simulations on held-out points (not on the fit grid) within the
 *    maximum error it states.
 * ramaswamy_dtau_surrogate.h: rebuilt with the library's defaults and written again: the bytes must
 * match (the held-out check in its banner is recomputed: 201 × 51 simulations); its inline function
 * must equal impactfit_hc_dtau_surrogate_eval bit for bit, and agree with simulations at 200
 * pseudo-random held-out points (uniform in ln(1+ε) and n) to 1e-9 (measured 4e-10; the target is
 * 1e-6).
 * usage: test_ramaswamy SOURCE_DIR */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impactfit/generated/ramaswamy_dtau.h"
#include "impactfit/generated/ramaswamy_dtau_surrogate.h"
#include "impactfit/generated/ramaswamy_eps.h"
#include "impactfit/impactfit.h"
#include "testutil.h"
#include "testsweep.h"

static const double *col(const impactfit_table *t, const char *name) {
  int j = impactfit_table_find(t, name);
  return j < 0 ? NULL : impactfit_table_col(t, (size_t)j);
}

static void test_eps_header(const char *src) {
  impactfit_table *t = NULL;
  impactfit_fitfile *f = fit_pipeline(src, "ramaswamy_eps", &t);
  if (!f)
    return;
  impactfit_fit_stage lsq, mm;
  impactfit_fitfile_stage(f, 0, &lsq);
  impactfit_fitfile_stage(f, 1, &mm);
  const impactfit_fit_result *rl = &lsq.results[0], *rm = &mm.results[0];
  CHECK(impactfit_ramaswamy_eps_lsq_alpha == rl->value[0] && impactfit_ramaswamy_eps_lsq_beta == rl->value[1],
        "lsq: header constants are the fitted doubles");
  CHECK(impactfit_ramaswamy_eps_minimax_alpha == rm->value[0] && impactfit_ramaswamy_eps_minimax_beta == rm->value[1],
        "minimax: header constants are the fitted doubles");
  const double *e = col(t, "e"), *eps = col(t, "eps");
  size_t n = impactfit_table_rows(t), m = 0;
  double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *w = malloc(n * sizeof *w);
  for (size_t i = 0; i < n; i++) {
    if (!(e[i] < 1.0))
      continue;
    CHECK_REL(impactfit_ramaswamy_eps_lsq(e[i]), impactfit_fit_model_eval(lsq.model, rl->value, e[i], 0.0), 1e-15,
              "lsq header function at e = %g", e[i]);
    CHECK_REL(impactfit_ramaswamy_eps_minimax(e[i]), impactfit_fit_model_eval(mm.model, rm->value, e[i], 0.0), 1e-15,
              "minimax header function at e = %g", e[i]);
    x[m] = e[i];
    y[m] = eps[i];
    m++;
  }
  /* trapezoid weights written out: the grid is uniform (step 0.001) from 0.01 to 0.999 */
  for (size_t i = 0; i < m; i++)
    w[i] = (i == 0 || i == m - 1) ? 0.5 : 1.0;
  impactfit_fit_model *model = NULL;
  impactfit_fit_result r;
  if (!impactfit_fit_model_create(lsq.spec, &model, NULL) &&
      !impactfit_fit_run_weighted(model, m, x, NULL, y, w, &r, NULL)) {
    /* the grid's rounding makes the fit file's weights differ from these by ~1e-13, which moves the
     * end point of the iteration by ~1e-11; equal weights would move alpha by 2e-4 */
    CHECK_REL(r.value[0], rl->value[0], 1e-9, "lsq alpha = fit with trapezoid weights written out");
    CHECK_REL(r.value[1], rl->value[1], 1e-9, "lsq beta = fit with trapezoid weights written out");
  } else {
    CHECK(0, "weighted refit runs");
  }
  impactfit_fit_model_free(model);
  /* the hc module's minimax refit on the same grid (e = 0.01 .. 0.999, 990 points) */
  impactfit_hc_rh_fit_params hp = impactfit_hc_rh_fit_default_params();
  hp.e_max = 0.999;
  hp.points = 990;
  impactfit_hc_rh_fit h;
  if (!impactfit_hc_rh_eps_refit(&hp, IMPACTFIT_HC_MINIMAX, &h, NULL)) {
    CHECK_REL(rm->value[0], h.alpha, 1e-6, "minimax alpha = the hc module's minimax refit");
    CHECK_REL(rm->value[1], h.beta, 1e-6, "minimax beta = the hc module's minimax refit");
    CHECK_REL(rm->max_rel, h.err.max, 1e-8, "minimax max error = the hc module's");
  } else {
    CHECK(0, "hc minimax refit runs");
  }
  /* the header's statistics against the library's error of the form */
  impactfit_hc_eps_stats sl;
  if (!impactfit_hc_rh_eps_error(rl->value[0], rl->value[1], &hp, &sl, NULL)) {
    CHECK_REL(rl->max_rel, sl.max, 1e-13, "lsq: max relative error as impactfit_hc_rh_eps_error");
    CHECK_REL(rl->mean_rel, sl.mean, 1e-12, "lsq: mean relative error as impactfit_hc_rh_eps_error");
  }
  free(x);
  free(y);
  free(w);
  impactfit_table_free(t);
  impactfit_fitfile_free(f);
}

static void test_dtau_header(const char *src, impactfit_impact_workspace *ws) {
  impactfit_table *t = NULL;
  impactfit_fitfile *f = fit_pipeline(src, "ramaswamy_dtau", &t);
  if (!f)
    return;
  impactfit_fit_stage st;
  impactfit_fitfile_stage(f, 0, &st);
  const impactfit_fit_result *r = &st.results[0];
  const double hv[10] = {impactfit_ramaswamy_dtau_lsq_a, impactfit_ramaswamy_dtau_lsq_b, impactfit_ramaswamy_dtau_lsq_c,
                         impactfit_ramaswamy_dtau_lsq_d, impactfit_ramaswamy_dtau_lsq_f, impactfit_ramaswamy_dtau_lsq_g,
                         impactfit_ramaswamy_dtau_lsq_h, impactfit_ramaswamy_dtau_lsq_i, impactfit_ramaswamy_dtau_lsq_j,
                         impactfit_ramaswamy_dtau_lsq_k};
  int same = r->n_params == 10;
  for (int j = 0; j < 10 && same; j++)
    same = hv[j] == r->value[j];
  CHECK(same, "dtau: header constants are the fitted doubles");
  const double *eps = col(t, "eps"), *n = col(t, "n");
  for (size_t i = 0; i < impactfit_table_rows(t); i += 7) {
    CHECK_REL(impactfit_ramaswamy_dtau_lsq(eps[i], n[i]), impactfit_fit_model_eval(st.model, r->value, eps[i], n[i]),
              1e-15, "dtau header function at (%g, %g)", eps[i], n[i]);
    /* the same surface through the hc module's evaluator of the published form */
    CHECK_REL(impactfit_hc_rh_dtau(hv, eps[i], n[i]), impactfit_ramaswamy_dtau_lsq(eps[i], n[i]), 1e-13,
              "dtau: impactfit_hc_rh_dtau with these constants at (%g, %g)", eps[i], n[i]);
  }
  /* held-out points: between the grid's nodes; the error stays below the stated maximum */
  double worst = 0.0;
  for (int a = 0; a < 9; a++)
    for (int b = 0; b < 5; b++) {
      double e = 0.05 + 2.2 * a + 0.013 * b, nn = 1.01 + 0.2 * b, d;
      CHECK(impactfit_hc_impact_time(ws, e, nn, &d, NULL, NULL) == 0, "simulate (%g, %g)", e, nn);
      worst = fmax(worst, fabs(impactfit_ramaswamy_dtau_lsq(e, nn) / d - 1.0));
    }
  CHECK(worst <= r->max_rel, "dtau held-out error %g within the stated maximum %g", worst, r->max_rel);
  impactfit_table_free(t);
  impactfit_fitfile_free(f);
}

static void test_surrogate_header(const char *src, impactfit_impact_workspace *ws) {
  impactfit_hc_dtau_surrogate_params sp = impactfit_hc_dtau_surrogate_default_params();
  impactfit_hc_dtau_surrogate *s = NULL;
  impactfit_error err;
  impactfit_error_clear(&err);
  if (impactfit_hc_dtau_surrogate_build(ws, &sp, &s, &err)) {
    CHECK(0, "surrogate builds: %s", err.message);
    return;
  }
  CHECK(sp.eps_max == IMPACTFIT_RAMASWAMY_DTAU_SURROGATE_EPS_MAX &&
            sp.n_min == IMPACTFIT_RAMASWAMY_DTAU_SURROGATE_N_MIN &&
            sp.n_max == IMPACTFIT_RAMASWAMY_DTAU_SURROGATE_N_MAX,
        "the header's box is the library's default");
  /* the bytes: the same command the committed header names */
  impactfit_hc_dtau_grid_params gp = impactfit_hc_dtau_grid_default_params();
  gp.eps_max = sp.eps_max;
  impactfit_hc_dtau_stats chk;
  char *text = NULL;
  size_t len = 0, got = 0;
  FILE *mf = open_memstream(&text, &len);
  int st = impactfit_hc_dtau_surrogate_error(ws, s, &gp, &chk, &err);
  char command[320];
  snprintf(command, sizeof command,
           "impactfit dtau-surrogate --name ramaswamy_dtau_surrogate --eps-max %.17g --n-min %.17g --n-max %.17g "
           "--deg-eps %d --deg-n %d --check-eps %zu --check-n %zu",
           sp.eps_max, sp.n_min, sp.n_max, sp.deg_eps, sp.deg_n, gp.eps_points, gp.n_points);
  if (!st)
    st = impactfit_hc_dtau_surrogate_write_header(s, &chk, "ramaswamy_dtau_surrogate", command, mf, &err);
  fclose(mf);
  char path[4096];
  snprintf(path, sizeof path, "%s/include/impactfit/generated/ramaswamy_dtau_surrogate.h", src);
  char *old = read_all(path, &got);
  CHECK(st == 0 && old && got == len && memcmp(old, text, len) == 0, "surrogate: regenerated header equals the "
                                                                     "committed one (impactfit dtau-surrogate)");
  CHECK(chk.max <= 1e-9, "surrogate: held-out grid error %g <= 1e-9", chk.max);
  free(old);
  free(text);
  /* the inline function is the library's evaluation; held-out simulations */
  unsigned long long rnd = 20240611ULL;
  double worst = 0.0;
  for (int i = 0; i < 200; i++) {
    rnd = rnd * 6364136223846793005ULL + 1442695040888963407ULL;
    double u = (double)(rnd >> 11) / 9007199254740992.0;
    rnd = rnd * 6364136223846793005ULL + 1442695040888963407ULL;
    double v = (double)(rnd >> 11) / 9007199254740992.0;
    double eps = expm1(u * log1p(sp.eps_max)), n = sp.n_min + v * (sp.n_max - sp.n_min), lib = -2.0, d;
    impactfit_hc_dtau_surrogate_eval(s, eps, n, &lib, NULL);
    CHECK(impactfit_ramaswamy_dtau_surrogate(eps, n) == lib, "surrogate header = library at (%g, %g)", eps, n);
    CHECK(impactfit_hc_impact_time(ws, eps, n, &d, NULL, NULL) == 0, "simulate (%g, %g)", eps, n);
    worst = fmax(worst, fabs(lib / d - 1.0));
  }
  CHECK(worst <= 1e-9, "surrogate: 200 random held-out points, max relative error %g <= 1e-9", worst);
  CHECK(isnan(impactfit_ramaswamy_dtau_surrogate(-1e-9, 1.5)) &&
            isnan(impactfit_ramaswamy_dtau_surrogate(100.5, 1.5)) &&
            isnan(impactfit_ramaswamy_dtau_surrogate(1.0, 0.99)) && isnan(impactfit_ramaswamy_dtau_surrogate(NAN, 1.5)),
        "surrogate header: NaN outside the box");
  /* dt = dtau/omega_i */
  double w = 0.0;
  impactfit_hc_omega(1e8, 2.0, 0.05, 1.5, &w, NULL);
  CHECK_REL(impactfit_ramaswamy_dtau_surrogate_dt(0.8, 1.5, 1e8, 0.05, 2.0),
            impactfit_ramaswamy_dtau_surrogate(0.8, 1.5) / w, 1e-14, "surrogate header: dt = dtau / omega_i");
  impactfit_hc_dtau_surrogate_free(s);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_ramaswamy SOURCE_DIR\n");
    return 2;
  }
  impactfit_impact_workspace *ws = impactfit_impact_alloc();
  test_eps_header(argv[1]);
  test_dtau_header(argv[1], ws);
  test_surrogate_header(argv[1], ws);
  impactfit_impact_free(ws);
  return tu_report("test_ramaswamy");
}
