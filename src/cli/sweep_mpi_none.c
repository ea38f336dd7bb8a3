/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `impactfit sweep` without MPI (the default build): one rank; sweep_mpi.c replaces this file in
 * builds with -DIMPACTFIT_MPI=ON. */
#include <stdio.h>

#include "sweep_mpi.h"

int sweep_mpi_init(int *rank, int *size) {
  *rank = 0;
  *size = 1;
  return 0;
}

void sweep_mpi_finalize(void) {}
int sweep_mpi_max(int rc) { return rc; }
void sweep_mpi_bcast(size_t *v, int n) {
  (void)v;
  (void)n;
}
int sweep_mpi_same_hash(const char *hash) {
  (void)hash;
  return 1;
}

/* Never reached with one rank. */
int sweep_mpi_lead(const impactfit_sweep *s, const impactfit_sweep_run_params *rp, impactfit_sweep_output *o,
                   cli_progress *pr, size_t *per_rank, impactfit_error *err) {
  (void)s, (void)rp, (void)o, (void)pr, (void)per_rank;
  if (err)
    snprintf(err->message, sizeof err->message, "this impactfit was built without MPI");
  return IMPACTFIT_EINVAL;
}

int sweep_mpi_work(const impactfit_sweep *s, const impactfit_sweep_run_params *rp, impactfit_error *err) {
  return sweep_mpi_lead(s, rp, NULL, NULL, NULL, err);
}
