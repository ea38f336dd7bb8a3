/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared by `impactfit roller` and the `multibody` report topic: one case × condition pair of the
 * vibratory roller run to its steady state with the command's settings, so that the report's table
 * is the command's table. */
#ifndef IMPACTFIT_CLI_ROLLER_TABLE_H
#define IMPACTFIT_CLI_ROLLER_TABLE_H

#include "impactfit/impactfit.h"

/* "I", "II", "III", "IV" for case_no 1..4 */
extern const char *const roller_case_names[4];

typedef struct roller_settings {
  int periods;          /* steady-state periods described; 0: twice the multiplicity */
  int max_periods;      /* give up after this many periods without a steady state */
  double tol;           /* steady-state tolerance (scaled) */
  int trace_points;     /* samples per excitation period passed to fn (0: transitions only) */
  impactfit_mb1d_fn fn; /* optional: samples and transitions of the described periods */
  void *ctx;
} roller_settings;

/* The command's defaults: periods 0, max_periods 20000, tol 1e-8, no trace. */
roller_settings roller_default_settings(void);

typedef struct roller_run {
  int case_no; /* 1..4 */
  const impactfit_transition *tr;
  impactfit_mb1d_system sys;
  impactfit_mb1d_result r;
  int status; /* of the steady-state run: 0 or an impactfit status */
  char message[512];
} roller_run;

/* Sets up the system of case_no under tr (the library's impactfit_mb1d_roller). Returns 0 or a
 * library status (err filled). */
int roller_setup(roller_run *R, int case_no, const impactfit_transition *tr, impactfit_error *err);

/* Runs R to its steady state and describes the periods after it (impactfit_mb1d_steady); the
 * periods stay readable from ws. Sets and returns R->status; R->message and err (may be NULL) hold
 * the error. */
int roller_solve(impactfit_mb1d_workspace *ws, roller_run *R, const roller_settings *s, impactfit_error *err);

#endif
