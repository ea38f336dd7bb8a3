/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Benchmark of one impact (the engine, impact.h) against plain GSL integration loops with other
 * steppers, on problems with an exact answer, in the same run on the same machine.
 *
 * Problems (scaled, docs/MODEL.md §2, x(0) = 0, x'(0) = 1, contact until x returns to 0: condition A):
 *   KV    n = 1, m = 0, ζ = 0.5: x'' + ζ x' + x = 0, e = exp(−ξ π / √(1 − ξ²)), ξ = ζ/2.
 *   Hertz n = 3/2, ζ = 0: e = 1 and contact time 2 B(2/5, 1/2) / (5/2) (x_m = 1).
 * The peers are gsl_odeiv2_evolve loops (rkf45, rkck, rk8pd, msadams) at the same relative
 * tolerance, the end located by a secant iteration on single steps from the last state before the
 * crossing (as the engine does, without its power series near x = 0). For each: time per impact,
 * right-hand-side evaluations per impact, and the error against the exact result. The engine's
 * comment on its stepper choice (src/impact/impact.c) refers to this table.
 * usage: bench_impact [repeats]   (default 2000) */
#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#include <gsl/gsl_sf_gamma.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static const double PI = 3.14159265358979323846;

#include "impactfit/impactfit.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

typedef struct problem {
  const char *name;
  double n, zeta;
  double e_exact, t_exact; /* t_exact < 0: not compared */
  long evals;
} problem;

static int rhs(double t, const double y[], double f[], void *params) {
  (void)t;
  problem *p = params;
  p->evals++;
  double x = y[0] > 0 ? y[0] : 0.0; /* x^n for x ≥ 0; the loop stops at the crossing */
  f[0] = y[1];
  f[1] = -p->zeta * y[1] - 0.5 * (p->n + 1.0) * pow(x, p->n);
  return GSL_SUCCESS;
}

/* One impact with a plain evolve loop; returns 0 and e_out, t_contact. */
static int plain_impact(const gsl_odeiv2_step_type *T, problem *p, double rtol, double *e_out, double *t_c) {
  gsl_odeiv2_system sys = {rhs, NULL, 2, p};
  /* a driver ties step, control and evolve together (the multistep methods need it) */
  gsl_odeiv2_driver *d = gsl_odeiv2_driver_alloc_y_new(&sys, T, 1e-3, rtol, rtol);
  gsl_odeiv2_step *s = d->s;
  gsl_odeiv2_control *c = d->c;
  gsl_odeiv2_evolve *ev = d->e;
  double t = 0.0, h = 1e-3, y[2] = {0.0, 1.0}, t_prev = 0.0, y_prev[2] = {0.0, 1.0};
  int rc = 1;
  while (t < 100.0) {
    t_prev = t;
    y_prev[0] = y[0];
    y_prev[1] = y[1];
    if (gsl_odeiv2_evolve_apply(ev, c, s, &sys, &t, 100.0, &h, y) != GSL_SUCCESS)
      break;
    if (y[0] < 0.0 && t > 1e-3) {
      /* secant on g(dt) = x(t_prev + dt) with single steps from the state before the crossing */
      double a = 0.0, ga = y_prev[0], b = t - t_prev, gb = y[0], yy[2], err[2];
      for (int it = 0; it < 60 && fabs(b - a) > 1e-16 * (t_prev + b); it++) {
        double m = b - gb * (b - a) / (gb - ga);
        yy[0] = y_prev[0];
        yy[1] = y_prev[1];
        gsl_odeiv2_step_reset(s);
        if (gsl_odeiv2_step_apply(s, t_prev, m, yy, err, NULL, NULL, &sys) != GSL_SUCCESS)
          break;
        a = b;
        ga = gb;
        b = m;
        gb = yy[0];
        if (gb == 0.0)
          break;
      }
      yy[0] = y_prev[0];
      yy[1] = y_prev[1];
      gsl_odeiv2_step_reset(s);
      gsl_odeiv2_step_apply(s, t_prev, b, yy, err, NULL, NULL, &sys);
      *e_out = -yy[1];
      *t_c = t_prev + b;
      rc = 0;
      break;
    }
  }
  gsl_odeiv2_driver_free(d);
  return rc;
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 2000;
  if (reps < 1)
    reps = 1;
  const double rtol = 1e-13;
  double xi = 0.25;
  problem probs[2] = {
      {"KV n=1 zeta=0.5", 1.0, 0.5, exp(-xi * PI / sqrt(1 - xi * xi)), PI / sqrt(1 - xi * xi), 0},
      {"Hertz n=1.5 zeta=0", 1.5, 0.0, 1.0, 2.0 * gsl_sf_beta(0.4, 0.5) / 2.5, 0},
  };
  struct {
    const char *name;
    const gsl_odeiv2_step_type **T;
  } peers[] = {{"gsl rkf45", &gsl_odeiv2_step_rkf45},
               {"gsl rkck", &gsl_odeiv2_step_rkck},
               {"gsl rk8pd", &gsl_odeiv2_step_rk8pd},
               {"gsl msadams", &gsl_odeiv2_step_msadams}};
  gsl_set_error_handler_off();
  printf("one impact, condition A, tolerance %.0e, %d repeats; errors against the exact result\n", rtol, reps);
  printf("%-20s %-14s %12s %10s %12s %12s\n", "problem", "method", "us/impact", "RHS/impact", "|e_out-e|", "|t_c-t|/t");
  impactfit_impact_workspace *ws = impactfit_impact_alloc();
  for (int k = 0; k < 2; k++) {
    problem *p = &probs[k];
    impactfit_impact_params ip = impactfit_impact_scaled_params(p->n, 0.0, p->zeta);
    ip.transition = impactfit_transition_A;
    ip.rtol = rtol;
    impactfit_impact_result r;
    impactfit_error err;
    double t0 = now();
    for (int i = 0; i < reps; i++)
      if (impactfit_impact_solve(ws, &ip, &r, &err)) {
        fprintf(stderr, "engine: %s\n", err.message);
        return 1;
      }
    double dt = (now() - t0) / reps;
    printf("%-20s %-14s %12.2f %10ld %12.2e %12.2e\n", p->name, "impactfit", 1e6 * dt, r.rhs_evals,
           fabs(r.e_out - p->e_exact), fabs(r.t_contact / p->t_exact - 1));
    for (size_t q = 0; q < sizeof peers / sizeof peers[0]; q++) {
      double e_out = NAN, t_c = NAN;
      p->evals = 0;
      t0 = now();
      int ok = 1;
      for (int i = 0; i < reps && ok; i++)
        ok = plain_impact(*peers[q].T, p, rtol, &e_out, &t_c) == 0;
      dt = (now() - t0) / reps;
      if (!ok) {
        printf("%-20s %-14s %12s\n", p->name, peers[q].name, "failed");
        continue;
      }
      printf("%-20s %-14s %12.2f %10ld %12.2e %12.2e\n", p->name, peers[q].name, 1e6 * dt, p->evals / reps,
             fabs(e_out - p->e_exact), fabs(t_c / p->t_exact - 1));
    }
  }
  impactfit_impact_free(ws);
  return 0;
}
