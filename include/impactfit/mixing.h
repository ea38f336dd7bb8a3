/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit — two materials and size distributions in the DEM codes: each code's own rule for a contact of
 * unlike bodies, read in its source, what to type for every type pair, and the restitution a typed value
 * gives over the user's ranges of sizes and speeds.
 *
 * The mixing rules (file:line of the versions read; docs/SCENE.md has the lines a user types):
 *  - E* = 1/((1 − ν1²)/E1 + (1 − ν2²)/E2): LAMMPS granular's mix_stiffnessE (29Sep2021 pair_granular.cpp:1780-
 *    1784), LIGGGHTS's Yeff (3.8.0 global_properties.cpp:424-434), YADE's Ip2_FrictMat_FrictMat_MindlinPhys E,
 *    Chrono's E_eff (10.0.0 ChContactMaterialSMC.cpp:110-115, in float);
 *  - G* = 1/(2 (2 − ν1)(1 + ν1)/E1 + 2 (2 − ν2)(1 + ν2)/E2): LAMMPS mix_stiffnessG (:1790-1794), LIGGGHTS Geff
 *    (:441-466), Chrono G_eff;
 *  - LAMMPS 29Sep2021 pair granular, a type pair I ≠ J without its own pair_coeff (init_one, :1198-1241; an
 *    error when the two types' models differ): the normal coefficient of hertz/material, dmt and jkr is
 *    mix_stiffnessE(E_I, E_J, ν_I, ν_J) where a pair_coeff line stores 4/3 mix_stiffnessE(E, E, ν, ν) (coeff,
 *    :1006-1009): the mixed pair's stiffness is 3/4 of the 4/3 E* √(R δ) its own line would give; hooke and hertz
 *    (kn typed): sqrt(k_I k_J); the damping coefficient sqrt(η_I η_J), for tsuji of the α the two lines'
 *    restitutions were converted to (:987-991); tangential, rolling and twisting coefficients their geometric
 *    means (friction sqrt(μ_I μ_J));
 *  - LIGGGHTS 3.8.0: E and ν per type (youngsModulus, poissonsRatio peratomtype), Yeff and Geff per pair from
 *    them; coefficientRestitution and coefficientFriction are per type pair (peratomtypepair N, N² values):
 *    every pair's e is typed;
 *  - YADE: E* as above, the friction angle the smaller of the two (or a MatchMaker), en and es MatchMakers
 *    (per material pair, or an algorithm of the two materials' values);
 *  - Chrono 10.0.0 SMC: E_eff, G_eff as above; the restitution min(cr1, cr2), friction min, kn and gn means
 *    (ChContactMaterialCompositionStrategy, ChContactMaterial.h:161-169; ChSystem's strategy can be replaced). */
#ifndef IMPACTFIT_MIXING_H
#define IMPACTFIT_MIXING_H

#include "impactfit/common.h"
#include "impactfit/codes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* E* and G* of two materials (Pa; E > 0, −1 < ν < 0.5); NaN for invalid values. */
IMPACTFIT_EXPORT double impactfit_mix_estar(double E1, double nu1, double E2, double nu2);
IMPACTFIT_EXPORT double impactfit_mix_gstar(double E1, double nu1, double E2, double nu2);

/* LAMMPS's tsuji conversion of a pair_coeff's restitution (the 6th-degree polynomial α(cor), pair_granular.cpp
 * 29Sep2021 :987-991), and its inverse on [0, 1] (the cor whose α is alpha; NaN outside α(1) … α(0)). */
IMPACTFIT_EXPORT double impactfit_lammps_tsuji_alpha(double cor);
IMPACTFIT_EXPORT double impactfit_lammps_tsuji_cor(double alpha);

/* What `pair_coeff I J hertz/material E ETA NU ...` must carry for a type pair of two materials so that LAMMPS
 * computes their E* (normal) and G* (tangential, when tangential coefficients are NULL) from it: a line's own
 * coefficients are 4/3 E/(2 (1 − ν²)) and 8 E/(4 (2 − ν)(1 + ν)) (:1006-1019), so ν = (ρ − 4)/(ρ − 2) with
 * ρ = E* / G*, E = 2 (1 − ν²) E*. Returns 0, or EINVAL for invalid materials or when ν would leave (−1, 0.5). */
IMPACTFIT_EXPORT int impactfit_lammps_pair_material(double E1, double nu1, double E2, double nu2, double *E, double *nu,
                                                    impactfit_error *err);

/* A LAMMPS granular type pair I ≠ J without its own pair_coeff, as 29Sep2021 runs it. init_one (:1198-1241)
 * mixes the coefficients for the two types' model but never sets the pair's model choices: normal_model,
 * damping_model, tangential_model and limit_damping [I][J] are set only by a pair_coeff line (coeff, :1002-1030)
 * and are otherwise what memory->create's malloc left (allocate, :725-745). With the zeroed memory of a fresh
 * allocation (measured in Debian's LAMMPS: tests/dem/run_mixing.py) the pair is normal hooke (enum 0), damping
 * velocity (0), tangential linear_nohistory (0), limit_damping off: a linear spring kn = sqrt(c_I c_J) of the
 * lines' stored normal coefficients (hertz/material: 4/3 E/(2 (1 − ν²)) used as N/m) and a damper
 * η = sqrt(d_I d_J) of their stored damping values (for tsuji the α of their restitutions, :987-991). line_i and
 * line_j: E (or kn for hooke, hertz), the damping value as typed (the restitution for tsuji), ν. The result is
 * for impactfit's "granular hooke" entry with damping "velocity" (kn, eta). Every type pair should get its own
 * pair_coeff line in this version. Returns 0 or EINVAL. */
typedef struct impactfit_lammps_mixed_pair {
  double kn;    /* the mixed pair's spring, N/m */
  double eta;   /* its damper, N s/m */
  double estar; /* E* of the two materials (hertz/material, dmt, jkr; NaN for hooke, hertz) */
} impactfit_lammps_mixed_pair;

IMPACTFIT_EXPORT int impactfit_lammps_mix(const char *normal_model, const char *damping, const double line_i[3],
                                          const double line_j[3], impactfit_lammps_mixed_pair *out,
                                          impactfit_error *err);

/* The restitution a typed value gives over a size distribution and a speed range: both radii over
 * [r_min, r_max] (points each, log-spaced; on a wall, r1 only), speeds over [v_min, v_max] (points, log-spaced),
 * masses from the densities rho1, rho2 (kg/m³), the rest of the request (model, settings, clamp, integrator,
 * dt) from req; two spheres when req->bodies.pair is 1, else a sphere on a wall (the bodies' sizes and masses
 * of req are replaced). Every point is impactfit_code_forward's e (the exact e in continuous time, the phase
 * mean at a step). */
/* (impactfit_code_spread is in codes.h.) */
IMPACTFIT_EXPORT int impactfit_code_forward_spread(const impactfit_code_request *req, double value, double rho1,
                                                   double rho2, double r_min, double r_max, double v_min, double v_max,
                                                   int points, double e_target, impactfit_code_spread *out,
                                                   impactfit_error *err);

#ifdef __cplusplus
}
#endif
#endif /* IMPACTFIT_MIXING_H */
