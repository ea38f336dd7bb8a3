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

/* the first words of LIGGGHTS 3.8.0's tangential model (pair_style gran ... tangential NAME) */
static const char *const tangential_liggghts[] = {"no_history", "history", NULL};

/* `fix ID all property/global NAME peratomtypepair N ...`: one value for one type, the 2 x 2 matrix of the type
 * pairs (a11 a12 a21 a22, a12 = a21) for two; an optional input not given: the placeholder in every place */
static void pair_matrix(const impactfit_code_ctx *c, const char *id, const char *name, int types, const double v[3],
                        const char *optional, impactfit_text *out) {
  impactfit_text_appendf(out, "fix %s all property/global %s peratomtypepair %d", id, name, types);
  const int at[4] = {0, 2, 2, 1};
  for (int k = 0; k < (types == 1 ? 1 : 4); k++) {
    impactfit_text_appendf(out, " ");
    if (optional)
      impactfit__dem_optional(c, optional, optional, out);
    else
      impactfit_text_appendf(out, "%.12g", v[types == 1 ? 2 : at[k]]);
  }
  impactfit_text_appendf(out, "\n");
}

static void in_liggghts(const impactfit_code_ctx *c, double p, impactfit_text *out) {
  const impactfit_code_model *md = c->model;
  int absolute = !strcmp(md->option, "absolute_damping");
  int pairs = impactfit__dem_pairs(c) || (c->wall && impactfit__dem_two_materials(c));
  int types = pairs ? 2 : 1;
  const char *tang = c->req && c->req->tangential ? c->req->tangential : "<yours: no_history | history>";
  /* the values per type pair: [0] 1-1, [1] 2-2, [2] 1-2 (the contact asked) */
  double pv[3] = {p, p, p};
  if (pairs)
    for (int b = 1; b <= 2; b++)
      impactfit__dem_pair_value(c, b, p, &pv[b - 1], NULL);
  impactfit_text_appendf(out, "pair_style gran model %s tangential %s%s%s\npair_coeff * *\n", md->model, tang,
                         absolute ? " absolute_damping on" : "", c->clamp ? " limitForce on" : "");
  if (impactfit_code_input_find(md, "E")) {
    impactfit_text_appendf(out, "fix m1 all property/global youngsModulus peratomtype %.10g",
                           impactfit_code_body_value(c, "E", 1)[0]);
    if (types == 2)
      impactfit_text_appendf(out, " %.10g", impactfit_code_body_value(c, "E", 2)[0]);
    impactfit_text_appendf(out, "\nfix m2 all property/global poissonsRatio peratomtype %.10g",
                           impactfit_code_body_value(c, "nu", 1)[0]);
    if (types == 2)
      impactfit_text_appendf(out, " %.10g", impactfit_code_body_value(c, "nu", 2)[0]);
    impactfit_text_appendf(out, "\n");
    pair_matrix(c, "m3", "coefficientRestitution", types, pv, NULL, out);
    pair_matrix(c, "m4", "coefficientFriction", types, pv, "coefficientFriction", out);
    if (strcmp(md->model, "hooke") == 0)
      impactfit_text_appendf(out, "fix m5 all property/global characteristicVelocity scalar %.10g\n",
                             impactfit_code_value(c, "vchar")[0]);
  } else {
    double kn = impactfit_code_value(c, "kn")[0], knv[3] = {kn, kn, kn};
    pair_matrix(c, "m1", "kn", types, knv, NULL, out);
    pair_matrix(c, "m2", "kt", types, knv, "kt", out);
    pair_matrix(c, "m3", absolute ? "gamman_abs" : "gamman", types, pv, NULL, out);
    pair_matrix(c, "m4", absolute ? "gammat_abs" : "gammat", types, pv, absolute ? "gammat_abs" : "gammat", out);
    pair_matrix(c, "m5", "coefficientFriction", types, pv, "coefficientFriction", out);
  }
  if (c->wall) /* model keywords after the primitive, or the fix refuses them */
    impactfit_text_appendf(out, "fix wall all wall/gran model %s tangential %s primitive type %d zplane 0.0%s%s\n",
                           md->model, tang, types, absolute ? " absolute_damping on" : "",
                           c->clamp ? " limitForce on" : "");
}

static void note_liggghts(const impactfit_code_ctx *c, double p, impactfit_text *out) {
  (void)p;
  impactfit__dem_note_tangential(c, "the tangential model, coefficientFriction, and kt, gammat of the stiffness models",
                                 out);
  if (impactfit__dem_pairs(c) || (c->wall && impactfit__dem_two_materials(c)))
    impactfit_text_appendf(out,
                           "; two atom types (1: body 1's material, 2: body 2's%s): E and nu per type, the "
                           "restitution and friction per type pair (global_properties.cpp:424-466)",
                           c->wall ? ", the wall's primitive type" : "");
}

#define IN_CF IMPACTFIT__IN_TANGENTIAL("coefficientFriction", "-", "coefficientFriction for every type pair")
#define IN_KT(unit_) IMPACTFIT__IN_TANGENTIAL("kt", unit_, "the tangential stiffness property kt")
static const impactfit_code_input in_hertz[] = {IMPACTFIT__IN_E, IMPACTFIT__IN_NU, IN_CF};
static const impactfit_code_input in_hooke[] = {IMPACTFIT__IN_E, IMPACTFIT__IN_NU, IMPACTFIT__IN_VCHAR, IN_CF};
static const impactfit_code_input in_hooke_st[] = {
    IMPACTFIT__IN_KN("N/m"), IN_KT("N/m"), IMPACTFIT__IN_TANGENTIAL("gammat", "1/s", "the tangential damping gammat"),
    IN_CF};
static const impactfit_code_input in_hooke_st_abs[] = {
    IMPACTFIT__IN_KN("N/m"), IN_KT("N/m"),
    IMPACTFIT__IN_TANGENTIAL("gammat_abs", "N s/m", "the tangential damping gammat_abs"), IN_CF};
static const impactfit_code_input in_hertz_st[] = {
    IMPACTFIT__IN_KN("Pa"), IN_KT("Pa"), IMPACTFIT__IN_TANGENTIAL("gammat", "1/(m s)", "the tangential damping gammat"),
    IN_CF};

#define OPS_LIG(name, st_, da_, conv_) \
  IMPACTFIT__DEM_OPS_T(name, st_, da_, conv_, in_liggghts, note_liggghts, tangential_liggghts)
OPS_LIG(o_hertz, IMPACTFIT__ST_HERTZ_MAT, IMPACTFIT__DA_CONV_SQRTMK, conv_hertz_beta)
OPS_LIG(o_hooke, IMPACTFIT__ST_HOOKE_VCHAR, IMPACTFIT__DA_CONV_SQRTMK, conv_linear_log)
OPS_LIG(o_hooke_st, IMPACTFIT__ST_LINEAR_KN, IMPACTFIT__DA_MASS, NULL)
OPS_LIG(o_hooke_st_abs, IMPACTFIT__ST_LINEAR_KN, IMPACTFIT__DA_CONST, NULL)
OPS_LIG(o_hertz_st, IMPACTFIT__ST_HERTZ_KN, IMPACTFIT__DA_MASS_SQRTR, NULL)

#define LIG_MIXING                                                                                                 \
  "E, nu per atom type (youngsModulus, poissonsRatio peratomtype; Yeff, Geff per pair: global_properties.cpp:424-" \
  "466), coefficientRestitution and coefficientFriction per type pair (peratomtypepair N, N^2 values): one type "  \
  "for one material, two for two (--E E1,E2 --nu NU1,NU2, or e11, e22 asked)"
#define LIG_ASSUMES                                                                                                  \
  "a head-on impact (no tangential motion: the tangential model and friction, yours, do not enter the normal law), " \
  "no gravity, the bodies' materials as given"
/* LIGGGHTS 3.8.0 refuses a coefficientRestitution outside (0.05, 1] (global_properties.cpp:488) */
#define LIGGGHTS_3_8_0(...)                                                                                           \
  {                                                                                                                   \
    .code = &impactfit__code_liggghts, .versions = "3.8.0", .first_version = "3.8.0", .version_min = 3008000,         \
    .version_max = 3008999, .clamp_default = 0, .clamp_switch = "limitForce", .run_versions = "3.8.0 (Debian 12)",    \
    .run_min = 3008000, .run_max = 3008999, .option = "",                                                             \
    .end = "A (the force may pull until delta = 0); C (clamped at zero: the bodies part there) with limitForce on",   \
    .bodies = "R = r1 r2/(r1 + r2), M = m1 m2/(m1 + m2); a fix wall/gran wall: R = r1, M = m1", .mixing = LIG_MIXING, \
    .assumes = LIG_ASSUMES, .precision = "float64 (LIGGGHTS computes in double precision)", __VA_ARGS__               \
  }

static const impactfit_code_model models[] = {
    LIGGGHTS_3_8_0(.model = "hertz", .n = 1.5, .m = 0.25, .param = "e", .param_unit = "-", .takes_e = 1,
                   .param_floor = 0.05, .solver = IMPACTFIT_CODE_SOLVE_CONVERSION, IMPACTFIT__DEM_INPUTS(in_hertz),
                   .law_text = "F = (4/3) Y* sqrt(R delta) delta + gamma_n delta', S_n = 2 Y* sqrt(R delta), gamma_n = "
                               "-2 sqrt(5/6) beta sqrt(S_n M), beta = ln e/sqrt(ln^2 e + pi^2): K = (4/3) Y* sqrt(R), "
                               "C = sqrt(5) |beta| sqrt(M K)",
                   .source = "src/normal_model_hertz.h:211-258, global_properties.cpp:432, :539 (LIGGGHTS-PUBLIC "
                             "3.8.0, 7c32dc4)",
                   .ops = &o_hertz),
    LIGGGHTS_3_8_0(.model = "hooke", .n = 1.0, .m = 0.0, .param = "e", .param_unit = "-", .takes_e = 1,
                   .param_floor = 0.05, .solver = IMPACTFIT_CODE_SOLVE_CONVERSION, IMPACTFIT__DEM_INPUTS(in_hooke),
                   .law_text = "F = kn delta + gamma_n delta', kn = (16/15) sqrt(R) Y* (15 M V^2/(16 sqrt(R) "
                               "Y*))^(1/5) (V: characteristicVelocity), gamma_n = sqrt(4 M kn/(1 + (pi/ln e)^2)): C = "
                               "2 |beta| sqrt(M K)",
                   .source = "src/normal_model_hooke.h:236-289 (LIGGGHTS-PUBLIC 3.8.0, 7c32dc4)", .ops = &o_hooke),
    LIGGGHTS_3_8_0(.model = "hooke/stiffness", .n = 1.0, .m = 0.0, .param = "gamman", .param_unit = "1/s",
                   .solver = IMPACTFIT_CODE_SOLVE_DAMPER, IMPACTFIT__DEM_INPUTS(in_hooke_st),
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
                     .mixing = LIG_MIXING, .assumes = LIG_ASSUMES,
                     .precision = "float64 (LIGGGHTS computes in double precision)", .model = "hooke/stiffness",
                     .option = "absolute_damping", .n = 1.0, .m = 0.0, .param = "gamman_abs", .param_unit = "N s/m",
                     .solver = IMPACTFIT_CODE_SOLVE_DAMPER, IMPACTFIT__DEM_INPUTS(in_hooke_st_abs),
                     .law_text = "absolute_damping on: F = kn delta + gamman_abs delta' (properties kn in N/m, "
                                 "gamman_abs): C = "
                                 "gamman_abs",
                     .source = "src/normal_model_hooke_stiffness.h:203-238 (LIGGGHTS-PUBLIC 3.8.0, 7c32dc4)",
                     .ops = &o_hooke_st_abs),
    LIGGGHTS_3_8_0(.model = "hertz/stiffness", .n = 1.5, .m = 0.5, .param = "gamman", .param_unit = "1/(m s)",
                   .solver = IMPACTFIT_CODE_SOLVE_DAMPER, IMPACTFIT__DEM_INPUTS(in_hertz_st),
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
