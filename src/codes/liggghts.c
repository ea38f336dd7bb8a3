/* SPDX-License-Identifier: GPL-3.0-or-later */
/* LIGGGHTS-PUBLIC's granular contact models in the code registry (include/impactfit/codes.h; docs/DEM.md).
 *
 * pair_style gran model hertz, hooke, hooke/stiffness (with absolute_damping) and hertz/stiffness as
 * LIGGGHTS-PUBLIC 3.8.0 (7c32dc4) computes them: F = K δ^n + C δ^m δ' (blocks_impl.h's kinds), tensile
 * until δ = 0 unless limitForce on clamps it. Run here: the Debian 12 package 3.8.0 by tests/dem/. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../formulas/dem_impl.h"
#include "blocks_impl.h"

/* hertz: γ_n = −2√(5/6) β √(S_n M), S_n = 2 Y* √(Rδ): C = √5 |β| √(M K) */
static double conv_hertz_beta(double e) { return impactfit__dem_hertz_beta(e); }
/* hooke: γ_n = √(4 M kn/(1 + (π/ln e)²)) = 2 |β| √(M kn) */
static double conv_linear_log(double e) { return impactfit__dem_linear_log(e); }

static void in_liggghts(const impactfit_code_ctx *c, double p, impactfit_text *out) {
  const impactfit_code_model *md = c->model;
  int absolute = !strcmp(md->option, "absolute_damping");
  impactfit_text_appendf(out, "pair_style gran model %s tangential no_history%s%s\npair_coeff * *\n", md->model,
                         absolute ? " absolute_damping on" : "", c->clamp ? " limitForce on" : "");
  if (impactfit_code_input_find(md, "E")) {
    impactfit_text_appendf(out, "fix m1 all property/global youngsModulus peratomtype %.10g\n",
                           impactfit_code_value(c, "E")[0]);
    impactfit_text_appendf(out, "fix m2 all property/global poissonsRatio peratomtype %.10g\n",
                           impactfit_code_value(c, "nu")[0]);
    impactfit_text_appendf(out, "fix m3 all property/global coefficientRestitution peratomtypepair 1 %.12g\n", p);
    impactfit_text_appendf(out, "fix m4 all property/global coefficientFriction peratomtypepair 1 0.0\n");
    if (strcmp(md->model, "hooke") == 0)
      impactfit_text_appendf(out, "fix m5 all property/global characteristicVelocity scalar %.10g\n",
                             impactfit_code_value(c, "vchar")[0]);
  } else {
    double kn = impactfit_code_value(c, "kn")[0];
    impactfit_text_appendf(out, "fix m1 all property/global kn peratomtypepair 1 %.10g\n", kn);
    impactfit_text_appendf(out, "fix m2 all property/global kt peratomtypepair 1 %.10g\n", kn);
    impactfit_text_appendf(out, "fix m3 all property/global %s peratomtypepair 1 %.12g\n",
                           absolute ? "gamman_abs" : "gamman", p);
    impactfit_text_appendf(out, "fix m4 all property/global %s peratomtypepair 1 0.0\n",
                           absolute ? "gammat_abs" : "gammat");
    impactfit_text_appendf(out, "fix m5 all property/global coefficientFriction peratomtypepair 1 0.0\n");
  }
  if (c->wall) /* model keywords after the primitive, or the fix refuses them */
    impactfit_text_appendf(out,
                           "fix wall all wall/gran model %s tangential no_history primitive type 1 zplane 0.0%s%s\n",
                           md->model, absolute ? " absolute_damping on" : "", c->clamp ? " limitForce on" : "");
}

IMPACTFIT__DEM_OPS(o_hertz, IMPACTFIT__ST_HERTZ_MAT, IMPACTFIT__DA_CONV_SQRTMK, conv_hertz_beta, in_liggghts, NULL)
IMPACTFIT__DEM_OPS(o_hooke, IMPACTFIT__ST_HOOKE_VCHAR, IMPACTFIT__DA_CONV_SQRTMK, conv_linear_log, in_liggghts, NULL)
IMPACTFIT__DEM_OPS(o_hooke_st, IMPACTFIT__ST_LINEAR_KN, IMPACTFIT__DA_MASS, NULL, in_liggghts, NULL)
IMPACTFIT__DEM_OPS(o_hooke_st_abs, IMPACTFIT__ST_LINEAR_KN, IMPACTFIT__DA_CONST, NULL, in_liggghts, NULL)
IMPACTFIT__DEM_OPS(o_hertz_st, IMPACTFIT__ST_HERTZ_KN, IMPACTFIT__DA_MASS_SQRTR, NULL, in_liggghts, NULL)

/* LIGGGHTS 3.8.0 refuses a coefficientRestitution outside (0.05, 1] (global_properties.cpp:488) */
#define LIGGGHTS_3_8_0(...)                                                                                         \
  {                                                                                                                 \
    .code = &impactfit__code_liggghts, .versions = "3.8.0", .first_version = "3.8.0", .version_min = 3008000,       \
    .version_max = 3008999, .clamp_default = 0, .clamp_switch = "limitForce", .run_versions = "3.8.0 (Debian 12)",  \
    .run_min = 3008000, .run_max = 3008999, .option = "",                                                           \
    .end = "A (the force may pull until delta = 0); C (clamped at zero: the bodies part there) with limitForce on", \
    .bodies = "R = r1 r2/(r1 + r2), M = m1 m2/(m1 + m2); a fix wall/gran wall: R = r1, M = m1",                     \
    .mixing = "one material: the peratomtype properties of one atom type (two materials are not modelled here "     \
              "yet)",                                                                                               \
    .assumes = "a head-on impact, no friction (coefficientFriction 0), no gravity, one material",                   \
    .precision = "float64 (LIGGGHTS computes in double precision)", __VA_ARGS__                                     \
  }

static const impactfit_code_model models[] = {
    LIGGGHTS_3_8_0(.model = "hertz", .n = 1.5, .m = 0.25, .param = "e", .param_unit = "-", .takes_e = 1,
                   .param_floor = 0.05, .solver = IMPACTFIT_CODE_SOLVE_CONVERSION,
                   IMPACTFIT__DEM_INPUTS(impactfit__dem_in_material),
                   .law_text = "F = (4/3) Y* sqrt(R delta) delta + gamma_n delta', S_n = 2 Y* sqrt(R delta), gamma_n = "
                               "-2 sqrt(5/6) beta sqrt(S_n M), beta = ln e/sqrt(ln^2 e + pi^2): K = (4/3) Y* sqrt(R), "
                               "C = sqrt(5) |beta| sqrt(M K)",
                   .source = "src/normal_model_hertz.h:211-258, global_properties.cpp:432, :539 (LIGGGHTS-PUBLIC "
                             "3.8.0, 7c32dc4)",
                   .ops = &o_hertz),
    LIGGGHTS_3_8_0(.model = "hooke", .n = 1.0, .m = 0.0, .param = "e", .param_unit = "-", .takes_e = 1,
                   .param_floor = 0.05, .solver = IMPACTFIT_CODE_SOLVE_CONVERSION,
                   IMPACTFIT__DEM_INPUTS(impactfit__dem_in_vchar),
                   .law_text = "F = kn delta + gamma_n delta', kn = (16/15) sqrt(R) Y* (15 M V^2/(16 sqrt(R) "
                               "Y*))^(1/5) (V: characteristicVelocity), gamma_n = sqrt(4 M kn/(1 + (pi/ln e)^2)): C = "
                               "2 |beta| sqrt(M K)",
                   .source = "src/normal_model_hooke.h:236-289 (LIGGGHTS-PUBLIC 3.8.0, 7c32dc4)", .ops = &o_hooke),
    LIGGGHTS_3_8_0(.model = "hooke/stiffness", .n = 1.0, .m = 0.0, .param = "gamman", .param_unit = "1/s",
                   .solver = IMPACTFIT_CODE_SOLVE_DAMPER, IMPACTFIT__DEM_INPUTS(impactfit__dem_in_kn_nm),
                   .law_text = "F = kn delta + M gamman delta' (properties kn in N/m, gamman): C = M gamman",
                   .source = "src/normal_model_hooke_stiffness.h:203-238, global_properties.cpp:741-807 "
                             "(LIGGGHTS-PUBLIC 3.8.0, 7c32dc4)",
                   .ops = &o_hooke_st),
    IMPACTFIT__ENTRY(.code = &impactfit__code_liggghts, .versions = "3.8.0", .first_version = "3.8.0",
                     .version_min = 3008000, .version_max = 3008999, .clamp_default = 0, .clamp_switch = "limitForce",
                     .run_versions = "3.8.0 (Debian 12)", .run_min = 3008000, .run_max = 3008999,
                     .end = "A (the force may pull until delta = 0); C (clamped at zero: the bodies part there) with "
                            "limitForce on",
                     .bodies = "R = r1 r2/(r1 + r2), M = m1 m2/(m1 + m2); a fix wall/gran wall: R = r1, M = m1",
                     .mixing = "one material: the peratomtype properties of one atom type (two materials are not "
                               "modelled here yet)",
                     .assumes = "a head-on impact, no friction (coefficientFriction 0), no gravity, one material",
                     .precision = "float64 (LIGGGHTS computes in double precision)", .model = "hooke/stiffness",
                     .option = "absolute_damping", .n = 1.0, .m = 0.0, .param = "gamman_abs", .param_unit = "N s/m",
                     .solver = IMPACTFIT_CODE_SOLVE_DAMPER, IMPACTFIT__DEM_INPUTS(impactfit__dem_in_kn_nm),
                     .law_text = "absolute_damping on: F = kn delta + gamman_abs delta' (properties kn in N/m, "
                                 "gamman_abs): C = "
                                 "gamman_abs",
                     .source = "src/normal_model_hooke_stiffness.h:203-238 (LIGGGHTS-PUBLIC 3.8.0, 7c32dc4)",
                     .ops = &o_hooke_st_abs),
    LIGGGHTS_3_8_0(.model = "hertz/stiffness", .n = 1.5, .m = 0.5, .param = "gamman", .param_unit = "1/(m s)",
                   .solver = IMPACTFIT_CODE_SOLVE_DAMPER, IMPACTFIT__DEM_INPUTS(impactfit__dem_in_kn_pa),
                   .law_text = "F = sqrt(R delta) (kn delta + M gamman delta') (properties kn in Pa, gamman): K = kn "
                               "sqrt(R), C = M gamman sqrt(R)",
                   .source = "src/normal_model_hertz_stiffness.h:111-142 (LIGGGHTS-PUBLIC 3.8.0, 7c32dc4)",
                   .ops = &o_hertz_st),
};

const impactfit_code impactfit__code_liggghts = {
    .name = "liggghts",
    .display = "LIGGGHTS",
    .kind = "dem",
    .default_version = "3.8.0",
    .version_example = "3.8.0",
    .version_key = impactfit_code_version_dotted,
    .model_prefix = NULL,
    .run_versions = "3.8.0 (Debian 12)",
    .models = models,
    .n_models = sizeof models / sizeof models[0],
};
