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

#include "../common/common_impl.h"
#include "impactfit/demcodes.h"
#include "impactfit/impact.h"
#include "impactfit/inverse.h"

typedef struct impactfit__dem_ops {
  /* K from the contact; R, M effective radius and mass */
  int (*stiffness)(const impactfit_dem_contact *c, double R, double M, double *K, impactfit_error *err);
  /* g with C = conv(p) g */
  double (*gfac)(const impactfit_dem_contact *c, double R, double M, double K);
  /* the code's conversion of a restitution into its damping factor (NULL: p is the factor itself) */
  double (*conv)(double e);
  /* the text to paste */
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

/* ---------------------------------------------------------------- stiffness */

/* Hertz from the material: F = (4/3) E* √R δ^(3/2) */
static int k_hertz_material(const impactfit_dem_contact *c, double R, double M, double *K, impactfit_error *err) {
  (void)M;
  int st = need_material(c, err);
  if (st)
    return st;
  *K = 4.0 / 3.0 * estar(c) * sqrt(R);
  return 0;
}
/* Hertz from a stiffness per √(R δ): F = kn √(R δ) δ */
static int k_hertz_kn(const impactfit_dem_contact *c, double R, double M, double *K, impactfit_error *err) {
  (void)M;
  int st = need_kn(c, err);
  if (st)
    return st;
  *K = c->kn * sqrt(R);
  return 0;
}
/* a linear spring: F = kn δ */
static int k_linear_kn(const impactfit_dem_contact *c, double R, double M, double *K, impactfit_error *err) {
  (void)R;
  (void)M;
  int st = need_kn(c, err);
  if (st)
    return st;
  *K = c->kn;
  return 0;
}
/* LIGGGHTS `hooke` and Chrono Hooke (material properties): the linear stiffness that gives the Hertz
 * contact's peak overlap at the characteristic velocity V:
 * kn = (16/15) √R E* (15 M V²/(16 √R E*))^(1/5) */
static int k_hooke_vchar(const impactfit_dem_contact *c, double R, double M, double *K, impactfit_error *err) {
  int st = need_material(c, err);
  if (st)
    return st;
  if (!(isfinite(c->v_char) && c->v_char > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "this model needs the characteristic velocity > 0 (m/s) (got %.17g)",
                           c->v_char);
  double a = 16.0 / 15.0 * sqrt(R) * estar(c);
  *K = a * pow(M * c->v_char * c->v_char / a, 0.2);
  return 0;
}

/* ---------------------------------------------------------------- damping factors g */

static double g_one(const impactfit_dem_contact *c, double R, double M, double K) {
  (void)c, (void)R, (void)M, (void)K;
  return 1.0;
}
static double g_mass(const impactfit_dem_contact *c, double R, double M, double K) {
  (void)c, (void)R, (void)K;
  return M;
}
static double g_mass_sqrtR(const impactfit_dem_contact *c, double R, double M, double K) {
  (void)c, (void)K;
  return M * sqrt(R);
}
static double g_sqrtMK(const impactfit_dem_contact *c, double R, double M, double K) {
  (void)c, (void)R;
  return sqrt(M * K);
}

/* ---------------------------------------------------------------- conversions of e */

/* LAMMPS `damping tsuji` before the √2 correction: the polynomial of Tsuji et al. (1992) as fitted by
 * Marshall (2009), used as η = α √(M k_n) with k_n = dF_elastic/dδ-like knfac = K δ^(n−1)... (see law) */
static double conv_tsuji(double e) {
  return ((((((4.8218 * e - 18.022) * e + 27.467) * e - 22.348) * e + 11.087) * e - 4.2783) * e + 1.2728);
}
__attribute__((unused)) static double conv_tsuji_sqrt2(double e) { return sqrt(2.0) * conv_tsuji(e); }
/* LIGGGHTS / Chrono Hertz: γ_n = −2√(5/6) β √(S_n M), S_n = 2E*√(Rδ) = (3/2) K δ^(1/2): C = √5 |β| √(M K) */
static double conv_hertz_beta(double e) { return -sqrt(5.0) * beta_of(e); }
/* linear spring–dashpot with the Kelvin–Voigt inverse: γ_n = 2|ln e| √(M k)/√(π² + ln² e) */
static double conv_linear_log(double e) { return -2.0 * beta_of(e); }

/* ---------------------------------------------------------------- input texts */

static void in_lammps_granular(const impactfit_dem_model *md, const impactfit_dem_contact *c, int clamp, double p,
                               char *buf, size_t size) {
  const char *normal = md->model + strlen("granular ");
  char first[64];
  if (md->needs_material)
    snprintf(first, sizeof first, "%.10g", c->E);
  else
    snprintf(first, sizeof first, "%.10g", c->kn);
  char args[512];
  if (md->needs_material)
    snprintf(args, sizeof args, "%s %s %.12g %.10g tangential linear_nohistory 0 0 damping %s%s", normal, first, p,
             c->nu, md->damping, clamp ? " limit_damping" : "");
  else
    snprintf(args, sizeof args, "%s %s %.12g tangential linear_nohistory 0 0 damping %s%s", normal, first, p,
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
    appendf(buf, size, "fix wall all wall/gran %s %s zplane 0.0 NULL\n",
            strchr(md->model, '/') ? strchr(md->model, '/') + 1 : md->model, args);
}

static void in_liggghts(const impactfit_dem_model *md, const impactfit_dem_contact *c, int clamp, double p, char *buf,
                        size_t size) {
  buf[0] = 0;
  appendf(buf, size, "pair_style gran model %s tangential no_history%s\npair_coeff * *\n", md->model,
          clamp ? " limitForce on" : "");
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
    appendf(buf, size, "fix m3 all property/global gamman peratomtypepair 1 %.12g\n", p);
    appendf(buf, size, "fix m4 all property/global gammat peratomtypepair 1 0.0\n");
    appendf(buf, size, "fix m5 all property/global coefficientFriction peratomtypepair 1 0.0\n");
  }
  if (c->geometry == IMPACTFIT_DEM_SPHERE_WALL)
    appendf(buf, size, "fix wall all wall/gran model %s tangential no_history%s primitive type 1 zplane 0.0\n",
            md->model, clamp ? " limitForce on" : "");
}

__attribute__((unused)) static void in_yade_mindlin(const impactfit_dem_model *md, const impactfit_dem_contact *c, int clamp, double p,
                            char *buf, size_t size) {
  (void)clamp;
  buf[0] = 0;
  appendf(buf, size, "mat = FrictMat(young=%.10g, poisson=%.10g, frictionAngle=0)\n", c->E, c->nu);
  appendf(buf, size, "ip2 = Ip2_FrictMat_FrictMat_MindlinPhys(%s=%.12g)\n", md->param, p);
  appendf(buf, size, "law2 = Law2_ScGeom_MindlinPhys_Mindlin()\n");
}

static void in_chrono(const impactfit_dem_model *md, const impactfit_dem_contact *c, int clamp, double p, char *buf,
                      size_t size) {
  (void)clamp;
  buf[0] = 0;
  appendf(buf, size,
          "sys.SetContactForceModel(chrono.ChSystemSMC.%s)\nsys.UseMaterialProperties(True)\n"
          "mat.SetYoungModulus(%.10g)\nmat.SetPoissonRatio(%.10g)\nmat.SetRestitution(%.12g)\n",
          strcmp(md->model, "hooke") == 0 ? "Hooke" : "Hertz", c->E, c->nu, p);
  if (strcmp(md->model, "hooke") == 0)
    appendf(buf, size, "sys.SetCharacteristicImpactVelocity(%.10g)\n", c->v_char);
}

/* ---------------------------------------------------------------- the registry */

#define OPS(name, k, g, cv, in) static const dem_ops name = {k, g, cv, in};
OPS(ops_lgr_hm_velocity, k_hertz_material, g_one, NULL, in_lammps_granular)
OPS(ops_lgr_hm_massvel, k_hertz_material, g_mass, NULL, in_lammps_granular)
OPS(ops_lgr_hm_visco, k_hertz_material, g_mass_sqrtR, NULL, in_lammps_granular)
OPS(ops_lgr_hm_tsuji, k_hertz_material, g_sqrtMK, conv_tsuji, in_lammps_granular)
OPS(ops_lgr_h_velocity, k_hertz_kn, g_one, NULL, in_lammps_granular)
OPS(ops_lgr_h_massvel, k_hertz_kn, g_mass, NULL, in_lammps_granular)
OPS(ops_lgr_h_visco, k_hertz_kn, g_mass_sqrtR, NULL, in_lammps_granular)
OPS(ops_lgr_h_tsuji, k_hertz_kn, g_sqrtMK, conv_tsuji, in_lammps_granular)
OPS(ops_lgr_k_velocity, k_linear_kn, g_one, NULL, in_lammps_granular)
OPS(ops_lgr_k_massvel, k_linear_kn, g_mass, NULL, in_lammps_granular)
OPS(ops_lgr_k_visco, k_linear_kn, g_mass_sqrtR, NULL, in_lammps_granular)
OPS(ops_lgr_k_tsuji, k_linear_kn, g_sqrtMK, conv_tsuji, in_lammps_granular)
OPS(ops_lgran_hooke, k_linear_kn, g_mass, NULL, in_lammps_gran)
OPS(ops_lgran_hertz, k_hertz_kn, g_mass_sqrtR, NULL, in_lammps_gran)
OPS(ops_lig_hertz, k_hertz_material, g_sqrtMK, conv_hertz_beta, in_liggghts)
OPS(ops_lig_hooke, k_hooke_vchar, g_sqrtMK, conv_linear_log, in_liggghts)
OPS(ops_chrono_hertz, k_hertz_material, g_sqrtMK, conv_hertz_beta, in_chrono)
OPS(ops_chrono_hooke, k_hooke_vchar, g_sqrtMK, conv_linear_log, in_chrono)
#undef OPS

#define LMP_OLD 20190000L /* pair_style granular first appeared in LAMMPS 2019 */
#define LMP_D 20210929L   /* Debian 12: 29 Sep 2021 update 2 */

static const impactfit_dem_model models[] = {
    /* ---- LAMMPS pair_style granular (29 Sep 2021) ---- */
    {"lammps", "granular hertz/material", "tsuji", "stable 29Sep2021 (Debian 12)", LMP_OLD, LMP_D, 1.5, 0.25, "e", "-",
     1, 1, 0, "limit_damping", 1,
     "F = (4/3) E* a delta + eta delta', a = sqrt(R delta), E* = 1/(2(1 - nu^2)/E); eta = alpha(e) sqrt(M knfac), "
     "knfac = (4/3) E* a; alpha(e) = 1.2728 - 4.2783 e + 11.087 e^2 - 22.348 e^3 + 27.467 e^4 - 18.022 e^5 "
     "+ 4.8218 e^6 (no sqrt(2) factor in this version): C = alpha(e) sqrt(M K)",
     "src/GRANULAR/pair_granular.cpp (stable_29Sep2021_update2)", &ops_lgr_hm_tsuji},
    {"lammps", "granular hertz/material", "velocity", "stable 29Sep2021 (Debian 12)", LMP_OLD, LMP_D, 1.5, 0.0,
     "eta_n0", "N s/m", 0, 1, 0, "limit_damping", 1,
     "F = (4/3) E* a delta + eta_n0 delta', a = sqrt(R delta): C = eta_n0",
     "src/GRANULAR/pair_granular.cpp (stable_29Sep2021_update2)", &ops_lgr_hm_velocity},
    {"lammps", "granular hertz/material", "mass_velocity", "stable 29Sep2021 (Debian 12)", LMP_OLD, LMP_D, 1.5, 0.0,
     "eta_n0", "1/s", 0, 1, 0, "limit_damping", 1, "F = (4/3) E* a delta + eta_n0 M delta': C = eta_n0 M",
     "src/GRANULAR/pair_granular.cpp (stable_29Sep2021_update2)", &ops_lgr_hm_massvel},
    {"lammps", "granular hertz/material", "viscoelastic", "stable 29Sep2021 (Debian 12)", LMP_OLD, LMP_D, 1.5, 0.5,
     "eta_n0", "1/(m s)", 0, 1, 0, "limit_damping", 1,
     "F = (4/3) E* a delta + eta_n0 a M delta', a = sqrt(R delta): C = eta_n0 M sqrt(R), m = 1/2",
     "src/GRANULAR/pair_granular.cpp (stable_29Sep2021_update2)", &ops_lgr_hm_visco},
    {"lammps", "granular hertz", "tsuji", "stable 29Sep2021 (Debian 12)", LMP_OLD, LMP_D, 1.5, 0.25, "e", "-", 1, 0, 0,
     "limit_damping", 1, "F = kn a delta + eta delta', a = sqrt(R delta); eta = alpha(e) sqrt(M kn a): C = alpha(e) sqrt(M K), K = kn sqrt(R)",
     "src/GRANULAR/pair_granular.cpp (stable_29Sep2021_update2)", &ops_lgr_h_tsuji},
    {"lammps", "granular hertz", "velocity", "stable 29Sep2021 (Debian 12)", LMP_OLD, LMP_D, 1.5, 0.0, "eta_n0", "N s/m",
     0, 0, 0, "limit_damping", 1, "F = kn a delta + eta_n0 delta': K = kn sqrt(R), C = eta_n0",
     "src/GRANULAR/pair_granular.cpp (stable_29Sep2021_update2)", &ops_lgr_h_velocity},
    {"lammps", "granular hertz", "mass_velocity", "stable 29Sep2021 (Debian 12)", LMP_OLD, LMP_D, 1.5, 0.0, "eta_n0",
     "1/s", 0, 0, 0, "limit_damping", 1, "F = kn a delta + eta_n0 M delta': K = kn sqrt(R), C = eta_n0 M",
     "src/GRANULAR/pair_granular.cpp (stable_29Sep2021_update2)", &ops_lgr_h_massvel},
    {"lammps", "granular hertz", "viscoelastic", "stable 29Sep2021 (Debian 12)", LMP_OLD, LMP_D, 1.5, 0.5, "eta_n0",
     "1/(m s)", 0, 0, 0, "limit_damping", 1, "F = kn a delta + eta_n0 a M delta': K = kn sqrt(R), C = eta_n0 M sqrt(R)",
     "src/GRANULAR/pair_granular.cpp (stable_29Sep2021_update2)", &ops_lgr_h_visco},
    {"lammps", "granular hooke", "tsuji", "stable 29Sep2021 (Debian 12)", LMP_OLD, LMP_D, 1.0, 0.0, "e", "-", 1, 0, 0,
     "limit_damping", 1, "F = kn delta + alpha(e) sqrt(M kn) delta': C = alpha(e) sqrt(M K)",
     "src/GRANULAR/pair_granular.cpp (stable_29Sep2021_update2)", &ops_lgr_k_tsuji},
    {"lammps", "granular hooke", "velocity", "stable 29Sep2021 (Debian 12)", LMP_OLD, LMP_D, 1.0, 0.0, "eta_n0", "N s/m",
     0, 0, 0, "limit_damping", 1, "F = kn delta + eta_n0 delta': C = eta_n0",
     "src/GRANULAR/pair_granular.cpp (stable_29Sep2021_update2)", &ops_lgr_k_velocity},
    {"lammps", "granular hooke", "mass_velocity", "stable 29Sep2021 (Debian 12)", LMP_OLD, LMP_D, 1.0, 0.0, "eta_n0",
     "1/s", 0, 0, 0, "limit_damping", 1, "F = kn delta + eta_n0 M delta': C = eta_n0 M",
     "src/GRANULAR/pair_granular.cpp (stable_29Sep2021_update2)", &ops_lgr_k_massvel},
    {"lammps", "granular hooke", "viscoelastic", "stable 29Sep2021 (Debian 12)", LMP_OLD, LMP_D, 1.0, 0.5, "eta_n0",
     "1/(m s)", 0, 0, 0, "limit_damping", 1, "F = kn delta + eta_n0 a M delta', a = sqrt(R delta): C = eta_n0 M sqrt(R)",
     "src/GRANULAR/pair_granular.cpp (stable_29Sep2021_update2)", &ops_lgr_k_visco},
    /* ---- LAMMPS pair_style gran/... (29 Sep 2021) ---- */
    {"lammps", "gran/hooke", "", "stable 29Sep2021 (Debian 12)", 0, LMP_D, 1.0, 0.0, "gamma_n", "1/s", 0, 0, 0,
     "limit_damping", 1, "F = kn delta + M gamma_n delta': C = M gamma_n",
     "src/GRANULAR/pair_gran_hooke.cpp (stable_29Sep2021_update2)", &ops_lgran_hooke},
    {"lammps", "gran/hooke/history", "", "stable 29Sep2021 (Debian 12)", 0, LMP_D, 1.0, 0.0, "gamma_n", "1/s", 0, 0, 0,
     "limit_damping", 1, "F = kn delta + M gamma_n delta': C = M gamma_n",
     "src/GRANULAR/pair_gran_hooke_history.cpp (stable_29Sep2021_update2)", &ops_lgran_hooke},
    {"lammps", "gran/hertz/history", "", "stable 29Sep2021 (Debian 12)", 0, LMP_D, 1.5, 0.5, "gamma_n", "1/(m s)", 0,
     0, 0, "limit_damping", 1,
     "F = sqrt(R delta) (kn delta + M gamma_n delta'): K = kn sqrt(R), C = M gamma_n sqrt(R), m = 1/2",
     "src/GRANULAR/pair_gran_hertz_history.cpp (stable_29Sep2021_update2)", &ops_lgran_hertz},
    /* ---- LIGGGHTS-PUBLIC 3.8.0 ---- */
    {"liggghts", "hertz", "", "3.8.0 (Debian 12)", 30000, 30899, 1.5, 0.25, "e", "-", 1, 1, 0, "limitForce on", 1,
     "k_n = (4/3) Y* sqrt(R delta), S_n = 2 Y* sqrt(R delta), gamma_n = -2 sqrt(5/6) beta sqrt(S_n M), "
     "beta = ln e/sqrt(ln^2 e + pi^2): K = (4/3) Y* sqrt(R), C = sqrt(5) |beta| sqrt(M K)",
     "src/normal_model_hertz.h (LIGGGHTS-PUBLIC 3.8.0)", &ops_lig_hertz},
    {"liggghts", "hooke", "", "3.8.0 (Debian 12)", 30000, 30899, 1.0, 0.0, "e", "-", 1, 1, 0, "limitForce on", 1,
     "k_n = (16/15) sqrt(R) Y* (15 M V^2/(16 sqrt(R) Y*))^(1/5) (V: characteristicVelocity), "
     "gamma_n = sqrt(4 M k_n/(1 + (pi/ln e)^2)): C = 2 |ln e| sqrt(M K)/sqrt(pi^2 + ln^2 e)",
     "src/normal_model_hooke.h (LIGGGHTS-PUBLIC 3.8.0)", &ops_lig_hooke},
    /* ---- Project Chrono SMC (formula only: not in Debian 12) ---- */
    {"chrono", "hertz", "", "8.0 - 9.0 (ChSystemSMC, material properties)", 80000, 99999, 1.5, 0.25, "e", "-", 1, 1, 1,
     NULL, 0,
     "S_n = 2 E* sqrt(R delta), k_n = (2/3) S_n, g_n = -2 sqrt(5/6) beta sqrt(S_n M); forceN < 0 clamped to 0: "
     "K = (4/3) E* sqrt(R), C = sqrt(5) |beta| sqrt(M K)",
     "src/chrono/physics/ChContactSMC.h (ChDefaultContactForceTorqueSMC, Hertz)", &ops_chrono_hertz},
    {"chrono", "hooke", "", "8.0 - 9.0 (ChSystemSMC, material properties)", 80000, 99999, 1.0, 0.0, "e", "-", 1, 1, 1,
     NULL, 0,
     "k_n = (16/15) sqrt(R) E* (M V^2/((16/15) sqrt(R) E*))^(1/5) (V: characteristic impact velocity), "
     "g_n = sqrt(4 M k_n/(1 + (pi/ln e)^2)); forceN < 0 clamped to 0",
     "src/chrono/physics/ChContactSMC.h (ChDefaultContactForceTorqueSMC, Hooke)", &ops_chrono_hooke},
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
    if (strcmp(code, codes[i]) == 0)
      return debian_versions[i] ? debian_versions[i] : "9.0";
  return NULL;
}

long impactfit_dem_version_key(const char *code, const char *version) {
  (void)code;
  if (!version || !*version)
    return 0;
  static const char *const mon[] = {"jan", "feb", "mar", "apr", "may", "jun",
                                    "jul", "aug", "sep", "oct", "nov", "dec"};
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

static int known_code(const char *code) {
  for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
    if (strcmp(code, codes[i]) == 0)
      return 1;
  return 0;
}

/* the distinct model names of a code (model NULL), or the damping options of one model, for messages */
static void list_models(const char *code, long key, const char *model, char *buf, size_t size) {
  buf[0] = 0;
  for (size_t i = 0; i < impactfit_dem_model_count(); i++) {
    const impactfit_dem_model *md = &models[i];
    if (strcmp(md->code, code) || (key && !((md->version_min == 0 || key >= md->version_min) &&
                                            (md->version_max == 0 || key <= md->version_max))))
      continue;
    if (model && strcmp(md->model, model))
      continue;
    char one[160];
    snprintf(one, sizeof one, "'%s'", model ? md->damping : md->model);
    if (!strstr(buf, one))
      appendf(buf, size, "%s%s", buf[0] ? ", " : "", one);
  }
}

int impactfit_dem_model_find(const char *code, const char *version, const char *model, const char *damping,
                             const impactfit_dem_model **out, impactfit_error *err) {
  if (!out)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no output given");
  *out = NULL;
  char list[2048];
  if (!code || !known_code(code))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "unknown DEM code '%s' (known: lammps, liggghts, yade, chrono)",
                           code ? code : "");
  if (!version || !*version)
    version = impactfit_dem_default_version(code);
  long key = impactfit_dem_version_key(code, version);
  if (!key)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "cannot read version '%s' of %s (e.g. 29Sep2021 or 2021-09-29 for LAMMPS, 3.8.0, 2023.02a)",
                           version, code);
  if (!model || !*model) {
    list_models(code, key, NULL, list, sizeof list);
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no model given for %s %s (known: %s)", code, version, list);
  }
  const impactfit_dem_model *any_version = NULL;
  for (size_t i = 0; i < impactfit_dem_model_count(); i++) {
    const impactfit_dem_model *md = &models[i];
    if (strcmp(md->code, code) || strcmp(md->model, model))
      continue;
    if (damping && *damping && strcmp(md->damping, damping))
      continue;
    if (!((md->version_min == 0 || key >= md->version_min) && (md->version_max == 0 || key <= md->version_max))) {
      any_version = md;
      continue;
    }
    if ((!damping || !*damping) && *md->damping) {
      list_models(code, key, model, list, sizeof list);
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s %s model '%s' needs a damping option (known: %s)", code,
                             version, model, list);
    }
    *out = md;
    return 0;
  }
  if (any_version) {
    char vers[1024] = "";
    for (size_t i = 0; i < impactfit_dem_model_count(); i++)
      if (!strcmp(models[i].code, code) && !strcmp(models[i].model, model) &&
          (!damping || !*damping || !strcmp(models[i].damping, damping)))
        appendf(vers, sizeof vers, "%s'%s'", vers[0] ? ", " : "", models[i].versions);
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s model '%s%s%s' is not known for version %s (known versions: %s)",
                           code, model, damping && *damping ? " --damping " : "", damping ? damping : "", version,
                           vers);
  }
  int model_known = 0;
  for (size_t i = 0; i < impactfit_dem_model_count(); i++)
    model_known |= !strcmp(models[i].code, code) && !strcmp(models[i].model, model);
  if (model_known) {
    list_models(code, key, model, list, sizeof list);
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "unknown damping option '%s' of %s %s model '%s' (known: %s)",
                           damping ? damping : "", code, version, model, list);
  }
  list_models(code, key, NULL, list, sizeof list);
  return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "unknown %s %s model '%s' (known: %s)", code, version, model,
                         list[0] ? list : "none");
}

/* ---------------------------------------------------------------- contacts */

impactfit_dem_contact impactfit_dem_contact_default(void) {
  impactfit_dem_contact c;
  c.geometry = IMPACTFIT_DEM_SPHERE_SPHERE;
  c.E = c.nu = c.r1 = c.r2 = c.m1 = c.m2 = c.kn = c.v_char = NAN;
  return c;
}

double impactfit_dem_sphere_mass(double r, double rho) { return 4.0 / 3.0 * IMPACTFIT__PI * r * r * r * rho; }

int impactfit_dem_effective(const impactfit_dem_contact *c, double *R, double *M, impactfit_error *err) {
  if (!c)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no contact given");
  int wall = c->geometry == IMPACTFIT_DEM_SPHERE_WALL;
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

/* ---------------------------------------------------------------- forward and inverse */

typedef struct contact_law {
  double K, R, M, g;
  const impactfit_transition *tr;
  int invariant; /* m = (n − 1)/2 */
} contact_law;

static int law_of(const impactfit_dem_model *md, const impactfit_dem_contact *c, int clamp, contact_law *L,
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
  st = md->ops->stiffness(c, L->R, L->M, &L->K, err);
  if (st)
    return st;
  if (!(isfinite(L->K) && L->K > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "the contact stiffness is not finite (K = %.17g)", L->K);
  L->g = md->ops->gfac(c, L->R, L->M, L->K);
  int clamped = clamp < 0 ? md->clamp_default : clamp;
  L->tr = clamped ? impactfit_transition_C : impactfit_transition_A;
  L->invariant = fabs(md->m - 0.5 * (md->n - 1.0)) < 1e-12;
  return 0;
}

/* δ_m0 and ζ of a damping coefficient C at speed v */
static double zeta_of(const impactfit_dem_model *md, const contact_law *L, double C, double v) {
  double d0 = pow((md->n + 1.0) * L->M * v * v / (2.0 * L->K), 1.0 / (md->n + 1.0));
  return C * pow(d0, md->m + 1.0) / (L->M * v);
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
  p.rtol = 1e-13;
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

static double damping_of(const impactfit_dem_model *md, const contact_law *L, double value) {
  double f = md->ops->conv ? md->ops->conv(value) : value;
  return f * L->g;
}

int impactfit_dem_forward(const impactfit_dem_model *model, const impactfit_dem_contact *c, int clamp, double value,
                          double v, double *e, impactfit_error *err) {
  contact_law L;
  int st = law_of(model, c, clamp, &L, err);
  if (st)
    return st;
  if ((st = check_value(model, value, err)))
    return st;
  if (!(isfinite(v) && v > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "impact speed v must be > 0 (m/s) (got %.17g)", v);
  if (!e)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no output given");
  double C = damping_of(model, &L, value);
  if (!(C >= 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "%s = %.17g gives a negative damping in %s %s (the code's conversion is negative there)",
                           model->param, value, model->code, model->model);
  return e_of_zeta(model, &L, zeta_of(model, &L, C, v), e, err);
}

int impactfit_dem_input(const impactfit_dem_model *model, const impactfit_dem_contact *c, int clamp, double value,
                        char *buf, size_t size, impactfit_error *err) {
  if (!model || !c || !buf || size == 0)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no model, contact or buffer given");
  int clamped = clamp < 0 ? model->clamp_default : clamp;
  model->ops->input(model, c, clamped, value, buf, size);
  return 0;
}

impactfit_dem_request impactfit_dem_default_request(void) {
  impactfit_dem_request r;
  memset(&r, 0, sizeof r);
  r.contact = impactfit_dem_contact_default();
  r.clamp = -1;
  r.e = r.v = r.v_min = r.v_max = NAN;
  return r;
}

/* The restitution value e' with conv(e') = f, by bisection (conv is decreasing on (0, 1]). */
static int invert_conv(const impactfit_dem_model *md, double f, double *p, char *why, size_t size) {
  double lo = 1e-300, hi = 1.0;
  double flo = md->ops->conv(DBL_MIN), fhi = md->ops->conv(hi);
  if (f > flo) {
    snprintf(why, size,
             "no %s in (0, 1] reaches it: the code's conversion of e gives at most %.6g (at e -> 0) where %.6g is "
             "needed",
             md->param, flo, f);
    return 0;
  }
  if (f < fhi) {
    snprintf(why, size, "no %s in (0, 1] reaches it: the conversion gives at least %.6g (at e = 1), %.6g is needed",
             md->param, fhi, f);
    return 0;
  }
  for (int i = 0; i < 2000 && hi - lo > 0.0; i++) {
    double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi)
      break;
    if (md->ops->conv(mid) > f)
      lo = mid;
    else
      hi = mid;
  }
  /* the closer end */
  *p = fabs(md->ops->conv(lo) - f) < fabs(md->ops->conv(hi) - f) ? lo : hi;
  return 1;
}

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

int impactfit_dem_solve(impactfit_inverse_workspace *ws, const impactfit_dem_request *req, impactfit_dem_answer *ans,
                        impactfit_error *err) {
  if (!req || !ans || !req->model)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no request, model or answer given");
  const impactfit_dem_model *md = req->model;
  impactfit_dem_request q = *req;
  memset(ans, 0, sizeof *ans);
  ans->value = ans->e_naive = ans->e_naive_min = ans->e_naive_max = NAN;
  if (!(isfinite(q.e) && q.e > 0.0 && q.e < 1.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "asked restitution e must be in (0, 1) (got %.17g)", q.e);
  if (!(isfinite(q.v) && q.v > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "impact speed v must be > 0 (m/s) (got %.17g)", q.v);
  if (isnan(q.v_min) && isnan(q.v_max))
    q.v_min = q.v_max = q.v;
  if (!(isfinite(q.v_min) && isfinite(q.v_max) && q.v_min > 0.0 && q.v_min <= q.v_max))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "speed range [%.17g, %.17g] m/s must satisfy 0 < v_min <= v_max",
                           q.v_min, q.v_max);
  if (!(q.tol == 0.0 || (q.tol >= 1e-13 && q.tol < 1e-2)))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "tolerance must be in [1e-13, 1e-2) (got %.17g)", q.tol);
  if (q.tol == 0.0)
    q.tol = 1e-10;
  size_t npts = q.range_points ? q.range_points : 9;
  if (npts > 10000)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "at most 10000 speeds in the range (got %zu)", npts);
  if (isnan(q.contact.v_char))
    q.contact.v_char = q.v;
  contact_law L;
  int st = law_of(md, &q.contact, q.clamp, &L, err);
  if (st)
    return st;
  impactfit_inverse_workspace *own = NULL;
  if (!ws && !L.invariant) {
    ws = own = impactfit_inverse_alloc();
    if (!ws)
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  }
  ans->K = L.K;
  ans->R = L.R;
  ans->M = L.M;
  ans->transition = L.tr;
  ans->speed_dependent = !L.invariant;
  st = exact_zeta(ws, md, &L, q.e, q.tol, &ans->zeta, err);
  if (st)
    goto done;
  double d0 = pow((md->n + 1.0) * L.M * q.v * q.v / (2.0 * L.K), 1.0 / (md->n + 1.0));
  ans->C = ans->zeta * L.M * q.v / pow(d0, md->m + 1.0);
  double f = ans->C / L.g;
  char why[512] = "";
  if (md->takes_e) {
    ans->reachable = invert_conv(md, f, &ans->value, why, sizeof why);
  } else {
    ans->value = f;
    ans->reachable = 1;
  }
  /* the naive input: e typed as it is */
  if (md->takes_e) {
    for (size_t i = 0; i < npts; i++) {
      double e1;
      st = impactfit_dem_forward(md, &q.contact, q.clamp, q.e, speed_at(&q, i, npts), &e1, err);
      if (st)
        goto done;
      if (i == 0 || e1 < ans->e_naive_min)
        ans->e_naive_min = e1;
      if (i == 0 || e1 > ans->e_naive_max)
        ans->e_naive_max = e1;
      if (L.invariant)
        break;
    }
    st = impactfit_dem_forward(md, &q.contact, q.clamp, q.e, q.v, &ans->e_naive, err);
    if (st)
      goto done;
    if (L.invariant)
      ans->e_naive_min = ans->e_naive_max = ans->e_naive;
  }
  if (!ans->reachable) {
    ans->value = NAN;
    ans->e_min = ans->e_max = NAN;
    snprintf(ans->note, sizeof ans->note, "%s %s%s%s cannot give e = %.6g%s: %s", md->code, md->model,
             *md->damping ? " damping " : "", md->damping, q.e, L.tr == impactfit_transition_C ? " (force clamped)" : "",
             why);
    goto done;
  }
  for (size_t i = 0; i < npts; i++) {
    double e1;
    st = impactfit_dem_forward(md, &q.contact, q.clamp, ans->value, speed_at(&q, i, npts), &e1, err);
    if (st)
      goto done;
    if (i == 0 || e1 < ans->e_min)
      ans->e_min = e1;
    if (i == 0 || e1 > ans->e_max)
      ans->e_max = e1;
    if (L.invariant)
      break;
  }
  impactfit_dem_input(md, &q.contact, q.clamp, ans->value, ans->input, sizeof ans->input, NULL);
  if (L.invariant)
    snprintf(ans->note, sizeof ans->note, "exact at every speed: this model's damping is scale-invariant "
                                          "(m = (n - 1)/2), so e does not depend on v, K or M");
  else if (q.v_min == q.v_max)
    snprintf(ans->note, sizeof ans->note,
             "exact at v = %.6g m/s only: with this model (n = %g, m = %g) e depends on the impact speed "
             "(give a speed range to see the spread)",
             q.v, md->n, md->m);
  else
    snprintf(ans->note, sizeof ans->note,
             "exact at v = %.6g m/s only: with this model (n = %g, m = %g) one %s gives e from %.6g to %.6g over "
             "v in [%.6g, %.6g] m/s",
             q.v, md->n, md->m, md->param, ans->e_min, ans->e_max, q.v_min, q.v_max);
done:
  impactfit_inverse_free(own);
  return st;
}

/* Whether the contact carries what a model needs (a material, or the code's stiffness). */
static int has_inputs(const impactfit_dem_model *md, const impactfit_dem_contact *c) {
  return md->needs_material ? (isfinite(c->E) && isfinite(c->nu)) : isfinite(c->kn);
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
  for (int pass = 0; pass < 4; pass++)
    for (size_t i = 0; i < impactfit_dem_model_count(); i++) {
      const impactfit_dem_model *o = &models[i];
      int flipped = pass & 1, want_invariant = pass < 2;
      if ((o == md && !flipped) || strcmp(o->code, md->code) || o->version_min != md->version_min ||
          o->version_max != md->version_max || !has_inputs(o, &req->contact))
        continue;
      int invariant = fabs(o->m - 0.5 * (o->n - 1.0)) < 1e-12;
      if (invariant != want_invariant)
        continue;
      impactfit_dem_request q = *req;
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
