/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The engine inverse's search (stepper.h, impactfit_step_solve_mean) against its first version, within one
 * engine answer (include/impactfit/codes.h; bench_engine.c times every registry model): impactfit_code_solve
 * for MuJoCo's soft contact at its defaults (5 mm sphere, 1.309 g, on a plane at 1 m/s, dt 0.002), inverse (the dampratio
 * whose mean e over the phase is the asked e, with the phase statistics of the answer and of the naive
 * input) and forward, Euler and RK4, e = 0.1 ... 0.9. Issue 24 asks for under 50 ms per answer.
 *
 * Beside it, in the same run, the inverse as first written (exact phase statistics on 25 points of
 * ln dampratio, then Brent on the exact mean), to show what the bracket from the sampled means saves;
 * both use the same phase statistics. Times are the median of `repeats` runs, wall clock and CPU.
 * usage: bench_engine_search [repeats]   (default 5) */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, CLOCK_PROCESS_CPUTIME_ID */
#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "impactfit/impactfit.h"

static double now(clockid_t id) {
  struct timespec t;
  clock_gettime(id, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof v[0], cmp);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* ---- the inverse as first written: exact scan on 25 points, Brent on the exact mean */
typedef struct {
  impactfit_code_request rq;
  double e;
  long impacts;
} scan_ctx;

static double scan_fn(double lnv, void *p) {
  scan_ctx *c = p;
  impactfit_stepper st;
  impactfit_step_stats S;
  impactfit_error err;
  if (impactfit_code_stepper(&c->rq, exp(lnv), &st, &err))
    return NAN;
  int s = impactfit_step_phase_stats(&st, c->rq.v, &S, &err);
  c->impacts += S.impacts;
  if (s == IMPACTFIT_ENONFINITE) /* the step blows up: e = +inf, as the library counts it */
    return 1e3;
  if (s == IMPACTFIT_ENOSEP) /* the bodies stick: e = 0 */
    return -c->e;
  return s ? NAN : S.e_mean - c->e;
}

static double scan_solve(scan_ctx *c) {
  double a = log(1e-4), b = log(1e3), xa = a, xb = b, ga = 0.0;
  int found = 0;
  for (int i = 0; i < 25 && !found; i++) {
    double x = a + (b - a) * i / 24, g = scan_fn(x, c);
    if (i > 0 && (ga > 0.0) != (g > 0.0)) {
      xa = a + (b - a) * (i - 1) / 24;
      xb = x;
      found = 1;
    }
    ga = g;
  }
  if (!found)
    return NAN;
  gsl_root_fsolver *rs = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
  gsl_function F = {scan_fn, c};
  gsl_root_fsolver_set(rs, &F, xa, xb);
  double x = xb;
  for (int it = 0; it < 200; it++) {
    gsl_root_fsolver_iterate(rs);
    x = gsl_root_fsolver_root(rs);
    if (fabs(scan_fn(x, c)) <= 1e-10)
      break;
  }
  gsl_root_fsolver_free(rs);
  return exp(x);
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 5;
  if (reps < 1 || reps > 1000)
    reps = 5;
  gsl_set_error_handler_off();
  const impactfit_code_model *md;
  impactfit_error err;
  if (impactfit_code_model_find("mujoco", NULL, "soft contact", NULL, &md, &err)) {
    fprintf(stderr, "bench_engine_search: %s\n", err.message);
    return 1;
  }
  const double es[] = {0.1, 0.3, 0.5, 0.7, 0.9};
  const char *ints[] = {"euler", "rk4"};
  printf("impactfit_code_solve, MuJoCo 2.2.2 soft contact, defaults, 1 m/s, dt 0.002; median of %d runs\n", reps);
  printf("%-6s %-8s %4s %14s %10s %10s %9s   %10s %9s\n", "integ.", "mode", "e", "value", "wall ms", "CPU ms",
         "impacts", "25-scan ms", "impacts");
  double worst = 0.0;
  for (int g = 0; g < 2; g++)
    for (int mode = 0; mode < 2; mode++)
      for (int j = 0; j < 5; j++) {
        impactfit_code_request rq = impactfit_code_request_default();
        rq.model = md;
        rq.integrator = ints[g];
        rq.v = 1.0;
        rq.bodies.r1 = 0.005;
        rq.bodies.m1 = 0.001309;
        impactfit_code_answer a;
        double wall[1000], cpu[1000];
        double value = NAN;
        if (mode == 0) {
          rq.e = es[j];
        } else {
          /* forward at the inverse's answer */
          rq.e = es[j];
          if (impactfit_code_solve(&rq, &a, &err))
            return 1;
          rq.e = NAN;
          rq.value = a.value;
          impactfit_code_answer_free(&a);
        }
        for (int r = 0; r < reps; r++) {
          if (r)
            impactfit_code_answer_free(&a);
          double w0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
          if (impactfit_code_solve(&rq, &a, &err)) {
            fprintf(stderr, "bench_engine_search: %s\n", err.message);
            return 1;
          }
          wall[r] = 1e3 * (now(CLOCK_MONOTONIC) - w0);
          cpu[r] = 1e3 * (now(CLOCK_PROCESS_CPUTIME_ID) - c0);
        }
        value = a.value;
        double mw = median(wall, reps), mc = median(cpu, reps);
        worst = fmax(worst, mc);
        if (mode == 0) {
          scan_ctx c = {.rq = rq, .e = es[j]};
          c.rq.e = NAN;
          double c0 = now(CLOCK_PROCESS_CPUTIME_ID);
          double v2 = scan_solve(&c);
          double sc = 1e3 * (now(CLOCK_PROCESS_CPUTIME_ID) - c0);
          printf("%-6s %-8s %4.1f %14.10f %10.2f %10.2f %9ld   %10.2f %9ld%s\n", ints[g], "inverse", es[j], value, mw,
                 mc, a.impacts, sc, c.impacts, fabs(v2 / value - 1.0) < 1e-6 ? "" : "  (scan: another value)");
        } else {
          printf("%-6s %-8s %4.1f %14.10f %10.2f %10.2f %9ld\n", ints[g], "forward", es[j], value, mw, mc, a.impacts);
        }
        impactfit_code_answer_free(&a);
      }
  printf("largest median CPU time per answer: %.2f ms (issue 24: under 50 ms)\n", worst);
  return 0;
}
