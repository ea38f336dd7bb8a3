/* SPDX-License-Identifier: GPL-3.0-or-later */
/* DEM codes' damping closed forms and their audit (include/impactfit/dem.h). */
#include <math.h>
#include <string.h>

#include "../common/common_impl.h"
#include "impactfit/dem.h"
#include "impactfit/inverse.h"
#include "dem_impl.h"

/* β = ln e/√(ln² e + π²) = −ξ(e) (inverse.h) */
double impactfit__dem_hertz_beta(double e) { return sqrt(5.0) * impactfit_kv_damping_ratio(e); }

double impactfit__dem_tsuji_poly(double e) {
  return ((((((4.8218 * e - 18.022) * e + 27.467) * e - 22.348) * e + 11.087) * e - 4.2783) * e + 1.2728);
}

static double tsuji(double e) { return sqrt(2.0) * impactfit__dem_tsuji_poly(e); }

static double flores(double e) { return 8.0 * (1.0 - e) / (5.0 * e); }

double impactfit__dem_linear_log(double e) { return 2.0 * impactfit_kv_damping_ratio(e); }

static const impactfit_dem_formula formulas[] = {
    {.name = "hertz-beta",
     .codes = "LIGGGHTS 3.8 hertz; Chrono SMC Hertz; LAMMPS coeff_restitution (2024 on)",
     .expression = "c = -sqrt(5) beta sqrt(mass k), beta = ln e / sqrt(ln^2 e + pi^2), f = k d^(3/2) + c d^(1/4) d'",
     .n = 1.5,
     .m = 0.25,
     .hunt_crossley = 0,
     .prefactor = impactfit__dem_hertz_beta},
    {.name = "tsuji",
     .codes = "LAMMPS granular tsuji, 2Sep2026 on: with sqrt 2 (29Sep2021: without)",
     .expression = "c = sqrt(2) (1.2728 - 4.2783 e + 11.087 e^2 - 22.348 e^3 + 27.467 e^4 - 18.022 e^5 + 4.8218 e^6) "
                   "sqrt(mass k), f = k d^(3/2) + c d^(1/4) d'",
     .n = 1.5,
     .m = 0.25,
     .hunt_crossley = 0,
     .prefactor = tsuji},
    {.name = "flores",
     .codes = "Project Chrono multicore SMC ContactForceModel::Flores",
     .expression = "lambda = 8 (1 - e) k / (5 e v), f = k d^(3/2) + lambda d^(3/2) d'",
     .n = 1.5,
     .m = 1.5,
     .hunt_crossley = 1,
     .prefactor = flores},
    {.name = "linear-log",
     .codes = "MFiX DEM linear spring-dashpot (DES_ETAN); LAMMPS damping coeff_restitution (hooke)",
     .expression = "c = 2 |ln e| sqrt(mass k) / sqrt(pi^2 + ln^2 e), f = k d + c d'",
     .n = 1.0,
     .m = 0.0,
     .hunt_crossley = 0,
     .prefactor = impactfit__dem_linear_log},
};

size_t impactfit_dem_formula_count(void) { return sizeof formulas / sizeof formulas[0]; }

const impactfit_dem_formula *impactfit_dem_formula_at(size_t i) {
  return i < impactfit_dem_formula_count() ? &formulas[i] : NULL;
}

const impactfit_dem_formula *impactfit_dem_formula_from_name(const char *name) {
  for (size_t i = 0; name && i < impactfit_dem_formula_count(); i++)
    if (strcmp(formulas[i].name, name) == 0)
      return &formulas[i];
  return NULL;
}

/* With c = a √(mass k) and m = (n − 1)/2: δ_m0^(m+1) = √((n+1) mass v²/(2k)), so
 * ζ = c δ_m0^(m+1)/(mass v) = a √K, K = (n+1)/2, for any k, mass, v. Hunt–Crossley: ζ = K ε. */
double impactfit_dem_prefactor_from_zeta(const impactfit_dem_formula *f, double zeta) {
  double K = 0.5 * (f->n + 1.0);
  return f->hunt_crossley ? zeta / K : zeta / sqrt(K);
}

int impactfit_dem_zeta(const impactfit_dem_formula *f, double e, double *zeta, impactfit_error *err) {
  if (!f || !zeta)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no formula given");
  if (!(isfinite(e) && e > 0.0 && e <= 1.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "restitution e must be in (0, 1] (got %.17g)", e);
  double K = 0.5 * (f->n + 1.0), a = f->prefactor(e);
  if (!isfinite(a))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "formula %s is not finite at e = %g", f->name, e);
  *zeta = f->hunt_crossley ? K * a : sqrt(K) * a;
  return 0;
}

int impactfit_dem_audit(impactfit_impact_workspace *ws, const impactfit_dem_formula *f, const impactfit_transition *tr,
                        double e_min, double e_max, size_t points, impactfit_dem_audit_row *row, impactfit_error *err) {
  if (!ws || !f || !row || !tr)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no workspace, formula, transition or row given");
  if (!(e_min > 0.0 && e_max <= 1.0 && e_min <= e_max) || points < 1 || (points == 1 && e_min != e_max))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "invalid grid [%g, %g] with %zu points", e_min, e_max, points);
  memset(row, 0, sizeof *row);
  row->formula = f;
  row->transition = tr;
  row->points = points;
  double sum = 0.0;
  for (size_t i = 0; i < points; i++) {
    double e = (points == 1) ? e_min : e_min + (e_max - e_min) * (double)i / (double)(points - 1), z;
    int st = impactfit_dem_zeta(f, e, &z, err);
    if (st)
      return st;
    impactfit_impact_params p = impactfit_impact_scaled_params(f->n, f->m, z);
    p.transition = tr;
    p.locate_extrema = 0;
    impactfit_impact_result r;
    impactfit_error e2;
    st = impactfit_impact_solve(ws, &p, &r, &e2);
    double d;
    if (st == IMPACTFIT_ENOSEP) {
      row->failures++;
      d = e; /* e_out = 0: the bodies stay together */
    } else if (st) {
      if (err)
        *err = e2;
      return st;
    } else {
      d = fabs(r.e_out - e);
    }
    sum += d;
    if (d > row->e_max) {
      row->e_max = d;
      row->e_at_max = e;
    }
  }
  row->e_mean = sum / (double)points;
  return 0;
}

/* ---- the exact prefactors -------------------------------------------------------------------- */

int impactfit_dem_damping_ratio(double e, int clamped, double *xi, impactfit_error *err) {
  if (!xi)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no result given");
  double zeta;
  /* n = 1: ζ = 2ξ, so ξ = ζ/2 exactly */
  int st = impactfit_scale_invariant_zeta(1.0, e, clamped ? impactfit_transition_C : impactfit_transition_A, &zeta,
                                          err);
  if (st)
    return st;
  *xi = 0.5 * zeta;
  return 0;
}

int impactfit_dem_exact_prefactor(double n, double e, int clamped, double *a, impactfit_error *err) {
  if (!a)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no result given");
  if (!(isfinite(n) && n >= 1.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "spring exponent n must be a finite number >= 1 (got %.17g)", n);
  double xi;
  int st = impactfit_dem_damping_ratio(e, clamped, &xi, err);
  if (st)
    return st;
  *a = sqrt(2.0 * (n + 1.0)) * xi;
  return 0;
}

int impactfit_dem_exact_prefactors(impactfit_inverse_workspace *ws, double e, double a[4], impactfit_error *err) {
  if (!(isfinite(e) && e > 0.0 && e <= 1.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "restitution e must be in (0, 1] (got %.17g)", e);
  impactfit_inverse_workspace *own = ws ? NULL : impactfit_inverse_alloc();
  if (!ws && !(ws = own))
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  const impactfit_dem_formula *hertz = impactfit_dem_formula_from_name("hertz-beta"),
                              *linear = impactfit_dem_formula_from_name("linear-log");
  int st = IMPACTFIT_OK;
  for (int c = 0; c < 4 && !st; c++) {
    impactfit_inverse_params p = impactfit_inverse_default_params();
    p.n = c < 2 ? 1.5 : 1.0; /* the exponents of the two formulas */
    p.m = c < 2 ? 0.25 : 0.0;
    p.transition = (c % 2) ? impactfit_transition_C : impactfit_transition_A;
    impactfit_inverse_result r;
    st = impactfit_inverse_solve(ws, &p, e, 0.0, &r, err);
    if (!st)
      a[c] = impactfit_dem_prefactor_from_zeta(c < 2 ? hertz : linear, r.zeta);
  }
  impactfit_inverse_free(own);
  return st;
}
