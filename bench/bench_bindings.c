/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The C figures that bench/bench_python.py sets the Python binding against: the library called in a
 * plain loop on one thread over the same points as the binding's call, best of R repetitions.
 * usage: bench_bindings N [R]   prints one line per function: NAME POINTS SECONDS_PER_POINT CHECKSUM
 * Points: e_i = 0.05 + 0.9 i/(N-1) (hc_eps, the Ramaswamy-Humbert refit) and n = 1.5 for c_opt
 * (impactfit_copt_solve, k = 1e8, mass = 0.05, v = 2, one workspace), N/10 points for c_opt. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "impactfit/impactfit.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double point(size_t i, size_t n) { return 0.05 + 0.9 * (double)i / (double)(n > 1 ? n - 1 : 1); }

int main(int argc, char **argv) {
  size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 100000;
  int reps = argc > 2 ? atoi(argv[2]) : 5;
  if (n < 2 || reps < 1) {
    fputs("usage: bench_bindings N [R]\n", stderr);
    return 2;
  }
  double *out = malloc(n * sizeof *out);
  if (!out)
    return 1;
  for (int f = 0; f < 3; f++) {
    size_t count = f == 2 ? n / 10 : n;
    double best = 1e300, sum = 0.0;
    impactfit_inverse_workspace *ws = impactfit_inverse_alloc();
    impactfit_inverse_params p = impactfit_inverse_default_params();
    p.n = 1.5;
    for (int r = 0; r < reps; r++) {
      double t0 = now();
      for (size_t i = 0; i < count; i++) {
        double e = point(i, count);
        int st;
        if (f == 0) {
          st = impactfit_hc_eps(e, &out[i], NULL);
        } else if (f == 1) {
          st = impactfit_committed_rh_eps("minimax", e, &out[i], NULL);
        } else {
          impactfit_copt_result cr;
          st = impactfit_copt_solve(ws, &p, e, 1e8, 0.05, 2.0, 0, &cr, NULL);
          out[i] = cr.c_opt;
        }
        if (st)
          return 1;
      }
      double t = now() - t0;
      if (t < best)
        best = t;
    }
    impactfit_inverse_free(ws);
    for (size_t i = 0; i < count; i++)
      sum += out[i];
    printf("%s %zu %.6g %.17g\n",
           f == 0   ? "hc_eps"
           : f == 1 ? "rh_eps_refit"
                    : "copt",
           count, best / (double)count, sum);
  }
  free(out);
  return 0;
}
