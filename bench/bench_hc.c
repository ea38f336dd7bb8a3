/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Cost per call of the Hunt–Crossley functions: exact ε(e) and e(ε) (allocation-free bracketed
 * Newton), Δτ(ε, n) by simulation, the Δτ surrogate (library and generated header), and the
 * Ramaswamy–Humbert forms of the generated headers.
 *
 * usage: bench_hc [REPEATS]   (default 3; the best of REPEATS runs is reported)
 * One thread. The machine may be shared: run it on an idle machine for figures worth quoting. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "impactfit/generated/ramaswamy_dtau.h"
#include "impactfit/generated/ramaswamy_dtau_surrogate.h"
#include "impactfit/generated/ramaswamy_eps.h"
#include "impactfit/impactfit.h"

static volatile double sink;

typedef double (*body_fn)(int i, int n, void *ctx);

/* best wall time per call over `reps` runs of n calls, in µs */
static double per_call(body_fn f, void *ctx, int n, int reps) {
  double best = HUGE_VAL;
  for (int r = 0; r < reps; r++) {
    double t0 = omp_get_wtime(), s = 0.0;
    for (int i = 0; i < n; i++)
      s += f(i, n, ctx);
    double t = omp_get_wtime() - t0;
    sink = s;
    if (t < best)
      best = t;
  }
  return 1e6 * best / n;
}

static double b_eps(int i, int n, void *ctx) {
  (void)ctx;
  double x = 0.0;
  impactfit_hc_eps(0.01 + 0.99 * i / (double)n, &x, NULL);
  return x;
}
static double b_e(int i, int n, void *ctx) {
  (void)ctx;
  double x = 0.0;
  impactfit_hc_e(20.0 * (i + 0.5) / (double)n, &x, NULL);
  return x;
}
static double b_dtau(int i, int n, void *ctx) {
  double x = 0.0;
  impactfit_hc_impact_time(ctx, 20.0 * i / (double)n, 1.0 + (double)(i % 11) / 10.0, &x, NULL, NULL);
  return x;
}
static double b_sur_lib(int i, int n, void *ctx) {
  double x = 0.0;
  impactfit_hc_dtau_surrogate_eval(ctx, 100.0 * i / (double)n, 1.0 + (double)(i % 11) / 10.0, &x, NULL);
  return x;
}
static double b_sur_hdr(int i, int n, void *ctx) {
  (void)ctx;
  return impactfit_ramaswamy_dtau_surrogate(100.0 * i / (double)n, 1.0 + (double)(i % 11) / 10.0);
}
static double b_rh_eps(int i, int n, void *ctx) {
  (void)ctx;
  return impactfit_ramaswamy_eps_minimax(0.01 + 0.99 * i / (double)n);
}
static double b_rh_dtau(int i, int n, void *ctx) {
  (void)ctx;
  return impactfit_ramaswamy_dtau_lsq(20.0 * i / (double)n, 1.0 + (double)(i % 11) / 10.0);
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 3;
  if (reps < 1) {
    fprintf(stderr, "usage: bench_hc [REPEATS >= 1]\n");
    return 2;
  }
  impactfit_impact_workspace *ws = impactfit_impact_alloc();
  impactfit_hc_dtau_surrogate_params sp = impactfit_hc_dtau_surrogate_default_params();
  impactfit_hc_dtau_surrogate *s = NULL;
  if (!ws || impactfit_hc_dtau_surrogate_build(ws, &sp, &s, NULL)) {
    fprintf(stderr, "bench_hc: setup failed\n");
    return 1;
  }
  printf("%-52s %12s\n", "function (one thread)", "us per call");
  printf("%-52s %12.3f\n", "impactfit_hc_eps, e in [0.01, 1]", per_call(b_eps, NULL, 200000, reps));
  printf("%-52s %12.3f\n", "impactfit_hc_e, eps in (0, 20]", per_call(b_e, NULL, 200000, reps));
  printf("%-52s %12.3f\n", "impactfit_hc_impact_time, eps in [0, 20], n in [1, 2]", per_call(b_dtau, ws, 2000, reps));
  printf("%-52s %12.3f\n", "impactfit_hc_dtau_surrogate_eval, eps in [0, 100]", per_call(b_sur_lib, s, 200000, reps));
  printf("%-52s %12.3f\n", "ramaswamy_dtau_surrogate.h, eps in [0, 100]", per_call(b_sur_hdr, NULL, 200000, reps));
  printf("%-52s %12.3f\n", "ramaswamy_eps.h minimax form", per_call(b_rh_eps, NULL, 1000000, reps));
  printf("%-52s %12.3f\n", "ramaswamy_dtau.h refitted surface", per_call(b_rh_dtau, NULL, 1000000, reps));
  impactfit_hc_dtau_surrogate_free(s);
  impactfit_impact_free(ws);
  return 0;
}
