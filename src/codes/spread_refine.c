/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The extremes of e over a box of sizes and speeds between the grid's points (codes_impl.h:
 * impactfit__refine_box): the log grid of impactfit__forward_box finds e at 5 (2 .. 64) points per axis; where e
 * is not monotone along an axis (LAMMPS damping mass_velocity for two spheres of very different densities: the
 * damping grows with the effective mass and falls with the effective radius) its smallest or largest value can
 * lie between two points. Every grid point that is a local extreme among its axis neighbours starts a bounded
 * local search (NLopt's BOBYQA, derivative-free, bounds handled exactly) over the grid cells around it, in the
 * grid's own coordinate (the fractional point index t: r = r_min (r_max / r_min)^(t / (n - 1)), the grid's
 * formula, so that t on a grid point gives that point's r to the bit). A corner that is the extreme stays the
 * extreme: the search only replaces a value by a better one it evaluated. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <nlopt.h>

#include "../common/common_impl.h"
#include "codes_impl.h"

/* the searches per extreme (the best local extremes of the grid first), their evaluations, and the tolerance
 * on the point index (a smooth extreme's e is then within ~1e-15 of the true extreme's: e varies by at most ~1
 * over one cell) */
#define REFINE_STARTS 4
#define REFINE_MAXEVAL 300
#define REFINE_XTOL 1e-9
/* at or below this spread over the grid the box is exact (spread.c's SPREAD_EXACT): nothing to refine */
#define REFINE_FLAT 1e-9

typedef struct refine {
  const impactfit_code_request *req;
  double value, rho1, rho2;
  const double *box;
  const int *n;
  int wall, axis[3], n_axes;
  double sign;  /* +1: the minimum, -1: the maximum */
  double t0[3]; /* the start (every axis, one-point axes 0) */
  double best_e, best_at[3];
  int status;
  impactfit_error *err;
} refine;

static double along(double a, double b, double t, int n) { return n <= 1 ? a : a * pow(b / a, t / (n - 1)); }

/* r1, r2, v at the point index t (per axis) */
static void point_of(const refine *R, const double t[3], double at[3]) {
  at[0] = along(R->box[0], R->box[1], t[0], R->n[0]);
  at[1] = R->wall ? at[0] : along(R->box[2], R->box[3], t[1], R->n[1]);
  at[2] = along(R->box[4], R->box[5], t[2], R->n[2]);
}

static double objective(unsigned dim, const double *x, double *grad, void *data) {
  (void)dim;
  (void)grad;
  refine *R = data;
  double t[3] = {R->t0[0], R->t0[1], R->t0[2]}, at[3], e;
  for (int i = 0; i < R->n_axes; i++)
    t[R->axis[i]] = x[i];
  point_of(R, t, at);
  R->status = impactfit__box_point(R->req, R->value, R->rho1, R->rho2, at[0], at[1], at[2], &e, R->err);
  if (R->status || !isfinite(e)) {
    if (!R->status)
      R->status = IMPACTFIT__FAIL(R->err, IMPACTFIT_ENONFINITE,
                                  "spread: e is not finite at r1 %.17g, r2 %.17g m, v %.17g", at[0], at[1], at[2]);
    return HUGE_VAL;
  }
  if (R->sign * e < R->sign * R->best_e) {
    R->best_e = e;
    memcpy(R->best_at, at, sizeof at);
  }
  return R->sign * e;
}

/* 1: grid point (a, b, k) is a local extreme (sign +1: minimum) among its axis neighbours */
static int local_extreme(const double *g, const int n[3], const int p[3], double sign) {
  size_t i = ((size_t)p[0] * (size_t)n[1] + (size_t)p[1]) * (size_t)n[2] + (size_t)p[2];
  for (int d = 0; d < 3; d++)
    for (int s = -1; s <= 1; s += 2) {
      int q[3] = {p[0], p[1], p[2]};
      q[d] += s;
      if (q[d] < 0 || q[d] >= n[d])
        continue;
      size_t j = ((size_t)q[0] * (size_t)n[1] + (size_t)q[1]) * (size_t)n[2] + (size_t)q[2];
      if (sign * g[j] < sign * g[i])
        return 0;
    }
  return 1;
}

/* the REFINE_STARTS best local extremes of the grid (sign: +1 minima), as flat indices; their number */
static int starts_of(const double *g, const int n[3], double sign, size_t start[REFINE_STARTS]) {
  int found = 0;
  for (int a = 0; a < n[0]; a++)
    for (int b = 0; b < n[1]; b++)
      for (int k = 0; k < n[2]; k++) {
        const int p[3] = {a, b, k};
        if (!local_extreme(g, n, p, sign))
          continue;
        size_t i = ((size_t)a * (size_t)n[1] + (size_t)b) * (size_t)n[2] + (size_t)k;
        /* insert in order of sign * e, keeping the best REFINE_STARTS */
        int at = found < REFINE_STARTS ? found++ : REFINE_STARTS;
        while (at > 0 && sign * g[i] < sign * g[start[at - 1]]) {
          if (at < REFINE_STARTS)
            start[at] = start[at - 1];
          at--;
        }
        if (at < REFINE_STARTS)
          start[at] = i;
      }
  return found;
}

/* one bounded search from grid point flat index i over the cells around it */
static int search_from(refine *R, size_t i, long *evaluations) {
  const int *n = R->n;
  int p[3] = {(int)(i / ((size_t)n[1] * (size_t)n[2])), (int)(i / (size_t)n[2] % (size_t)n[1]),
              (int)(i % (size_t)n[2])};
  double x[3], lb[3], ub[3], step[3], tol[3];
  for (int d = 0; d < 3; d++)
    R->t0[d] = p[d];
  for (int j = 0; j < R->n_axes; j++) {
    int d = R->axis[j];
    x[j] = p[d];
    lb[j] = p[d] > 0 ? p[d] - 1 : 0;
    ub[j] = p[d] < n[d] - 1 ? p[d] + 1 : n[d] - 1;
    step[j] = 0.25;
    tol[j] = REFINE_XTOL;
  }
  nlopt_opt opt = nlopt_create(NLOPT_LN_BOBYQA, (unsigned)R->n_axes);
  if (!opt)
    return IMPACTFIT__FAIL(R->err, IMPACTFIT_ENOMEM, "out of memory");
  nlopt_set_lower_bounds(opt, lb);
  nlopt_set_upper_bounds(opt, ub);
  nlopt_set_min_objective(opt, objective, R);
  nlopt_set_initial_step(opt, step);
  nlopt_set_xtol_abs(opt, tol);
  nlopt_set_maxeval(opt, REFINE_MAXEVAL);
  double f;
  nlopt_result r = nlopt_optimize(opt, x, &f);
  *evaluations += nlopt_get_numevals(opt);
  nlopt_destroy(opt);
  if (R->status)
    return R->status;
  if (r < 0 && r != NLOPT_ROUNDOFF_LIMITED)
    return IMPACTFIT__FAIL(R->err, IMPACTFIT_ENOCONV, "spread: the local search for the %s failed (NLopt %d)",
                           R->sign > 0 ? "smallest e" : "largest e", (int)r);
  return 0;
}

/* 1: the request is answered in continuous time (its e a smooth function of the sizes and the speed) */
static int continuous(const impactfit_code_request *req, double rho1, double rho2, const double box[6]) {
  impactfit_code_request q = *req;
  q.bodies = impactfit_code_bodies_default();
  q.bodies.pair = req->bodies.pair == 1;
  q.bodies.r1 = box[0];
  q.bodies.rho1 = rho1;
  if (q.bodies.pair) {
    q.bodies.r2 = box[2];
    q.bodies.rho2 = rho2;
  }
  q.v = box[4];
  impactfit_code_ctx *c = malloc(sizeof *c);
  if (!c)
    return 0;
  impactfit_error err;
  int power = impactfit_code_resolve(&q, c, &err) == 0 && impactfit__is_power(c);
  free(c);
  return power;
}

int impactfit__refine_box(const impactfit_code_request *req, double value, double rho1, double rho2,
                          const double box[6], const int n[3], const double *grid, double e_target,
                          impactfit_code_spread *out, impactfit_error *err) {
  if (out->e_max - out->e_min <= REFINE_FLAT || !continuous(req, rho1, rho2, box))
    return 0;
  refine R = {.req = req,
              .value = value,
              .rho1 = rho1,
              .rho2 = rho2,
              .box = box,
              .n = n,
              .wall = req->bodies.pair != 1,
              .err = err};
  for (int d = 0; d < 3; d++)
    if (n[d] > 1)
      R.axis[R.n_axes++] = d;
  if (!R.n_axes)
    return 0;
  for (int pass = 0; pass < 2; pass++) {
    R.sign = pass ? -1.0 : 1.0;
    R.best_e = pass ? out->e_max : out->e_min;
    size_t start[REFINE_STARTS];
    int ns = starts_of(grid, n, R.sign, start);
    for (int s = 0; s < ns; s++) {
      int st = search_from(&R, start[s], &out->search_evaluations);
      if (st)
        return st;
    }
    double *e = pass ? &out->e_max : &out->e_min;
    if (R.sign * R.best_e < R.sign * *e) {
      *e = R.best_e;
      double *w[3] = {pass ? &out->r1_max : &out->r1_min, pass ? &out->r2_max : &out->r2_min,
                      pass ? &out->v_at_max : &out->v_at_min};
      for (int d = 0; d < 3; d++)
        *w[d] = R.best_at[d];
      if (!isnan(e_target))
        out->worst = fmax(out->worst, fabs(R.best_e - e_target));
    }
  }
  return 0;
}
