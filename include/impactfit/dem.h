/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit — the damping closed forms of DEM and multibody codes, audited.
 *
 * DEM codes turn a coefficient of restitution e into a normal damping coefficient with closed forms.
 * In impactfit's notation f = k δ^n + c δ^m δ' (impact.h; k: the code's Hertz or Hooke stiffness
 * in N/m^n, mass: the effective mass), the formulas are, as written in each code:
 *
 *   hertz-beta   n = 3/2, m = 1/4,  c = −√5 β √(mass k),   β = ln e / √(ln² e + π²)
 *       (exact when the contact ends at δ = 0: Antypov & Elliott 2011)
 *       LIGGGHTS-PUBLIC 3.8 `gran model hertz` (γ_n = −2 √(5/6) β √(S_n m*), S_n = 2 Y* √(R* δ)),
 *       Project Chrono SMC Hertz with material properties, and LAMMPS `damping coeff_restitution`
 *       with a Hertz normal model (versions from 2024 on). With k δ^(3/2) the elastic force,
 *       S_n = (3/2) k δ^(1/2), so all of them are c δ^(1/4) δ' with c = −√5 β √(mass k).
 *       (YADE 2023.02a does not use it: its MindlinPhys converts e with Thornton et al.'s (B6).)
 *   tsuji        n = 3/2, m = 1/4,  c = √2 (1.2728 − 4.2783 e + 11.087 e² − 22.348 e³ + 27.467 e⁴
 *                                           − 18.022 e⁵ + 4.8218 e⁶) √(mass k)
 *       LAMMPS `pair_style granular … damping tsuji` from version 2Sep2026 on, which
 *       multiplies the polynomial fit of Tsuji et al. (1992) by √2; LAMMPS 29 Sep 2021 (Debian 12)
 *       applies the polynomial without √2 (see codes.h, whose registry holds each code version by version).
 *   flores       n = m = 3/2 (Hunt–Crossley), c = λ = 8(1 − e) k / (5 e v)
 *       Project Chrono multicore SMC `ContactForceModel::Flores` (gn = 8(1 − cr) kn δ/(5 cr v_char)).
 *   linear-log   n = 1, m = 0,  c = 2 |ln e| √(mass k) / √(π² + ln² e)
 *       MFiX DEM linear spring–dashpot (DES_ETAN), LAMMPS `damping coeff_restitution` with a Hooke
 *       normal model.
 *
 * Each is audited under the two ways a DEM code ends a contact:
 *   - at δ = 0, a tensile (attractive) force allowed near the end: condition A of impact.h;
 *   - with the force clamped at zero (LIGGGHTS `limitForce on`, LAMMPS `limit_damping`, Chrono's
 *     `forceN < 0 → 0`): once the force reaches zero the bodies move freely, which for a free
 *     impact is exactly condition C (the clamped force stays zero until δ = 0 since the damping
 *     term dominates as δ → 0 when m < n).
 * For m = (n − 1)/2 (the δ^(1/4) damper on a Hertz spring, and the linear dashpot) e_out depends
 * on e only, not on k, mass or v, and the impact maps exactly onto a Kelvin–Voigt oscillator with
 * damping ratio ξ = a/√(2(n+1)) (inverse.h, "the scale-invariant family"): the β formula is that
 * oscillator's exact inverse when the contact ends at δ = 0, and too weak when the force is clamped.
 * The exact prefactor a = c/√(mass k) for both cases is impactfit_dem_exact_prefactor below, and
 * the same as a self-contained generated header, include/impactfit/generated/dem_damping.h, that a
 * DEM code can copy (impactfit_dem_damping_header writes it; `impactfit dem-audit --write-header`).
 */
#ifndef IMPACTFIT_DEM_H
#define IMPACTFIT_DEM_H

#include <stddef.h>

#include "impactfit/common.h"
#include "impactfit/impact.h"
#include "impactfit/inverse.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct impactfit_dem_formula {
  const char *name;  /* "hertz-beta", "tsuji", "flores", "linear-log" */
  const char *codes; /* the codes that use it, with versions */
  const char *expression;
  double n, m;       /* the element's exponents */
  int hunt_crossley; /* 1: c = ε k / v (depends on v); 0: c = a(e) √(mass k) */
  /* the dimensionless prefactor: a = c/√(mass k), or ε = c v/k for Hunt–Crossley */
  double (*prefactor)(double e);
} impactfit_dem_formula;

IMPACTFIT_EXPORT size_t impactfit_dem_formula_count(void);
IMPACTFIT_EXPORT const impactfit_dem_formula *impactfit_dem_formula_at(size_t i);
IMPACTFIT_EXPORT const impactfit_dem_formula *impactfit_dem_formula_from_name(const char *name);

/* The scaled damping ζ of impact.h for formula f at restitution e: ζ = K ε for Hunt–Crossley,
 * ζ = a √K otherwise (K = (n+1)/2), independent of k, mass and v for these formulas. */
IMPACTFIT_EXPORT int impactfit_dem_zeta(const impactfit_dem_formula *f, double e, double *zeta, impactfit_error *err);
/* The prefactor (a or ε) that corresponds to a scaled damping ζ for formula f's exponents. */
IMPACTFIT_EXPORT double impactfit_dem_prefactor_from_zeta(const impactfit_dem_formula *f, double zeta);

/* The exact prefactors a = c/√(mass k) that give restitution e (0 < e ≤ 1), from the inverse
 * solver (impactfit_inverse_solve, default parameters, |e_out − e| ≤ 1e-10 min(e, 1 − e)): a[0] the Hertz spring
 * with the δ^(1/4) damper (n = 3/2, m = 1/4) ending at δ = 0 (A), a[1] the same with the force
 * clamped (C), a[2] the linear spring–dashpot (n = 1, m = 0) under A, a[3] under C. They are
 * Kelvin–Voigt damping ratios ξ = a/√(2(n+1)) (inverse.h): a[0] is the hertz-beta formula and a[2]
 * the linear-log one, exactly. ws may be NULL (allocated for the call). Returns 0, EINVAL for e
 * outside (0, 1], ENOMEM, or the inverse solver's failure. */
IMPACTFIT_EXPORT int impactfit_dem_exact_prefactors(impactfit_inverse_workspace *ws, double e, double a[4],
                                                    impactfit_error *err);

typedef struct impactfit_dem_audit_row {
  const impactfit_dem_formula *formula;
  const impactfit_transition *transition; /* A: tensile end at δ = 0; C: force clamped at zero */
  double e_max, e_mean, e_at_max;         /* |e_out − e| of impacts simulated with the formula */
  size_t points, failures;                /* grid points; points without separation */
} impactfit_dem_audit_row;

/* Simulates the formula's damping at `points` values of e equally spaced on [e_min, e_max] under
 * transition tr (A or C). */
IMPACTFIT_EXPORT int impactfit_dem_audit(impactfit_impact_workspace *ws, const impactfit_dem_formula *f,
                                         const impactfit_transition *tr, double e_min, double e_max, size_t points,
                                         impactfit_dem_audit_row *row, impactfit_error *err);

/* ---- the exact prefactors (the m = (n − 1)/2 elements) ----
 * The Kelvin–Voigt damping ratio ξ whose oscillator has restitution e ∈ (0, 1] (inverse.h, "the
 * scale-invariant family"; impactfit_scale_invariant_zeta with n = 1, ξ = ζ/2):
 *   clamped = 0, the contact ends at δ = 0 with attraction allowed (condition A):
 *       ξ = −ln e/√(π² + ln² e), the DEM codes' own β formula, exact in this case;
 *   clamped = 1, the force is clamped at zero (condition C): the root of
 *       e = exp(−2ξ θ/sin θ), θ = acos ξ (ξ < 1);  exp(−2ξ φ/sinh φ), φ = acosh ξ (ξ > 1),
 *       found by bisection to the last bit (ξ = 1 at e = e^−2 exactly).
 * EINVAL for e outside (0, 1]. Tested (tests/test_dem.c) against the closed forms e(ξ) evaluated
 * independently, and the generated header's functions against these to 1e-15. */
IMPACTFIT_EXPORT int impactfit_dem_damping_ratio(double e, int clamped, double *xi, impactfit_error *err);

/* The exact prefactor a = c/√(mass k) of the element F = k δ^n + a √(mass k) δ^((n−1)/2) δ' with
 * restitution e: a = √(2(n + 1)) ξ, so a = √5 ξ for the Hertz spring with a δ^(1/4) damper (n = 3/2)
 * and a = 2 ξ for the linear spring–dashpot (n = 1). n ≥ 1 (EINVAL otherwise), clamped as above. */
IMPACTFIT_EXPORT int impactfit_dem_exact_prefactor(double n, double e, int clamped, double *a, impactfit_error *err);

/* The text of include/impactfit/generated/dem_damping.h (include/impactfit/codegen.h's writer): the
 * same four prefactors (Hertz and linear, tensile end and clamped force) as static inline functions
 * that need only <math.h>, returning −1 for e outside (0, 1]; *text malloc'ed (free with free()). */
IMPACTFIT_EXPORT int impactfit_dem_damping_header(char **text, size_t *len, impactfit_error *err);

#ifdef __cplusplus
}
#endif
#endif /* IMPACTFIT_DEM_H */
