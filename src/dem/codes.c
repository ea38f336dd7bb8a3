/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The registry of DEM codes' contact models and the exact inputs for them (include/impactfit/demcodes.h).
 *
 * Each model is described by three small functions: its stiffness K (F_elastic = K δ^n), the factor g
 * with C = conv(p)·g (conv = the code's own conversion of a restitution, or the identity when the
 * user types a damping constant), and the text the user pastes. The inverse of conv is found by
 * bisection on (0, 1): every conversion registered here is strictly decreasing in e there (checked
 * in tests/test_demcodes.c), and bisection to the last bit is exact and needs no library. */
#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../common/common_impl.h"
#include "impactfit/demcodes.h"
#include "impactfit/impact.h"
#include "impactfit/inverse.h"

/* How a model computes K and C (F = K δ^n + C δ^m δ') from the contact and the user's parameter p. */
typedef enum {
  ST_HERTZ_MAT,       /* K = (4/3) E* √R, E* = E/(2(1 − ν²)) */
  ST_HERTZ_MAT_LWALL, /* the same, but a LAMMPS fix wall/gran wall has E* = E/(2(1 − ν)) */
  ST_HERTZ_MAT_YWALL, /* the same, but a YADE wall (utils.wall) counts the sphere's radius twice: R = r/2 */
  ST_HERTZ_KN,        /* K = kn √R (F = kn √(Rδ) δ) */
  ST_LINEAR_KN,       /* K = kn */
  ST_HOOKE_VCHAR,     /* K = (16/15) √R E* (15 M V²/(16 √R E*))^(1/5), V the characteristic velocity */
  ST_VISCEL_TC,       /* YADE ViscElMat(tc, en): K = (π² + ln² en) M' / tc², M' the code's mass (wall: M/2) */
  ST_VISCEL_KN,       /* YADE ViscElMat(kn, cn): two bodies' springs in series, K = kn/2 */
  ST_HERTZ_MAT_NOR,   /* Chrono PlainCoulomb: K = (4/3) E* (Hertz without the radius) */
  ST_KN_R,            /* Chrono Hertz with kn, gn: K = kn R (R, not √R) */
  ST_KN_NOR           /* Chrono PlainCoulomb with kn, gn: K = kn (F = kn δ^(3/2)) */
} dem_stiffness;

typedef enum {
  DA_CONST,       /* C = p */
  DA_MASS,        /* C = p M */
  DA_MASS_SQRTR,  /* C = p M √R */
  DA_CONV_SQRTMK, /* C = conv(p) √(M K) */
  DA_VISCEL_TC,   /* C = −2 ln(p) M' / tc */
  DA_HALF,        /* C = p/2 (two bodies' dashpots in series) */
  DA_MASS_R       /* C = p M R (Chrono Hertz with kn, gn) */
} dem_damping;

typedef struct impactfit__dem_ops {
  dem_stiffness stiffness;
  dem_damping damping;
  double (*conv)(double p); /* DA_CONV_SQRTMK: the code's conversion of its parameter */
  double p_min;             /* the code refuses a parameter <= p_min (LIGGGHTS: e <= 0.05); 0: none */
  void (*input)(const impactfit_dem_model *md, const impactfit_dem_contact *c, int clamp, double p, char *buf,
                size_t size);
} dem_ops;

/* ---------------------------------------------------------------- helpers */


/* E* of two bodies of the same material: 1/((1 − ν²)/E + (1 − ν²)/E) (the wall is of the same
 * material): the convention of LAMMPS hertz/material, LIGGGHTS, YADE and Chrono alike. */
static double estar(const impactfit_dem_contact *c) { return c->E / (2.0 * (1.0 - c->nu * c->nu)); }

static int need_material(const impactfit_dem_contact *c, impactfit_error *err) {
  if (!(isfinite(c->E) && c->E > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "this model needs Young's modulus E > 0 (Pa) (got %.17g)", c->E);
  if (!(isfinite(c->nu) && c->nu > -1.0 && c->nu < 0.5))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "this model needs Poisson's ratio nu in (-1, 0.5) (got %.17g)",
                           c->nu);
  return 0;
}

static int need_kn(const impactfit_dem_contact *c, impactfit_error *err) {
  if (!(isfinite(c->kn) && c->kn > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "this model needs the code's stiffness kn > 0 (got %.17g)", c->kn);
  return 0;
}

/* β = ln e / √(ln² e + π²), the damping-ratio conversion of LIGGGHTS, Chrono and others */
static double beta_of(double e) {
  double L = log(e);
  return L / sqrt(L * L + IMPACTFIT__PI * IMPACTFIT__PI);
}

static void appendf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void appendf(char *buf, size_t size, const char *fmt, ...) {
  size_t len = strlen(buf);
  if (len + 1 >= size)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + len, size - len, fmt, ap);
  va_end(ap);
}

/* ---------------------------------------------------------------- the force law */

/* K and C of model md for the contact c (effective R, M) and the user's parameter p. */
static int law_K_C(const impactfit_dem_model *md, const impactfit_dem_contact *c, double R, double M, double p,
                   double *K, double *C, impactfit_error *err) {
  const dem_ops *o = md->ops;
  int wall = c->geometry == IMPACTFIT_DEM_SPHERE_WALL, st;
  double Mcode = M;
  switch (o->stiffness) {
  case ST_HERTZ_MAT_YWALL:
    if (wall)
      R *= 0.5;
    /* fall through */
  case ST_HERTZ_MAT:
  case ST_HERTZ_MAT_LWALL:
    if ((st = need_material(c, err)))
      return st;
    *K = 4.0 / 3.0 * (o->stiffness == ST_HERTZ_MAT_LWALL && wall ? c->E / (2.0 * (1.0 - c->nu)) : estar(c)) * sqrt(R);
    break;
  case ST_HERTZ_KN:
    if ((st = need_kn(c, err)))
      return st;
    *K = c->kn * sqrt(R);
    break;
  case ST_LINEAR_KN:
    if ((st = need_kn(c, err)))
      return st;
    *K = c->kn;
    break;
  case ST_HOOKE_VCHAR: {
    if ((st = need_material(c, err)))
      return st;
    if (!(isfinite(c->v_char) && c->v_char > 0.0))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                             "this model needs the characteristic velocity > 0 (m/s) (got %.17g)", c->v_char);
    double a = 16.0 / 15.0 * sqrt(R) * estar(c);
    *K = a * pow(M * c->v_char * c->v_char / a, 0.2);
    break;
  }
  case ST_VISCEL_TC: {
    if (!(isfinite(c->tc) && c->tc > 0.0))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "this model needs the contact time tc > 0 (s) (got %.17g)", c->tc);
    double L = log(p);
    Mcode = wall ? 0.5 * M : M; /* ViscElPhys: a body of mass 0 (a wall) takes the other's mass */
    *K = (IMPACTFIT__PI * IMPACTFIT__PI + L * L) * Mcode / (c->tc * c->tc);
    break;
  }
  case ST_VISCEL_KN:
    if ((st = need_kn(c, err)))
      return st;
    *K = 0.5 * c->kn;
    break;
  case ST_HERTZ_MAT_NOR:
    if ((st = need_material(c, err)))
      return st;
    *K = 4.0 / 3.0 * estar(c);
    break;
  case ST_KN_R:
    if ((st = need_kn(c, err)))
      return st;
    *K = c->kn * R;
    break;
  case ST_KN_NOR:
    if ((st = need_kn(c, err)))
      return st;
    *K = c->kn;
    break;
  }
  switch (o->damping) {
  case DA_CONST:
    *C = p;
    break;
  case DA_MASS:
    *C = p * M;
    break;
  case DA_MASS_SQRTR:
    *C = p * M * sqrt(R);
    break;
  case DA_CONV_SQRTMK:
    *C = o->conv(p) * sqrt(M * *K);
    break;
  case DA_VISCEL_TC:
    *C = -2.0 * log(p) * Mcode / c->tc;
    break;
  case DA_HALF:
    *C = 0.5 * p;
    break;
  case DA_MASS_R:
    *C = p * M * R;
    break;
  }
  return 0;
}

/* ---------------------------------------------------------------- conversions of e */

/* LAMMPS `damping tsuji`: the polynomial of Tsuji et al. (1992) as fitted by Marshall (2009), α(e),
 * used as η = α √(M knfac) with knfac = kn (hooke) or K δ^(1/2) (hertz): C = α √(M K). */
static double conv_tsuji(double e) {
  return ((((((4.8218 * e - 18.022) * e + 27.467) * e - 22.348) * e + 11.087) * e - 4.2783) * e + 1.2728);
}
/* the same with the √2 of later LAMMPS versions */
static double conv_tsuji_sqrt2(double e) { return sqrt(2.0) * conv_tsuji(e); }
/* LIGGGHTS / Chrono / LAMMPS coeff_restitution Hertz: γ_n = −2√(5/6) β √(S_n M), S_n = 2E*√(Rδ) = (3/2) K δ^(1/2):
 * C = √5 |β| √(M K) */
static double conv_hertz_beta(double e) { return -sqrt(5.0) * beta_of(e); }
/* linear spring–dashpot with the Kelvin–Voigt inverse: γ_n = 2|ln e| √(M k)/√(π² + ln² e) */
static double conv_linear_log(double e) { return -2.0 * beta_of(e); }
/* YADE 2023.02a MindlinPhys(en): β_n from Thornton et al. (2013) Eq. (B6)/(B7), then
 * c_n = 2 β_n √(M k_n) with k_n = (3/2) K δ^(1/2): C = 2 √(3/2) β_n √(M K) */
static double yade_b6(double e) {
  static const double h[10] = {-6.918798, -16.41105, 146.8049,  -796.4559, 2928.711,
                               -7206.864, 11494.29,  -11342.18, 6276.757,  -1489.915};
  if (e >= 1.0)
    return 0.0;
  double a = h[9];
  for (int i = 8; i >= 0; i--)
    a = h[i] + e * a;
  a *= e;
  return sqrt(1.0 / (1.0 - (1.0 + e) * (1.0 + e) * exp(a)) - 1.0);
}
static double conv_yade_en(double e) { return 2.0 * sqrt(1.5) * yade_b6(e); }
static double conv_yade_betan(double b) { return 2.0 * sqrt(1.5) * b; }

/* ---------------------------------------------------------------- input texts */

static void in_lammps_granular(const impactfit_dem_model *md, const impactfit_dem_contact *c, int clamp, double p,
                               char *buf, size_t size) {
  const char *normal = md->model + strlen("granular ");
  char args[512];
  if (md->needs_material)
    snprintf(args, sizeof args, "%s %.10g %.12g %.10g tangential linear_nohistory 0 0 damping %s%s", normal, c->E, p,
             c->nu, md->damping, clamp ? " limit_damping" : "");
  else
    snprintf(args, sizeof args, "%s %.10g %.12g tangential linear_nohistory 0 0 damping %s%s", normal, c->kn, p,
             md->damping, clamp ? " limit_damping" : "");
  buf[0] = 0;
  appendf(buf, size, "pair_style granular\npair_coeff * * %s\n", args);
  if (c->geometry == IMPACTFIT_DEM_SPHERE_WALL)
    appendf(buf, size, "fix wall all wall/gran granular %s zplane 0.0 NULL\n", args);
}

static void in_lammps_gran(const impactfit_dem_model *md, const impactfit_dem_contact *c, int clamp, double p,
                           char *buf, size_t size) {
  /* pair_style gran/... Kn Kt gamma_n gamma_t xmu dampflag [limit_damping] */
  char args[256];
  snprintf(args, sizeof args, "%.10g NULL %.12g NULL 0.0 0%s", c->kn, p, clamp ? " limit_damping" : "");
  buf[0] = 0;
  appendf(buf, size, "pair_style %s %s\npair_coeff * *\n", md->model, args);
  if (c->geometry == IMPACTFIT_DEM_SPHERE_WALL)
    appendf(buf, size, "fix wall all wall/gran %s %s zplane 0.0 NULL\n", md->model + strlen("gran/"), args);
}

static void in_liggghts(const impactfit_dem_model *md, const impactfit_dem_contact *c, int clamp, double p, char *buf,
                        size_t size) {
  int absolute = !strcmp(md->damping, "absolute_damping");
  char opts[128];
  snprintf(opts, sizeof opts, "%s%s", absolute ? " absolute_damping on" : "", clamp ? " limitForce on" : "");
  buf[0] = 0;
  appendf(buf, size, "pair_style gran model %s tangential no_history%s\npair_coeff * *\n", md->model, opts);
  if (md->needs_material) {
    appendf(buf, size, "fix m1 all property/global youngsModulus peratomtype %.10g\n", c->E);
    appendf(buf, size, "fix m2 all property/global poissonsRatio peratomtype %.10g\n", c->nu);
    appendf(buf, size, "fix m3 all property/global coefficientRestitution peratomtypepair 1 %.12g\n", p);
    appendf(buf, size, "fix m4 all property/global coefficientFriction peratomtypepair 1 0.0\n");
    if (strcmp(md->model, "hooke") == 0)
      appendf(buf, size, "fix m5 all property/global characteristicVelocity scalar %.10g\n", c->v_char);
  } else {
    appendf(buf, size, "fix m1 all property/global kn peratomtypepair 1 %.10g\n", c->kn);
    appendf(buf, size, "fix m2 all property/global kt peratomtypepair 1 %.10g\n", c->kn);
    appendf(buf, size, "fix m3 all property/global %s peratomtypepair 1 %.12g\n", absolute ? "gamman_abs" : "gamman",
            p);
    appendf(buf, size, "fix m4 all property/global %s peratomtypepair 1 0.0\n", absolute ? "gammat_abs" : "gammat");
    appendf(buf, size, "fix m5 all property/global coefficientFriction peratomtypepair 1 0.0\n");
  }
  if (c->geometry == IMPACTFIT_DEM_SPHERE_WALL) /* model keywords after the primitive, or the fix refuses them */
    appendf(buf, size, "fix wall all wall/gran model %s tangential no_history primitive type 1 zplane 0.0%s\n",
            md->model, opts);
}

static void in_yade(const impactfit_dem_model *md, const impactfit_dem_contact *c, int clamp, double p, char *buf,
                    size_t size) {
  (void)clamp;
  buf[0] = 0;
  if (!strcmp(md->model, "mindlin")) {
    double rho = isfinite(c->m1) && isfinite(c->r1) ? c->m1 / (4.0 / 3.0 * IMPACTFIT__PI * c->r1 * c->r1 * c->r1) : NAN;
    if (isfinite(rho)) /* the spheres' density gives YADE their masses */
      appendf(buf, size, "mat = FrictMat(young=%.10g, poisson=%.10g, density=%.10g, frictionAngle=0)\n", c->E, c->nu,
              rho);
    else
      appendf(buf, size, "mat = FrictMat(young=%.10g, poisson=%.10g, frictionAngle=0)  # and the bodies' density\n",
              c->E, c->nu);
    appendf(buf, size, "ip2 = Ip2_FrictMat_FrictMat_MindlinPhys(%s=%.12g)\n", md->param, p);
    appendf(buf, size, "law2 = Law2_ScGeom_MindlinPhys_Mindlin()\n");
  } else {
    if (!strcmp(md->damping, "en"))
      appendf(buf, size,
              "mat = ViscElMat(tc=%.10g, en=%.12g, et=%.12g, frictionAngle=0)  # et (tangential) set equal to en: "
              "a head-on impact does not use it\n",
              c->tc, p, p);
    else
      appendf(buf, size, "mat = ViscElMat(kn=%.10g, ks=%.10g, cn=%.12g, cs=0, frictionAngle=0)\n", c->kn, c->kn, p);
    appendf(buf, size, "ip2 = Ip2_ViscElMat_ViscElMat_ViscElPhys()\nlaw2 = Law2_ScGeom_ViscElPhys_Basic()\n");
  }
}

/* Chrono's ChSystemSMC::ContactForceModel of a registry model name ("plaincoulomb" -> PlainCoulomb) */
static const char *chrono_enum(const char *model) {
  if (strcmp(model, "hooke") == 0)
    return "Hooke";
  if (strcmp(model, "flores") == 0)
    return "Flores";
  if (strcmp(model, "plaincoulomb") == 0)
    return "PlainCoulomb";
  return "Hertz";
}

static void in_chrono(const impactfit_dem_model *md, const impactfit_dem_contact *c, int clamp, double p, char *buf,
                      size_t size) {
  (void)clamp;
  buf[0] = 0;
  appendf(buf, size, "sys.SetContactForceModel(chrono.ChSystemSMC.%s)\n", chrono_enum(md->model));
  if (md->needs_material) {
    appendf(buf, size,
            "sys.UseMaterialProperties(True)\nmat.SetYoungModulus(%.10g)\nmat.SetPoissonRatio(%.10g)\n"
            "mat.SetRestitution(%.12g)\n",
            c->E, c->nu, p);
    if (md->ops->stiffness == ST_HOOKE_VCHAR)
      appendf(buf, size, "sys.SetCharacteristicImpactVelocity(%.10g)\n", c->v_char);
  } else {
    appendf(buf, size, "sys.UseMaterialProperties(False)\nmat.SetKn(%.10g)\nmat.SetGn(%.12g)\n", c->kn, p);
  }
}

/* ---------------------------------------------------------------- the registry */

/* long: a flat table, one line per code and option (pmccabe reads the macro list as one function) */
#define OPS(name, st, da, cv, in) \
  static const dem_ops name = {.stiffness = st, .damping = da, .conv = cv, .p_min = 0.0, .input = in};
/* LIGGGHTS 3.8.0 refuses a coefficientRestitution outside (0.05, 1] (global_properties.cpp:488) */
#define OPS_MIN(name, st, da, cv, pmin, in) \
  static const dem_ops name = {.stiffness = st, .damping = da, .conv = cv, .p_min = pmin, .input = in};
/* LAMMPS pair_style granular: normal model x damping option */
OPS(o_lg_hm_vel, ST_HERTZ_MAT_LWALL, DA_CONST, NULL, in_lammps_granular)
OPS(o_lg_hm_mv, ST_HERTZ_MAT_LWALL, DA_MASS, NULL, in_lammps_granular)
OPS(o_lg_hm_ve, ST_HERTZ_MAT_LWALL, DA_MASS_SQRTR, NULL, in_lammps_granular)
OPS(o_lg_hm_ts, ST_HERTZ_MAT_LWALL, DA_CONV_SQRTMK, conv_tsuji, in_lammps_granular)
OPS(o_lg_h_vel, ST_HERTZ_KN, DA_CONST, NULL, in_lammps_granular)
OPS(o_lg_h_mv, ST_HERTZ_KN, DA_MASS, NULL, in_lammps_granular)
OPS(o_lg_h_ve, ST_HERTZ_KN, DA_MASS_SQRTR, NULL, in_lammps_granular)
OPS(o_lg_h_ts, ST_HERTZ_KN, DA_CONV_SQRTMK, conv_tsuji, in_lammps_granular)
OPS(o_lg_k_vel, ST_LINEAR_KN, DA_CONST, NULL, in_lammps_granular)
OPS(o_lg_k_mv, ST_LINEAR_KN, DA_MASS, NULL, in_lammps_granular)
OPS(o_lg_k_ve, ST_LINEAR_KN, DA_MASS_SQRTR, NULL, in_lammps_granular)
OPS(o_lg_k_ts, ST_LINEAR_KN, DA_CONV_SQRTMK, conv_tsuji, in_lammps_granular)
/* later LAMMPS (formula only) */
OPS(o_ln_hm_ts2, ST_HERTZ_MAT, DA_CONV_SQRTMK, conv_tsuji_sqrt2, in_lammps_granular)
OPS(o_ln_h_ts2, ST_HERTZ_KN, DA_CONV_SQRTMK, conv_tsuji_sqrt2, in_lammps_granular)
OPS(o_ln_k_ts2, ST_LINEAR_KN, DA_CONV_SQRTMK, conv_tsuji_sqrt2, in_lammps_granular)
OPS(o_ln_hm_cr, ST_HERTZ_MAT, DA_CONV_SQRTMK, conv_hertz_beta, in_lammps_granular)
OPS(o_ln_h_cr, ST_HERTZ_KN, DA_CONV_SQRTMK, conv_hertz_beta, in_lammps_granular)
OPS(o_ln_k_cr, ST_LINEAR_KN, DA_CONV_SQRTMK, conv_linear_log, in_lammps_granular)
/* LAMMPS pair_style gran/... */
OPS(o_lgran_hooke, ST_LINEAR_KN, DA_MASS, NULL, in_lammps_gran)
OPS(o_lgran_hertz, ST_HERTZ_KN, DA_MASS_SQRTR, NULL, in_lammps_gran)
/* LIGGGHTS */
OPS_MIN(o_lig_hertz, ST_HERTZ_MAT, DA_CONV_SQRTMK, conv_hertz_beta, 0.05, in_liggghts)
OPS_MIN(o_lig_hooke, ST_HOOKE_VCHAR, DA_CONV_SQRTMK, conv_linear_log, 0.05, in_liggghts)
OPS(o_lig_hooke_st, ST_LINEAR_KN, DA_MASS, NULL, in_liggghts)
OPS(o_lig_hooke_st_abs, ST_LINEAR_KN, DA_CONST, NULL, in_liggghts)
OPS(o_lig_hertz_st, ST_HERTZ_KN, DA_MASS_SQRTR, NULL, in_liggghts)
/* YADE */
OPS(o_yade_en, ST_HERTZ_MAT_YWALL, DA_CONV_SQRTMK, conv_yade_en, in_yade)
OPS(o_yade_old_en, ST_HERTZ_MAT_YWALL, DA_CONV_SQRTMK, conv_hertz_beta, in_yade)
OPS(o_yade_betan, ST_HERTZ_MAT_YWALL, DA_CONV_SQRTMK, conv_yade_betan, in_yade)
OPS(o_yade_ve_en, ST_VISCEL_TC, DA_VISCEL_TC, NULL, in_yade)
OPS(o_yade_ve_cn, ST_VISCEL_KN, DA_HALF, NULL, in_yade)
/* Chrono */
OPS(o_chrono_hertz, ST_HERTZ_MAT, DA_CONV_SQRTMK, conv_hertz_beta, in_chrono)
OPS(o_chrono_hooke, ST_HOOKE_VCHAR, DA_CONV_SQRTMK, conv_linear_log, in_chrono)
OPS(o_chrono_coulomb, ST_HERTZ_MAT_NOR, DA_CONV_SQRTMK, conv_hertz_beta, in_chrono)
OPS(o_chrono_hertz_gn, ST_KN_R, DA_MASS_R, NULL, in_chrono)
OPS(o_chrono_hooke_gn, ST_LINEAR_KN, DA_MASS, NULL, in_chrono)
OPS(o_chrono_coulomb_gn, ST_KN_NOR, DA_CONST, NULL, in_chrono)
#undef OPS
#undef OPS_MIN

/* version keys: LAMMPS dates YYYYMMDD, dotted versions a·10⁴ + b·10² + c */
#define LMP_V0 20210929L /* stable 29 Sep 2021 ... */
#define LMP_V1 20220106L /* ... update 2 (Debian 12: 20220106.git7586adbb6a) */
#define LMP_CR 20240417L /* damping coeff_restitution (lammps/lammps PR #4068, 2024; first release assumed) */
#define LMP_S2 20260902L /* tsuji with √2: 2Sep2026 (the LAMMPS documentation: versionchanged 2Sep2026) */
#define LMP_SRC "src/GRANULAR/pair_granular.cpp:349-377, :987-991 and fix_wall_gran.cpp:160 (stable_29Sep2021_update2)"
#define HM "F = (4/3) E* a delta, a = sqrt(R delta), E* = E/(2(1 - nu^2)) (a fix wall/gran wall: E/(2(1 - nu))); "
#define HK "F = kn a delta, a = sqrt(R delta) (kn in Pa); "
#define LK "F = kn delta (kn in N/m); "
#define TS                                                                                                            \
  "eta = alpha(e) sqrt(M knfac), alpha(e) = 1.2728 - 4.2783 e + 11.087 e^2 - 22.348 e^3 + 27.467 e^4 - 18.022 e^5 + " \
  "4.8218 e^6 (no sqrt 2 in this version)"
#define TS2 "eta = sqrt(2) alpha(e) sqrt(M knfac) (alpha as in 29Sep2021)"
#define CRH \
  "eta = sqrt(3/2) 2 sqrt(5/6) |beta| sqrt(M knfac), beta = ln e/sqrt(ln^2 e + pi^2): C = sqrt(5) |beta| sqrt(M K)"

/* One group of entries per code and version range: what they share, then each entry names the rest.
 * A range runs from the first version whose source was read to the version whose source changes the
 * force law (version_max: the day before it); run_min .. run_max are the versions run here. */
#define LAMMPS_GRANULAR_TSUJI(...)                                                                         \
  {                                                                                                        \
    .code = "lammps", .versions = "29Sep2021 until 2Sep2026 (not included)", .first_version = "29Sep2021", \
    .version_min = LMP_V0, .version_max = LMP_S2 - 1, .clamp_default = 0, .clamp_switch = "limit_damping", \
    .run_here = 1, .run_versions = "29Sep2021 update 2 (Debian 12)", .run_min = LMP_V0, .run_max = LMP_V1, \
    .source = LMP_SRC "; the same law in gran_sub_mod_damping.cpp (GranSubModDampingTsuji::init, "         \
                      "no sqrt 2) of the refactored package until 2Sep2026",                               \
    __VA_ARGS__                                                                                            \
  }
#define LAMMPS_GRANULAR(...)                                                                                     \
  {                                                                                                              \
    .code = "lammps", .versions = "29Sep2021 and later", .first_version = "29Sep2021", .version_min = LMP_V0,    \
    .version_max = 0, .clamp_default = 0, .clamp_switch = "limit_damping", .run_here = 1,                        \
    .run_versions = "29Sep2021 update 2 (Debian 12)", .run_min = LMP_V0, .run_max = LMP_V1,                      \
    .source = LMP_SRC "; the same damping in gran_sub_mod_damping_kernel.h (lammps/lammps 07b704c)", __VA_ARGS__ \
  }
#define LAMMPS_29SEP2021_GRAN(...)                                                                      \
  {                                                                                                     \
    .code = "lammps", .versions = "29Sep2021", .first_version = "29Sep2021", .version_min = LMP_V0,     \
    .version_max = LMP_V1, .clamp_default = 0, .clamp_switch = "limit_damping", .run_here = 1,          \
    .run_versions = "29Sep2021 update 2 (Debian 12)", .run_min = LMP_V0, .run_max = LMP_V1, __VA_ARGS__ \
  }
#define LAMMPS_COEFF_RESTITUTION(...)                                                                              \
  {                                                                                                                \
    .code = "lammps", .versions = "17Apr2024 and later", .first_version = "17Apr2024", .version_min = LMP_CR,      \
    .version_max = 0, .clamp_default = 0, .clamp_switch = "limit_damping", .run_here = 0,                          \
    .source = "src/GRANULAR/gran_sub_mod_damping.cpp (GranSubModDampingCoeffRestitution; lammps/lammps PR #4068)", \
    __VA_ARGS__                                                                                                    \
  }
#define LAMMPS_TSUJI_SQRT2(...)                                                                                   \
  {                                                                                                               \
    .code = "lammps", .versions = "2Sep2026 and later", .first_version = "2Sep2026", .version_min = LMP_S2,       \
    .version_max = 0, .clamp_default = 0, .clamp_switch = "limit_damping", .run_here = 0,                         \
    .source = "src/GRANULAR/gran_sub_mod_damping.cpp (GranSubModDampingTsuji::init, 2Sep2026: damp *= MY_SQRT2)", \
    __VA_ARGS__                                                                                                   \
  }
#define LIGGGHTS_3_8_0(...)                                                                                        \
  {                                                                                                                \
    .code = "liggghts", .versions = "3.8.0", .first_version = "3.8.0", .version_min = 30800, .version_max = 30899, \
    .clamp_default = 0, .clamp_switch = "limitForce", .run_here = 1, .run_versions = "3.8.0 (Debian 12)",          \
    .run_min = 30800, .run_max = 30899, __VA_ARGS__                                                                \
  }
#define YADE_2023_02A(...)                                                                        \
  {                                                                                               \
    .code = "yade", .versions = "2023.02a", .first_version = "2023.02a", .version_min = 20230200, \
    .version_max = 20230299, .clamp_default = 1, .clamp_switch = NULL, .run_here = 1,             \
    .run_versions = "2023.02a (Debian 12)", .run_min = 20230200, .run_max = 20230299, __VA_ARGS__ \
  }
#define YADE_BEFORE_2023(...)                                                                          \
  {                                                                                                    \
    .code = "yade", .versions = "1.00.0 to 2022.01a", .first_version = "1.00.0", .version_min = 10000, \
    .version_max = 20220199, .clamp_default = 1, .clamp_switch = NULL, .run_here = 0, __VA_ARGS__      \
  }
/* Chrono: the law is the same from 4.0.0 (2019) to 10.0.0 (2026-04) and the development source of 2026-08-18
 * (7689fbc02d); 3.0.0 had R = 1 m and ln e >= ln 1e-10. */
#define CH_VT "4.0.0 to 10.0.0"
#define CH_SRC(lines)                                                                                                \
  "src/chrono/physics/ChContactSMC.cpp" lines " (ChDefaultContactForceTorqueSMC::CalculateForceTorque, force < 0 "   \
  "set to 0 at :134, :175; ChContactSMC<Ta,Tb>::CalculateForce in ChContactSMC.h 4.0.0-7.0.3); composite material: " \
  "ChContactMaterialSMC.cpp:105-130 (10.0.0)"
#define CH_RM                                                                                                   \
  "; forceN < 0 set to 0. R: the Bullet collision system gives every contact 0.1 m (ChCollisionInfo's default " \
  "effective radius), the Multicore system r1 r2/(r1 + r2); M = m1 m2/(m1 + m2) with a fixed wall's own mass "  \
  "(ChBody default 1 kg), not M = m1; E* = 1/((1 - nu1^2)/E1 + (1 - nu2^2)/E2); give R_eff, M_eff for Chrono's"
/* A Chrono entry: formula only (not in Debian 12), the force clamped at zero, versions from vt_ (the first
 * of them as typed: first_) to 10.0.0. */
#define CHRONO_ENTRY(model_, damp_, vt_, first_, vmin_, n_, m_, par_, unit_, te_, mat_, law_, src_, ops_)         \
  {                                                                                                               \
    .code = "chrono", .model = model_, .damping = damp_, .versions = vt_, .first_version = first_,                \
    .version_min = vmin_, .version_max = 100099L, .n = n_, .m = m_, .param = par_, .param_unit = unit_,           \
    .takes_e = te_, .needs_material = mat_, .clamp_default = 1, .clamp_switch = NULL, .run_here = 0, .law = law_, \
    .source = src_, .ops = &ops_                                                                                  \
  }

static const impactfit_dem_model models[] = {
    /* ---- LAMMPS 29 Sep 2021, pair_style granular (run here) ---- */
    LAMMPS_GRANULAR_TSUJI(.model = "granular hertz/material", .damping = "tsuji", .n = 1.5, .m = 0.25, .param = "e",
                          .param_unit = "-", .takes_e = 1, .needs_material = 1, .law = HM TS ": C = alpha(e) sqrt(M K)",
                          .ops = &o_lg_hm_ts),
    LAMMPS_GRANULAR(.model = "granular hertz/material", .damping = "velocity", .n = 1.5, .m = 0.0, .param = "eta_n0",
                    .param_unit = "N s/m", .takes_e = 0, .needs_material = 1, .law = HM "eta = eta_n0: C = eta_n0",
                    .ops = &o_lg_hm_vel),
    LAMMPS_GRANULAR(.model = "granular hertz/material", .damping = "mass_velocity", .n = 1.5, .m = 0.0,
                    .param = "eta_n0", .param_unit = "1/s", .takes_e = 0, .needs_material = 1,
                    .law = HM "eta = eta_n0 M: C = eta_n0 M", .ops = &o_lg_hm_mv),
    LAMMPS_GRANULAR(.default_damping = 1, .model = "granular hertz/material", .damping = "viscoelastic", .n = 1.5,
                    .m = 0.5, .param = "eta_n0", .param_unit = "1/(m s)", .takes_e = 0, .needs_material = 1,
                    .law = HM "eta = eta_n0 a M: C = eta_n0 M sqrt(R) (the default damping)", .ops = &o_lg_hm_ve),
    LAMMPS_GRANULAR_TSUJI(.model = "granular hertz", .damping = "tsuji", .n = 1.5, .m = 0.25, .param = "e",
                          .param_unit = "-", .takes_e = 1, .needs_material = 0,
                          .law = HK TS ": C = alpha(e) sqrt(M K), K = kn sqrt(R)", .ops = &o_lg_h_ts),
    LAMMPS_GRANULAR(.model = "granular hertz", .damping = "velocity", .n = 1.5, .m = 0.0, .param = "eta_n0",
                    .param_unit = "N s/m", .takes_e = 0, .needs_material = 0, .law = HK "C = eta_n0",
                    .ops = &o_lg_h_vel),
    LAMMPS_GRANULAR(.model = "granular hertz", .damping = "mass_velocity", .n = 1.5, .m = 0.0, .param = "eta_n0",
                    .param_unit = "1/s", .takes_e = 0, .needs_material = 0, .law = HK "C = eta_n0 M",
                    .ops = &o_lg_h_mv),
    LAMMPS_GRANULAR(.default_damping = 1, .model = "granular hertz", .damping = "viscoelastic", .n = 1.5, .m = 0.5,
                    .param = "eta_n0", .param_unit = "1/(m s)", .takes_e = 0, .needs_material = 0,
                    .law = HK "C = eta_n0 M sqrt(R)", .ops = &o_lg_h_ve),
    LAMMPS_GRANULAR_TSUJI(.model = "granular hooke", .damping = "tsuji", .n = 1.0, .m = 0.0, .param = "e",
                          .param_unit = "-", .takes_e = 1, .needs_material = 0,
                          .law = LK TS ", knfac = kn: C = alpha(e) sqrt(M kn)", .ops = &o_lg_k_ts),
    LAMMPS_GRANULAR(.model = "granular hooke", .damping = "velocity", .n = 1.0, .m = 0.0, .param = "eta_n0",
                    .param_unit = "N s/m", .takes_e = 0, .needs_material = 0, .law = LK "C = eta_n0",
                    .ops = &o_lg_k_vel),
    LAMMPS_GRANULAR(.model = "granular hooke", .damping = "mass_velocity", .n = 1.0, .m = 0.0, .param = "eta_n0",
                    .param_unit = "1/s", .takes_e = 0, .needs_material = 0, .law = LK "C = eta_n0 M",
                    .ops = &o_lg_k_mv),
    LAMMPS_GRANULAR(.default_damping = 1, .model = "granular hooke", .damping = "viscoelastic", .n = 1.0, .m = 0.5,
                    .param = "eta_n0", .param_unit = "1/(m s)", .takes_e = 0, .needs_material = 0,
                    .law = LK "eta = eta_n0 a M, a = sqrt(R delta): C = eta_n0 M sqrt(R)", .ops = &o_lg_k_ve),
    /* ---- LAMMPS 29 Sep 2021, pair_style gran/... (run here) ---- */
    LAMMPS_29SEP2021_GRAN(.model = "gran/hooke", .damping = "", .n = 1.0, .m = 0.0, .param = "gamma_n",
                          .param_unit = "1/s", .takes_e = 0, .needs_material = 0,
                          .law = "F = kn delta + M gamma_n delta' (kn in N/m): C = M gamma_n",
                          .source = "src/GRANULAR/pair_gran_hooke.cpp:154-162, fix_wall_gran.cpp:796-798 "
                                    "(stable_29Sep2021_update2)",
                          .ops = &o_lgran_hooke),
    LAMMPS_29SEP2021_GRAN(.model = "gran/hooke/history", .damping = "", .n = 1.0, .m = 0.0, .param = "gamma_n",
                          .param_unit = "1/s", .takes_e = 0, .needs_material = 0,
                          .law = "F = kn delta + M gamma_n delta' (kn in N/m): C = M gamma_n",
                          .source = "src/GRANULAR/pair_gran_hooke_history.cpp:237-245, fix_wall_gran.cpp:889-891 "
                                    "(stable_29Sep2021_update2)",
                          .ops = &o_lgran_hooke),
    LAMMPS_29SEP2021_GRAN(.model = "gran/hertz/history", .damping = "", .n = 1.5, .m = 0.5, .param = "gamma_n",
                          .param_unit = "1/(m s)", .takes_e = 0, .needs_material = 0,
                          .law = "F = sqrt(R delta) (kn delta + M gamma_n delta') (kn in Pa): K = kn sqrt(R), C = M "
                                 "gamma_n sqrt(R)",
                          .source = "src/GRANULAR/pair_gran_hertz_history.cpp:175-185, fix_wall_gran.cpp:1018-1023 "
                                    "(stable_29Sep2021_update2)",
                          .ops = &o_lgran_hertz),
    /* ---- later LAMMPS (formula only, not run here) ---- */
    LAMMPS_COEFF_RESTITUTION(.model = "granular hertz/material", .damping = "coeff_restitution", .n = 1.5, .m = 0.25,
                             .param = "e", .param_unit = "-", .takes_e = 1, .needs_material = 1, .law = HM CRH,
                             .ops = &o_ln_hm_cr),
    LAMMPS_COEFF_RESTITUTION(.model = "granular hertz", .damping = "coeff_restitution", .n = 1.5, .m = 0.25,
                             .param = "e", .param_unit = "-", .takes_e = 1, .needs_material = 0, .law = HK CRH,
                             .ops = &o_ln_h_cr),
    LAMMPS_COEFF_RESTITUTION(.model = "granular hooke", .damping = "coeff_restitution", .n = 1.0, .m = 0.0,
                             .param = "e", .param_unit = "-", .takes_e = 1, .needs_material = 0,
                             .law = LK "eta = 2 |ln e| sqrt(M kn)/sqrt(pi^2 + ln^2 e) (exact under A)",
                             .ops = &o_ln_k_cr),
    LAMMPS_TSUJI_SQRT2(.model = "granular hertz/material", .damping = "tsuji", .n = 1.5, .m = 0.25, .param = "e",
                       .param_unit = "-", .takes_e = 1, .needs_material = 1,
                       .law = HM TS2 ": C = sqrt(2) alpha(e) sqrt(M K)", .ops = &o_ln_hm_ts2),
    LAMMPS_TSUJI_SQRT2(.model = "granular hertz", .damping = "tsuji", .n = 1.5, .m = 0.25, .param = "e",
                       .param_unit = "-", .takes_e = 1, .needs_material = 0,
                       .law = HK TS2 ": C = sqrt(2) alpha(e) sqrt(M K)", .ops = &o_ln_h_ts2),
    LAMMPS_TSUJI_SQRT2(.model = "granular hooke", .damping = "tsuji", .n = 1.0, .m = 0.0, .param = "e",
                       .param_unit = "-", .takes_e = 1, .needs_material = 0,
                       .law = LK TS2 ": C = sqrt(2) alpha(e) sqrt(M kn)", .ops = &o_ln_k_ts2),
    /* ---- LIGGGHTS-PUBLIC 3.8.0 (run here) ---- */
    LIGGGHTS_3_8_0(.model = "hertz", .damping = "", .n = 1.5, .m = 0.25, .param = "e", .param_unit = "-", .takes_e = 1,
                   .needs_material = 1,
                   .law = "F = (4/3) Y* sqrt(R delta) delta + gamma_n delta', S_n = 2 Y* sqrt(R delta), gamma_n = -2 "
                          "sqrt(5/6) beta sqrt(S_n M), beta = ln e/sqrt(ln^2 e + pi^2): K = (4/3) Y* sqrt(R), C = "
                          "sqrt(5) |beta| sqrt(M K)",
                   .source = "src/normal_model_hertz.h:211-258, global_properties.cpp:432, :539 (LIGGGHTS-PUBLIC "
                             "3.8.0, 7c32dc4)",
                   .ops = &o_lig_hertz),
    LIGGGHTS_3_8_0(.model = "hooke", .damping = "", .n = 1.0, .m = 0.0, .param = "e", .param_unit = "-", .takes_e = 1,
                   .needs_material = 1,
                   .law = "F = kn delta + gamma_n delta', kn = (16/15) sqrt(R) Y* (15 M V^2/(16 sqrt(R) Y*))^(1/5) (V: "
                          "characteristicVelocity), gamma_n = sqrt(4 M kn/(1 + (pi/ln e)^2)): C = 2 |beta| sqrt(M K)",
                   .source = "src/normal_model_hooke.h:236-289 (LIGGGHTS-PUBLIC 3.8.0, 7c32dc4)", .ops = &o_lig_hooke),
    LIGGGHTS_3_8_0(.model = "hooke/stiffness", .damping = "", .n = 1.0, .m = 0.0, .param = "gamman",
                   .param_unit = "1/s", .takes_e = 0, .needs_material = 0,
                   .law = "F = kn delta + M gamman delta' (properties kn in N/m, gamman): C = M gamman",
                   .source = "src/normal_model_hooke_stiffness.h:203-238, global_properties.cpp:741-807 "
                             "(LIGGGHTS-PUBLIC 3.8.0, 7c32dc4)",
                   .ops = &o_lig_hooke_st),
    LIGGGHTS_3_8_0(.model = "hooke/stiffness", .damping = "absolute_damping", .n = 1.0, .m = 0.0, .param = "gamman_abs",
                   .param_unit = "N s/m", .takes_e = 0, .needs_material = 0,
                   .law = "absolute_damping on: F = kn delta + gamman_abs delta' (properties kn in N/m, gamman_abs): C "
                          "= gamman_abs",
                   .source = "src/normal_model_hooke_stiffness.h:203-238 (LIGGGHTS-PUBLIC 3.8.0, 7c32dc4)",
                   .ops = &o_lig_hooke_st_abs),
    LIGGGHTS_3_8_0(.model = "hertz/stiffness", .damping = "", .n = 1.5, .m = 0.5, .param = "gamman",
                   .param_unit = "1/(m s)", .takes_e = 0, .needs_material = 0,
                   .law = "F = sqrt(R delta) (kn delta + M gamman delta') (properties kn in Pa, gamman): K = kn "
                          "sqrt(R), C = M gamman sqrt(R)",
                   .source = "src/normal_model_hertz_stiffness.h:111-142 (LIGGGHTS-PUBLIC 3.8.0, 7c32dc4)",
                   .ops = &o_lig_hertz_st),
    /* ---- YADE 2023.02a (run here) ---- */
    YADE_2023_02A(.model = "mindlin", .damping = "en", .n = 1.5, .m = 0.25, .param = "en", .param_unit = "-",
                  .takes_e = 1, .needs_material = 1,
                  .law = "Ip2_FrictMat_FrictMat_MindlinPhys(en): kno = (4/3) E* sqrt(R), F = kno delta^(3/2) + c_n "
                         "delta', c_n = 2 beta_n sqrt(M (3/2) kno delta^(1/2)), beta_n = sqrt(1/(1 - (1 + e)^2 "
                         "exp(a(e))) - 1) with a(e) the degree-10 polynomial of Thornton et al. (2013) Eq. (B7); the "
                         "total force is clamped at zero: C = 2 sqrt(3/2) beta_n sqrt(M K)",
                  .source = "pkg/dem/HertzMindlin.cpp:22-110 (Ip2), :270-519 (Law2) (YADE 2023.02a, d081c80)",
                  .ops = &o_yade_en),
    YADE_BEFORE_2023(.model = "mindlin", .damping = "en", .n = 1.5, .m = 0.25, .param = "en", .param_unit = "-",
                     .takes_e = 1, .needs_material = 1,
                     .law = "Ip2_FrictMat_FrictMat_MindlinPhys(en) before the Thornton conversion: beta_n = sqrt(5/6) "
                            "|ln e|/sqrt(ln^2 e + pi^2), c_n = 2 beta_n sqrt(M (3/2) kno delta^(1/2)), clamped at "
                            "zero: C = sqrt(5) |beta| sqrt(M K)",
                     .source = "pkg/dem/HertzMindlin.cpp (YADE 2022.01a; replaced by Thornton's (B6) in commit "
                               "8766c063f, 2023-01-25)",
                     .ops = &o_yade_old_en),
    YADE_2023_02A(.model = "mindlin", .damping = "betan", .n = 1.5, .m = 0.25, .param = "betan", .param_unit = "-",
                  .takes_e = 0, .needs_material = 1,
                  .law = "Ip2_FrictMat_FrictMat_MindlinPhys(betan): c_n = 2 betan sqrt(M (3/2) kno delta^(1/2)), "
                         "clamped at zero: C = 2 sqrt(3/2) betan sqrt(M K)",
                  .source = "pkg/dem/HertzMindlin.cpp:107, :330-402 (YADE 2023.02a, d081c80)", .ops = &o_yade_betan),
    YADE_2023_02A(.model = "viscel", .damping = "en", .n = 1.0, .m = 0.0, .param = "en", .param_unit = "-",
                  .takes_e = 1, .needs_material = 0,
                  .law = "ViscElMat(tc, en): per contact kn = (pi^2 + ln^2 en) M'/tc^2, cn = -2 ln(en) M'/tc with M' = "
                         "M (sphere-sphere) or m/2 (a wall of mass 0 takes the sphere's mass); F = kn delta + cn "
                         "delta' clamped at zero",
                  .source = "pkg/dem/ViscoelasticPM.cpp:66-170 (Law2), :172-340 (Ip2) (YADE 2023.02a, d081c80)",
                  .ops = &o_yade_ve_en),
    YADE_2023_02A(.model = "viscel", .damping = "cn", .n = 1.0, .m = 0.0, .param = "cn", .param_unit = "N s/m",
                  .takes_e = 0, .needs_material = 0,
                  .law = "ViscElMat(kn, ks, cn, cs): the two bodies' constants in series, contact kn/2 and cn/2; F = "
                         "(kn/2) delta + (cn/2) delta' clamped at zero (kn: the material's, N/m)",
                  .source = "pkg/dem/ViscoelasticPM.cpp:237-246, :333-340 (YADE 2023.02a, d081c80)",
                  .ops = &o_yade_ve_cn),
    /* ---- Project Chrono SMC (formula only: not in Debian 12; the step map: the engine registry, engines.h) ---- */
    CHRONO_ENTRY("hertz", "", CH_VT, "4.0.0", 40000, 1.5, 0.25, "e", "-", 1, 1,
                 "UseMaterialProperties(true), the default: S_n = 2 E* sqrt(R delta), k_n = (2/3) S_n, g_n = -2 "
                 "sqrt(5/6) beta sqrt(S_n M), beta = ln e/sqrt(ln^2 e + pi^2) with ln e >= ln(machine epsilon): "
                 "K = (4/3) E* sqrt(R), C = sqrt(5) |beta| sqrt(M K)" CH_RM,
                 CH_SRC(":94-113 (10.0.0), ChContactSMC.h:116-135 (9.0.1)"), o_chrono_hertz),
    CHRONO_ENTRY("hooke", "", CH_VT, "4.0.0", 40000, 1.0, 0.0, "e", "-", 1, 1,
                 "k_n = (16/15) sqrt(R) E* (M V^2/((16/15) sqrt(R) E*))^(1/5) (V: SetCharacteristicImpactVelocity, "
                 "default 1 m/s), g_n = sqrt(4 M k_n/(1 + (pi/ln e)^2)), ln e in [ln eps, ln(1 - eps)]: C = 2 |beta| "
                 "sqrt(M K)" CH_RM,
                 CH_SRC(":72-92 (10.0.0), ChContactSMC.h:94-114 (9.0.1)"), o_chrono_hooke),
    CHRONO_ENTRY("flores", "", "6.0.0 to 10.0.0 (5.0.x: no normal force)", "6.0.0", 60000, 1.0, 0.0, "e", "-", 1, 1,
                 "not implemented: ChSystemSMC::Flores falls through to Hooke (6.0.0 on; in 5.0.x the enum had no case "
                 "and the normal force was 0): the law of hooke" CH_RM,
                 CH_SRC(":72-73 (10.0.0), ChContactSMC.h:94-95 (9.0.1)"), o_chrono_hooke),
    CHRONO_ENTRY("plaincoulomb", "", CH_VT, "4.0.0", 40000, 1.5, 0.25, "e", "-", 1, 1,
                 "Hertz with sqrt(delta) for sqrt(R delta): K = (4/3) E*, C = sqrt(5) |beta| sqrt(M K) (no "
                 "radius)" CH_RM,
                 CH_SRC(":115-153 (10.0.0), ChContactSMC.h:137-175 (9.0.1)"), o_chrono_coulomb),
    CHRONO_ENTRY("hertz", "gn", CH_VT, "4.0.0", 40000, 1.5, 0.5, "gn", "1/(m^1.5 s)", 0, 0,
                 "UseMaterialProperties(false): k_n = R sqrt(delta) kn, g_n = R sqrt(delta) M gn (R, not sqrt(R); kn "
                 "and gn the means of the two materials'): K = kn R, C = gn M R" CH_RM,
                 CH_SRC(":105-111 (10.0.0), ChContactSMC.h:127-133 (9.0.1)"), o_chrono_hertz_gn),
    CHRONO_ENTRY("hooke", "gn", CH_VT, "4.0.0", 40000, 1.0, 0.0, "gn", "1/s", 0, 0,
                 "UseMaterialProperties(false): k_n = kn, g_n = M gn (kn in N/m): K = kn, C = gn M" CH_RM,
                 CH_SRC(":85-90 (10.0.0), ChContactSMC.h:107-112 (9.0.1)"), o_chrono_hooke_gn),
    CHRONO_ENTRY("plaincoulomb", "gn", CH_VT, "4.0.0", 40000, 1.5, 0.5, "gn", "N s/m^1.5", 0, 0,
                 "UseMaterialProperties(false): k_n = sqrt(delta) kn, g_n = sqrt(delta) gn (no mass, no radius; kn in "
                 "N/m^1.5): K = kn, C = gn" CH_RM,
                 CH_SRC(":123-127 (10.0.0), ChContactSMC.h:145-149 (9.0.1)"), o_chrono_coulomb_gn),
};

/* ---------------------------------------------------------------- registry API */

size_t impactfit_dem_model_count(void) { return sizeof models / sizeof models[0]; }

const impactfit_dem_model *impactfit_dem_model_at(size_t i) {
  return i < impactfit_dem_model_count() ? &models[i] : NULL;
}

static const char *const codes[] = {"lammps", "liggghts", "yade", "chrono"};
static const char *const debian_versions[] = {"29Sep2021", "3.8.0", "2023.02a", NULL};

const char *impactfit_dem_default_version(const char *code) {
  for (size_t i = 0; code && i < sizeof codes / sizeof codes[0]; i++)
    if (strcasecmp(code, codes[i]) == 0)
      return debian_versions[i] ? debian_versions[i] : "10.0.0";
  return NULL;
}

long impactfit_dem_version_key(const char *code, const char *version) {
  (void)code;
  if (!version || !*version)
    return 0;
  static const char *const mon[] = {"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"};
  const char *s = version;
  if (strncmp(s, "stable_", 7) == 0)
    s += 7;
  /* DDMonYYYY */
  if (isdigit((unsigned char)s[0])) {
    char *end;
    long d = strtol(s, &end, 10);
    if (isalpha((unsigned char)end[0]) && isalpha((unsigned char)end[1]) && isalpha((unsigned char)end[2])) {
      for (int i = 0; i < 12; i++)
        if (tolower((unsigned char)end[0]) == mon[i][0] && tolower((unsigned char)end[1]) == mon[i][1] &&
            tolower((unsigned char)end[2]) == mon[i][2]) {
          long y = strtol(end + 3, NULL, 10);
          if (y >= 1990 && y < 2100 && d >= 1 && d <= 31)
            return y * 10000 + (i + 1) * 100 + d;
        }
      return 0;
    }
    /* YYYYMMDD or YYYY-MM-DD */
    if (d >= 19900101 && d < 21000000 && (*end == 0 || *end == '_'))
      return d;
    if (d >= 1990 && d < 2100 && *end == '-') {
      long mo = strtol(end + 1, &end, 10);
      if (*end == '-') {
        long dd = strtol(end + 1, NULL, 10);
        if (mo >= 1 && mo <= 12 && dd >= 1 && dd <= 31)
          return d * 10000 + mo * 100 + dd;
      }
      return 0;
    }
    /* dotted a.b.c */
    long parts[3] = {d, 0, 0};
    int np = 1;
    while (np < 3 && *end == '.' && isdigit((unsigned char)end[1])) {
      parts[np++] = strtol(end + 1, &end, 10);
    }
    if (parts[1] > 99 || parts[2] > 99)
      return 0;
    return parts[0] * 10000 + parts[1] * 100 + parts[2];
  }
  return 0;
}

const char *impactfit_dem_code_name(const char *code) {
  for (size_t i = 0; code && i < sizeof codes / sizeof codes[0]; i++)
    if (strcasecmp(code, codes[i]) == 0)
      return codes[i];
  return NULL;
}

static int in_range(const impactfit_dem_model *md, long key) {
  return impactfit_version_in_range(key, md->version_min, md->version_max);
}

int impactfit_dem_model_run_for(const impactfit_dem_model *md, const char *version) {
  if (!md || !md->run_here)
    return 0;
  long key = impactfit_dem_version_key(md->code, version ? version : impactfit_dem_default_version(md->code));
  return md->run_min && impactfit_version_in_range(key, md->run_min, md->run_max);
}

int impactfit_dem_model_uses_vchar(const impactfit_dem_model *md) { return md && md->ops->stiffness == ST_HOOKE_VCHAR; }

/* the distinct model names of a code (model NULL), or the damping options of one model, for messages;
 * into names[] (at most max) as well when given */
static size_t list_models(const char *code, long key, const char *model, char *buf, size_t size, const char **names,
                          size_t max) {
  size_t count = 0;
  buf[0] = 0;
  for (size_t i = 0; i < impactfit_dem_model_count(); i++) {
    const impactfit_dem_model *md = &models[i];
    if (strcmp(md->code, code) || (key && !in_range(md, key)) || (model && strcmp(md->model, model)))
      continue;
    const char *name = model ? md->damping : md->model;
    char one[160];
    snprintf(one, sizeof one, "'%s'", name);
    if (strstr(buf, one))
      continue;
    appendf(buf, size, "%s%s", buf[0] ? ", " : "", one);
    if (names && count < max)
      names[count++] = name;
  }
  return count;
}

/* The model as the registry names it: exact or ignoring case, or a LAMMPS granular model given without
 * "granular " (what one types after `pair_style granular`). NULL when none. */
static const char *canonical_model(const char *code, const char *model) {
  char alias[160];
  snprintf(alias, sizeof alias, "granular %s", model);
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < impactfit_dem_model_count(); i++)
      if (!strcmp(models[i].code, code) && strcasecmp(models[i].model, pass ? alias : model) == 0)
        return models[i].model;
  return NULL;
}

/* " (did you mean 'x'?)" for the closest of names, or "" */
static void did_you_mean(const char *word, const char *const *names, size_t n, char *buf, size_t size) {
  const char *close = impactfit_closest_name(word, names, n);
  if (close)
    snprintf(buf, size, "; did you mean '%s'?", close);
  else
    buf[0] = 0;
}

/* The message for a version in no range of the model's entries: the ranges read and what to do. */
static int version_not_read(const char *code, const char *version, const char *model, const char *damping, long key,
                            impactfit_error *err) {
  char vers[1024] = "";
  const impactfit_dem_model *near = NULL;
  long best = -1;
  for (size_t i = 0; i < impactfit_dem_model_count(); i++) {
    const impactfit_dem_model *md = &models[i];
    if (strcmp(md->code, code) || strcmp(md->model, model) || (damping && *damping && strcmp(md->damping, damping)))
      continue;
    if (!strstr(vers, md->versions))
      appendf(vers, sizeof vers, "%s%s", vers[0] ? " and " : "", md->versions);
    long d = key < md->version_min ? md->version_min - key : md->version_max ? key - md->version_max : 0;
    if (best < 0 || d < best)
      best = d, near = md;
  }
  char file[256];
  snprintf(file, sizeof file, "%s", near ? near->source : "");
  file[strcspn(file, " :,;(")] = '\0';
  return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                         "%s model '%s%s%s' was read for the versions %s; %s is not among them, so its force law is "
                         "not known here. To use the law of the nearest version read, give the version %s (at your "
                         "own risk: compare %s in your version's source)",
                         code, model, damping && *damping ? " --damping " : "", damping ? damping : "", vers, version,
                         near ? near->first_version : "", file);
}

int impactfit_dem_model_find(const char *code, const char *version, const char *model, const char *damping,
                             const impactfit_dem_model **out, impactfit_error *err) {
  if (!out)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no output given");
  *out = NULL;
  char list[2048], hint[192];
  const char *names[64];
  const char *canon = impactfit_dem_code_name(code);
  if (!canon) {
    did_you_mean(code ? code : "", codes, sizeof codes / sizeof codes[0], hint, sizeof hint);
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "unknown DEM code '%s' (known: lammps, liggghts, yade, chrono)%s",
                           code ? code : "", hint);
  }
  code = canon;
  if (!version || !*version)
    version = impactfit_dem_default_version(code);
  long key = impactfit_dem_version_key(code, version);
  if (!key)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "cannot read version '%s' of %s (e.g. 29Sep2021 or 2021-09-29 for LAMMPS, 3.8.0, 2023.02a)",
                           version, code);
  if (!model || !*model) {
    list_models(code, key, NULL, list, sizeof list, NULL, 0);
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no model given for %s %s (known: %s)", code, version, list);
  }
  const char *mname = canonical_model(code, model);
  if (!mname) {
    size_t n = list_models(code, 0, NULL, list, sizeof list, names, 64);
    did_you_mean(model, names, n, hint, sizeof hint);
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "unknown %s model '%s' (known: %s)%s", code, model,
                           list[0] ? list : "none", hint);
  }
  /* the damping: as given (ignoring case), or the model's only or default one in this version */
  const impactfit_dem_model *any_damping = NULL, *dflt = NULL, *only = NULL;
  size_t options = 0;
  for (size_t i = 0; i < impactfit_dem_model_count(); i++) {
    const impactfit_dem_model *md = &models[i];
    if (strcmp(md->code, code) || strcmp(md->model, mname))
      continue;
    if (damping && *damping) {
      if (strcasecmp(md->damping, damping))
        continue;
      any_damping = md;
      if (in_range(md, key)) {
        *out = md;
        return 0;
      }
      continue;
    }
    if (!in_range(md, key))
      continue;
    options++;
    only = md;
    if (md->default_damping || (!*md->damping && !dflt)) /* the code's default, or the entry without an option */
      dflt = md;
  }
  if (damping && *damping) {
    if (any_damping)
      return version_not_read(code, version, mname, any_damping->damping, key, err);
    size_t n = list_models(code, 0, mname, list, sizeof list, names, 64);
    did_you_mean(damping, names, n, hint, sizeof hint);
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "unknown damping option '%s' of %s model '%s' (known: %s)%s", damping,
                           code, mname, list, hint);
  }
  if (options == 1 || dflt) {
    *out = dflt ? dflt : only;
    return 0;
  }
  if (options > 1) {
    size_t n = list_models(code, key, mname, list, sizeof list, names, 64);
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "%s %s model '%s' needs a damping option: %s (e.g. --damping %s in the CLI, damping='%s' in "
                           "Python)",
                           code, version, mname, list, n ? names[0] : "", n ? names[0] : "");
  }
  return version_not_read(code, version, mname, NULL, key, err);
}

/* ---------------------------------------------------------------- contacts */

impactfit_dem_contact impactfit_dem_contact_default(void) {
  impactfit_dem_contact c;
  c.geometry = IMPACTFIT_DEM_SPHERE_SPHERE;
  c.E = c.nu = c.r1 = c.r2 = c.m1 = c.m2 = c.kn = c.v_char = c.tc = c.R_eff = c.M_eff = NAN;
  return c;
}

double impactfit_dem_sphere_mass(double r, double rho) { return 4.0 / 3.0 * IMPACTFIT__PI * r * r * r * rho; }

int impactfit_dem_effective(const impactfit_dem_contact *c, double *R, double *M, impactfit_error *err) {
  if (!c)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no contact given");
  int wall = c->geometry == IMPACTFIT_DEM_SPHERE_WALL;
  if (!isnan(c->R_eff) || !isnan(c->M_eff)) {
    if (!(isfinite(c->R_eff) && c->R_eff > 0.0 && isfinite(c->M_eff) && c->M_eff > 0.0))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                             "effective radius and mass must both be > 0 (got R = %.17g m, M = %.17g kg)", c->R_eff,
                             c->M_eff);
    if (R)
      *R = c->R_eff;
    if (M)
      *M = c->M_eff;
    return 0;
  }
  if (!(isfinite(c->r1) && c->r1 > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "radius r1 must be > 0 (m) (got %.17g)", c->r1);
  if (!(isfinite(c->m1) && c->m1 > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "mass m1 must be > 0 (kg) (got %.17g)", c->m1);
  if (!wall && !(isfinite(c->r2) && c->r2 > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "radius r2 must be > 0 (m) (got %.17g)", c->r2);
  if (!wall && !(isfinite(c->m2) && c->m2 > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "mass m2 must be > 0 (kg) (got %.17g)", c->m2);
  if (R)
    *R = wall ? c->r1 : c->r1 * c->r2 / (c->r1 + c->r2);
  if (M)
    *M = wall ? c->m1 : c->m1 * c->m2 / (c->m1 + c->m2);
  return 0;
}

impactfit_dem_bodies impactfit_dem_bodies_default(void) {
  impactfit_dem_bodies b;
  b.wall = 0;
  b.radius = b.r1 = b.r2 = b.density = b.rho1 = b.rho2 = b.m1 = b.m2 = b.mass = b.reff = NAN;
  return b;
}

int impactfit_dem_bodies_contact(const impactfit_dem_bodies *b, impactfit_dem_contact *c, impactfit_error *err) {
  if (!b || !c)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no bodies or contact given");
  double r1 = isnan(b->r1) ? b->radius : b->r1, r2 = isnan(b->r2) ? b->radius : b->r2;
  double rho1 = isnan(b->rho1) ? b->density : b->rho1, rho2 = isnan(b->rho2) ? b->density : b->rho2;
  if (isnan(r2) && !b->wall)
    r2 = r1;
  if (isnan(rho2) && !b->wall)
    rho2 = rho1;
  c->geometry = b->wall ? IMPACTFIT_DEM_SPHERE_WALL : IMPACTFIT_DEM_SPHERE_SPHERE;
  c->r1 = r1;
  c->r2 = r2;
  c->m1 = b->m1;
  c->m2 = b->m2;
  c->R_eff = b->reff;
  c->M_eff = b->mass;
  if (!isnan(b->mass) || !isnan(b->reff))
    return 0; /* the effective quantities directly */
  if (isnan(b->m1) && isnan(b->m2)) {
    if (isnan(rho1))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "give the densities or the masses of the bodies");
    if (!(rho1 > 0.0) || (!b->wall && !(rho2 > 0.0)))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "densities must be > 0 kg/m^3 (got %.17g, %.17g)", rho1, rho2);
    c->m1 = impactfit_dem_sphere_mass(r1, rho1);
    c->m2 = b->wall ? NAN : impactfit_dem_sphere_mass(r2, rho2);
  } else if (isnan(b->m2) && !b->wall) {
    c->m2 = b->m1;
  }
  return 0;
}

/* ---------------------------------------------------------------- forward and inverse */

/* m = (n − 1)/2: e does not depend on the speed, K or M (inverse.h, the scale-invariant family) */
static int scale_invariant(const impactfit_dem_model *md) { return fabs(md->m - 0.5 * (md->n - 1.0)) < 1e-12; }

typedef struct contact_law {
  double K, C, R, M;
  const impactfit_transition *tr;
  int invariant; /* m = (n − 1)/2 */
} contact_law;

static int law_of(const impactfit_dem_model *md, const impactfit_dem_contact *c, int clamp, double p, contact_law *L,
                  impactfit_error *err) {
  if (!md || !c)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no model or contact given");
  if (clamp > 0 && !md->clamp_switch && !md->clamp_default)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s %s never clamps the normal force: no switch to turn on", md->code,
                           md->model);
  if (clamp == 0 && !md->clamp_switch && md->clamp_default)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s %s always clamps the normal force at zero: no switch to turn off",
                           md->code, md->model);
  int st = impactfit_dem_effective(c, &L->R, &L->M, err);
  if (st)
    return st;
  if ((st = law_K_C(md, c, L->R, L->M, p, &L->K, &L->C, err)))
    return st;
  if (!(isfinite(L->K) && L->K > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "the contact stiffness is not finite and positive (K = %.17g)", L->K);
  if (!(isfinite(L->C) && L->C >= 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "%s = %.17g gives the damping C = %.17g in %s %s (the code's conversion is negative or not "
                           "finite there)",
                           md->param, p, L->C, md->code, md->model);
  int clamped = clamp < 0 ? md->clamp_default : clamp;
  L->tr = clamped ? impactfit_transition_C : impactfit_transition_A;
  L->invariant = scale_invariant(md);
  return 0;
}

/* δ_m0 and ζ of the law's damping at speed v */
static double delta_m0(const impactfit_dem_model *md, const contact_law *L, double v) {
  return pow((md->n + 1.0) * L->M * v * v / (2.0 * L->K), 1.0 / (md->n + 1.0));
}
static double zeta_of(const impactfit_dem_model *md, const contact_law *L, double v) {
  return L->C * pow(delta_m0(md, L, v), md->m + 1.0) / (L->M * v);
}

static int e_of_zeta(const impactfit_dem_model *md, const contact_law *L, double zeta, double *e,
                     impactfit_error *err) {
  if (L->invariant) {
    int st = impactfit_scale_invariant_e(md->n, zeta, L->tr, e, err);
    if (st == IMPACTFIT_ENOSEP) {
      *e = 0.0; /* the bodies stay together */
      return 0;
    }
    return st;
  }
  impactfit_impact_workspace *ws = impactfit_impact_alloc();
  if (!ws)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  impactfit_impact_params p = impactfit_impact_scaled_params(md->n, md->m, zeta);
  p.transition = L->tr;
  p.locate_extrema = 0;
  impactfit_impact_result r;
  int st = impactfit_impact_solve(ws, &p, &r, err);
  impactfit_impact_free(ws);
  if (st == IMPACTFIT_ENOSEP) {
    *e = 0.0;
    return 0;
  }
  if (st)
    return st;
  *e = r.e_out;
  return 0;
}

static int check_value(const impactfit_dem_model *md, double value, impactfit_error *err) {
  if (md->ops->p_min > 0.0 && !(value > md->ops->p_min))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s %s refuses %s <= %g (got %.17g)", md->code, md->model, md->param,
                           md->ops->p_min, value);
  if (md->takes_e) {
    if (!(isfinite(value) && value > 0.0 && value <= 1.0))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s of %s %s must be in (0, 1] (got %.17g)", md->param, md->code,
                             md->model, value);
  } else if (!(isfinite(value) && value >= 0.0)) {
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s of %s %s must be >= 0 (%s) (got %.17g)", md->param, md->code,
                           md->model, md->param_unit, value);
  }
  return 0;
}

int impactfit_dem_forward(const impactfit_dem_model *model, const impactfit_dem_contact *c, int clamp, double value,
                          double v, double *e, impactfit_error *err) {
  int st;
  if (!model || !c || !e)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no model, contact or output given");
  if ((st = check_value(model, value, err)))
    return st;
  if (!(isfinite(v) && v > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "impact speed v must be > 0 (m/s) (got %.17g)", v);
  contact_law L;
  if ((st = law_of(model, c, clamp, value, &L, err)))
    return st;
  if (model->takes_e && value == 1.0 && L.C == 0.0) {
    *e = 1.0;
    return 0;
  }
  return e_of_zeta(model, &L, zeta_of(model, &L, v), e, err);
}

int impactfit_dem_input(const impactfit_dem_model *model, const impactfit_dem_contact *c, int clamp, double value,
                        char *buf, size_t size, impactfit_error *err) {
  if (!model || !c || !buf || size == 0)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no model, contact or buffer given");
  int clamped = clamp < 0 ? model->clamp_default : clamp;
  model->ops->input(model, c, clamped, value, buf, size);
  return 0;
}

int impactfit_dem_forward_request(const impactfit_dem_request *req, double value, impactfit_dem_forward_answer *ans,
                                  impactfit_error *err) {
  if (!req || !req->model || !ans)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no request, model or answer given");
  const impactfit_dem_model *md = req->model;
  impactfit_dem_contact c = req->contact;
  if (isnan(c.v_char))
    c.v_char = req->v;
  int both = isnan(req->v_min) && isnan(req->v_max), clamp = req->clamp;
  ans->value = value;
  ans->v_min = both ? req->v : req->v_min;
  ans->v_max = both ? req->v : req->v_max;
  ans->transition = (clamp < 0 ? md->clamp_default : clamp) ? impactfit_transition_C : impactfit_transition_A;
  ans->speed_dependent = !scale_invariant(md);
  int st = impactfit_dem_forward(md, &c, clamp, value, req->v, &ans->e, err);
  if (!st)
    st = impactfit_dem_forward_range(md, &c, clamp, value, ans->v_min, ans->v_max,
                                     req->range_points ? req->range_points : 9, &ans->e_min, &ans->e_max, err);
  if (!st)
    st = impactfit_dem_input(md, &c, clamp, value, ans->input, sizeof ans->input, err);
  return st;
}

impactfit_dem_request impactfit_dem_default_request(void) {
  impactfit_dem_request r;
  memset(&r, 0, sizeof r);
  r.contact = impactfit_dem_contact_default();
  r.clamp = -1;
  r.e = r.v = r.v_min = r.v_max = NAN;
  return r;
}

/* The value p ∈ (0, 1] of a restitution-taking model whose real e at speed v is the asked e, by
 * bisection: the real e increases with p for every model registered (tests/test_demcodes.c checks
 * it). 0 when no p reaches e (why says which end falls short), 1 when found, < 0 on a failure. */
static int invert_e(const impactfit_dem_model *md, const impactfit_dem_contact *c, int clamp, double e, double v,
                    double *p, char *why, size_t size, impactfit_error *err) {
  double lo = md->ops->p_min > 0.0 ? nextafter(md->ops->p_min, 1.0) : 1e-12, hi = 1.0, elo, ehi;
  int st;
  if ((st = impactfit_dem_forward(md, c, clamp, lo, v, &elo, err)))
    return st;
  if ((st = impactfit_dem_forward(md, c, clamp, hi, v, &ehi, err)))
    return st;
  if (elo > e) {
    if (md->ops->p_min > 0.0)
      snprintf(why, size, "the smallest e it can give is just above %.6g (the code refuses %s <= %g)", elo, md->param,
               md->ops->p_min);
    else
      snprintf(why, size, "the smallest e it can give is %.6g (typing %s -> 0)", elo, md->param);
    return 0;
  }
  if (ehi < e) {
    snprintf(why, size, "the largest e it can give is %.6g (typing %s = 1)", ehi, md->param);
    return 0;
  }
  for (int i = 0; i < 200; i++) {
    double mid = 0.5 * (lo + hi), em;
    if (!(mid > lo && mid < hi))
      break;
    if ((st = impactfit_dem_forward(md, c, clamp, mid, v, &em, err)))
      return st;
    if (em < e)
      lo = mid, elo = em;
    else
      hi = mid, ehi = em;
  }
  *p = (e - elo < ehi - e) ? lo : hi;
  double eb = (e - elo < ehi - e) ? elo : ehi;
  if (fabs(eb - e) > 1e-9 * e) { /* a jump of the code's conversion (YADE's B6 at e = 1) */
    snprintf(why, size, "the code's conversion jumps at %s = %.17g (e from %.6g to %.6g), no %s gives it", md->param,
             hi, elo, ehi, md->param);
    return 0;
  }
  return 1;
}

/* ζ with e_out = e for the law's exponents and end condition */
static int exact_zeta(impactfit_inverse_workspace *ws, const impactfit_dem_model *md, const contact_law *L, double e,
                      double tol, double *zeta, impactfit_error *err) {
  if (L->invariant)
    return impactfit_scale_invariant_zeta(md->n, e, L->tr, zeta, err);
  impactfit_inverse_params p = impactfit_inverse_default_params();
  p.n = md->n;
  p.m = md->m;
  p.transition = L->tr;
  p.tol = tol;
  impactfit_inverse_result r;
  int st = impactfit_inverse_solve(ws, &p, e, 0.0, &r, err);
  if (st)
    return st;
  *zeta = r.zeta;
  return 0;
}

/* speeds sampled log-uniformly over [v_min, v_max] */
static double speed_at(const impactfit_dem_request *q, size_t i, size_t n) {
  if (n < 2 || q->v_min == q->v_max)
    return q->v_min;
  return q->v_min * pow(q->v_max / q->v_min, (double)i / (double)(n - 1));
}

/* min and max of the real e of value over the request's speeds */
static int e_over_range(const impactfit_dem_request *q, double value, int invariant, size_t npts, double *lo,
                        double *hi, impactfit_error *err) {
  for (size_t i = 0; i < npts; i++) {
    double e1;
    int st = impactfit_dem_forward(q->model, &q->contact, q->clamp, value, speed_at(q, i, npts), &e1, err);
    if (st)
      return st;
    if (i == 0 || e1 < *lo)
      *lo = e1;
    if (i == 0 || e1 > *hi)
      *hi = e1;
    if (invariant)
      break;
  }
  return 0;
}

int impactfit_dem_forward_range(const impactfit_dem_model *model, const impactfit_dem_contact *c, int clamp,
                                double value, double v_min, double v_max, size_t points, double *e_min, double *e_max,
                                impactfit_error *err) {
  if (!model || !c || !e_min || !e_max)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no model, contact or output given");
  if (!(isfinite(v_min) && isfinite(v_max) && v_min > 0.0 && v_min <= v_max))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "speed range [%.17g, %.17g] m/s must satisfy 0 < v_min <= v_max",
                           v_min, v_max);
  if (points < 1 || points > 10000)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "1 to 10000 speeds in the range (got %zu)", points);
  impactfit_dem_request q = impactfit_dem_default_request();
  q.model = model;
  q.contact = *c;
  q.clamp = clamp;
  q.v_min = v_min;
  q.v_max = v_max;
  return e_over_range(&q, value, scale_invariant(model), points, e_min, e_max, err);
}

/* The request's checks, with its defaults filled in: the speed range (v alone when none), the
 * tolerance (1e-10), the characteristic speed (v); *npts: the speeds in the range (9 by default). */
static int check_request(impactfit_dem_request *q, size_t *npts, impactfit_error *err) {
  if (!(isfinite(q->e) && q->e > 0.0 && q->e < 1.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "asked restitution e must be in (0, 1) (got %.17g)", q->e);
  if (!(isfinite(q->v) && q->v > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "impact speed v must be > 0 (m/s) (got %.17g)", q->v);
  if (isnan(q->v_min) && isnan(q->v_max))
    q->v_min = q->v_max = q->v;
  if (!(isfinite(q->v_min) && isfinite(q->v_max) && q->v_min > 0.0 && q->v_min <= q->v_max))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "speed range [%.17g, %.17g] m/s must satisfy 0 < v_min <= v_max",
                           q->v_min, q->v_max);
  if (!(q->tol == 0.0 || (q->tol >= 1e-13 && q->tol < 1e-2)))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "tolerance must be in [1e-13, 1e-2) (got %.17g)", q->tol);
  if (q->tol == 0.0)
    q->tol = 1e-10;
  *npts = q->range_points ? q->range_points : 9;
  if (*npts > 10000)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "at most 10000 speeds in the range (got %zu)", *npts);
  if (isnan(q->contact.v_char))
    q->contact.v_char = q->v;
  return IMPACTFIT_OK;
}

/* The code's parameter for the request (ans->value, ans->zeta, ans->reachable; for a code that takes e,
 * also what e typed as it is gives), with the law L at that value. why: the reason when unreachable. */
static int solve_value(impactfit_inverse_workspace *ws, const impactfit_dem_model *md, const impactfit_dem_request *q,
                       size_t npts, contact_law *L, impactfit_dem_answer *ans, char *why, size_t why_size,
                       impactfit_error *err) {
  int st = 0;
  if (md->takes_e) {
    /* the naive input: e typed as it is */
    if (md->ops->p_min > 0.0 && !(q->e > md->ops->p_min)) {
      ans->e_naive = ans->e_naive_min = ans->e_naive_max = NAN; /* the code refuses it */
    } else {
      st = impactfit_dem_forward(md, &q->contact, q->clamp, q->e, q->v, &ans->e_naive, err);
      if (!st)
        st = e_over_range(q, q->e, L->invariant, npts, &ans->e_naive_min, &ans->e_naive_max, err);
    }
    if (!st) {
      st = invert_e(md, &q->contact, q->clamp, q->e, q->v, &ans->value, why, why_size, err);
      ans->reachable = st == 1;
      st = st < 0 ? st : 0;
    }
    if (!st && ans->reachable)
      st = law_of(md, &q->contact, q->clamp, ans->value, L, err);
    if (!st && ans->reachable)
      ans->zeta = zeta_of(md, L, q->v);
    else if (!st)
      st = exact_zeta(ws, md, L, q->e, q->tol, &ans->zeta, err);
  } else {
    /* C is proportional to the parameter: C(p) = p C(1), K independent of p */
    st = exact_zeta(ws, md, L, q->e, q->tol, &ans->zeta, err);
    if (!st) {
      ans->value = ans->zeta * L->M * q->v / pow(delta_m0(md, L, q->v), md->m + 1.0) / L->C;
      ans->reachable = 1;
      st = law_of(md, &q->contact, q->clamp, ans->value, L, err);
    }
  }
  return st;
}

/* The answer's note on where the value is exact (at every speed, or at v only with the spread of e). */
static void exact_note(const impactfit_dem_model *md, const impactfit_dem_request *q, const contact_law *L,
                       impactfit_dem_answer *ans) {
  if (L->invariant) {
    snprintf(ans->note, sizeof ans->note,
             "exact at every speed (m = (n - 1)/2): this model's damping is scale-invariant, so e does not depend on "
             "v, K or M");
    if (q->contact.geometry == IMPACTFIT_DEM_SPHERE_WALL && !strcmp(md->code, "lammps") &&
        !strcmp(md->damping, "tsuji") && md->version_min == LMP_V0)
      appendf(ans->note, sizeof ans->note,
              "; LAMMPS 29Sep2021 fix wall/gran applies the tsuji conversion again at every run command "
              "(fix_wall_gran.cpp:535-539): use one run, or damping velocity with the exact constant");
  } else if (q->v_min == q->v_max)
    snprintf(ans->note, sizeof ans->note,
             "exact at v = %.6g m/s only: with this model (n = %g, m = %g) e depends on the impact speed "
             "(give a speed range to see the spread)",
             q->v, md->n, md->m);
  else
    snprintf(ans->note, sizeof ans->note,
             "exact at v = %.6g m/s only: with this model (n = %g, m = %g) one %s gives e from %.6g to %.6g over "
             "v in [%.6g, %.6g] m/s",
             q->v, md->n, md->m, md->param, ans->e_min, ans->e_max, q->v_min, q->v_max);
}

int impactfit_dem_solve(impactfit_inverse_workspace *ws, const impactfit_dem_request *req, impactfit_dem_answer *ans,
                        impactfit_error *err) {
  if (!req || !ans || !req->model)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no request, model or answer given");
  const impactfit_dem_model *md = req->model;
  impactfit_dem_request q = *req;
  memset(ans, 0, sizeof *ans);
  ans->value = ans->e_naive = ans->e_naive_min = ans->e_naive_max = ans->e_min = ans->e_max = NAN;
  size_t npts = 0;
  int st = check_request(&q, &npts, err);
  if (st)
    return st;
  /* the law at a typical value of the parameter (K does not depend on it but for YADE ViscElMat(tc, en)) */
  contact_law L;
  if ((st = law_of(md, &q.contact, q.clamp, md->takes_e ? q.e : 1.0, &L, err)))
    return st;
  impactfit_inverse_workspace *own = NULL;
  if (!ws && !L.invariant) {
    ws = own = impactfit_inverse_alloc();
    if (!ws)
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  }
  ans->R = L.R;
  ans->M = L.M;
  ans->transition = L.tr;
  ans->speed_dependent = !L.invariant;
  char why[512] = "";
  if ((st = solve_value(ws, md, &q, npts, &L, ans, why, sizeof why, err)))
    goto done;
  ans->K = L.K;
  ans->C = ans->zeta * L.M * q.v / pow(delta_m0(md, &L, q.v), md->m + 1.0);
  if (!ans->reachable) {
    ans->value = NAN;
    snprintf(ans->note, sizeof ans->note, "%s %s%s%s cannot give e = %.6g%s: %s", md->code, md->model,
             *md->damping ? " damping " : "", md->damping, q.e,
             L.tr == impactfit_transition_C ? " (force clamped)" : "", why);
    goto done;
  }
  if ((st = e_over_range(&q, ans->value, L.invariant, npts, &ans->e_min, &ans->e_max, err)))
    goto done;
  impactfit_dem_input(md, &q.contact, q.clamp, ans->value, ans->input, sizeof ans->input, NULL);
  exact_note(md, &q, &L, ans);
done:
  impactfit_inverse_free(own);
  return st;
}

int impactfit_dem_model_clamps(const impactfit_dem_model *md, int clamps[2]) {
  if (!md || !clamps)
    return 0;
  if (md->clamp_switch) {
    clamps[0] = 0;
    clamps[1] = 1;
    return 2;
  }
  clamps[0] = md->clamp_default;
  return 1;
}

const char *impactfit_dem_kn_unit(const impactfit_dem_model *md) {
  if (!md)
    return NULL;
  switch (md->ops->stiffness) {
  case ST_HERTZ_KN:
    return "Pa";
  case ST_LINEAR_KN:
  case ST_VISCEL_KN:
    return "N/m";
  case ST_KN_R:
    return "N/m^2.5";
  case ST_KN_NOR:
    return "N/m^1.5";
  default:
    return NULL;
  }
}

impactfit_dem_stiffness_input impactfit_dem_model_stiffness_input(const impactfit_dem_model *md) {
  if (md && md->ops && md->ops->stiffness == ST_VISCEL_TC)
    return IMPACTFIT_DEM_FROM_TC;
  return (md && md->needs_material) ? IMPACTFIT_DEM_FROM_MATERIAL : IMPACTFIT_DEM_FROM_KN;
}

/* Whether the contact carries what a model needs (a material, the contact time, or the code's stiffness). */
static int has_inputs(const impactfit_dem_model *md, const impactfit_dem_contact *c) {
  switch (impactfit_dem_model_stiffness_input(md)) {
  case IMPACTFIT_DEM_FROM_TC:
    return isfinite(c->tc);
  case IMPACTFIT_DEM_FROM_MATERIAL:
    return isfinite(c->E) && isfinite(c->nu);
  default:
    return isfinite(c->kn);
  }
}

int impactfit_dem_suggest(impactfit_inverse_workspace *ws, const impactfit_dem_request *req,
                          const impactfit_dem_model **alt, impactfit_dem_answer *alt_ans, impactfit_error *err) {
  if (!req || !req->model || !alt || !alt_ans)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no request, model or output given");
  const impactfit_dem_model *md = req->model;
  *alt = NULL;
  /* four passes: models exact at every speed first, with the clamp as asked, then with the code's
   * switch turned the other way (the same model included), then the speed-dependent ones alike */
  int asked = req->clamp < 0 ? md->clamp_default : req->clamp;
  /* the requested model's stiffness, so that a model taking kn can be offered with the same spring */
  double K0 = NAN, R0 = NAN, M0 = NAN, C0;
  impactfit_dem_contact c0 = req->contact;
  if (isnan(c0.v_char))
    c0.v_char = req->v;
  if (impactfit_dem_effective(&c0, &R0, &M0, NULL) == 0 &&
      law_K_C(md, &c0, R0, M0, md->takes_e ? req->e : 1.0, &K0, &C0, NULL) != 0)
    K0 = NAN;
  for (int pass = 0; pass < 4; pass++)
    for (size_t i = 0; i < impactfit_dem_model_count(); i++) {
      const impactfit_dem_model *o = &models[i];
      int flipped = pass & 1, want_invariant = pass < 2;
      /* another model of the code that holds for every version md holds for */
      int covers = (o->version_min == 0 || (md->version_min && o->version_min <= md->version_min)) &&
                   (o->version_max == 0 || (md->version_max && o->version_max >= md->version_max));
      if ((o == md && !flipped) || strcmp(o->code, md->code) || !covers)
        continue;
      impactfit_dem_request q = *req;
      if (!has_inputs(o, &q.contact) && o->n == md->n && isfinite(K0) && isnan(q.contact.kn)) {
        /* the same spring through the other model's stiffness parameter */
        if (o->ops->stiffness == ST_LINEAR_KN)
          q.contact.kn = K0;
        else if (o->ops->stiffness == ST_VISCEL_KN)
          q.contact.kn = 2.0 * K0;
        else if (o->ops->stiffness == ST_HERTZ_KN)
          q.contact.kn = K0 / sqrt(R0);
      }
      if (!has_inputs(o, &q.contact))
        continue;
      int invariant = scale_invariant(o);
      if (invariant != want_invariant)
        continue;
      q.model = o;
      q.clamp = flipped ? !asked : asked;
      if (!o->clamp_switch && q.clamp != o->clamp_default)
        continue;
      impactfit_error e2;
      if (impactfit_dem_solve(ws, &q, alt_ans, &e2) == 0 && alt_ans->reachable) {
        *alt = o;
        return 0;
      }
    }
  return IMPACTFIT__FAIL(err, IMPACTFIT_ENOROOT, "no other model of %s %s with the given inputs reaches e = %.17g",
                         md->code, md->versions, req->e);
}

impactfit_dem_contact impactfit_dem_reference_contact(void) {
  impactfit_dem_contact c = impactfit_dem_contact_default();
  c.E = 1e8;
  c.nu = 0.3;
  c.r1 = c.r2 = 0.005;
  c.m1 = c.m2 = impactfit_dem_sphere_mass(0.005, 2500.0);
  c.kn = 2e4;
  c.tc = 5e-4;
  c.v_char = 1.0;
  return c;
}

int impactfit_dem_model_audit(const impactfit_dem_model *model, int clamp, double e_min, double e_max, size_t points,
                              impactfit_dem_audit_result *res, impactfit_error *err) {
  if (!model || !res)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no model or result given");
  if (!model->takes_e)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s %s takes %s, not a restitution: nothing to audit", model->code,
                           model->model, model->param);
  if (!(e_min > 0.0 && e_max <= 1.0 && e_min <= e_max) || points < 1 || points > 1000000 ||
      (points == 1 && e_min != e_max))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "invalid grid [%.17g, %.17g] with %zu points", e_min, e_max, points);
  memset(res, 0, sizeof *res);
  impactfit_dem_contact c = impactfit_dem_reference_contact();
  double sum = 0.0;
  for (size_t i = 0; i < points; i++) {
    double e = points == 1 ? e_min : e_min + (e_max - e_min) * (double)i / (double)(points - 1), er;
    if (model->ops->p_min > 0.0 && !(e > model->ops->p_min)) {
      res->refused++;
      continue;
    }
    int st = impactfit_dem_forward(model, &c, clamp, e, 1.0, &er, err);
    if (st)
      return st;
    double d = fabs(er - e);
    sum += d;
    res->points++;
    if (d > res->e_max_error || res->points == 1) {
      res->e_max_error = d;
      res->e_at_max = e;
    }
  }
  res->e_mean_error = res->points ? sum / (double)res->points : 0.0;
  return 0;
}

const char *impactfit_dem_force_text(const impactfit_dem_model *md, char *buf, size_t size) {
  if (!md || !buf || size == 0)
    return buf;
  char kd[32] = "K d", cd[32] = "C d'";
  if (md->n != 1.0)
    snprintf(kd, sizeof kd, "K d^%g", md->n);
  if (md->m != 0.0)
    snprintf(cd, sizeof cd, md->m == 1.0 ? "C d d'" : "C d^%g d'", md->m);
  snprintf(buf, size, "F = %s + %s", kd, cd);
  return buf;
}

int impactfit_dem_grid(impactfit_inverse_workspace *ws, const impactfit_dem_request *base, const double *x, size_t nx,
                       int forward, const double *v, size_t nv, impactfit_dem_point_fn fn, void *ctx,
                       impactfit_error *err) {
  if (!base || !base->model || (nx && !x) || (nv && !v) || !fn)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no request, values, speeds or callback given");
  impactfit_inverse_workspace *own = NULL;
  if (!ws && !forward && !(ws = own = impactfit_inverse_alloc()))
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  int stop = 0;
  for (size_t i = 0; i < nx && !stop; i++)
    for (size_t j = 0; j < nv && !stop; j++) {
      impactfit_dem_request q = *base;
      q.v = v[j];
      impactfit_error e1;
      impactfit_error_clear(&e1);
      int st;
      if (forward) {
        impactfit_dem_forward_answer fa;
        memset(&fa, 0, sizeof fa);
        st = impactfit_dem_forward_request(&q, x[i], &fa, &e1);
        stop = fn(ctx, i * nv + j, &q, x[i], st, NULL, st ? NULL : &fa, &e1);
      } else {
        impactfit_dem_answer a;
        q.e = x[i];
        st = impactfit_dem_solve(ws, &q, &a, &e1);
        stop = fn(ctx, i * nv + j, &q, x[i], st, st ? NULL : &a, NULL, &e1);
      }
    }
  impactfit_inverse_free(own);
  return stop ? IMPACTFIT__FAIL(err, IMPACTFIT_EINTR, "stopped") : 0;
}
