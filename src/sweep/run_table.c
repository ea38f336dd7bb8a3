/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit_sweep_run_table (include/impactfit/sweep.h): a run collected into a table in memory,
 * from the runner's numbers (impactfit_sweep_run_values): no text in between. The columns and values
 * are those impactfit_table_parse_csv reads from the CSV of the same run (index, the parameters, the
 * wanted outputs, rhs_evals; status as the row's OK flag, the outputs of a failed point 0), which
 * tests/test_sweep.c checks. */
#include <stdlib.h>
#include <string.h>

#include "../common/common_impl.h"
#include "../fit/table_impl.h"
#include "sweep_internal.h"

typedef struct collect {
  const impactfit_sweep *s;
  impactfit_table *t;
  double *row;
  impactfit_error *err;
} collect;

static int on_values(void *ctx, const impactfit_sweep_block *b) {
  collect *c = ctx;
  const impactfit_sweep_problem *pr = c->s->problem;
  size_t np = pr->n_params, no = pr->n_outputs;
  for (size_t i = 0; i < b->n; i++) {
    size_t k = 0;
    int ok = b->status[i] == IMPACTFIT_OK;
    c->row[k++] = (double)b->index[i];
    for (size_t j = 0; j < np; j++)
      c->row[k++] = b->in[i * np + j];
    for (size_t j = 0; j < no; j++)
      if (c->s->wanted[j])
        c->row[k++] = ok ? b->out[i * no + j] : 0.0;
    c->row[k++] = (double)b->rhs_evals[i];
    if (impactfit__table_add_row(c->t, c->row, ok, c->err))
      return IMPACTFIT_EIO;
  }
  return 0;
}

int impactfit_sweep_run_table(const impactfit_sweep *s, const impactfit_sweep_run_params *rp, impactfit_table **out,
                              impactfit_sweep_summary *summary, impactfit_error *err) {
  if (!out)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no output given");
  *out = NULL;
  if (!s)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no sweep given");
  const impactfit_sweep_problem *pr = s->problem;
  size_t nc = 0, cap = pr->n_params + pr->n_outputs + 2;
  const char **names = malloc(cap * sizeof *names);
  double *row = malloc(cap * sizeof *row);
  impactfit_table *t = NULL;
  int st = (!names || !row) ? IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory") : IMPACTFIT_OK;
  if (!st) {
    names[nc++] = "index";
    for (size_t j = 0; j < pr->n_params; j++)
      names[nc++] = pr->params[j].name;
    for (size_t j = 0; j < pr->n_outputs; j++)
      if (s->wanted[j])
        names[nc++] = pr->outputs[j];
    names[nc++] = "rhs_evals";
    st = impactfit__table_new(nc, names, &t, err);
  }
  impactfit_sweep_summary sum;
  memset(&sum, 0, sizeof sum);
  if (!st) {
    impactfit_error add_err;
    impactfit_error_clear(&add_err);
    collect c = {s, t, row, &add_err};
    st = impactfit_sweep_run_values(s, rp, on_values, &c, &sum, err);
    if (st == IMPACTFIT_EIO && add_err.status) /* only a row that did not fit fails with EIO here */
      st = IMPACTFIT__FAIL(err, add_err.status, "sweep %s: %s", impactfit_sweep_name(s), add_err.message);
  }
  free(names);
  free(row);
  if (st) {
    impactfit_table_free(t);
    t = NULL;
  }
  *out = t;
  if (summary)
    *summary = sum;
  return st;
}
