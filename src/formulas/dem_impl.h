/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Internal: the DEM codes' damping conversions of include/impactfit/dem.h that the code registry
 * (src/codes/) calls as the codes' own conversions, so that each formula is written once. */
#ifndef IMPACTFIT_DEM_IMPL_H
#define IMPACTFIT_DEM_IMPL_H

/* √5 ξ(e) = −√5 β: c/√(mass k) of LIGGGHTS hertz, Chrono Hertz, LAMMPS coeff_restitution (Hertz) */
double impactfit__dem_hertz_beta(double e);
/* Tsuji et al.'s polynomial as Marshall (2009) fitted it, without the √2 of LAMMPS 2Sep2026 */
double impactfit__dem_tsuji_poly(double e);
/* 2 ξ(e): c/√(mass k) of the linear spring-dashpot (MFiX; LAMMPS coeff_restitution with hooke) */
double impactfit__dem_linear_log(double e);

#endif
