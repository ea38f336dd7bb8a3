/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Benchmark of the c_opt solver (issue 4): time per point for isolated points and for a dense grid,
 * single thread, with simulations and right-hand-side evaluations per point and the verified
 * accuracy; and the wall time of the 600 x 100 grid with all threads. Prints one line per case,
 * plus a CSV of the isolated points for the SciPy comparison (bench/scipy_copt.py). */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "impactfit/impactfit.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char **argv) {
  const char *points_csv = argc > 1 ? argv[1] : "copt_points.csv";
  impactfit_inverse_workspace *ws = impactfit_inverse_alloc();
  impactfit_inverse_params p = impactfit_inverse_default_params();
  /* (a) isolated points: 2000 (n, e) pairs, each solved from scratch */
  enum { NI = 2000 };
  static double ni[NI], ei[NI], zi[NI];
  unsigned long long s = 12345;
  for (int i = 0; i < NI; i++) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    ni[i] = 1.0 + (s >> 11) * (1.0 / 9007199254740992.0);
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    ei[i] = 0.05 + 0.9 * (s >> 11) * (1.0 / 9007199254740992.0);
  }
  long sims = 0, evals = 0;
  double maxmis = 0.0, t0 = now();
  for (int i = 0; i < NI; i++) {
    impactfit_inverse_result r;
    p.n = ni[i];
    if (impactfit_inverse_solve(ws, &p, ei[i], 0.0, &r, NULL)) {
      fprintf(stderr, "failed at n = %g, e = %g\n", ni[i], ei[i]);
      return 1;
    }
    zi[i] = r.zeta;
    sims += r.iterations;
    evals += r.rhs_evals;
    double mis = fabs(r.e_out / ei[i] - 1.0);
    if (mis > maxmis)
      maxmis = mis;
  }
  double ta = now() - t0;
  printf("isolated points (1 thread): %d points, %.2f us/point, %.2f simulations/point, %.0f RHS "
         "evaluations/point, max |e_out - e|/e = %.2e\n",
         NI, 1e6 * ta / NI, (double)sims / NI, (double)evals / NI, maxmis);
  FILE *f = fopen(points_csv, "w");
  if (f) {
    fprintf(f, "n,e,zeta\n");
    for (int i = 0; i < 40; i++)
      fprintf(f, "%.17g,%.17g,%.17g\n", ni[i], ei[i], zi[i]);
    fclose(f);
  }
  /* (b) dense grid, single thread: 100 n in [1, 2] x 600 e in [0.45, 1] (the paper's §4.2.4 grid) */
  enum { NN = 100, NE = 600 };
  static double es[NE];
  static impactfit_inverse_result res[NE];
  for (int j = 0; j < NE; j++)
    es[j] = 0.45 + 0.55 * j / (NE - 1.0);
  sims = evals = 0;
  maxmis = 0.0;
  t0 = now();
  for (int i = 0; i < NN; i++) {
    p.n = 1.0 + i / (NN - 1.0);
    if (impactfit_inverse_solve_run(ws, &p, es, NE, res, NULL, NULL)) {
      fprintf(stderr, "grid failed at n = %g\n", p.n);
      return 1;
    }
    for (int j = 0; j < NE; j++) {
      sims += res[j].iterations;
      evals += res[j].rhs_evals;
      double mis = fabs(res[j].e_out / es[j] - 1.0);
      if (mis > maxmis)
        maxmis = mis;
    }
  }
  double tb = now() - t0;
  printf("dense grid %dx%d (1 thread): %.2f us/point, %.3f simulations/point, %.0f RHS "
         "evaluations/point, max |e_out - e|/e = %.2e, %.2f s\n",
         NN, NE, 1e6 * tb / (NN * NE), (double)sims / (NN * NE), (double)evals / (NN * NE), maxmis, tb);
  /* (c) the same grid with all threads (one n per task, as `impactfit copt` does for this shape) */
  int threads = omp_get_max_threads();
  t0 = now();
#pragma omp parallel
  {
    impactfit_inverse_workspace *w2 = impactfit_inverse_alloc();
    impactfit_inverse_result *r2 = malloc(NE * sizeof *r2);
#pragma omp for schedule(dynamic, 1)
    for (int i = 0; i < NN; i++) {
      impactfit_inverse_params q = p;
      q.n = 1.0 + i / (NN - 1.0);
      impactfit_inverse_solve_run(w2, &q, es, NE, r2, NULL, NULL);
    }
    free(r2);
    impactfit_inverse_free(w2);
  }
  double tc = now() - t0;
  printf("dense grid %dx%d (%d threads): %.3f s wall, speed-up %.2fx\n", NN, NE, threads, tc, tb / tc);
  impactfit_inverse_free(ws);
  return 0;
}
