/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The host's GSL error handler survives impactfit (include/impactfit/common.h, "GSL's error
 * handler"): a host installs its own handler, calls impactfit functions (successful ones, failing
 * ones whose GSL routines report through gsl_error(), and a parallel sweep), and checks that its
 * handler is still installed afterwards and was never called by impactfit's internal, recoverable
 * GSL errors; while impactfit runs (in a row callback of the sweep) the handler is off. */
#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "impactfit/impactfit.h"

static int host_calls;
static void host_handler(const char *reason, const char *file, int line, int gsl_errno) {
  (void)reason, (void)file, (void)line, (void)gsl_errno;
  host_calls++;
}

static int fail;
#define CHECK(cond, ...)            \
  do {                              \
    if (!(cond)) {                  \
      printf("FAIL: " __VA_ARGS__); \
      printf("\n");                 \
      fail++;                       \
    }                               \
  } while (0)

/* the handler in place now, read without changing it */
static gsl_error_handler_t *current_handler(void) {
  gsl_error_handler_t *h = gsl_set_error_handler(NULL);
  gsl_set_error_handler(h);
  return h;
}

static int probe_calls, probe_rows;
static int rows_cb(void *ctx, size_t first, size_t count, const char *rows, size_t len) {
  (void)ctx, (void)first, (void)rows, (void)len;
  /* inside impactfit_sweep_run: a GSL error raised here must not reach the host's handler */
  int before = host_calls;
  gsl_error("probe inside impactfit", __FILE__, __LINE__, GSL_EFAILED);
  probe_calls += host_calls != before;
  probe_rows += (int)count;
  return 0;
}

int main(void) {
  gsl_set_error_handler(&host_handler);
  impactfit_error err;

  /* 1. a successful impact (Kelvin-Voigt, exact e = exp(-2 xi acos(xi)/sqrt(1 - xi^2))) */
  impactfit_impact_workspace *ws = impactfit_impact_alloc();
  CHECK(ws != NULL, "impact_alloc");
  CHECK(current_handler() == &host_handler, "handler replaced by impactfit_impact_alloc");
  impactfit_impact_params p = impactfit_impact_default_params();
  p.n = 1.0;
  p.c = 0.5;
  impactfit_impact_result r;
  int st = impactfit_impact_solve(ws, &p, &r, &err);
  double xi = 0.25, want = exp(-2 * xi * acos(xi) / sqrt(1 - xi * xi));
  CHECK(st == 0 && fabs(r.e_out - want) < 1e-12, "impact_solve: st %d e_out %.17g, want %.17g", st, r.e_out, want);
  CHECK(current_handler() == &host_handler, "handler replaced by impactfit_impact_solve");

  /* 2. a failing fit whose GSL solver reports through gsl_error(): a nonlinear formula that is
   * not finite at its start (log of a negative number) */
  const char *names[] = {"a", "b"};
  double start[] = {1.0, -5.0};
  impactfit_fit_spec spec = impactfit_fit_default_spec();
  spec.form = impactfit_fit_formula;
  spec.formula = "a*log(x+b)";
  spec.var1 = "x";
  spec.constants = names;
  spec.n_constants = 2;
  spec.start = start;
  spec.n_start = 2;
  impactfit_fit_model *m = NULL;
  st = impactfit_fit_model_create(&spec, &m, &err);
  CHECK(st == 0, "fit_model_create: %s", err.message);
  double x[8], y[8];
  for (int i = 0; i < 8; i++) {
    x[i] = 1.0 + i;
    y[i] = log(x[i] + 0.5);
  }
  impactfit_fit_result fr;
  st = m ? impactfit_fit_run(m, 8, x, NULL, y, &fr, &err) : -1;
  CHECK(st != 0, "the fit from a non-finite start should fail");
  if (st)
    printf("failing fit as expected: %s\n", err.message);
  impactfit_fit_model_free(m);
  CHECK(current_handler() == &host_handler, "handler replaced by a failing impactfit_fit_run");

  /* 3. a failing inverse solve (an unreachable coefficient of restitution) */
  impactfit_inverse_workspace *iw = impactfit_inverse_alloc();
  impactfit_inverse_params ip = impactfit_inverse_default_params();
  impactfit_inverse_result ir;
  st = impactfit_inverse_solve(iw, &ip, 1.5, 0.0, &ir, &err);
  CHECK(st != 0, "inverse_solve with e = 1.5 should fail");
  impactfit_inverse_free(iw);
  CHECK(current_handler() == &host_handler, "handler replaced by a failing impactfit_inverse_solve");

  /* 4. a parallel sweep: the handler is off while impactfit runs, back afterwards */
  const char *def = "[sweep]\nproblem = simulate\noutputs = e_out\n[fixed]\nm = 0\nk = 1\nmass = 1\nv = 1\n"
                    "transition = C\n[axes]\nn = linear 1, 2, 3\nc = linear 0.1, 0.5, 2\n";
  impactfit_sweep *sw = NULL;
  st = impactfit_sweep_parse(def, strlen(def), "test", &sw, &err);
  CHECK(st == 0, "sweep_parse: %s", err.message);
  if (!st) {
    impactfit_sweep_run_params rp = impactfit_sweep_default_run_params();
    rp.threads = 2;
    st = impactfit_sweep_run(sw, &rp, rows_cb, NULL, NULL, NULL, &err);
    CHECK(st == 0, "sweep_run: %s", err.message);
    CHECK(probe_rows == 6, "sweep rows: %d, want 6", probe_rows);
    CHECK(probe_calls == 0, "the host's handler was called inside impactfit_sweep_run");
    impactfit_sweep_free(sw);
  }
  CHECK(current_handler() == &host_handler, "handler replaced by impactfit_sweep_run");

  impactfit_impact_free(ws);
  CHECK(host_calls == 0, "the host's handler was called %d times by impactfit", host_calls);
  /* and it is the host's: a GSL error of the host's own reaches it */
  gsl_error("host's own error", __FILE__, __LINE__, GSL_EDOM);
  CHECK(host_calls == 1, "the host's handler does not receive the host's own errors");
  printf("test_gsl_handler: %s (%d failure%s)\n", fail ? "FAIL" : "pass", fail, fail == 1 ? "" : "s");
  return fail ? 1 : 0;
}
