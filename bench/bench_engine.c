/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Cost of one answer of the engine registry (include/impactfit/engines.h), which issue 24 wants under
 * 50 ms: for every model of the registry at the engine's defaults (5 mm sphere of 1.309 g on a plane at
 * 1 m/s), the forward answer (the e of the settings as they are, phase statistics and the
 * continuous-time e included) and the inverse answer for e = 0.1, 0.5, 0.9 (the search on the mean over
 * the phase, the naive input's statistics, the paste text), with the impacts each simulated.
 *
 * usage: bench_engine [REPEATS]   (default 3; the best of REPEATS runs is reported)
 * One thread. The machine may be shared: run it on an idle machine for figures worth quoting. The
 * peer here is the engine itself: tests/engines measure what one simulated impact costs in it. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "impactfit/impactfit.h"

static double best_ms(const impactfit_engine_request *q, int reps, impactfit_engine_answer *a, int *st) {
  double best = HUGE_VAL;
  for (int r = 0; r < reps; r++) {
    double t0 = omp_get_wtime();
    *st = impactfit_engine_solve(q, a, NULL);
    double t = omp_get_wtime() - t0;
    if (t < best)
      best = t;
  }
  return 1e3 * best;
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 3;
  if (reps < 1)
    reps = 1;
  printf("%-8s %-26s %-9s %8s %10s %10s %s\n", "engine", "model", "mode", "e", "ms", "impacts", "status");
  double worst = 0.0;
  for (size_t i = 0; i < impactfit_engine_model_count(); i++) {
    const impactfit_engine_model *md = impactfit_engine_model_at(i);
    int required = 0;
    for (int k = 0; k < md->n_inputs; k++)
      required |= isnan(md->inputs[k].def[0]);
    if (required) { /* no defaults to run it at */
      printf("%-8s %-26s (needs its settings: impactfit engine --list --code %s)\n", md->code, md->model, md->code);
      continue;
    }
    const double es[] = {NAN, 0.1, 0.5, 0.9};
    for (int k = 0; k < 4; k++) {
      impactfit_engine_request q = impactfit_engine_default_request();
      q.model = md;
      q.e = es[k];
      impactfit_engine_answer a;
      int st;
      double ms = best_ms(&q, reps, &a, &st);
      if (st == 0)
        worst = fmax(worst, ms);
      printf("%-8s %-26s %-9s %8.2g %10.2f %10ld %s\n", md->code, md->model, isnan(es[k]) ? "forward" : "inverse",
             es[k], ms, a.impacts, st ? impactfit_status_name(st) : (a.reachable ? "ok" : "unreachable"));
    }
  }
  printf("slowest answer: %.2f ms (issue 24: under 50 ms)\n", worst);
  return 0;
}
