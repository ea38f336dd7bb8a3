/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `impactfit sweep` over MPI ranks (CLI only; real with -DIMPACTFIT_MPI=ON, a single rank otherwise).
 *
 * Launched by mpirun/srun with R > 1 ranks, every rank reads the definition; rank 0 alone owns the
 * output (journal, resume, JSON: the library's impactfit_sweep_output, sweep_io.h) and hands out
 * *tasks* dynamically: ranges of whole work units
 * (groups of min(L, B) points; about four units per thread, shorter towards the end), in
 * increasing order, at most two queued per rank and at most 4R + 4 tasks ahead of the oldest
 * unwritten one (bounded memory). Every rank, rank 0 too,
 * computes its tasks with impactfit_sweep_run (OpenMP inside); rank 0 services messages from its
 * poll hook between units, gathers the rows and writes them in index order through the same
 * durable writer as a single process, so the CSV is byte-identical to a serial run. A signal on
 * any rank (mpirun and Slurm forward SIGINT/SIGTERM) stops every rank after its unit in flight;
 * rank 0 writes and commits the leading rows that are complete, and the run resumes later with
 * --resume (with any number of ranks). */
#ifndef IMPACTFIT_CLI_SWEEP_MPI_H
#define IMPACTFIT_CLI_SWEEP_MPI_H

#include <stddef.h>

#include "impactfit/impactfit.h"
#include "progress.h"

/* Initialises MPI when the process was started by an MPI launcher (environment of mpirun, mpiexec
 * or srun); sets the rank and the number of ranks (0 and 1 otherwise). Returns 0 or CLI_INPUT. */
int sweep_mpi_init(int *rank, int *size);

/* The number of processes a launcher started together with this one, from its environment (srun's
 * SLURM_STEP_NUM_TASKS, mpirun's OMPI_COMM_WORLD_SIZE, a PMI launcher's PMI_SIZE), 1 when none; *who
 * names the variable that said so. A batch script (sbatch) sets none of them. */
long sweep_launch_tasks(const char **who);
void sweep_mpi_finalize(void);
/* Collective: the largest rc over the ranks (every rank passes its own). */
int sweep_mpi_max(int rc);
/* Collective: rank 0's values to every rank. */
void sweep_mpi_bcast(size_t *v, int n);
/* Collective: 1 when every rank holds the same 16-hex-digit hash as rank 0. */
int sweep_mpi_same_hash(const char *hash);

/* Rank 0: computes and writes the run rp (range from rp->first, shard, block, threads) over all
 * ranks; returns like impactfit_sweep_run (EINTR when stopped by a signal). per_rank[r] (R
 * entries) receives the points each rank computed and rank 0 wrote. */
int sweep_mpi_lead(const impactfit_sweep *s, const impactfit_sweep_run_params *rp, impactfit_sweep_output *o,
                   cli_progress *pr, size_t *per_rank, impactfit_error *err);
/* Ranks > 0: computes the tasks rank 0 hands out until it says stop; returns 0 or a status. */
int sweep_mpi_work(const impactfit_sweep *s, const impactfit_sweep_run_params *rp, impactfit_error *err);

#endif
