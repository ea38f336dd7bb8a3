/* Grid driver for the inverse problems: OpenMP over (n, m, run of e), continuation along e. */
#include "inverse_grid.h"

#include "progress.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long inverse_grid_solve(const impactfit_inverse_params *base, const double *ns, size_t nn,
                        const double *ms, size_t nm, const double *es, size_t ne, inverse_point *pts) {
  return inverse_grid_solve_progress(base, ns, nn, ms, nm, es, ne, pts, NULL);
}

long inverse_grid_solve_progress(const impactfit_inverse_params *base, const double *ns, size_t nn,
                                 const double *ms, size_t nm, const double *es, size_t ne, inverse_point *pts,
                                 cli_progress *progress) {
  size_t rows = nn * nm;
  int threads = omp_get_max_threads();
  /* Runs of e long enough for the continuation to pay off, short enough to feed every thread. */
  size_t chunk = ne;
  if (rows < (size_t)threads * 4) {
    size_t want = (size_t)threads * 4 / (rows ? rows : 1);
    chunk = (ne + want - 1) / want;
    if (chunk < 32)
      chunk = 32;
  }
  size_t chunks_per_row = (ne + chunk - 1) / chunk, tasks = rows * chunks_per_row;
  long failed = 0;
  int nomem = 0;
  size_t done_points = 0, failed_points = 0; /* shared, for the progress line */
#pragma omp parallel reduction(+ : failed) reduction(| : nomem)
  {
    impactfit_inverse_workspace *ws = impactfit_inverse_alloc();
    impactfit_inverse_result *res = malloc(chunk * sizeof *res);
    int *st = malloc(chunk * sizeof *st);
    if (!ws || !res || !st)
      nomem = 1;
#pragma omp for schedule(dynamic, 1)
    for (size_t t = 0; t < tasks; t++) {
      size_t row = t / chunks_per_row, c = t % chunks_per_row;
      size_t in = row / nm, im = row % nm;
      size_t e0 = c * chunk, e1 = e0 + chunk < ne ? e0 + chunk : ne;
      inverse_point *out = pts + row * ne;
      if (nomem) {
        for (size_t i = e0; i < e1; i++)
          out[i].status = IMPACTFIT_ENOMEM;
        continue;
      }
      impactfit_inverse_params p = *base;
      p.n = ns[in];
      p.m = ms[im];
      impactfit_error err;
      impactfit_error_clear(&err);
      impactfit_inverse_solve_run(ws, &p, es + e0, e1 - e0, res, st, &err);
      for (size_t i = e0; i < e1; i++) {
        inverse_point *pt = &out[i];
        pt->n = p.n;
        pt->m = p.m;
        pt->e = es[i];
        pt->r = res[i - e0];
        pt->status = st[i - e0];
        pt->message[0] = '\0';
        if (pt->status) {
          /* re-solve alone to get this point's own message (failures are rare) */
          impactfit_error e2;
          impactfit_error_clear(&e2);
          impactfit_inverse_result r2;
          pt->status = impactfit_inverse_solve(ws, &p, es[i], 0.0, &r2, &e2);
          if (pt->status) {
            snprintf(pt->message, sizeof pt->message, "%s", e2.message);
            failed++;
#pragma omp atomic
            failed_points++;
          } else {
            pt->r = r2;
          }
        }
      }
#pragma omp atomic
      done_points += e1 - e0;
      if (progress && omp_get_thread_num() == 0) { /* the main thread draws */
        size_t d, f;
#pragma omp atomic read
        d = done_points;
#pragma omp atomic read
        f = failed_points;
        cli_progress_update(progress, d, f);
      }
    }
    free(res);
    free(st);
    impactfit_inverse_free(ws);
  }
  return nomem ? -1 : failed;
}
