/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Internal: an rk8pd integrator for piecewise-smooth systems that locates events on its own solution.
 *
 * The multibody examples (roller, pendulum) switch their equations of motion at contact events. Each
 * accepted step of GSL's rk8pd is a "segment" from (t0, y0) of length len; the state anywhere inside
 * it is obtained by one rk8pd step of length s from (t0, y0) (impactfit__hyb_state), so every located
 * event lies on the integrator's own solution, not on an interpolant — the method of the impact
 * engine (src/impact/impact.c). A scalar function of the state (event function or monitored
 * quantity) is given with its time derivative; a pair of roots hidden inside one step is caught
 * through the sign change of the derivative (an interior extremum, located first), and roots are
 * found with Brent's method (gsl_root_fsolver_brent) to a few units of rounding of the time.
 */
#ifndef IMPACTFIT_MULTIBODY_HYBRID_H
#define IMPACTFIT_MULTIBODY_HYBRID_H

#include <stddef.h>

#include <gsl/gsl_odeiv2.h>
#include <gsl/gsl_roots.h>

#define IMPACTFIT__HYB_MAXDIM 24

typedef struct impactfit__hyb {
  size_t dim;
  gsl_odeiv2_system sys;
  gsl_odeiv2_step *step;
  gsl_odeiv2_control *control;
  gsl_odeiv2_evolve *evolve;
  gsl_root_fsolver *brent;
  double h; /* step size proposed for the next step */
  /* the current segment (the last accepted step, possibly truncated at an event) */
  double t0, len;
  double y0[IMPACTFIT__HYB_MAXDIM], dydt0[IMPACTFIT__HYB_MAXDIM];
  int have_dydt0;
  long steps;
} impactfit__hyb;

/* A scalar function of the state along a segment and its time derivative. */
typedef struct impactfit__hyb_fn {
  double (*g)(double t, const double *y, void *ctx);
  double (*gd)(double t, const double *y, void *ctx);
  void *ctx;
} impactfit__hyb_fn;

/* Allocates the stepper, control (tolerance tol on every component: |err_i| ≤ tol·scale_i, or the
 * standard control with absolute and relative tolerance tol when scale is NULL) and Brent solver.
 * Returns 0 or IMPACTFIT_ENOMEM / IMPACTFIT_EINVAL; on failure everything is released. */
int impactfit__hyb_init(impactfit__hyb *H, size_t dim,
                        int (*f)(double t, const double y[], double dydt[], void *params), void *params, double tol,
                        const double *scale);
void impactfit__hyb_release(impactfit__hyb *H); /* accepts a zeroed struct */

/* Forgets the step history after a discontinuity of the right-hand side; h is the first trial step. */
void impactfit__hyb_restart(impactfit__hyb *H, double h);

/* One accepted step from (*t, y) towards t_stop (landing on it exactly when reached); the segment
 * becomes this step. Returns 0, IMPACTFIT_ENONFINITE or IMPACTFIT_ESTEP. */
int impactfit__hyb_step(impactfit__hyb *H, double *t, double y[], double t_stop);

/* State at t0 + s on the current segment (0 ≤ s ≤ len). Returns 0 or IMPACTFIT_ENONFINITE. */
int impactfit__hyb_state(impactfit__hyb *H, double s, double y[]);

/* Root of fn (which = 0: g, 1: gd) in [a, b] of the segment, where it changes sign. */
int impactfit__hyb_root(impactfit__hyb *H, const impactfit__hyb_fn *fn, int which, double a, double b, double *s);

/* The first crossing of g in direction dir (+1: from < 0 to ≥ 0, −1: from > 0 to ≤ 0) inside
 * [a, b] of the segment, given the states at a and b. Sets *found and *s. Where gd changes sign
 * inside [a, b] the extremum is located first and both halves are searched (a pair of roots inside
 * one step). Returns 0 or an IMPACTFIT_E code. */
int impactfit__hyb_crossing(impactfit__hyb *H, const impactfit__hyb_fn *fn, int dir, double a, double b,
                            const double *ya, const double *yb, int *found, double *s);

/* As impactfit__hyb_crossing, but a root whose state fails valid(y, vctx) (if valid is not NULL) is
 * skipped and the search goes on after it; on success ys holds the state at the root. */
int impactfit__hyb_crossing_valid(impactfit__hyb *H, const impactfit__hyb_fn *fn, int dir, double a, double b,
                                  const double *ya, const double *yb, int (*valid)(const double *y, void *vctx),
                                  void *vctx, int *found, double *s, double *ys);

/* Equally spaced sample times t0 + k·dt, k = next..last. */
typedef struct impactfit__hyb_sampler {
  double t0, dt;
  long next, last;
} impactfit__hyb_sampler;

/* The next sample time in [t0, t0 + s_hi] of the current segment and the state there (on the
 * segment's own solution): returns 1 and moves on, 0 when there is none, or a negative error. */
int impactfit__hyb_sample(impactfit__hyb *H, impactfit__hyb_sampler *S, double s_hi, double *t, double y[]);

/* An interior extremum of g in [a, b] (where gd changes sign between the given end states): sets
 * *found, its position *s and value *value. */
int impactfit__hyb_extremum(impactfit__hyb *H, const impactfit__hyb_fn *fn, double a, double b, const double *ya,
                            const double *yb, int *found, double *s, double *value);

#endif
