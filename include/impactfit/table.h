/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit — tables: numeric columns read from CSV (a sweep's output, a fit stage's table).
 *
 * A table has named numeric columns and rows; an optional column "status" marks the rows whose
 * value is OK (the others may have empty cells, read as 0). Numbers are read and written in the C
 * locale (%.17g on output: a double survives the round trip exactly), whatever the host program
 * set with setlocale. Owned by the module `table` (src/fit/table.c); used by `fit` and `fitfile`.
 */
#ifndef IMPACTFIT_TABLE_H
#define IMPACTFIT_TABLE_H

#include <stddef.h>

#include "impactfit/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct impactfit_table impactfit_table;

/* Reads a CSV file with a header row: numeric columns, and optionally a column "status" whose
 * value OK marks the rows that can be used (other rows may have empty cells). EIO/EPARSE with
 * "FILE:LINE: reason". */
IMPACTFIT_EXPORT int impactfit_table_read_csv(const char *path, impactfit_table **out, impactfit_error *err);
IMPACTFIT_EXPORT int impactfit_table_parse_csv(const char *text, size_t len, const char *name, impactfit_table **out,
                                               impactfit_error *err);
IMPACTFIT_EXPORT void impactfit_table_free(impactfit_table *t);
IMPACTFIT_EXPORT size_t impactfit_table_rows(const impactfit_table *t);
IMPACTFIT_EXPORT size_t impactfit_table_cols(const impactfit_table *t);
IMPACTFIT_EXPORT const char *impactfit_table_col_name(const impactfit_table *t, size_t j);
IMPACTFIT_EXPORT int impactfit_table_find(const impactfit_table *t, const char *name); /* −1: none */
/* Column j (rows() values; 0 in the empty cells of rows that are not OK). */
IMPACTFIT_EXPORT const double *impactfit_table_col(const impactfit_table *t, size_t j);
IMPACTFIT_EXPORT int impactfit_table_row_ok(const impactfit_table *t, size_t i);
/* Writes the table as CSV (%.17g) into a malloc'ed string. */
IMPACTFIT_EXPORT int impactfit_table_to_csv(const impactfit_table *t, char **text, size_t *len, impactfit_error *err);

#ifdef __cplusplus
}
#endif
#endif /* IMPACTFIT_TABLE_H */
