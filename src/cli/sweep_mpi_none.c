/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `impactfit sweep` without MPI (the default build): one rank; sweep_mpi.c replaces this file in
 * builds with -DIMPACTFIT_MPI=ON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "sweep_mpi.h"

int sweep_mpi_init(int *rank, int *size) {
  *rank = 0;
  *size = 1;
  const char *who;
  long n = sweep_launch_tasks(&who);
  const char *procid = getenv("SLURM_PROCID");
  if (n > 1 && procid && strcmp(procid, "0") != 0)
    return CLI_INPUT; /* the first task says it, once for the step */
  if (n > 1)          /* every process would compute (and the first write) the whole sweep */
    return cli_input_error("sweep: started as one of %ld processes (%s=%ld), but this impactfit is built without MPI: "
                           "each process would run the whole sweep. Build with -DIMPACTFIT_MPI=ON for MPI ranks "
                           "(docs/HPC.md), or run one process per shard (--shard I/N, a Slurm array)",
                           n, who, n);
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
