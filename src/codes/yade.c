/* SPDX-License-Identifier: GPL-3.0-or-later */
/* YADE's contact laws in the code registry (include/impactfit/codes.h; docs/DEM.md).
 *
 * Ip2_FrictMat_FrictMat_MindlinPhys with Law2_ScGeom_MindlinPhys_Mindlin (en or betan) and ViscElMat (tc, en
 * or kn, cn) as YADE 2023.02a (d081c80) computes them, and MindlinPhys(en) before Thornton's conversion
 * (1.00.0 to 2022.01a): F = K δ^n + C δ^m δ' (blocks_impl.h's kinds), the total force always clamped at zero.
 * Run here: the Debian 12 package 2023.02a by tests/dem/. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../common/common_impl.h"
#include "../formulas/dem_impl.h"
#include "blocks_impl.h"

/* 2023.02a MindlinPhys(en): β_n from Thornton et al. (2013) Eq. (B6)/(B7), then c_n = 2 β_n √(M k_n) with
 * k_n = (3/2) K δ^(1/2): C = 2 √(3/2) β_n √(M K) */
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
static double conv_en(double e) { return 2.0 * sqrt(1.5) * yade_b6(e); }
static double conv_betan(double b) { return 2.0 * sqrt(1.5) * b; }
/* before 2023: β_n = √(5/6) |ln e|/√(ln² e + π²): C = √5 |β| √(M K) */
static double conv_old_en(double e) { return impactfit__dem_hertz_beta(e); }

static void in_yade(const impactfit_code_ctx *c, double p, impactfit_text *out) {
  const impactfit_code_model *md = c->model;
  if (!strcmp(md->model, "mindlin")) {
    double E = impactfit_code_value(c, "E")[0], nu = impactfit_code_value(c, "nu")[0];
    double rho = isfinite(c->m1) && isfinite(c->r1) ? c->m1 / (4.0 / 3.0 * IMPACTFIT__PI * c->r1 * c->r1 * c->r1) : NAN;
    if (isfinite(rho)) /* the spheres' density gives YADE their masses */
      impactfit_text_appendf(out, "mat = FrictMat(young=%.10g, poisson=%.10g, density=%.10g, frictionAngle=0)\n", E, nu,
                             rho);
    else
      impactfit_text_appendf(
          out, "mat = FrictMat(young=%.10g, poisson=%.10g, frictionAngle=0)  # and the bodies' density\n", E, nu);
    impactfit_text_appendf(out, "ip2 = Ip2_FrictMat_FrictMat_MindlinPhys(%s=%.12g)\n", md->param, p);
    impactfit_text_appendf(out, "law2 = Law2_ScGeom_MindlinPhys_Mindlin()\n");
  } else {
    if (!strcmp(md->option, "en"))
      impactfit_text_appendf(out,
                             "mat = ViscElMat(tc=%.10g, en=%.12g, et=%.12g, frictionAngle=0)  # et (tangential) set "
                             "equal to en: a head-on impact does not use it\n",
                             impactfit_code_value(c, "tc")[0], p, p);
    else {
      double kn = impactfit_code_value(c, "kn")[0];
      impactfit_text_appendf(out, "mat = ViscElMat(kn=%.10g, ks=%.10g, cn=%.12g, cs=0, frictionAngle=0)\n", kn, kn, p);
    }
    impactfit_text_appendf(out, "ip2 = Ip2_ViscElMat_ViscElMat_ViscElPhys()\nlaw2 = Law2_ScGeom_ViscElPhys_Basic()\n");
  }
}

IMPACTFIT__DEM_OPS(o_en, IMPACTFIT__ST_HERTZ_MAT_YWALL, IMPACTFIT__DA_CONV_SQRTMK, conv_en, in_yade, NULL)
IMPACTFIT__DEM_OPS(o_old_en, IMPACTFIT__ST_HERTZ_MAT_YWALL, IMPACTFIT__DA_CONV_SQRTMK, conv_old_en, in_yade, NULL)
IMPACTFIT__DEM_OPS(o_betan, IMPACTFIT__ST_HERTZ_MAT_YWALL, IMPACTFIT__DA_CONV_SQRTMK, conv_betan, in_yade, NULL)
IMPACTFIT__DEM_OPS(o_ve_en, IMPACTFIT__ST_VISCEL_TC, IMPACTFIT__DA_VISCEL_TC, NULL, in_yade, NULL)
IMPACTFIT__DEM_OPS(o_ve_cn, IMPACTFIT__ST_VISCEL_KN, IMPACTFIT__DA_HALF, NULL, in_yade, NULL)

#define YADE_COMMON                                                                                              \
  .code = &impactfit__code_yade, .clamp_default = 1, .clamp_switch = NULL,                                       \
  .end = "C (the total normal force is clamped at zero: the bodies part there)",                                 \
  .bodies = "R = r1 r2/(r1 + r2), M = m1 m2/(m1 + m2); a wall (utils.wall): mindlin counts the sphere's radius " \
            "twice (R = r/2), ViscElPhys gives the wall the sphere's mass",                                      \
  .mixing = "one material (two materials are not modelled here yet)",                                            \
  .assumes = "a head-on impact, no friction (frictionAngle 0), no gravity, one material",                        \
  .precision = "float64 (YADE's default Real)"
#define YADE_2023_02A(...)                                                                                      \
  IMPACTFIT__ENTRY(YADE_COMMON, .versions = "2023.02a", .first_version = "2023.02a", .version_min = 2023002000, \
                   .version_max = 2023002999, .run_versions = "2023.02a (Debian 12)", .run_min = 2023002000,    \
                   .run_max = 2023002999, __VA_ARGS__)
#define YADE_BEFORE_2023(...)                                                                                        \
  IMPACTFIT__ENTRY(YADE_COMMON, .versions = "1.00.0 to 2022.01a", .first_version = "1.00.0", .version_min = 1000000, \
                   .version_max = 2022001999, __VA_ARGS__)

static const impactfit_code_model models[] = {
    YADE_2023_02A(.model = "mindlin", .option = "en", .n = 1.5, .m = 0.25, .param = "en", .param_unit = "-",
                  .takes_e = 1, .solver = IMPACTFIT_CODE_SOLVE_CONVERSION,
                  IMPACTFIT__DEM_INPUTS(impactfit__dem_in_material),
                  .law_text = "Ip2_FrictMat_FrictMat_MindlinPhys(en): kno = (4/3) E* sqrt(R), F = kno delta^(3/2) + "
                              "c_n delta', c_n = 2 beta_n sqrt(M (3/2) kno delta^(1/2)), beta_n = sqrt(1/(1 - (1 + "
                              "e)^2 exp(a(e))) - 1) with a(e) the degree-10 polynomial of Thornton et al. (2013) Eq. "
                              "(B7); the total force is clamped at zero: C = 2 sqrt(3/2) beta_n sqrt(M K)",
                  .source = "pkg/dem/HertzMindlin.cpp:22-110 (Ip2), :270-519 (Law2) (YADE 2023.02a, d081c80)",
                  .ops = &o_en),
    YADE_BEFORE_2023(.model = "mindlin", .option = "en", .n = 1.5, .m = 0.25, .param = "en", .param_unit = "-",
                     .takes_e = 1, .solver = IMPACTFIT_CODE_SOLVE_CONVERSION,
                     IMPACTFIT__DEM_INPUTS(impactfit__dem_in_material),
                     .law_text = "Ip2_FrictMat_FrictMat_MindlinPhys(en) before the Thornton conversion: beta_n = "
                                 "sqrt(5/6) |ln e|/sqrt(ln^2 e + pi^2), c_n = 2 beta_n sqrt(M (3/2) kno delta^(1/2)), "
                                 "clamped at zero: C = sqrt(5) |beta| sqrt(M K)",
                     .source = "pkg/dem/HertzMindlin.cpp (YADE 2022.01a; replaced by Thornton's (B6) in commit "
                               "8766c063f, 2023-01-25)",
                     .ops = &o_old_en),
    YADE_2023_02A(.model = "mindlin", .option = "betan", .n = 1.5, .m = 0.25, .param = "betan", .param_unit = "-",
                  .solver = IMPACTFIT_CODE_SOLVE_DAMPER, IMPACTFIT__DEM_INPUTS(impactfit__dem_in_material),
                  .law_text = "Ip2_FrictMat_FrictMat_MindlinPhys(betan): c_n = 2 betan sqrt(M (3/2) kno "
                              "delta^(1/2)), clamped at zero: C = 2 sqrt(3/2) betan sqrt(M K)",
                  .source = "pkg/dem/HertzMindlin.cpp:107, :330-402 (YADE 2023.02a, d081c80)", .ops = &o_betan),
    YADE_2023_02A(.model = "viscel", .option = "en", .n = 1.0, .m = 0.0, .param = "en", .param_unit = "-", .takes_e = 1,
                  .solver = IMPACTFIT_CODE_SOLVE_CONVERSION, IMPACTFIT__DEM_INPUTS(impactfit__dem_in_tc),
                  .law_text = "ViscElMat(tc, en): per contact kn = (pi^2 + ln^2 en) M'/tc^2, cn = -2 ln(en) M'/tc "
                              "with M' = M (sphere-sphere) or m/2 (a wall of mass 0 takes the sphere's mass); F = kn "
                              "delta + cn delta' clamped at zero",
                  .source = "pkg/dem/ViscoelasticPM.cpp:66-170 (Law2), :172-340 (Ip2) (YADE 2023.02a, d081c80)",
                  .ops = &o_ve_en),
    YADE_2023_02A(.model = "viscel", .option = "cn", .n = 1.0, .m = 0.0, .param = "cn", .param_unit = "N s/m",
                  .solver = IMPACTFIT_CODE_SOLVE_DAMPER, IMPACTFIT__DEM_INPUTS(impactfit__dem_in_kn_nm),
                  .law_text = "ViscElMat(kn, ks, cn, cs): the two bodies' constants in series, contact kn/2 and cn/2; "
                              "F = (kn/2) delta + (cn/2) delta' clamped at zero (kn: the material's, N/m)",
                  .source = "pkg/dem/ViscoelasticPM.cpp:237-246, :333-340 (YADE 2023.02a, d081c80)", .ops = &o_ve_cn),
};

const impactfit_code impactfit__code_yade = {
    .name = "yade",
    .display = "YADE",
    .kind = "dem",
    .default_version = "2023.02a",
    .version_example = "2023.02a",
    .version_key = impactfit_code_version_dotted,
    .model_prefix = NULL,
    .run_versions = "2023.02a (Debian 12)",
    .models = models,
    .n_models = sizeof models / sizeof models[0],
};
