/* Grid driver shared by the inverse-problem commands (copt, zhang-alpha). */
#ifndef IMPACTFIT_CLI_INVERSE_GRID_H
#define IMPACTFIT_CLI_INVERSE_GRID_H

#include <stddef.h>

#include "impactfit/inverse.h"

typedef struct inverse_point {
  double n, m, e;
  impactfit_inverse_result r;
  int status;
  char message[512];
} inverse_point;

/* Solves the grid n × m × e (e fastest) in parallel: one OpenMP task per (n, m, run of e), each
 * run solved with continuation along e. pts must hold nn*nm*ne entries. Returns the number of
 * failed points, or −1 when out of memory. */
long inverse_grid_solve(const impactfit_inverse_params *base, const double *ns, size_t nn,
                        const double *ms, size_t nm, const double *es, size_t ne, inverse_point *pts);

struct cli_progress;
/* The same, drawing a progress line (progress.h; NULL: none) from the main thread. */
long inverse_grid_solve_progress(const impactfit_inverse_params *base, const double *ns, size_t nn,
                                 const double *ms, size_t nm, const double *es, size_t ne, inverse_point *pts,
                                 struct cli_progress *progress);

#endif
