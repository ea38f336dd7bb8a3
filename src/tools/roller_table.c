/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The vibratory roller's case × condition runs, shared by `impactfit roller` and the multibody topic
 * (see roller_table.h). */
#include "roller_table.h"

#include <stdio.h>
#include <string.h>

const char *const roller_case_names[4] = {"I", "II", "III", "IV"};

roller_settings roller_default_settings(void) {
  roller_settings s;
  memset(&s, 0, sizeof s);
  s.max_periods = 20000;
  s.tol = 1e-8;
  return s;
}

int roller_setup(roller_run *R, int case_no, const impactfit_transition *tr, impactfit_error *err) {
  memset(R, 0, sizeof *R);
  R->case_no = case_no;
  R->tr = tr;
  return impactfit_mb1d_roller(case_no, tr, &R->sys, err);
}

int roller_solve(impactfit_mb1d_workspace *ws, roller_run *R, const roller_settings *s, impactfit_error *err_out) {
  impactfit_mb1d_params p = impactfit_mb1d_default_params();
  p.max_periods = s->max_periods;
  p.ss_tol = s->tol;
  p.record_periods = s->periods;
  p.trace_points = s->trace_points;
  p.fn = s->fn;
  p.ctx = s->ctx;
  impactfit_error err;
  impactfit_error_clear(&err);
  R->status = impactfit_mb1d_steady(ws, &R->sys, &p, &R->r, &err);
  snprintf(R->message, sizeof R->message, "%s", err.message);
  if (err_out)
    *err_out = err;
  return R->status;
}
