/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fuzz harness: the CSV tables `impactfit fit --data` reads (a sweep's output; impactfit_table_parse_csv).
 * Seeds: tests/fuzz/corpus/table. Checked: a refusal is an input error naming the file; an accepted
 * table written back (impactfit_table_to_csv, %.17g) reads again to the same numbers. */
#define _POSIX_C_SOURCE 200809L /* dup, dprintf */
#include "fuzz.h"
#include "impactfit/table.h"

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  fuzz_init();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  impactfit_table *t = NULL;
  impactfit_error err;
  impactfit_error_clear(&err);
  int st = impactfit_table_parse_csv((const char *)data, size, "fuzz.csv", &t, &err);
  if (st) {
    FUZZ_ASSERT(t == NULL, "a refused table returned an object");
    fuzz_check_refusal(st, &err, "fuzz.csv");
    return 0;
  }
  char *text = NULL;
  size_t len = 0;
  FUZZ_ASSERT(impactfit_table_to_csv(t, &text, &len, &err) == 0, "%s", err.message);
  FUZZ_ASSERT(strlen(text) == len, "length");
  impactfit_table *u = NULL;
  st = impactfit_table_parse_csv(text, len, "again.csv", &u, &err);
  /* a table without columns (only a status column) writes an empty header line */
  if (impactfit_table_cols(t) == 0) {
    impactfit_table_free(u);
  } else {
    FUZZ_ASSERT(st == 0, "the written table does not read again: %s", err.message);
    FUZZ_ASSERT(
        impactfit_table_cols(u) == impactfit_table_cols(t) && impactfit_table_rows(u) == impactfit_table_rows(t), "shap"
                                                                                                                  "e");
    for (size_t j = 0; j < impactfit_table_cols(t); j++) {
      FUZZ_ASSERT(strcmp(impactfit_table_col_name(t, j), impactfit_table_col_name(u, j)) == 0, "name %zu", j);
      const double *a = impactfit_table_col(t, j), *b = impactfit_table_col(u, j);
      for (size_t i = 0; i < impactfit_table_rows(t); i++)
        FUZZ_ASSERT(a[i] == b[i], "column %zu row %zu: %.17g != %.17g", j, i, a[i], b[i]);
    }
    impactfit_table_free(u);
  }
  free(text);
  impactfit_table_free(t);
  return 0;
}
