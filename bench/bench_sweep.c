/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Sweep throughput: points per second of a `simulate` sweep on 1 and 2 threads (and more if asked).
 *
 * usage: bench_sweep [POINTS_PER_AXIS [THREADS_MAX [REPEATS]]]
 * The grid is n (linear 1..2) x c (log 0.01..10), POINTS_PER_AXIS each (default 100: 10,000
 * points), m = 0, condition C, output e_out (so the engine skips the extrema). Rows are formatted
 * as CSV and discarded (counted). Each thread count runs REPEATS times (default 3); the best wall
 * time is reported, with the speed-up over 1 thread. The machine may be shared: run it on an idle
 * machine for figures worth quoting. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impactfit/impactfit.h"

static int count_rows(void *ctx, size_t first, size_t count, const char *rows, size_t len) {
  (void)first;
  (void)count;
  (void)rows;
  *(size_t *)ctx += len;
  return 0;
}

int main(int argc, char **argv) {
  int per_axis = argc > 1 ? atoi(argv[1]) : 100, tmax = argc > 2 ? atoi(argv[2]) : 2,
      reps = argc > 3 ? atoi(argv[3]) : 3;
  if (per_axis < 2 || tmax < 1 || reps < 1) {
    fprintf(stderr, "usage: bench_sweep [POINTS_PER_AXIS >= 2 [THREADS_MAX [REPEATS]]]\n");
    return 2;
  }
  char def[512];
  snprintf(def, sizeof def,
           "[sweep]\nproblem = simulate\noutputs = e_out\n[fixed]\nm = 0\n[axes]\nn = linear 1, 2, %d\n"
           "c = log 0.01, 10, %d\n",
           per_axis, per_axis);
  impactfit_sweep *s = NULL;
  impactfit_error err;
  if (impactfit_sweep_parse(def, strlen(def), "bench", &s, &err)) {
    fprintf(stderr, "bench_sweep: %s\n", err.message);
    return 1;
  }
  size_t points = impactfit_sweep_point_count(s);
  printf("simulate sweep, %zu points (n x c, m = 0, condition C, output e_out), best of %d runs\n", points, reps);
  printf("%8s %12s %14s %10s %14s\n", "threads", "wall s", "points/s", "speed-up", "rhs evals/pt");
  double base = 0.0;
  for (int t = 1; t <= tmax; t++) {
    double best = 1e300;
    impactfit_sweep_summary sum;
    memset(&sum, 0, sizeof sum);
    for (int r = 0; r < reps; r++) {
      impactfit_sweep_run_params rp = impactfit_sweep_default_run_params();
      rp.threads = t;
      size_t bytes = 0;
      if (impactfit_sweep_run(s, &rp, count_rows, NULL, &bytes, &sum, &err)) {
        fprintf(stderr, "bench_sweep: %s\n", err.message);
        return 1;
      }
      if (sum.wall_seconds < best)
        best = sum.wall_seconds;
    }
    if (t == 1)
      base = best;
    printf("%8d %12.4f %14.0f %10.3f %14.1f%s\n", t, best, (double)points / best, base / best,
           (double)sum.rhs_evals / (double)points, sum.failed ? "  (some points failed)" : "");
  }
  impactfit_sweep_free(s);
  return 0;
}
