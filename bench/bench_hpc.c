/* Throughput of the sweep runner through the library (issue 7's baselines): points per second of a
 * sweep definition file with T threads, the rows either discarded (compute + formatting) or written
 * to a file with plain buffered writes and no journal and no fsync (what `impactfit sweep` did
 * before its output became durable).
 *
 * usage: bench_hpc FILE.ini THREADS discard|file [OUT_FILE]
 * Prints one line: "points P threads T mode M wall_s W points_per_s R". Run it through
 * bench/run_hpc.sh, which repeats every case, interleaves them and reports best and spread. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int main(int argc, char **argv) {
  if (argc < 4 || (strcmp(argv[3], "discard") != 0 && strcmp(argv[3], "file") != 0)) {
    fprintf(stderr, "usage: bench_hpc FILE.ini THREADS discard|file [OUT_FILE]\n");
    return 2;
  }
  impactfit_sweep *s = NULL;
  impactfit_error err;
  impactfit_error_clear(&err);
  if (impactfit_sweep_load(argv[1], &s, &err)) {
    fprintf(stderr, "bench_hpc: %s\n", err.message);
    return 2;
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
