/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fuzz harness: the measured-impact CSV of `impactfit identify` (impactfit_identify_data_parse, on a
 * memory buffer). Seeds: the files in tests/data/ and tests/fuzz/corpus/identify. Checked: a refusal is an
 * input error naming the file; accepted data pass impactfit_identify_data_check (every value finite
 * and in range) once a mass is known. */
#define _POSIX_C_SOURCE 200809L /* dup, dprintf */
#include <math.h>

#include "fuzz.h"
#include "impactfit/identify.h"

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  fuzz_init();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  impactfit_identify_data *d = NULL;
  impactfit_error err;
  impactfit_error_clear(&err);
  int st = impactfit_identify_data_parse((const char *)data, size, "fuzz.csv", &d, &err);
  if (st) {
    FUZZ_ASSERT(d == NULL, "refused data returned an object");
    fuzz_check_refusal(st, &err, "fuzz.csv");
    return 0;
  }
  FUZZ_ASSERT(d && d->rows >= 1 && d->rows <= IMPACTFIT_IDENTIFY_MAX_ROWS, "rows");
  if (!(d->columns & IMPACTFIT_IDENTIFY_COL_MASS))
    FUZZ_ASSERT(impactfit_identify_data_set_mass(d, 0.064, &err) == 0, "%s", err.message);
  st = impactfit_identify_data_check(d, &err);
  FUZZ_ASSERT(st == 0, "accepted data fail the check: %s", err.message);
  for (size_t i = 0; i < d->rows; i++)
    FUZZ_ASSERT(d->row[i].line >= 1 && isfinite(d->row[i].v) && isfinite(d->row[i].e), "row %zu", i);
  impactfit_identify_data_free(d);
  return 0;
}
