/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Two materials and size distributions in the DEM codes (include/impactfit/mixing.h): the codes' mixing rules for
 * unlike pairs, LAMMPS's explicit type-pair material, and the restitution over a box of sizes and speeds. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>

#include "../common/common_impl.h"
#include "codes_impl.h"
#include "impactfit/mixing.h"

static int material_ok(double E, double nu) { return isfinite(E) && E > 0.0 && nu > -1.0 && nu < 0.5; }

double impactfit_mix_estar(double E1, double nu1, double E2, double nu2) {
  if (!material_ok(E1, nu1) || !material_ok(E2, nu2))
    return NAN;
  return 1.0 / ((1.0 - nu1 * nu1) / E1 + (1.0 - nu2 * nu2) / E2);
}

double impactfit_mix_gstar(double E1, double nu1, double E2, double nu2) {
  if (!material_ok(E1, nu1) || !material_ok(E2, nu2))
    return NAN;
  return 1.0 / (2.0 * (2.0 - nu1) * (1.0 + nu1) / E1 + 2.0 * (2.0 - nu2) * (1.0 + nu2) / E2);
}

double impactfit_lammps_tsuji_alpha(double c) {
  /* the polynomial as LAMMPS evaluates it (square, cube, powint) */
  return 1.2728 - 4.2783 * c + 11.087 * (c * c) - 22.348 * (c * c * c) + 27.467 * (c * c * c * c) -
         18.022 * (c * c * c * c * c) + 4.8218 * (c * c * c * c * c * c);
}

static double alpha_minus(double c, void *p) { return impactfit_lammps_tsuji_alpha(c) - *(const double *)p; }

double impactfit_lammps_tsuji_cor(double alpha) {
  double a0 = impactfit_lammps_tsuji_alpha(0.0), a1 = impactfit_lammps_tsuji_alpha(1.0);
  if (!(alpha <= a0 && alpha >= a1))
    return NAN;
  if (alpha == a0)
    return 0.0;
  if (alpha == a1)
    return 1.0;
  /* α(c) decreases on [0, 1]: Brent's method (GSL) on the bracket */
  IMPACTFIT__GSL_SCOPE;
  gsl_root_fsolver *s = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
  if (!s)
    return NAN;
  gsl_function F = {alpha_minus, &alpha};
  double c = NAN;
  if (gsl_root_fsolver_set(s, &F, 0.0, 1.0) == GSL_SUCCESS)
    for (int it = 0; it < 200; it++) {
      if (gsl_root_fsolver_iterate(s) != GSL_SUCCESS)
        break;
      double lo = gsl_root_fsolver_x_lower(s), hi = gsl_root_fsolver_x_upper(s);
      c = gsl_root_fsolver_root(s);
      if (gsl_root_test_interval(lo, hi, 0.0, 4e-16) == GSL_SUCCESS)
        break;
    }
  gsl_root_fsolver_free(s);
  return c;
}

int impactfit_lammps_pair_material(double E1, double nu1, double E2, double nu2, double *E, double *nu,
                                   impactfit_error *err) {
  impactfit_error_clear(err);
  if (!E || !nu)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "lammps pair material: NULL result");
  if (!material_ok(E1, nu1) || !material_ok(E2, nu2))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "lammps pair material: expected E > 0 and -1 < nu < 0.5 (got %.17g, %.17g and %.17g, %.17g)",
                           E1, nu1, E2, nu2);
  double es = impactfit_mix_estar(E1, nu1, E2, nu2), gs = impactfit_mix_gstar(E1, nu1, E2, nu2);
  double rho = es / gs, v = (rho - 4.0) / (rho - 2.0);
  if (!(v > -1.0 && v < 0.5))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "lammps pair material: no Poisson's ratio in (-1, 0.5) gives E*/G* = %.17g of these "
                           "materials",
                           rho);
  *nu = v;
  *E = 2.0 * (1.0 - v * v) * es;
  return 0;
}

int impactfit_lammps_mix(const char *normal_model, const char *damping, const double li[3], const double lj[3],
                         impactfit_lammps_mixed_pair *out, impactfit_error *err) {
  impactfit_error_clear(err);
  if (!normal_model || !li || !lj || !out)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "lammps mix: NULL argument");
  out->kn = out->eta = out->estar = NAN;
  int material = strcmp(normal_model, "hertz/material") == 0 || strcmp(normal_model, "dmt") == 0 ||
                 strcmp(normal_model, "jkr") == 0;
  if (!material && strcmp(normal_model, "hooke") != 0 && strcmp(normal_model, "hertz") != 0)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "lammps mix: unknown normal model '%s' (hooke, hertz, hertz/material, dmt, jkr)",
                           normal_model);
  if (!(li[1] >= 0.0 && lj[1] >= 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "lammps mix: damping values must be >= 0 (got %.17g, %.17g)", li[1],
                           lj[1]);
  double ci, cj;
  if (material) {
    out->estar = impactfit_mix_estar(li[0], li[2], lj[0], lj[2]);
    if (isnan(out->estar))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                             "lammps mix: expected E > 0 and -1 < nu < 0.5 (got %.17g, %.17g and %.17g, %.17g)", li[0],
                             li[2], lj[0], lj[2]);
    /* coeff: FOURTHIRDS*mix_stiffnessE(E, E, nu, nu) */
    ci = 4.0 / 3.0 * (1.0 / ((1.0 - li[2] * li[2]) / li[0] + (1.0 - li[2] * li[2]) / li[0]));
    cj = 4.0 / 3.0 * (1.0 / ((1.0 - lj[2] * lj[2]) / lj[0] + (1.0 - lj[2] * lj[2]) / lj[0]));
  } else {
    if (!(li[0] > 0.0 && lj[0] > 0.0))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "lammps mix: kn must be > 0 (got %.17g, %.17g)", li[0], lj[0]);
    ci = li[0];
    cj = lj[0];
  }
  /* init_one reads the pair's (zero) normal_model as HOOKE: mix_geom of the stored coefficients */
  out->kn = sqrt(ci * cj);
  int tsuji = damping && strcmp(damping, "tsuji") == 0;
  double di = tsuji ? impactfit_lammps_tsuji_alpha(li[1]) : li[1],
         dj = tsuji ? impactfit_lammps_tsuji_alpha(lj[1]) : lj[1];
  out->eta = sqrt(di * dj);
  return 0;
}

/* ---------------------------------------------------------------- the spread over sizes and speeds */

static double logspace(double a, double b, int i, int n) { return n <= 1 ? a : a * pow(b / a, (double)i / (n - 1)); }

int impactfit_code_forward_spread(const impactfit_code_request *req, double value, double rho1, double rho2,
                                  double r_min, double r_max, double v_min, double v_max, int points, double e_target,
                                  impactfit_code_spread *out, impactfit_error *err) {
  impactfit_error_clear(err);
  if (!req || !req->model || !out)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "spread: NULL argument");
  memset(out, 0, sizeof *out);
  const double box[6] = {r_min, r_max, r_min, r_max, v_min, v_max};
  return impactfit__forward_box(req, value, rho1, rho2, box, points, e_target, out, err);
}

/* which end of its axis point i of n is: 0 the first, 1 the last, -1 inside (a one-point axis is both ends) */
static int end_of(int i, int n) { return i == 0 ? 0 : i == n - 1 ? 1 : -1; }

static int is_end(int which, int want, int n) { return n == 1 || which == want; }

/* e at one point of the box: r1, r2 (a wall: r1 only), v, the masses from the densities */
int impactfit__box_point(const impactfit_code_request *req, double value, double rho1, double rho2, double r1,
                         double r2, double v, double *e, impactfit_error *err) {
  int wall = req->bodies.pair != 1;
  impactfit_code_request q = *req;
  q.bodies = impactfit_code_bodies_default();
  q.bodies.pair = wall ? 0 : 1;
  q.bodies.r1 = r1;
  q.bodies.rho1 = rho1;
  if (!wall) {
    q.bodies.r2 = r2;
    q.bodies.rho2 = rho2;
  }
  return impactfit_code_forward(&q, value, v, e, err);
}

/* where the grid's point (a, b, k) and e go into the spread: the extremes, the worst, the corners */
static void grid_point(impactfit_code_spread *out, const int n[3], int wall, const int ijk[3], const double at[3],
                       double e, double e_target) {
  if (e < out->e_min) {
    out->e_min = e;
    out->r1_min = at[0], out->r2_min = at[1], out->v_at_min = at[2];
  }
  if (e > out->e_max) {
    out->e_max = e;
    out->r1_max = at[0], out->r2_max = at[1], out->v_at_max = at[2];
  }
  if (!isnan(e_target))
    out->worst = fmax(out->worst, fabs(e - e_target));
  int ca = end_of(ijk[0], n[0]), cb = wall ? ca : end_of(ijk[1], n[1]), ck = end_of(ijk[2], n[2]);
  /* corners (a range of one value is both of its ends) */
  for (int i = 0; i < 8; i++) {
    int ha = is_end(ca, i & 1, n[0]), hb = wall ? ha : is_end(cb, (i >> 1) & 1, n[1]);
    if (ha && hb && is_end(ck, (i >> 2) & 1, n[2]))
      out->e_corner[i] = e;
  }
}

int impactfit__forward_box(const impactfit_code_request *req, double value, double rho1, double rho2,
                           const double box[6], int points, double e_target, impactfit_code_spread *out,
                           impactfit_error *err) {
  double r_min = box[0], r_max = box[1], r2_min = box[2], r2_max = box[3], v_min = box[4], v_max = box[5];
  memset(out, 0, sizeof *out);
  int wall = req->bodies.pair != 1;
  if (!(r_min > 0.0 && r_max >= r_min && isfinite(r_max)) || !(v_min > 0.0 && v_max >= v_min && isfinite(v_max)) ||
      (!wall && !(r2_min > 0.0 && r2_max >= r2_min && isfinite(r2_max))))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "spread: expected 0 < r_min <= r_max and 0 < v_min <= v_max (got %.17g..%.17g m, "
                           "%.17g..%.17g m, %.17g..%.17g m/s)",
                           r_min, r_max, r2_min, r2_max, v_min, v_max);
  if (!(rho1 > 0.0) || (!wall && !(rho2 > 0.0)))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "spread: densities must be > 0 (got %.17g, %.17g)", rho1, rho2);
  if (points < 1)
    points = 5;
  if (points > 64)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "spread: at most 64 points per axis (got %d)", points);
  out->e_min = INFINITY;
  out->e_max = -INFINITY;
  out->worst = isnan(e_target) ? NAN : 0.0;
  const int n[3] = {r_min == r_max ? 1 : points, wall ? 1 : r2_min == r2_max ? 1 : points, v_min == v_max ? 1 : points};
  double *grid = malloc((size_t)n[0] * (size_t)n[1] * (size_t)n[2] * sizeof *grid);
  if (!grid)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  for (int a = 0; a < n[0]; a++)
    for (int b = 0; b < n[1]; b++)
      for (int k = 0; k < n[2]; k++) {
        const int ijk[3] = {a, b, k};
        double r1 = logspace(r_min, r_max, a, n[0]), r2 = wall ? r1 : logspace(r2_min, r2_max, b, n[1]);
        const double at[3] = {r1, r2, logspace(v_min, v_max, k, n[2])};
        double e;
        int s = impactfit__box_point(req, value, rho1, rho2, r1, r2, at[2], &e, err);
        if (s) {
          free(grid);
          return s;
        }
        out->evaluations++;
        grid[((size_t)a * (size_t)n[1] + (size_t)b) * (size_t)n[2] + (size_t)k] = e;
        grid_point(out, n, wall, ijk, at, e, e_target);
      }
  int s = impactfit__refine_box(req, value, rho1, rho2, box, n, grid, e_target, out, err);
  free(grid);
  return s;
}
