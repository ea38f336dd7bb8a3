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

/* body b's density from its mass and radius (NaN when the bodies were given as meff, reff) */
static double body_rho(const impactfit_code_ctx *c, int b) {
  double m = b == 1 ? c->m1 : c->m2, r = b == 1 ? c->r1 : c->r2;
  if (c->wall && b == 2)
    m = c->m1, r = c->r1;
  return isfinite(m) && isfinite(r) ? m / (4.0 / 3.0 * IMPACTFIT__PI * r * r * r) : NAN;
}

/* "frictionAngle=..." of body b: the user's (radians), or the placeholder */
static void friction_angle(const impactfit_code_ctx *c, int b, impactfit_text *out) {
  impactfit_text_appendf(out, "frictionAngle=");
  if (impactfit_code_given(c, "frictionAngle"))
    impactfit_text_appendf(out, "%.10g", impactfit_code_body_value(c, "frictionAngle", b)[0]);
  else
    impactfit_text_appendf(out, "<yours: radians>");
}

static void frict_mat(const impactfit_code_ctx *c, int b, impactfit_text *out) {
  double rho = body_rho(c, b);
  impactfit_text_appendf(out, "FrictMat(young=%.10g, poisson=%.10g, ", impactfit_code_body_value(c, "E", b)[0],
                         impactfit_code_body_value(c, "nu", b)[0]);
  if (isfinite(rho)) /* the spheres' density gives YADE their masses */
    impactfit_text_appendf(out, "density=%.10g, ", rho);
  friction_angle(c, b, out);
  impactfit_text_appendf(out, ")%s", isfinite(rho) ? "" : "  # and the bodies' density");
}

static void in_mindlin(const impactfit_code_ctx *c, double p, impactfit_text *out) {
  const impactfit_code_model *md = c->model;
  int two = impactfit__dem_two_materials(c), pairs = impactfit__dem_pairs(c) || (c->wall && two);
  const char *es = !strcmp(md->option, "en") ? "es" : "betas";
  if (!pairs) {
    impactfit_text_appendf(out, "mat = ");
    frict_mat(c, 1, out);
    impactfit_text_appendf(out, "\nip2 = Ip2_FrictMat_FrictMat_MindlinPhys(%s=%.12g", md->param, p);
  } else {
    double p11, p22;
    impactfit__dem_pair_value(c, 1, p, &p11, NULL);
    impactfit__dem_pair_value(c, 2, p, &p22, NULL);
    for (int b = 1; b <= 2; b++) {
      impactfit_text_appendf(out, "id%d = O.materials.append(", b);
      frict_mat(c, b, out);
      impactfit_text_appendf(out, ")%s\n", c->wall && b == 2 ? "  # the wall's: utils.wall(..., material=id2)" : "");
    }
    impactfit_text_appendf(out,
                           "ip2 = Ip2_FrictMat_FrictMat_MindlinPhys(%s=MatchMaker(matches=((id1, id1, %.12g), (id1, "
                           "id2, %.12g), (id2, id2, %.12g)))",
                           md->param, p11, p, p22);
  }
  if (impactfit_code_given(c, es))
    impactfit_text_appendf(out, ", %s=%.12g", es, impactfit_code_value(c, es)[0]);
  impactfit_text_appendf(out, ")\nlaw2 = Law2_ScGeom_MindlinPhys_Mindlin()\n");
}

static void in_yade(const impactfit_code_ctx *c, double p, impactfit_text *out) {
  const impactfit_code_model *md = c->model;
  if (!strcmp(md->model, "mindlin")) {
    in_mindlin(c, p, out);
    return;
  }
  impactfit_text t = IMPACTFIT_TEXT_INIT;
  friction_angle(c, 1, &t);
  if (!strcmp(md->option, "en")) {
    impactfit_text_appendf(out, "mat = ViscElMat(tc=%.10g, en=%.12g, et=", impactfit_code_value(c, "tc")[0], p);
    impactfit__dem_optional(c, "et", "the tangential restitution", out);
  } else {
    double kn = impactfit_code_value(c, "kn")[0];
    impactfit_text_appendf(out, "mat = ViscElMat(kn=%.10g, cn=%.12g, ks=", kn, p);
    impactfit__dem_optional(c, "ks", "N/m", out);
    impactfit_text_appendf(out, ", cs=");
    impactfit__dem_optional(c, "cs", "N s/m", out);
  }
  impactfit_text_appendf(out,
                         ", %s)\nip2 = Ip2_ViscElMat_ViscElMat_ViscElPhys()\nlaw2 = Law2_ScGeom_ViscElPhys_Basic()\n",
                         impactfit_text_str(&t));
  impactfit_text_free(&t);
}

static void note_yade(const impactfit_code_ctx *c, double p, impactfit_text *out) {
  const impactfit_code_model *md = c->model;
  (void)p;
  if (!strcmp(md->model, "mindlin")) {
    impactfit__dem_note_tangential(c, !strcmp(md->option, "en") ? "frictionAngle, es" : "frictionAngle, betas", out);
    if (!strcmp(md->option, "en") && !impactfit_code_given(c, "es"))
      impactfit_text_appendf(out, "; es not given: YADE then uses en for es too (Ip2_FrictMat_FrictMat_MindlinPhys: "
                                  "the same coefficient of restitution if only one is given), which only the "
                                  "tangential force reads");
    if (impactfit__dem_pairs(c) || (c->wall && impactfit__dem_two_materials(c)))
      impactfit_text_appendf(out, "; two materials: E* = 1/((1 - nu1^2)/E1 + (1 - nu2^2)/E2) of the two FrictMat, "
                                  "the restitution per material pair by the MatchMaker");
  } else
    impactfit__dem_note_tangential(c, !strcmp(md->option, "en") ? "frictionAngle, et" : "frictionAngle, ks, cs", out);
}

IMPACTFIT__DEM_OPS(o_en, IMPACTFIT__ST_HERTZ_MAT_YWALL, IMPACTFIT__DA_CONV_SQRTMK, conv_en, in_yade, note_yade)
IMPACTFIT__DEM_OPS(o_old_en, IMPACTFIT__ST_HERTZ_MAT_YWALL, IMPACTFIT__DA_CONV_SQRTMK, conv_old_en, in_yade, note_yade)
IMPACTFIT__DEM_OPS(o_betan, IMPACTFIT__ST_HERTZ_MAT_YWALL, IMPACTFIT__DA_CONV_SQRTMK, conv_betan, in_yade, note_yade)
IMPACTFIT__DEM_OPS(o_ve_en, IMPACTFIT__ST_VISCEL_TC, IMPACTFIT__DA_VISCEL_TC, NULL, in_yade, note_yade)
IMPACTFIT__DEM_OPS(o_ve_cn, IMPACTFIT__ST_VISCEL_KN, IMPACTFIT__DA_HALF, NULL, in_yade, note_yade)

#define IN_FA                                                                                                      \
  {                                                                                                                \
    .name = "frictionAngle", .unit = "rad",                                                                        \
    .help = "the material's frictionAngle, one or each body's (YADE takes the smaller; yours: kept in the pasted " \
            "line; a head-on normal law does not read it)",                                                        \
    .count = 1, .def = {NAN}, .per_body = 1, .mix = IMPACTFIT_CODE_MIX_MIN, .optional = 1                          \
  }
static const impactfit_code_input in_mindlin_en[] = {
    IMPACTFIT__IN_E, IMPACTFIT__IN_NU, IN_FA,
    IMPACTFIT__IN_TANGENTIAL("es", "-", "Mindlin's tangential restitution es (not given: YADE uses en)")};
static const impactfit_code_input in_mindlin_betan[] = {
    IMPACTFIT__IN_E, IMPACTFIT__IN_NU, IN_FA, IMPACTFIT__IN_TANGENTIAL("betas", "-", "Mindlin's tangential betas")};
static const impactfit_code_input in_viscel_en[] = {
    IMPACTFIT__IN_TC, IN_FA, IMPACTFIT__IN_TANGENTIAL("et", "-", "ViscElMat's tangential restitution et")};
static const impactfit_code_input in_viscel_cn[] = {
    IMPACTFIT__IN_KN("N/m"), IN_FA, IMPACTFIT__IN_TANGENTIAL("ks", "N/m", "ViscElMat's tangential stiffness ks"),
    IMPACTFIT__IN_TANGENTIAL("cs", "N s/m", "ViscElMat's tangential damping cs")};

#define YADE_COMMON                                                                                               \
  .code = &impactfit__code_yade, .clamp_default = 1, .clamp_switch = NULL,                                        \
  .end = "C (the total normal force is clamped at zero: the bodies part there)",                                  \
  .bodies = "R = r1 r2/(r1 + r2), M = m1 m2/(m1 + m2); a wall (utils.wall): mindlin counts the sphere's radius "  \
            "twice (R = r/2), ViscElPhys gives the wall the sphere's mass",                                       \
  .mixing = "mindlin: E* = 1/((1 - nu1^2)/E1 + (1 - nu2^2)/E2) of the two FrictMat (--E E1,E2 --nu NU1,NU2), "    \
            "the friction angle the smaller, en per material pair by a MatchMaker (e11, e22 asked); viscel: one " \
            "material",                                                                                           \
  .assumes = "a head-on impact (no tangential motion: frictionAngle and the tangential settings, yours, do not "  \
             "enter the normal law), no gravity, the bodies' materials as given",                                 \
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
                  .takes_e = 1, .solver = IMPACTFIT_CODE_SOLVE_CONVERSION, IMPACTFIT__DEM_INPUTS(in_mindlin_en),
                  .law_text = "Ip2_FrictMat_FrictMat_MindlinPhys(en): kno = (4/3) E* sqrt(R), F = kno delta^(3/2) + "
                              "c_n delta', c_n = 2 beta_n sqrt(M (3/2) kno delta^(1/2)), beta_n = sqrt(1/(1 - (1 + "
                              "e)^2 exp(a(e))) - 1) with a(e) the degree-10 polynomial of Thornton et al. (2013) Eq. "
                              "(B7); the total force is clamped at zero: C = 2 sqrt(3/2) beta_n sqrt(M K)",
                  .source = "pkg/dem/HertzMindlin.cpp:22-110 (Ip2), :270-519 (Law2) (YADE 2023.02a, d081c80)",
                  .ops = &o_en),
    YADE_BEFORE_2023(.model = "mindlin", .option = "en", .n = 1.5, .m = 0.25, .param = "en", .param_unit = "-",
                     .takes_e = 1, .solver = IMPACTFIT_CODE_SOLVE_CONVERSION, IMPACTFIT__DEM_INPUTS(in_mindlin_en),
                     .law_text = "Ip2_FrictMat_FrictMat_MindlinPhys(en) before the Thornton conversion: beta_n = "
                                 "sqrt(5/6) |ln e|/sqrt(ln^2 e + pi^2), c_n = 2 beta_n sqrt(M (3/2) kno delta^(1/2)), "
                                 "clamped at zero: C = sqrt(5) |beta| sqrt(M K)",
                     .source = "pkg/dem/HertzMindlin.cpp (YADE 2022.01a; replaced by Thornton's (B6) in commit "
                               "8766c063f, 2023-01-25)",
                     .ops = &o_old_en),
    YADE_2023_02A(.model = "mindlin", .option = "betan", .n = 1.5, .m = 0.25, .param = "betan", .param_unit = "-",
                  .solver = IMPACTFIT_CODE_SOLVE_DAMPER, IMPACTFIT__DEM_INPUTS(in_mindlin_betan),
                  .law_text = "Ip2_FrictMat_FrictMat_MindlinPhys(betan): c_n = 2 betan sqrt(M (3/2) kno "
                              "delta^(1/2)), clamped at zero: C = 2 sqrt(3/2) betan sqrt(M K)",
                  .source = "pkg/dem/HertzMindlin.cpp:107, :330-402 (YADE 2023.02a, d081c80)", .ops = &o_betan),
    YADE_2023_02A(.model = "viscel", .option = "en", .n = 1.0, .m = 0.0, .param = "en", .param_unit = "-", .takes_e = 1,
                  .solver = IMPACTFIT_CODE_SOLVE_CONVERSION, IMPACTFIT__DEM_INPUTS(in_viscel_en),
                  .law_text = "ViscElMat(tc, en): per contact kn = (pi^2 + ln^2 en) M'/tc^2, cn = -2 ln(en) M'/tc "
                              "with M' = M (sphere-sphere) or m/2 (a wall of mass 0 takes the sphere's mass); F = kn "
                              "delta + cn delta' clamped at zero",
                  .source = "pkg/dem/ViscoelasticPM.cpp:66-170 (Law2), :172-340 (Ip2) (YADE 2023.02a, d081c80)",
                  .ops = &o_ve_en),
    YADE_2023_02A(.model = "viscel", .option = "cn", .n = 1.0, .m = 0.0, .param = "cn", .param_unit = "N s/m",
                  .solver = IMPACTFIT_CODE_SOLVE_DAMPER, IMPACTFIT__DEM_INPUTS(in_viscel_cn),
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
