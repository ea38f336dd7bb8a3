/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fuzz harness: sweep definition files (src/sweep, inih through impactfit__ini_parse). Seeds:
 * the files in sweeps/ and tests/fuzz/corpus/sweep. Checked beyond "no crash": a refusal is an input error
 * naming the file; an accepted definition enumerates finite points within the grid. */
#define _POSIX_C_SOURCE 200809L /* dup, dprintf */
#include <math.h>

#include "fuzz.h"
#include "sweep/sweep_impl.h"

/* The parser checks every point of the grid; 1e5 keeps an input below a millisecond or so. */
#define FUZZ_MAX_POINTS 1e5

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  fuzz_init();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  impactfit_sweep *s = NULL;
  impactfit_error err;
  impactfit_error_clear(&err);
  int st = impactfit__sweep_parse_bounded((const char *)data, size, "fuzz.ini", FUZZ_MAX_POINTS, &s, &err);
  if (st) {
    FUZZ_ASSERT(s == NULL, "a refused definition returned an object");
    fuzz_check_refusal(st, &err, "fuzz.ini");
    return 0;
  }
  const impactfit_sweep_problem *pr = impactfit_sweep_get_problem(s);
  size_t n = impactfit_sweep_point_count(s);
  FUZZ_ASSERT(pr && n >= 1 && n <= (size_t)FUZZ_MAX_POINTS, "%zu points", n);
  FUZZ_ASSERT(impactfit_sweep_csv_header(s) != NULL, "no CSV header");
  double in[64];
  FUZZ_ASSERT(pr->n_params <= 64, "too many parameters");
  size_t idx[3] = {0, n / 2, n - 1};
  for (int k = 0; k < 3; k++) {
    FUZZ_ASSERT(impactfit_sweep_point(s, idx[k], in) == 0, "point %zu", idx[k]);
    for (size_t i = 0; i < pr->n_params; i++)
      FUZZ_ASSERT(isfinite(in[i]), "point %zu: %s = %g", idx[k], pr->params[i].name, in[i]);
  }
  FUZZ_ASSERT(impactfit_sweep_point(s, n, in) == IMPACTFIT_EINVAL, "point past the end accepted");
  for (size_t a = 0; a < impactfit_sweep_axis_count(s); a++) {
    const impactfit_sweep_axis *ax = impactfit_sweep_get_axis(s, a);
    FUZZ_ASSERT(ax && ax->count >= 1 && (ax->kind != IMPACTFIT_AXIS_LIST || ax->values), "axis %zu", a);
    FUZZ_ASSERT(impactfit_sweep_axis_value(ax, ax->count - 1) == ax->stop, "axis %zu: last value is not stop", a);
  }
  impactfit_sweep_free(s);
  return 0;
}
