/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Throughput of the sweep runner through the library (issue 7's baselines): points per second of a
 * sweep definition file with T threads, the rows either discarded (compute + formatting) or written
 * to a file with plain buffered writes and no journal and no fsync (what `impactfit sweep` did
 * before its output became durable).
 *
 * usage: bench_hpc FILE.ini THREADS discard|file [OUT_FILE]
 * Prints one line: "points P threads T mode M wall_s W points_per_s R". Run it through
 * bench/run_hpc.sh, which repeats every case, interleaves them and reports best and spread.
 *
 * usage: bench_hpc FILE.ini 1 model
 * A model of the runner's parallel efficiency that a busy machine cannot disturb: one thread runs
 * the sweep, and the poll hook (called after every unit) and the row callback (after every block)
 * read the thread's CPU clock, which gives the CPU time of every unit and of every block's
 * delivery. Replaying the runner's schedule with these costs (blocks in order; in a block, each
 * unit to the thread free first; a barrier at the block's end; the delivery alone) predicts the
 * speed-up of T = 2, 4, 8 threads on idle cores. It leaves out memory bandwidth, caches and the
 * OpenMP runtime's own costs, so it is an upper bound of what the cores can give. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "impactfit/impactfit.h"

typedef struct sink {
  FILE *f;
  size_t bytes;
} sink;

static int on_rows(void *ctx, size_t first, size_t count, const char *rows, size_t len) {
  (void)first;
  (void)count;
  sink *k = ctx;
  k->bytes += len;
  if (k->f && (fwrite(rows, 1, len, k->f) != len || fflush(k->f) != 0))
    return IMPACTFIT_EIO;
  return 0;
}

static double cpu_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* model mode: the CPU time of every unit (and its size) and of everything else, on one thread */
typedef struct trace {
  double last, other; /* `other`: block gathering, delivery, polls without a unit */
  double *cost;
  size_t *size, prev_done, n, cap;
} trace;

static int trace_poll(void *ctx, size_t done, size_t failed) {
  (void)failed;
  trace *t = ctx;
  double now = cpu_now();
  if (done == t->prev_done) { /* the poll after a block's last unit: no unit */
    t->other += now - t->last;
  } else {
    if (t->n == t->cap) {
      t->cap = 2 * t->cap + 1024;
      t->cost = realloc(t->cost, t->cap * sizeof *t->cost);
      t->size = realloc(t->size, t->cap * sizeof *t->size);
    }
    t->cost[t->n] = now - t->last;
    t->size[t->n++] = done - t->prev_done;
    t->prev_done = done;
  }
  t->last = cpu_now();
  return 0;
}

static int trace_rows(void *ctx, size_t first, size_t count, const char *rows, size_t len) {
  (void)first;
  (void)count;
  (void)rows;
  (void)len;
  trace *t = ctx;
  double now = cpu_now();
  t->other += now - t->last;
  t->last = cpu_now();
  return 0;
}

static int model(const impactfit_sweep *s) {
  trace t;
  memset(&t, 0, sizeof t);
  impactfit_sweep_run_params rp = impactfit_sweep_default_run_params();
  rp.threads = 1;
  rp.poll = trace_poll;
  impactfit_error err;
  t.last = cpu_now();
  if (impactfit_sweep_run(s, &rp, trace_rows, NULL, &t, NULL, &err)) {
    fprintf(stderr, "bench_hpc: %s\n", err.message);
    return 1;
  }
  const impactfit_sweep_problem *pr = impactfit_sweep_get_problem(s);
  size_t B = impactfit_sweep_block_size(s, 0), points = impactfit_sweep_point_count(s);
  size_t L = pr->solve_run ? impactfit_sweep_get_axis(s, impactfit_sweep_axis_count(s) - 1)->count : 1;
  size_t G = L < B ? L : B;
  double units = 0.0;
  for (size_t i = 0; i < t.n; i++)
    units += t.cost[i];
  double per_point_other = t.other / (double)points, serial = units + t.other;
  printf("model: %zu units, unit CPU %.4f s, other (gather, delivery) %.4f s (%.2f%%)\n", t.n, units, t.other,
         100.0 * t.other / serial);
  for (int T = 2; T <= 32; T *= 2) {
    size_t W = 4 * (size_t)T * G; /* the runner's default block */
    W = W < 262144 ? W : 262144;
    W = W > B ? W : B;
    double wall = 0.0, fin[32];
    for (size_t i = 0; i < t.n;) {
      size_t pts = 0;
      for (int j = 0; j < T; j++)
        fin[j] = 0.0;
      while (i < t.n && (pts == 0 || pts + t.size[i] <= W)) { /* the next unit to the thread free first */
        int j0 = 0;
        for (int j = 1; j < T; j++)
          if (fin[j] < fin[j0])
            j0 = j;
        fin[j0] += t.cost[i];
        pts += t.size[i++];
      }
      double mx = 0.0;
      for (int j = 0; j < T; j++)
        mx = fin[j] > mx ? fin[j] : mx;
      wall += mx + per_point_other * (double)pts; /* barrier, then the delivery alone */
    }
    printf("model: %2d threads: blocks of %zu points, predicted speed-up %.3fx (efficiency %.1f%%)\n", T, W,
           serial / wall, 100.0 * serial / wall / T);
  }
  free(t.cost);
  free(t.size);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 4 || (strcmp(argv[3], "discard") != 0 && strcmp(argv[3], "file") != 0 && strcmp(argv[3], "model") != 0)) {
    fprintf(stderr, "usage: bench_hpc FILE.ini THREADS discard|file|model [OUT_FILE]\n");
    return 2;
  }
  impactfit_sweep *s = NULL;
  impactfit_error err;
  impactfit_error_clear(&err);
  if (impactfit_sweep_load(argv[1], &s, &err)) {
    fprintf(stderr, "bench_hpc: %s\n", err.message);
    return 2;
  }
  if (strcmp(argv[3], "model") == 0) {
    int rc = model(s);
    impactfit_sweep_free(s);
    return rc;
  }
  sink k = {NULL, 0};
  if (strcmp(argv[3], "file") == 0) {
    k.f = fopen(argc > 4 ? argv[4] : "bench_hpc.csv", "w");
    if (!k.f) {
      perror("bench_hpc");
      return 2;
    }
    fputs(impactfit_sweep_csv_header(s), k.f);
  }
  impactfit_sweep_run_params rp = impactfit_sweep_default_run_params();
  rp.threads = atoi(argv[2]);
  impactfit_sweep_summary sum;
  int st = impactfit_sweep_run(s, &rp, on_rows, NULL, &k, &sum, &err);
  if (k.f)
    fclose(k.f);
  if (st) {
    fprintf(stderr, "bench_hpc: %s\n", err.message);
    return 1;
  }
  printf("points %zu threads %d mode %s wall_s %.4f points_per_s %.1f failed %zu\n", sum.points, sum.threads, argv[3],
         sum.wall_seconds, (double)sum.points / sum.wall_seconds, sum.failed);
  impactfit_sweep_free(s);
  return 0;
}
