/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Private to src/sweep: the definition object and the problem registry. */
#ifndef IMPACTFIT_SWEEP_INTERNAL_H
#define IMPACTFIT_SWEEP_INTERNAL_H

#include "sweep_impl.h"

struct impactfit_sweep {
  char *name;
  char hash[17];
  const impactfit_sweep_problem *problem;
  impactfit_sweep_problem *owned; /* problem when a specialize hook made it (freed with its release) */
  double *fixed;                  /* value of every parameter (fixed or default; swept ones overwritten) */
  unsigned char *swept;           /* per parameter */
  int *param_line;                /* line where a parameter was fixed, 0 if not */
  char **options;                 /* per option: the value */
  int *option_line;
  unsigned char *wanted; /* per output */
  int outputs_line;
  size_t n_axes;
  impactfit_sweep_axis *axes;
  double **axis_values; /* per axis */
  size_t *axis_cap;
  size_t total;
  char *header;
};

/* impactfit_sweep_parse with `forced` as the only known problem (tests of the runner). */
int impactfit__sweep_parse_problem(const char *text, size_t len, const char *name,
                                   const impactfit_sweep_problem *forced, impactfit_sweep **out, impactfit_error *err);


#include "problems.h"

#endif
