/* SPDX-License-Identifier: GPL-3.0-or-later */
/* LAMMPS's granular contact models in the code registry (include/impactfit/codes.h; docs/DEM.md).
 *
 * pair_style granular (29Sep2021 and later) with normal models hertz/material, hertz and hooke and the
 * damping options velocity, mass_velocity, viscoelastic and tsuji (coeff_restitution from 17Apr2024),
 * and pair_style gran/hooke, gran/hooke/history, gran/hertz/history, each as the source computes it: F =
 * K δ^n + C δ^m δ' (blocks_impl.h's kinds), tensile until δ = 0 unless limit_damping clamps the force.
 * Run here: the Debian 12 package (stable 29Sep2021 update 2) by tests/dem/. Version keys: dates. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../formulas/dem_impl.h"
#include "blocks_impl.h"
#include "impactfit/mixing.h"

/* ---------------------------------------------------------------- conversions of e */

/* `damping tsuji` (29Sep2021 until 2Sep2026): the polynomial of Tsuji et al. (1992) as fitted by Marshall
 * (2009), α(e), used as η = α √(M knfac) with knfac = kn (hooke) or K δ^(1/2) (hertz): C = α √(M K). */
static double conv_tsuji(double e) { return impactfit__dem_tsuji_poly(e); }
/* the same with the √2 of later LAMMPS versions */
static double conv_tsuji_sqrt2(double e) { return sqrt(2.0) * impactfit__dem_tsuji_poly(e); }
/* coeff_restitution, Hertz: γ_n = −2√(5/6) β √(S_n M), S_n = 2E*√(Rδ) = (3/2) K δ^(1/2): C = √5 |β| √(M K) */
static double conv_hertz_beta(double e) { return impactfit__dem_hertz_beta(e); }
/* coeff_restitution, hooke: the Kelvin–Voigt inverse γ_n = 2|ln e| √(M k)/√(π² + ln² e) */
static double conv_linear_log(double e) { return impactfit__dem_linear_log(e); }

/* ---------------------------------------------------------------- input texts */

/* the first words of pair granular's tangential clause (its tangential models in 29Sep2021) */
static const char *const tangential_granular[] = {
    "linear_nohistory", "linear_history", "mindlin", "mindlin_rescale", "mindlin/force", "mindlin_rescale/force", NULL};
#define TANGENTIAL_YOURS \
  "<yours: linear_history KT XGAMMAT MU | mindlin NULL XGAMMAT MU | ... (and rolling, twisting): not set here>"

/* one pair_coeff's coefficients: the normal model and its values, the damping, the user's tangential clause */
static void granular_args(const impactfit_code_ctx *c, double E_or_kn, double p, double nu, impactfit_text *args) {
  const impactfit_code_model *md = c->model;
  const char *normal = md->model + strlen("granular ");
  if (impactfit_code_input_find(md, "E"))
    impactfit_text_appendf(args, "%s %.12g %.12g %.12g", normal, E_or_kn, p, nu);
  else
    impactfit_text_appendf(args, "%s %.10g %.12g", normal, E_or_kn, p);
  impactfit_text_appendf(args, " damping %s%s tangential %s", md->option, c->clamp ? " limit_damping" : "",
                         c->req && c->req->tangential ? c->req->tangential : TANGENTIAL_YOURS);
}

/* two materials, or a restitution per type pair: pair_coeff 1 1, 2 2 and 1 2 (29Sep2021 leaves a pair without its
 * own line broken: mixing.h); the 1 2 line's E and nu make LAMMPS's E* and G* the two materials' */
static void in_granular_pairs(const impactfit_code_ctx *c, double p, impactfit_text *out) {
  int mat = impactfit_code_input_find(c->model, "E") != NULL;
  impactfit_text_appendf(out, "pair_style granular\n");
  for (int b = 1; b <= 2; b++) {
    double pb;
    impactfit_text args = IMPACTFIT_TEXT_INIT;
    impactfit__dem_pair_value(c, b, p, &pb, NULL);
    granular_args(c, mat ? impactfit_code_body_value(c, "E", b)[0] : impactfit_code_value(c, "kn")[0], pb,
                  mat ? impactfit_code_body_value(c, "nu", b)[0] : NAN, &args);
    impactfit_text_appendf(out, "pair_coeff %d %d %s\n", b, b, impactfit_text_str(&args));
    impactfit_text_free(&args);
  }
  double E12 = NAN, nu12 = NAN;
  if (mat)
    impactfit_lammps_pair_material(impactfit_code_body_value(c, "E", 1)[0], impactfit_code_body_value(c, "nu", 1)[0],
                                   impactfit_code_body_value(c, "E", 2)[0], impactfit_code_body_value(c, "nu", 2)[0],
                                   &E12, &nu12, NULL);
  impactfit_text args = IMPACTFIT_TEXT_INIT;
  granular_args(c, mat ? E12 : impactfit_code_value(c, "kn")[0], p, nu12, &args);
  impactfit_text_appendf(out, "pair_coeff 1 2 %s\n", impactfit_text_str(&args));
  impactfit_text_free(&args);
}

static void in_granular(const impactfit_code_ctx *c, double p, impactfit_text *out) {
  if (impactfit__dem_pairs(c)) {
    in_granular_pairs(c, p, out);
    return;
  }
  const impactfit_code_model *md = c->model;
  int mat = impactfit_code_input_find(md, "E") != NULL;
  impactfit_text args = IMPACTFIT_TEXT_INIT;
  granular_args(c, impactfit_code_value(c, mat ? "E" : "kn")[0], p, mat ? impactfit_code_value(c, "nu")[0] : NAN,
                &args);
  impactfit_text_appendf(out, "pair_style granular\npair_coeff * * %s\n", impactfit_text_str(&args));
  if (c->wall)
    impactfit_text_appendf(out, "fix wall all wall/gran granular %s zplane 0.0 NULL\n", impactfit_text_str(&args));
  impactfit_text_free(&args);
}

static void in_gran(const impactfit_code_ctx *c, double p, impactfit_text *out) {
  /* pair_style gran/... Kn Kt gamma_n gamma_t xmu dampflag [limit_damping]; Kt, gamma_t NULL: LAMMPS's own
   * 2/7 Kn and 1/2 gamma_n (pair_gran_hooke_history.cpp settings) */
  const impactfit_code_model *md = c->model;
  impactfit_text args = IMPACTFIT_TEXT_INIT;
  impactfit_text_appendf(&args, "%.10g ", impactfit_code_value(c, "kn")[0]);
  if (impactfit_code_given(c, "Kt"))
    impactfit__dem_optional(c, "Kt", "", &args);
  else
    impactfit_text_appendf(&args, "NULL");
  impactfit_text_appendf(&args, " %.12g ", p);
  if (impactfit_code_given(c, "gamma_t"))
    impactfit__dem_optional(c, "gamma_t", "", &args);
  else
    impactfit_text_appendf(&args, "NULL");
  impactfit_text_appendf(&args, " ");
  impactfit__dem_optional(c, "xmu", "xmu", &args);
  impactfit_text_appendf(&args, " ");
  impactfit__dem_optional(c, "dampflag", "dampflag 0 or 1", &args);
  impactfit_text_appendf(&args, "%s", c->clamp ? " limit_damping" : "");
  impactfit_text_appendf(out, "pair_style %s %s\npair_coeff * *\n", md->model, impactfit_text_str(&args));
  if (c->wall)
    impactfit_text_appendf(out, "fix wall all wall/gran %s %s zplane 0.0 NULL\n", md->model + strlen("gran/"),
                           impactfit_text_str(&args));
  impactfit_text_free(&args);
}

/* the note of every granular entry: the tangential clause, and the type pairs of two materials */
static void note_granular(const impactfit_code_ctx *c, double p, impactfit_text *out) {
  (void)p;
  impactfit__dem_note_tangential(c, "the tangential clause, rolling, twisting", out);
  if (impactfit__dem_pairs(c))
    impactfit_text_appendf(out,
                           "; one pair_coeff per type pair (1: body 1's material, 2: body 2's): in 29Sep2021 a pair "
                           "without its own line runs with model choices init_one never sets (hooke, velocity "
                           "damping in Debian's build: e near 1), and the 1 2 line's E and nu make LAMMPS's E* and "
                           "G* those of the two materials (impactfit_lammps_pair_material), as `tangential mindlin "
                           "NULL ...` needs");
}

static void note_gran(const impactfit_code_ctx *c, double p, impactfit_text *out) {
  (void)p;
  impactfit__dem_note_tangential(c, "Kt, gamma_t, xmu, dampflag; Kt and gamma_t NULL: LAMMPS's 2/7 Kn, 1/2 gamma_n",
                                 out);
}

/* pair_style gran/...'s own tangential settings */
#define IN_GRAN_T(kt_unit_, gt_unit_)                                                                    \
  IMPACTFIT__IN_TANGENTIAL("Kt", kt_unit_, "pair_style gran/... Kt (not given: NULL, LAMMPS's 2/7 Kn)"), \
      IMPACTFIT__IN_TANGENTIAL("gamma_t", gt_unit_, "gamma_t (not given: NULL, LAMMPS's 1/2 gamma_n)"),  \
      IMPACTFIT__IN_TANGENTIAL("xmu", "-", "the friction coefficient xmu"),                              \
      IMPACTFIT__IN_TANGENTIAL("dampflag", "-", "dampflag: 0 or 1 (tangential damping off or on)")
static const impactfit_code_input in_gran_hooke[] = {IMPACTFIT__IN_KN("N/m"), IN_GRAN_T("N/m", "1/s")};
static const impactfit_code_input in_gran_hertz[] = {IMPACTFIT__IN_KN("Pa"), IN_GRAN_T("Pa", "1/(m s)")};

/* 29Sep2021's fix wall/gran converts the tsuji e again at every run command */
static void note_wall_tsuji(const impactfit_code_ctx *c, double p, impactfit_text *out) {
  note_granular(c, p, out);
  if (c->wall)
    impactfit_text_appendf(out, "; LAMMPS 29Sep2021 fix wall/gran applies the tsuji conversion again at every run "
                                "command (fix_wall_gran.cpp:535-539): use one run, or damping velocity with the "
                                "exact constant");
}

/* ---------------------------------------------------------------- the models */

#define HM_WALL IMPACTFIT__ST_HERTZ_MAT_LWALL
IMPACTFIT__DEM_OPS_T(o_hm_vel, HM_WALL, IMPACTFIT__DA_CONST, NULL, in_granular, note_granular, tangential_granular)
IMPACTFIT__DEM_OPS_T(o_hm_mv, HM_WALL, IMPACTFIT__DA_MASS, NULL, in_granular, note_granular, tangential_granular)
IMPACTFIT__DEM_OPS_T(o_hm_ve, HM_WALL, IMPACTFIT__DA_MASS_SQRTR, NULL, in_granular, note_granular, tangential_granular)
IMPACTFIT__DEM_OPS_T(o_hm_ts, HM_WALL, IMPACTFIT__DA_CONV_SQRTMK, conv_tsuji, in_granular, note_wall_tsuji,
                     tangential_granular)
IMPACTFIT__DEM_OPS_T(o_h_vel, IMPACTFIT__ST_HERTZ_KN, IMPACTFIT__DA_CONST, NULL, in_granular, note_granular,
                     tangential_granular)
IMPACTFIT__DEM_OPS_T(o_h_mv, IMPACTFIT__ST_HERTZ_KN, IMPACTFIT__DA_MASS, NULL, in_granular, note_granular,
                     tangential_granular)
IMPACTFIT__DEM_OPS_T(o_h_ve, IMPACTFIT__ST_HERTZ_KN, IMPACTFIT__DA_MASS_SQRTR, NULL, in_granular, note_granular,
                     tangential_granular)
IMPACTFIT__DEM_OPS_T(o_h_ts, IMPACTFIT__ST_HERTZ_KN, IMPACTFIT__DA_CONV_SQRTMK, conv_tsuji, in_granular,
                     note_wall_tsuji, tangential_granular)
IMPACTFIT__DEM_OPS_T(o_k_vel, IMPACTFIT__ST_LINEAR_KN, IMPACTFIT__DA_CONST, NULL, in_granular, note_granular,
                     tangential_granular)
IMPACTFIT__DEM_OPS_T(o_k_mv, IMPACTFIT__ST_LINEAR_KN, IMPACTFIT__DA_MASS, NULL, in_granular, note_granular,
                     tangential_granular)
IMPACTFIT__DEM_OPS_T(o_k_ve, IMPACTFIT__ST_LINEAR_KN, IMPACTFIT__DA_MASS_SQRTR, NULL, in_granular, note_granular,
                     tangential_granular)
IMPACTFIT__DEM_OPS_T(o_k_ts, IMPACTFIT__ST_LINEAR_KN, IMPACTFIT__DA_CONV_SQRTMK, conv_tsuji, in_granular,
                     note_wall_tsuji, tangential_granular)
/* later LAMMPS (formula only) */
IMPACTFIT__DEM_OPS_T(o_hm_ts2, IMPACTFIT__ST_HERTZ_MAT, IMPACTFIT__DA_CONV_SQRTMK, conv_tsuji_sqrt2, in_granular,
                     note_granular, tangential_granular)
IMPACTFIT__DEM_OPS_T(o_h_ts2, IMPACTFIT__ST_HERTZ_KN, IMPACTFIT__DA_CONV_SQRTMK, conv_tsuji_sqrt2, in_granular,
                     note_granular, tangential_granular)
IMPACTFIT__DEM_OPS_T(o_k_ts2, IMPACTFIT__ST_LINEAR_KN, IMPACTFIT__DA_CONV_SQRTMK, conv_tsuji_sqrt2, in_granular,
                     note_granular, tangential_granular)
IMPACTFIT__DEM_OPS_T(o_hm_cr, IMPACTFIT__ST_HERTZ_MAT, IMPACTFIT__DA_CONV_SQRTMK, conv_hertz_beta, in_granular,
                     note_granular, tangential_granular)
IMPACTFIT__DEM_OPS_T(o_h_cr, IMPACTFIT__ST_HERTZ_KN, IMPACTFIT__DA_CONV_SQRTMK, conv_hertz_beta, in_granular,
                     note_granular, tangential_granular)
IMPACTFIT__DEM_OPS_T(o_k_cr, IMPACTFIT__ST_LINEAR_KN, IMPACTFIT__DA_CONV_SQRTMK, conv_linear_log, in_granular,
                     note_granular, tangential_granular)
/* pair_style gran/... */
IMPACTFIT__DEM_OPS(o_gran_hooke, IMPACTFIT__ST_LINEAR_KN, IMPACTFIT__DA_MASS, NULL, in_gran, note_gran)
IMPACTFIT__DEM_OPS(o_gran_hertz, IMPACTFIT__ST_HERTZ_KN, IMPACTFIT__DA_MASS_SQRTR, NULL, in_gran, note_gran)

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

/* What every LAMMPS entry shares: the code, the clamp switch, the texts; each group adds its versions. */
#define LMP_COMMON                                                                                                \
  .code = &impactfit__code_lammps, .clamp_default = 0, .clamp_switch = "limit_damping",                           \
  .end = "A (the force may pull until delta = 0); C (clamped at zero: the bodies part there) with limit_damping", \
  .bodies = "R = r1 r2/(r1 + r2), M = m1 m2/(m1 + m2); a fix wall/gran wall: R = r1, M = m1",                     \
  .mixing = "one material: pair_coeff * *; two (--E E1,E2 --nu NU1,NU2) or a restitution per type pair (e11, "    \
            "e22): pair_coeff 1 1, 2 2 and 1 2, the 1 2 line with E12, nu12 of impactfit_lammps_pair_material "   \
            "(E* = 1/((1 - nu1^2)/E1 + (1 - nu2^2)/E2), pair_granular.cpp:1780-1794); a type pair without its "   \
            "own line is broken in 29Sep2021 (init_one, :1198-1241: mixing.h)",                                   \
  .assumes = "a head-on impact (no tangential motion: the friction and tangential settings, yours, do not enter " \
             "the normal law), no gravity, the bodies' materials as given",                                       \
  .precision = "float64 (LAMMPS computes in double precision)"
/* One group of entries per version range: a range runs from the first version whose source was read to the
 * version whose source changes the force law (version_max: the day before it); run_min .. run_max are the
 * versions run here. */
#define LAMMPS_GRANULAR_TSUJI(...)                                                                                     \
  IMPACTFIT__ENTRY(LMP_COMMON, .versions = "29Sep2021 until 2Sep2026 (not included)", .first_version = "29Sep2021",    \
                   .version_min = LMP_V0, .version_max = LMP_S2 - 1, .run_versions = "29Sep2021 update 2 (Debian 12)", \
                   .run_min = LMP_V0, .run_max = LMP_V1,                                                               \
                   .source = LMP_SRC "; the same law in gran_sub_mod_damping.cpp (GranSubModDampingTsuji::init, "      \
                                     "no sqrt 2) of the refactored package until 2Sep2026",                            \
                   .param = "e", .param_unit = "-", .takes_e = 1, .solver = IMPACTFIT_CODE_SOLVE_CONVERSION,           \
                   __VA_ARGS__)
#define LAMMPS_GRANULAR(...)                                                                                           \
  IMPACTFIT__ENTRY(LMP_COMMON, .versions = "29Sep2021 and later", .first_version = "29Sep2021", .version_min = LMP_V0, \
                   .version_max = 0, .run_versions = "29Sep2021 update 2 (Debian 12)", .run_min = LMP_V0,              \
                   .run_max = LMP_V1,                                                                                  \
                   .source = LMP_SRC "; the same damping in gran_sub_mod_damping_kernel.h (lammps/lammps 07b704c)",    \
                   .param = "eta_n0", .solver = IMPACTFIT_CODE_SOLVE_DAMPER, __VA_ARGS__)
#define LAMMPS_29SEP2021_GRAN(...)                                                                             \
  IMPACTFIT__ENTRY(LMP_COMMON, .versions = "29Sep2021", .first_version = "29Sep2021", .version_min = LMP_V0,   \
                   .version_max = LMP_V1, .run_versions = "29Sep2021 update 2 (Debian 12)", .run_min = LMP_V0, \
                   .run_max = LMP_V1, .param = "gamma_n", .solver = IMPACTFIT_CODE_SOLVE_DAMPER,               \
                   IMPACTFIT__DEM_INPUTS(in_gran_hooke), __VA_ARGS__)
#define LAMMPS_COEFF_RESTITUTION(...)                                                                                  \
  IMPACTFIT__ENTRY(LMP_COMMON, .versions = "17Apr2024 and later", .first_version = "17Apr2024", .version_min = LMP_CR, \
                   .version_max = 0,                                                                                   \
                   .source = "src/GRANULAR/gran_sub_mod_damping.cpp (GranSubModDampingCoeffRestitution; "              \
                             "lammps/lammps PR #4068)",                                                                \
                   .option = "coeff_restitution", .param = "e", .param_unit = "-", .takes_e = 1,                       \
                   .solver = IMPACTFIT_CODE_SOLVE_CONVERSION, __VA_ARGS__)
#define LAMMPS_TSUJI_SQRT2(...)                                                                                        \
  IMPACTFIT__ENTRY(LMP_COMMON, .versions = "2Sep2026 and later", .first_version = "2Sep2026", .version_min = LMP_S2,   \
                   .version_max = 0,                                                                                   \
                   .source = "src/GRANULAR/gran_sub_mod_damping.cpp (GranSubModDampingTsuji::init, 2Sep2026: damp *= " \
                             "MY_SQRT2)",                                                                              \
                   .option = "tsuji", .param = "e", .param_unit = "-", .takes_e = 1,                                   \
                   .solver = IMPACTFIT_CODE_SOLVE_CONVERSION, __VA_ARGS__)

#define MAT IMPACTFIT__DEM_INPUTS(impactfit__dem_in_material)
#define KN_PA IMPACTFIT__DEM_INPUTS(impactfit__dem_in_kn_pa)
#define KN_NM IMPACTFIT__DEM_INPUTS(impactfit__dem_in_kn_nm)
#define HERTZ_MAT .model = "granular hertz/material", .n = 1.5, MAT
#define HERTZ .model = "granular hertz", .n = 1.5, KN_PA
#define HOOKE .model = "granular hooke", .n = 1.0, KN_NM

static const impactfit_code_model models[] = {
    /* ---- pair_style granular, 29Sep2021 (run here) ---- */
    LAMMPS_GRANULAR_TSUJI(HERTZ_MAT, .option = "tsuji", .m = 0.25, .law_text = HM TS ": C = alpha(e) sqrt(M K)",
                          .ops = &o_hm_ts),
    LAMMPS_GRANULAR(HERTZ_MAT, .option = "velocity", .m = 0.0, .param_unit = "N s/m",
                    .law_text = HM "eta = eta_n0: C = eta_n0", .ops = &o_hm_vel),
    LAMMPS_GRANULAR(HERTZ_MAT, .option = "mass_velocity", .m = 0.0, .param_unit = "1/s",
                    .law_text = HM "eta = eta_n0 M: C = eta_n0 M", .ops = &o_hm_mv),
    LAMMPS_GRANULAR(HERTZ_MAT, .default_option = 1, .option = "viscoelastic", .m = 0.5, .param_unit = "1/(m s)",
                    .law_text = HM "eta = eta_n0 a M: C = eta_n0 M sqrt(R) (the default damping)", .ops = &o_hm_ve),
    LAMMPS_GRANULAR_TSUJI(HERTZ, .option = "tsuji", .m = 0.25,
                          .law_text = HK TS ": C = alpha(e) sqrt(M K), K = kn sqrt(R)", .ops = &o_h_ts),
    LAMMPS_GRANULAR(HERTZ, .option = "velocity", .m = 0.0, .param_unit = "N s/m", .law_text = HK "C = eta_n0",
                    .ops = &o_h_vel),
    LAMMPS_GRANULAR(HERTZ, .option = "mass_velocity", .m = 0.0, .param_unit = "1/s", .law_text = HK "C = eta_n0 M",
                    .ops = &o_h_mv),
    LAMMPS_GRANULAR(HERTZ, .default_option = 1, .option = "viscoelastic", .m = 0.5, .param_unit = "1/(m s)",
                    .law_text = HK "C = eta_n0 M sqrt(R)", .ops = &o_h_ve),
    LAMMPS_GRANULAR_TSUJI(HOOKE, .option = "tsuji", .law_text = LK TS ", knfac = kn: C = alpha(e) sqrt(M kn)",
                          .ops = &o_k_ts),
    LAMMPS_GRANULAR(HOOKE, .option = "velocity", .param_unit = "N s/m", .law_text = LK "C = eta_n0", .ops = &o_k_vel),
    LAMMPS_GRANULAR(HOOKE, .option = "mass_velocity", .param_unit = "1/s", .law_text = LK "C = eta_n0 M",
                    .ops = &o_k_mv),
    LAMMPS_GRANULAR(HOOKE, .default_option = 1, .option = "viscoelastic", .m = 0.5, .param_unit = "1/(m s)",
                    .law_text = LK "eta = eta_n0 a M, a = sqrt(R delta): C = eta_n0 M sqrt(R)", .ops = &o_k_ve),
    /* ---- pair_style gran/..., 29Sep2021 (run here) ---- */
    LAMMPS_29SEP2021_GRAN(.model = "gran/hooke", .option = "", .n = 1.0, .m = 0.0, .param_unit = "1/s",
                          .law_text = "F = kn delta + M gamma_n delta' (kn in N/m): C = M gamma_n",
                          .source = "src/GRANULAR/pair_gran_hooke.cpp:154-162, fix_wall_gran.cpp:796-798 "
                                    "(stable_29Sep2021_update2)",
                          .ops = &o_gran_hooke),
    LAMMPS_29SEP2021_GRAN(.model = "gran/hooke/history", .option = "", .n = 1.0, .m = 0.0, .param_unit = "1/s",
                          .law_text = "F = kn delta + M gamma_n delta' (kn in N/m): C = M gamma_n",
                          .source = "src/GRANULAR/pair_gran_hooke_history.cpp:237-245, fix_wall_gran.cpp:889-891 "
                                    "(stable_29Sep2021_update2)",
                          .ops = &o_gran_hooke),
    IMPACTFIT__ENTRY(LMP_COMMON, .versions = "29Sep2021", .first_version = "29Sep2021", .version_min = LMP_V0,
                     .version_max = LMP_V1, .run_versions = "29Sep2021 update 2 (Debian 12)", .run_min = LMP_V0,
                     .run_max = LMP_V1, .param = "gamma_n", .solver = IMPACTFIT_CODE_SOLVE_DAMPER,
                     IMPACTFIT__DEM_INPUTS(in_gran_hertz), .model = "gran/hertz/history", .option = "", .n = 1.5,
                     .m = 0.5, .param_unit = "1/(m s)",
                     .law_text = "F = sqrt(R delta) (kn delta + M gamma_n delta') (kn in Pa): K = kn sqrt(R), C = M "
                                 "gamma_n sqrt(R)",
                     .source = "src/GRANULAR/pair_gran_hertz_history.cpp:175-185, fix_wall_gran.cpp:1018-1023 "
                               "(stable_29Sep2021_update2)",
                     .ops = &o_gran_hertz),
    /* ---- later LAMMPS (formula only, not run here) ---- */
    LAMMPS_COEFF_RESTITUTION(HERTZ_MAT, .m = 0.25, .law_text = HM CRH, .ops = &o_hm_cr),
    LAMMPS_COEFF_RESTITUTION(HERTZ, .m = 0.25, .law_text = HK CRH, .ops = &o_h_cr),
    LAMMPS_COEFF_RESTITUTION(HOOKE, .law_text = LK "eta = 2 |ln e| sqrt(M kn)/sqrt(pi^2 + ln^2 e) (exact under A)",
                             .ops = &o_k_cr),
    LAMMPS_TSUJI_SQRT2(HERTZ_MAT, .m = 0.25, .law_text = HM TS2 ": C = sqrt(2) alpha(e) sqrt(M K)", .ops = &o_hm_ts2),
    LAMMPS_TSUJI_SQRT2(HERTZ, .m = 0.25, .law_text = HK TS2 ": C = sqrt(2) alpha(e) sqrt(M K)", .ops = &o_h_ts2),
    LAMMPS_TSUJI_SQRT2(HOOKE, .law_text = LK TS2 ": C = sqrt(2) alpha(e) sqrt(M kn)", .ops = &o_k_ts2),
};

const impactfit_code impactfit__code_lammps = {
    .name = "lammps",
    .display = "LAMMPS",
    .kind = "dem",
    .default_version = "29Sep2021",
    .version_example = "29Sep2021 or 2021-09-29",
    .version_key = impactfit_code_version_date,
    .model_prefix = "granular ",
    .run_versions = "29Sep2021 update 2 (Debian 12)",
    .models = models,
    .n_models = sizeof models / sizeof models[0],
};
