/* SPDX-License-Identifier: GPL-3.0-or-later */
/* An independent reference solution of one impact, for the tests and the accuracy report only.
 *
 * It shares no code with the engine (src/impact/): different arithmetic (__float128 through
 * libquadmath, 113-bit significand), a different method (a Taylor-series integrator of high order
 * whose coefficients come from the recurrences of the equation itself), its own start and end at
 * δ = 0 (a first-order generalised expansion taken where the neglected terms are below 1e-26), and
 * its own event location (roots of the step's Taylor polynomials: an event is located on the very
 * polynomial that is the solution inside the step).
 *
 * Equation (scaled, as in impact.h): x'' = γ − K s(x) − ζ |x|^m x', K = (n+1)/2, s(x) = sgn(x)|x|^n,
 * x(0) = 0 (B with m < n: x(0) = −(ζ/K)^(1/(n−m))), x'(0) = 1. Conditions A–D for the first contact
 * of a free impact (D is C there). See docs/ACCURACY.md for the design and its own checks.
 */
#ifndef IMPACTFIT_REF_IMPACT_H
#define IMPACTFIT_REF_IMPACT_H

typedef struct ref_result {
  int status;       /* 0: separated; 1: no separation before the step/time bound; 2: failure */
  double e_out;     /* −x'(end) */
  double t_contact; /* end − start (scaled time); with status 1, the time reached */
  double f_max, t_fmax;
  double f_min; /* smallest force (< 0: tensile, under A) */
  double x_max, t_xmax;
  double x_sep; /* x at the end */
  /* the rounding residues (value − the double above, in the reference's precision) of the main
   * outputs, for comparing two references beyond double */
  double e_out_lo, t_contact_lo, f_max_lo, x_max_lo, x_sep_lo;
  long steps;
} ref_result;

/* cond: 'A', 'B', 'C' or 'D'. max_steps bounds the work (creep under heavy damping). The solver in
 * double-double arithmetic (ref_impact.c), used by the tests and the accuracy report. */
int ref_impact(double n, double m, double zeta, char cond, long max_steps, ref_result *out);

/* The same algorithm in __float128 (ref_impact_q.c, about ten times slower): the reference before
 * the double-double one, kept so that the tests compare the two. */
int ref_impact_q(double n, double m, double zeta, char cond, long max_steps, ref_result *out);

#endif
