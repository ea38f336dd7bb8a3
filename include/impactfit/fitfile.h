/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit — fit files: chains of fits (fit.h) on one sweep's output (sweep.h, table.h).
 *
 * A fit file (INI) chains stages on one sweep's output:
 *     [fit]
 *     name = demo_copt                  ; C identifier; the generated header's name
 *     sweep = ../sweeps/demo_copt.ini   ; relative to the fit file
 *     [stage per_n]                     ; stages run in file order
 *     data = sweep                      ; the sweep's CSV, or the table of an earlier stage
 *     where = m = 0, e_out >= 0.45      ; optional filters: = != < <= > >= (= within 1e-12 rel.)
 *     group = n                         ; optional: one fit per distinct value of this column
 *     x = e_out                         ; independent column (x2 = … for a surface)
 *     y = c                             ; fitted column
 *     form = alpha_pow                  ; degree = d for polynomial; formula = … and
 *     objective = absolute              ;   constants = a, b, … for formula
 *     start = 2, -0.3                   ; optional starting values; method = lm
 *     weights = trapezoid               ; optional: trapezoid-rule weights (see below)
 *     ridge = 1e-3                      ; optional: ridge regularisation toward start (above)
 * objective: absolute, relative, minimax_absolute or minimax_relative. weights = trapezoid: each
 * point is weighted by the product of its trapezoid-rule weights along x (and x2) over the distinct
 * values of that column in the stage's (group's) data, normalised to mean 1, so that χ² is the
 * trapezoid rule for the integral of r² over the grid: the constants then depend on the grid's
 * density only to second order in its spacing (with equal weights the end points carry a first-
 * order weight, and a coarser grid moves the constants by about its spacing).
 * A [fit] section may say `exact = yes`: the data are exact values of the function (solver error
 * far below the residuals), so the residuals are the form's own error; the generated header then
 * also reports the mean errors.
 * Rows of the sweep whose status is not OK are skipped (and counted). A stage's table has one
 * row per group: the group value (if grouped), the constants, their standard errors (<name>_se),
 * points, rms, max_abs, max_rel; a later stage reads it with data = <stage name>.
 */
#ifndef IMPACTFIT_FITFILE_H
#define IMPACTFIT_FITFILE_H

#include <stddef.h>

#include "impactfit/common.h"
#include "impactfit/fit.h"
#include "impactfit/sweep.h"
#include "impactfit/table.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct impactfit_fitfile impactfit_fitfile;

/* Reads a fit file and the sweep definition it names (EIO, EPARSE, EINVAL with "FILE:LINE:"). */
IMPACTFIT_EXPORT int impactfit_fitfile_load(const char *path, impactfit_fitfile **out, impactfit_error *err);
IMPACTFIT_EXPORT void impactfit_fitfile_free(impactfit_fitfile *f);
IMPACTFIT_EXPORT const char *impactfit_fitfile_name(const impactfit_fitfile *f);       /* [fit] name */
IMPACTFIT_EXPORT const char *impactfit_fitfile_path(const impactfit_fitfile *f);       /* as given */
IMPACTFIT_EXPORT const char *impactfit_fitfile_hash(const impactfit_fitfile *f);       /* XXH64 hex */
IMPACTFIT_EXPORT const char *impactfit_fitfile_sweep_ref(const impactfit_fitfile *f);  /* as written */
IMPACTFIT_EXPORT const char *impactfit_fitfile_sweep_path(const impactfit_fitfile *f); /* resolved */
IMPACTFIT_EXPORT const impactfit_sweep *impactfit_fitfile_sweep(const impactfit_fitfile *f);
/* 1 when the [fit] section says exact = yes (see above). */
IMPACTFIT_EXPORT int impactfit_fitfile_exact(const impactfit_fitfile *f);

/* Runs every stage on the sweep's data (a table read from the sweep's CSV). The data must hold
 * the sweep's grid: as many rows as points, the index column 0, 1, 2, … (EINVAL otherwise).
 * Returns 0, or the first failing stage's status with "stage NAME[, GROUP = v]: reason". */
IMPACTFIT_EXPORT int impactfit_fitfile_run(impactfit_fitfile *f, const impactfit_table *sweep_data,
                                           impactfit_error *err);

/* Runs every stage on any table holding the columns the stages name (a sweep's table from
 * impactfit_sweep_run_table, a coarser grid of the same problem, measured data). flags:
 * IMPACTFIT_FITFILE_SAME_GRID checks, as impactfit_fitfile_run does, that the table is the whole grid
 * of the fit file's sweep (rows = points, index 0, 1, 2, ...); 0 skips that check. Errors as
 * impactfit_fitfile_run; a missing column is EINVAL naming it. */
#define IMPACTFIT_FITFILE_SAME_GRID 1u
IMPACTFIT_EXPORT int impactfit_fitfile_run_table(impactfit_fitfile *f, const impactfit_table *data, unsigned flags,
                                                 impactfit_error *err);

/* Optional progress report of impactfit_fitfile_run: fn(ctx, stage, stages, group, groups) is
 * called on the calling thread after each fitted group (group 1..groups of stage `stage`,
 * 0-based, of `stages`). fn NULL: none (the default). */
typedef void (*impactfit_fitfile_progress_fn)(void *ctx, size_t stage, size_t stages, size_t group, size_t groups);
IMPACTFIT_EXPORT void impactfit_fitfile_set_progress(impactfit_fitfile *f, impactfit_fitfile_progress_fn fn, void *ctx);

typedef struct impactfit_fit_stage {
  const char *name, *data, *where, *group, *x, *x2, *y; /* as in the file (where, group, x2 may be NULL) */
  const impactfit_fit_spec *spec;
  const impactfit_fit_model *model;
  size_t n_groups;                     /* 1 when not grouped; valid after a run */
  const double *group_values;          /* n_groups values (NULL when not grouped) */
  const impactfit_fit_result *results; /* n_groups results */
  size_t rows_used, rows_failed;       /* data rows passing the filters; of them, not OK (skipped) */
  double x_lo, x_hi, x2_lo, x2_hi;     /* the range of x (and x2) over the rows fitted: the box of the stage's
                                          formula (a generated header's function returns NaN outside it) */
  const impactfit_table *table;        /* the stage's table */
  const char *weights;                 /* "trapezoid", or NULL (equal weights) */
} impactfit_fit_stage;

IMPACTFIT_EXPORT size_t impactfit_fitfile_stage_count(const impactfit_fitfile *f);
/* Stage i; EINVAL when out of range. Results and table only after impactfit_fitfile_run. */
IMPACTFIT_EXPORT int impactfit_fitfile_stage(const impactfit_fitfile *f, size_t i, impactfit_fit_stage *out);

#ifdef __cplusplus
}
#endif
#endif /* IMPACTFIT_FITFILE_H */
