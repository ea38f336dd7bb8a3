/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Hunt–Crossley sweep problems "hc-eps" and "impact-time" (src/sweep/prob_hc_eps.c,
 * prob_impact_time.c) against the library.
 *
 *  - every row of a sweep equals a direct call for the same inputs (impactfit_hc_eps,
 *    impactfit_hc_impact_time, impactfit_hc_e, impactfit_hc_omega), bit for bit (the CSV prints
 *    %.17g, which round-trips doubles): the problem hands each parameter to the right slot and each
 *    row to the right index;
 *  - λ = ε k / v and Δt = Δτ/ω_i as the definitions say, and two independent exact values:
 *    ε(0.5) = 1.43275053327137502805 (60-digit reference, tests/test_hc.c) and Δτ(0, n) =
 *    2 x_m B(1/(n+1), 1/2)/(n+1), x_m = ((n+1)/2)^(1/(n+1)) (the undamped Hertz impact, derived in
 *    tests/test_hc.c), with ω_i = (k v^(n−1)/mass)^(1/(n+1)) computed here;
 *  - the CSV is byte-identical for 1 and 2 threads and for blocks that split the grid;
 *  - invalid definitions (e = 0, ε above 1e7, n = 0, a missing required axis) are refused before
 *    anything runs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sf_gamma.h>

#include "impactfit/impactfit.h"
#include "testutil.h"

typedef struct buf {
  char *p;
  size_t len, cap;
} buf;

static int on_rows(void *ctx, size_t first, size_t count, const char *rows, size_t len) {
  buf *b = ctx;
  (void)first;
  (void)count;
  if (b->len + len + 1 > b->cap) {
    b->cap = 2 * (b->len + len + 1);
    b->p = realloc(b->p, b->cap);
  }
  memcpy(b->p + b->len, rows, len);
  b->len += len;
  b->p[b->len] = '\0';
  return 0;
}

static impactfit_sweep *parse(const char *text) {
  impactfit_sweep *s = NULL;
  impactfit_error err;
  impactfit_error_clear(&err);
  if (impactfit_sweep_parse(text, strlen(text), "t.ini", &s, &err))
    fprintf(stderr, "  parse failed: %s\n", err.message);
  return s;
}

/* Runs s into a CSV text with its header; NULL on failure. */
static char *run_csv(const impactfit_sweep *s, int threads, size_t block, size_t *failed) {
  buf b = {NULL, 0, 0};
  on_rows(&b, 0, 0, impactfit_sweep_csv_header(s), strlen(impactfit_sweep_csv_header(s)));
  impactfit_sweep_run_params rp = impactfit_sweep_default_run_params();
  rp.threads = threads;
  rp.block = block;
  impactfit_sweep_summary sum;
  impactfit_error err;
  impactfit_error_clear(&err);
  if (impactfit_sweep_run(s, &rp, on_rows, NULL, &b, &sum, &err)) {
    fprintf(stderr, "  run failed: %s\n", err.message);
    free(b.p);
    return NULL;
  }
  *failed = sum.failed;
  return b.p;
}

static const double *col(const impactfit_table *t, const char *name) {
  int j = impactfit_table_find(t, name);
  return j < 0 ? NULL : impactfit_table_col(t, (size_t)j);
}

/* The CSV for 1 and 2 threads and a few block sizes; returns the table of the first run. */
static impactfit_table *run_all(const char *def, size_t expect_rows) {
  impactfit_sweep *s = parse(def);
  CHECK(s != NULL, "definition parses");
  if (!s)
    return NULL;
  CHECK(impactfit_sweep_point_count(s) == expect_rows, "%zu points", expect_rows);
  size_t failed = 99;
  char *ref = run_csv(s, 1, 0, &failed);
  CHECK(ref && failed == 0, "1 thread: runs, no failed point");
  static const struct {
    int threads;
    size_t block;
  } cfg[] = {{2, 0}, {2, 7}, {1, 5}};
  for (size_t i = 0; i < sizeof cfg / sizeof cfg[0] && ref; i++) {
    char *other = run_csv(s, cfg[i].threads, cfg[i].block, &failed);
    CHECK(other && strcmp(other, ref) == 0, "CSV identical with %d threads, block %zu", cfg[i].threads, cfg[i].block);
    free(other);
  }
  impactfit_table *t = NULL;
  if (ref) {
    impactfit_error err;
    impactfit_error_clear(&err);
    CHECK(impactfit_table_parse_csv(ref, strlen(ref), "csv", &t, &err) == 0, "CSV parses: %s", err.message);
  }
  free(ref);
  impactfit_sweep_free(s);
  return t;
}

static void test_hc_eps_problem(void) {
  /* 40 values of e (including 0.5 and 1) × 3 of k, v fixed */
  impactfit_table *t = run_all("[sweep]\nproblem = hc-eps\n[fixed]\nv = 2.5\n[axes]\n"
                               "e = linear 0.025, 1, 40\nk = list 1, 3e7, 0.5\n",
                               120);
  if (!t)
    return;
  const double *e = col(t, "e"), *k = col(t, "k"), *v = col(t, "v"), *eps = col(t, "eps"), *lam = col(t, "lambda");
  CHECK(e && k && v && eps && lam && impactfit_table_rows(t) == 120, "columns e, k, v, eps, lambda");
  if (!(e && k && v && eps && lam))
    return;
  static const double ks[3] = {1, 3e7, 0.5};
  int seen_half = 0;
  for (size_t i = 0; i < 120; i++) {
    double want_e = (i / 3 == 39) ? 1.0 : 0.025 + (1.0 - 0.025) * ((double)(i / 3) / 39.0), x = NAN;
    CHECK(e[i] == want_e && k[i] == ks[i % 3] && v[i] == 2.5, "row %zu: inputs (e outer, k inner)", i);
    CHECK(impactfit_hc_eps(e[i], &x, NULL) == 0 && eps[i] == x, "row %zu: eps = impactfit_hc_eps(%g)", i, e[i]);
    CHECK(lam[i] == x * k[i] / v[i], "row %zu: lambda = eps k / v", i);
    if (e[i] == 0.5) {
      seen_half = 1;
      CHECK_REL(eps[i], 1.43275053327137502805, 1e-15, "eps(0.5) against the 60-digit reference");
    }
  }
  CHECK(seen_half, "the grid holds e = 0.5");
  impactfit_table_free(t);
}

static void test_impact_time_problem(void) {
  impactfit_table *t = run_all("[sweep]\nproblem = impact-time\n[fixed]\nk = 1e8\nmass = 0.05\n[axes]\n"
                               "eps = linear 0, 20, 9\nn = list 1, 1.5, 2\nv = list 2, 0.3\n",
                               54);
  if (!t)
    return;
  const double *eps = col(t, "eps"), *n = col(t, "n"), *k = col(t, "k"), *mass = col(t, "mass"), *v = col(t, "v");
  const double *dtau = col(t, "dtau"), *e = col(t, "e"), *om = col(t, "omega_i"), *dt = col(t, "dt"),
               *lam = col(t, "lambda");
  CHECK(eps && n && k && mass && v && dtau && e && om && dt && lam, "columns");
  if (!(eps && n && k && mass && v && dtau && e && om && dt && lam))
    return;
  impactfit_impact_workspace *ws = impactfit_impact_alloc();
  for (size_t i = 0; i < impactfit_table_rows(t); i++) {
    double d = NAN, ee = NAN, w = NAN;
    CHECK(impactfit_hc_impact_time(ws, eps[i], n[i], &d, NULL, NULL) == 0 && dtau[i] == d,
          "row %zu: dtau = impactfit_hc_impact_time(%g, %g)", i, eps[i], n[i]);
    CHECK(impactfit_hc_e(eps[i], &ee, NULL) == 0 && e[i] == ee, "row %zu: e = impactfit_hc_e(%g)", i, eps[i]);
    CHECK(impactfit_hc_omega(k[i], v[i], mass[i], n[i], &w, NULL) == 0 && om[i] == w, "row %zu: omega_i", i);
    CHECK_REL(om[i], pow(k[i] * pow(v[i], n[i] - 1.0) / mass[i], 1.0 / (n[i] + 1.0)), 1e-14,
              "row %zu: omega_i = (k v^(n-1)/mass)^(1/(n+1))", i);
    CHECK(dt[i] == dtau[i] / om[i] && lam[i] == eps[i] * k[i] / v[i], "row %zu: dt = dtau/omega_i, lambda", i);
    if (eps[i] == 0.0) {
      double xm = pow(0.5 * (n[i] + 1.0), 1.0 / (n[i] + 1.0));
      CHECK_REL(dtau[i], 2.0 * xm * gsl_sf_beta(1.0 / (n[i] + 1.0), 0.5) / (n[i] + 1.0), 1e-12,
                "row %zu: dtau(0, %g), Beta-function closed form", i, n[i]);
      CHECK(e[i] == 1.0, "row %zu: e(0) = 1", i);
    }
  }
  impactfit_impact_free(ws);
  impactfit_table_free(t);
}

static void test_invalid(void) {
  static const char *const bad[] = {
      "[sweep]\nproblem = hc-eps\n[axes]\ne = linear 0, 1, 5\n",                       /* e = 0 */
      "[sweep]\nproblem = hc-eps\n[axes]\ne = list 0.5, 1.5\n",                        /* e > 1 */
      "[sweep]\nproblem = hc-eps\n[axes]\nk = list 1, 2\n",                            /* e missing */
      "[sweep]\nproblem = impact-time\n[fixed]\nn = 1.5\n[axes]\neps = list 1, 2e7\n", /* eps > 1e7 */
      "[sweep]\nproblem = impact-time\n[fixed]\nn = 0\n[axes]\neps = list 1, 2\n",     /* n = 0 */
      "[sweep]\nproblem = impact-time\n[axes]\neps = list 1, 2\n",                     /* n missing */
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    impactfit_sweep *s = NULL;
    impactfit_error err;
    impactfit_error_clear(&err);
    int st = impactfit_sweep_parse(bad[i], strlen(bad[i]), "bad.ini", &s, &err);
    CHECK(st == IMPACTFIT_EINVAL && s == NULL && strstr(err.message, "bad.ini"),
          "bad definition %zu refused with a located message (%d: %s)", i, st, err.message);
    impactfit_sweep_free(s);
  }
}

int main(void) {
  CHECK(impactfit_sweep_problem_from_name("hc-eps") != NULL, "hc-eps is registered");
  CHECK(impactfit_sweep_problem_from_name("impact-time") != NULL, "impact-time is registered");
  test_hc_eps_problem();
  test_impact_time_problem();
  test_invalid();
  return tu_report("test_hc_sweep");
}
