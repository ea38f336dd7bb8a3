/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The building blocks several codes share (blocks_impl.h). */
#include <math.h>
#include <string.h>

#include "../common/common_impl.h"
#include "blocks_impl.h"
#include "impactfit/inverse.h"

/* ---------------------------------------------------------------- one constraint row */

void impactfit__row_erp_cfm(double h, double k, double c, double floor, double *erp, double *cfm) {
  double denom = h * k + c;
  if (denom < floor)
    denom = floor;
  *cfm = 1.0 / denom;
  *erp = h * k / denom;
}

void impactfit__row_kv_limit(double k, double c, impactfit_law *law, const impactfit_transition **end) {
  *law = impactfit_law_power_make(k, 1.0, c, 0.0);
  *end = impactfit_transition_C;
}

int impactfit__naive_kd(const impactfit_code_ctx *c, double e, double k, double *value, impactfit_text *what) {
  *value = 2.0 * impactfit_kv_damping_ratio(e) * sqrt(k * c->M);
  impactfit_text_appendf(what, "kd = 2 sqrt(kp M) (-ln e)/sqrt(pi^2 + ln^2 e) (linear spring-damper, contact to delta "
                               "= 0)");
  return 0;
}

void impactfit__range_critical(double k, double M, double lo_ratio, double hi_ratio, double *lo, double *hi) {
  double crit = 2.0 * sqrt(k * M);
  *lo = lo_ratio * crit;
  *hi = hi_ratio * crit;
}

/* ---------------------------------------------------------------- continuous time */

const impactfit_code_integrator impactfit__continuous_only[1] = {
    {.name = "continuous",
     .stepper = NULL,
     .summary = "continuous time: the force law integrated exactly (impact.h); the code's own time step is not "
                "modelled"},
};

void impactfit__continuous_stepper(const impactfit_code_ctx *c, const impactfit_law *law, impactfit_stepper *st) {
  memset(st, 0, sizeof *st);
  st->type = NULL;
  st->law = *law;
  st->end = c->clamp ? impactfit_transition_C : impactfit_transition_A;
  st->mass = c->M;
  st->dt = NAN;
}

/* ---------------------------------------------------------------- the DEM codes' power law */

const impactfit_code_input impactfit__dem_in_material[2] = {IMPACTFIT__IN_E, IMPACTFIT__IN_NU};
const impactfit_code_input impactfit__dem_in_vchar[3] = {IMPACTFIT__IN_E, IMPACTFIT__IN_NU, IMPACTFIT__IN_VCHAR};
const impactfit_code_input impactfit__dem_in_kn_pa[1] = {IMPACTFIT__IN_KN("Pa")};
const impactfit_code_input impactfit__dem_in_kn_nm[1] = {IMPACTFIT__IN_KN("N/m")};
const impactfit_code_input impactfit__dem_in_tc[1] = {IMPACTFIT__IN_TC};

/* E* of two bodies of the same material: 1/((1 − ν²)/E + (1 − ν²)/E) (the wall is of the same material): the
 * convention of LAMMPS hertz/material, LIGGGHTS and YADE alike. */
static double estar(double E, double nu) { return E / (2.0 * (1.0 - nu * nu)); }

static int need_material(const impactfit_code_ctx *c, double *E, double *nu, impactfit_error *err) {
  *E = impactfit_code_value(c, "E")[0];
  *nu = impactfit_code_value(c, "nu")[0];
  if (!(isfinite(*E) && *E > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "this model needs Young's modulus E > 0 (Pa) (got %.17g)", *E);
  if (!(isfinite(*nu) && *nu > -1.0 && *nu < 0.5))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "this model needs Poisson's ratio nu in (-1, 0.5) (got %.17g)", *nu);
  return 0;
}

static int need_kn(const impactfit_code_ctx *c, double *kn, impactfit_error *err) {
  *kn = impactfit_code_value(c, "kn")[0];
  if (!(isfinite(*kn) && *kn > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "this model needs the code's stiffness kn > 0 (got %.17g)", *kn);
  return 0;
}

/* K of the model's stiffness kind; *Mcode: the mass the code's own formulas use (YADE ViscEl on a wall: M/2) */
static int dem_K(const impactfit_code_ctx *c, const impactfit__dem_law *o, double p, double *K, double *Mcode,
                 impactfit_error *err) {
  double R = c->R, M = c->M, E, nu, kn;
  int wall = c->wall, st = 0;
  *Mcode = M;
  switch (o->stiffness) {
  case IMPACTFIT__ST_HERTZ_MAT_YWALL:
    if (wall)
      R *= 0.5;
    /* fall through */
  case IMPACTFIT__ST_HERTZ_MAT:
  case IMPACTFIT__ST_HERTZ_MAT_LWALL:
    if (!(st = need_material(c, &E, &nu, err)))
      *K = 4.0 / 3.0 * (o->stiffness == IMPACTFIT__ST_HERTZ_MAT_LWALL && wall ? E / (2.0 * (1.0 - nu)) : estar(E, nu)) *
           sqrt(R);
    break;
  case IMPACTFIT__ST_HERTZ_KN:
    if (!(st = need_kn(c, &kn, err)))
      *K = kn * sqrt(R);
    break;
  case IMPACTFIT__ST_LINEAR_KN:
    if (!(st = need_kn(c, &kn, err)))
      *K = kn;
    break;
  case IMPACTFIT__ST_HOOKE_VCHAR: {
    if ((st = need_material(c, &E, &nu, err)))
      break;
    double V = impactfit_code_value(c, "vchar")[0];
    if (!(isfinite(V) && V > 0.0))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                             "this model needs the characteristic velocity > 0 (m/s) (got %.17g)", V);
    double a = 16.0 / 15.0 * sqrt(R) * estar(E, nu);
    *K = a * pow(M * V * V / a, 0.2);
    break;
  }
  case IMPACTFIT__ST_VISCEL_TC: {
    double tc = impactfit_code_value(c, "tc")[0];
    if (!(isfinite(tc) && tc > 0.0))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "this model needs the contact time tc > 0 (s) (got %.17g)", tc);
    double L = log(p);
    *Mcode = wall ? 0.5 * M : M; /* ViscElPhys: a body of mass 0 (a wall) takes the other's mass */
    *K = (IMPACTFIT__PI * IMPACTFIT__PI + L * L) * *Mcode / (tc * tc);
    break;
  }
  case IMPACTFIT__ST_VISCEL_KN:
    if (!(st = need_kn(c, &kn, err)))
      *K = 0.5 * kn;
    break;
  }
  return st;
}

int impactfit__dem_build(const impactfit_code_ctx *c, double p, impactfit_stepper *st, impactfit_error *err) {
  const impactfit__dem_law *o = c->model->ops->data;
  double K = NAN, C = NAN, Mcode;
  int s = dem_K(c, o, p, &K, &Mcode, err);
  if (s)
    return s;
  double M = c->M, R = c->R;
  switch (o->damping) {
  case IMPACTFIT__DA_CONST:
    C = p;
    break;
  case IMPACTFIT__DA_MASS:
    C = p * M;
    break;
  case IMPACTFIT__DA_MASS_SQRTR:
    C = p * M * sqrt(R);
    break;
  case IMPACTFIT__DA_CONV_SQRTMK:
    C = o->conv(p) * sqrt(M * K);
    break;
  case IMPACTFIT__DA_VISCEL_TC:
    C = -2.0 * log(p) * Mcode / impactfit_code_value(c, "tc")[0];
    break;
  case IMPACTFIT__DA_HALF:
    C = 0.5 * p;
    break;
  }
  impactfit_law law = impactfit_law_power_make(K, c->model->n, C, c->model->m);
  impactfit__continuous_stepper(c, &law, st);
  return 0;
}

int impactfit__dem_naive(const impactfit_code_ctx *c, double e, double *value, impactfit_text *what,
                         impactfit_error *err) {
  (void)what, (void)err;
  if (!c->model->takes_e)
    return 1;
  *value = e;
  return 0;
}
