/* SPDX-License-Identifier: GPL-3.0-or-later */
/* MuJoCo's soft contact in the code registry (include/impactfit/codes.h; docs/engines/MUJOCO.md).
 *
 * Read in MuJoCo 2.2.2 (Debian 12's libmujoco-dev; double precision, mjtNum = double) and proven
 * against it by tests/engines/mujoco_impact.c; the same law read in 2.3.0-2.3.7 and 3.0.0-3.12.0
 * (formula only). For one frictionless contact (condim 1) of a free sphere on a plane or of two free
 * spheres, with no other force:
 *  - the contact row exists while dist < includemargin = margin - gap (2.2.2
 *    engine_collision_driver.c:734-744; at dist = 0 with margin 0 the contact is generated but
 *    excluded), so the penetration is delta = includemargin - dist, and margin/gap only move the
 *    place where the contact starts;
 *  - the solver's normal force is f = (aref - a0)/(A + R) while aref > a0, else 0 (the cost of
 *    mj_constraintUpdate, engine_core_constraint.c:1539: a one-row quadratic program, solved exactly
 *    by Newton, CG and PGS), with a0 = 0 (no gravity), A = J M^-1 J' = 1/m1 + 1/m2 for a normal
 *    through the spheres' centres, R = (1 - d)/d diagApprox (:1146) and diagApprox = the bodies'
 *    body_invweight0 (:944; engine_setconst.c:98) = 1/m1 + 1/m2 too, so f = M d (aref - a0) with
 *    M = 1/(1/m1 + 1/m2);
 *  - aref = -B vel - K d (pos - margin) (:1459), vel = -delta', pos - margin = -delta, d = the solimp
 *    impedance at |pos - margin|/width (:1074), K and B from solref (:1158-1173), timeconst raised to
 *    2 timestep by refsafe (:1020).
 * Hence f = M d(delta) (B delta' + K d(delta) delta) clamped at zero: law.h's "impedance" under
 * condition C. Euler (engine_forward.c:477-480: velocity first, then positions with the new velocity)
 * is stepper.h's euler; RK4 (:554-642, mj_forwardSkip with collision detection at every stage) is
 * rk4; implicit (:647-679) differentiates only the smooth forces, none here, and takes the contact
 * force as Euler does: the step map of euler. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../common/common_impl.h"
#include "blocks_impl.h"
#include "impactfit/inverse.h"

static const impactfit_code_input std_inputs[] = {
    {.name = "solref",
     .unit = "s, -",
     .help = "timeconst and dampratio (standard form, both > 0)",
     .count = 2,
     .def = {0.02, 1.0}},
    {.name = "solimp",
     .unit = "-, -, m, -, -",
     .help = "d0, dwidth, width, midpoint, power of the impedance",
     .count = 5,
     .def = {0.9, 0.95, 0.001, 0.5, 2.0}},
    {.name = "refsafe",
     .unit = "0 or 1",
     .help = "1: MuJoCo raises timeconst to 2 timestep (the default); 0: <flag refsafe=\"disable\"/>",
     .count = 1,
     .def = {1.0}},
};

static const impactfit_code_input direct_inputs[] = {
    {.name = "solref",
     .unit = "N/m/kg, N s/m/kg",
     .help = "-stiffness and -damping (direct form, both < 0), per unit mass",
     .count = 2,
     .def = {NAN, NAN}},
    {.name = "solimp",
     .unit = "-, -, m, -, -",
     .help = "d0, dwidth, width, midpoint, power of the impedance",
     .count = 5,
     .def = {0.9, 0.95, 0.001, 0.5, 2.0}},
};

/* the law for (timeconst, dampratio) in standard form, or (−k, −b) in direct form, as
 * mj_makeImpedance computes K and B (dwidth clamped to [mjMINIMP, mjMAXIMP], denominators to mjMINVAL) */
static void law_of(const impactfit_code_ctx *c, int direct, double r0, double r1, impactfit_law *law) {
  const double *imp = impactfit_code_value(c, "solimp");
  double dmax = fmin(0.9999, fmax(0.0001, imp[1]));
  double K, B;
  if (!direct) {
    const double *rs = impactfit_code_value(c, "refsafe");
    double tc = rs[0] != 0.0 ? fmax(r0, 2.0 * c->dt) : r0;
    K = 1.0 / fmax(1e-15, dmax * dmax * tc * tc * r1 * r1);
    B = 2.0 / fmax(1e-15, dmax * tc);
  } else {
    K = -r0 / fmax(1e-15, dmax * dmax);
    B = -r1 / fmax(1e-15, dmax);
  }
  memset(law, 0, sizeof *law);
  law->type = impactfit_law_impedance;
  law->p[0] = c->M;
  law->p[1] = B;
  law->p[2] = K;
  for (int i = 0; i < 5; i++)
    law->p[3 + i] = imp[i];
}

/* the integrator's step map (its table: euler for Euler, implicit and implicitfast, the same step map for
 * this contact; rk4 for RK4) */
static int stepper_of(const impactfit_code_ctx *c, const impactfit_law *law, impactfit_stepper *st) {
  memset(st, 0, sizeof *st);
  st->type = c->integrator->stepper;
  st->law = *law;
  st->end = impactfit_transition_C;
  st->mass = c->M;
  st->dt = c->dt;
  return 0;
}

static int std_build(const impactfit_code_ctx *c, double dampratio, impactfit_stepper *st, impactfit_error *err) {
  const double *sr = impactfit_code_value(c, "solref"), *rs = impactfit_code_value(c, "refsafe");
  if (!(rs[0] == 0.0 || rs[0] == 1.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "mujoco: refsafe is 0 (disabled) or 1 (enabled) (got %.17g)", rs[0]);
  if (!(sr[0] > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "mujoco: solref timeconst must be > 0 in the standard form (got %.17g; the direct form is "
                           "the model 'soft contact direct')",
                           sr[0]);
  impactfit_law law;
  law_of(c, 0, sr[0], dampratio, &law);
  return stepper_of(c, &law, st);
}

static int direct_build(const impactfit_code_ctx *c, double damping, impactfit_stepper *st, impactfit_error *err) {
  const double *sr = impactfit_code_value(c, "solref");
  if (!(sr[0] < 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "mujoco: solref[0] must be -stiffness < 0 in the direct form (got %.17g)", sr[0]);
  impactfit_law law;
  law_of(c, 1, sr[0], -damping, &law);
  return stepper_of(c, &law, st);
}

static int std_naive(const impactfit_code_ctx *c, double e, double *value, impactfit_text *what, impactfit_error *err) {
  (void)c, (void)err;
  *value = impactfit_kv_damping_ratio(e);
  impactfit_text_appendf(what, "dampratio = -ln e/sqrt(pi^2 + ln^2 e) (linear spring-damper, contact to delta = 0)");
  return 0;
}

static int direct_naive(const impactfit_code_ctx *c, double e, double *value, impactfit_text *what,
                        impactfit_error *err) {
  (void)err;
  const double *sr = impactfit_code_value(c, "solref");
  *value = 2.0 * impactfit_kv_damping_ratio(e) * sqrt(-sr[0]);
  impactfit_text_appendf(what, "damping = 2 sqrt(stiffness) (-ln e)/sqrt(pi^2 + ln^2 e) (linear spring-damper)");
  return 0;
}

/* <default><geom solref="a b" solimp="..."/></default>, the refsafe flag when it is off, and the
 * Python equivalent: every geom gets the values, so both sides of the contact agree and solmix does not
 * matter */
static void paste(const impactfit_code_ctx *c, double r0, double r1, impactfit_text *out) {
  const double *imp = impactfit_code_value(c, "solimp"), *rs = impactfit_code_value(c, "refsafe");
  int off = rs && rs[0] == 0.0;
  impactfit_text_appendf(out,
                         "<default><geom solref=\"%.12g %.12g\" solimp=\"%.12g %.12g %.12g %.12g "
                         "%.12g\"/></default>",
                         r0, r1, imp[0], imp[1], imp[2], imp[3], imp[4]);
  if (off)
    impactfit_text_appendf(out, " <option><flag refsafe=\"disable\"/></option>");
  impactfit_text_appendf(out,
                         "   (Python: model.geom_solref[:] = [%.12g, %.12g]; model.geom_solimp[:] = [%.12g, %.12g, "
                         "%.12g, %.12g, %.12g]%s)",
                         r0, r1, imp[0], imp[1], imp[2], imp[3], imp[4],
                         off ? "; model.opt.disableflags |= mujoco.mjtDisableBit.mjDSBL_REFSAFE" : "");
}

static void std_input(const impactfit_code_ctx *c, double dampratio, impactfit_text *out) {
  paste(c, impactfit_code_value(c, "solref")[0], dampratio, out);
}

static void direct_input(const impactfit_code_ctx *c, double damping, impactfit_text *out) {
  paste(c, impactfit_code_value(c, "solref")[0], -damping, out);
}

static void common_note(const impactfit_code_ctx *c, impactfit_text *out) {
  const double *imp = impactfit_code_value(c, "solimp");
  if (imp[0] != imp[1] && imp[2] > 0.0)
    impactfit_text_appendf(out, "With solimp d0 != dwidth the law is not scale-free: e depends on the impact speed. ");
  if (imp[0] > 0.0001)
    impactfit_text_appendf(out,
                           "The damping force jumps to M d0 B v at first contact, so a single impact's e depends on "
                           "where the first contact step falls at first order in dt (e_min..e_max above): only the "
                           "mean over the phase is exact at any dt. ");
  impactfit_text_appendf(out, "Both geoms must carry these values: MuJoCo mixes two geoms' solref and solimp by solmix "
                              "(standard solref: weighted mean; direct: the smaller of each), so solref on the sphere "
                              "alone gives the mean with the plane's default 0.02 1. A <pair> or <option o_solref "
                              "o_solimp> with <flag override=\"enable\"/> takes the same values. margin and gap only "
                              "move where the contact starts. ");
}

/* How deep the contact goes (continuous time): MuJoCo's geometry is one-dimensional only while two spheres'
 * centres have not crossed (the normal is the line of centres), and a sphere sinking deeper than its radius
 * is a contact far softer than the bodies. */
static void depth_note(const impactfit_code_ctx *c, const impactfit_stepper *st, impactfit_text *out) {
  impactfit_law_impact_params lp = impactfit_law_impact_default_params();
  lp.law = st->law;
  lp.mass = c->M;
  lp.v = c->v;
  lp.transition = impactfit_transition_C;
  impactfit_law_impact_result r;
  if (impactfit_law_impact_solve(NULL, &lp, &r, NULL) != 0)
    return;
  if (!c->wall && r.delta_max >= c->r1 + c->r2)
    impactfit_text_appendf(out,
                           "THE SPHERES PASS THROUGH EACH OTHER: the penetration would reach %.3g m (continuous "
                           "time), more than r1 + r2 = %.3g m; past that MuJoCo's contact normal flips and the e "
                           "above does not apply (stiffen the contact: a smaller timeconst). ",
                           r.delta_max, c->r1 + c->r2);
  else if (r.delta_max > (c->wall ? c->r1 : fmin(c->r1, c->r2)))
    impactfit_text_appendf(out, "The penetration reaches %.3g m (continuous time), more than the radius. ",
                           r.delta_max);
}

static void std_note(const impactfit_code_ctx *c, double value, impactfit_text *out) {
  const double *sr = impactfit_code_value(c, "solref"), *rs = impactfit_code_value(c, "refsafe");
  if (rs[0] != 0.0 && sr[0] < 2.0 * c->dt)
    impactfit_text_appendf(out, "Refsafe raises timeconst %.6g s to 2 timestep = %.6g s (the law above uses that). ",
                           sr[0], 2.0 * c->dt);
  impactfit_stepper st;
  if (isfinite(value) && std_build(c, value, &st, NULL) == 0)
    depth_note(c, &st, out);
  common_note(c, out);
}

static void direct_note(const impactfit_code_ctx *c, double value, impactfit_text *out) {
  impactfit_stepper st;
  if (isfinite(value) && direct_build(c, value, &st, NULL) == 0)
    depth_note(c, &st, out);
  common_note(c, out);
}

static const impactfit_code_ops std_ops = {
    .build = std_build, .lo = 1e-4, .hi = 1e3, .naive = std_naive, .input = std_input, .note = std_note};
static const impactfit_code_ops direct_ops = {
    .build = direct_build, .lo = 1e-6, .hi = 1e9, .naive = direct_naive, .input = direct_input, .note = direct_note};

#define MJ_LAW_STD                                                                                             \
  "f = M d(delta) (B delta' + K d(delta) delta) while positive, else 0; delta = (margin - gap) - dist; "       \
  "B = 2/(dwidth timeconst), K = 1/(dwidth^2 timeconst^2 dampratio^2), timeconst raised to 2 timestep unless " \
  "refsafe is off; d(delta) the solimp impedance at delta/width (d0 at 0, dwidth from width on), clamped to "  \
  "[0.0001, 0.9999]; M = 1/(1/m1 + 1/m2) (solver force = M d (aref - a0), exact for a sphere)"
#define MJ_LAW_DIRECT                                                                                     \
  "f = M d(delta) (B delta' + K d(delta) delta) while positive, else 0; delta = (margin - gap) - dist; "  \
  "K = stiffness/dwidth^2, B = damping/dwidth with solref = (-stiffness, -damping); d(delta) the solimp " \
  "impedance; M = 1/(1/m1 + 1/m2)"
#define MJ_END "C (the constraint force is >= 0: the bodies part where it falls to zero, or at dist = margin - gap)"
#define MJ_BODIES                                                                                                  \
  "mass-normalised: e does not depend on the masses (the solver's A = diagApprox = 1/m1 + 1/m2 for a free "        \
  "sphere); radii only place the contact. Two geoms' solref and solimp mix by solmix (weight solmix1/(solmix1 + "  \
  "solmix2); standard solref: weighted mean; direct: the smaller of each); a higher geom priority takes its own; " \
  "<pair> and <option o_solref o_solimp> with override replace them"

#define MJ_SOURCE_222                                                                                          \
  "MuJoCo 2.2.2 src/engine/engine_core_constraint.c:974-1029 getsolparam (refsafe :1020, solimp clamps), "     \
  ":1074-1122 getimpedance, :1127-1237 mj_makeImpedance (R :1146, K :1158/:1163, B :1168/:1173), :1459 aref, " \
  ":1539 contact force 0 where jar >= 0, :944 diagApprox; engine_setconst.c:98 body_invweight0; "              \
  "engine_collision_driver.c:552-553 margin/gap max, :671-698 solmix, :734-744 includemargin and exclusion; "  \
  "engine_collision_primitive.c:42, :264 contact within margin; engine_forward.c:460-484 mj_advance, "         \
  ":487-529 mj_EulerSkip, :554-642 mj_RungeKutta (collision at every stage :618), :647-679 mj_implicitSkip, "  \
  ":742-775 mj_step; engine_io.c:78-90 default solref/solimp"
#define MJ_SOURCE_23                                                                                               \
  "read at MuJoCo 2.3.7 (the law's functions compared at every tag 2.3.0-2.3.7 with 2.2.2: getimpedance, "         \
  "mj_makeImpedance, getsolparam, mj_referenceConstraint, mj_diagApprox, the contact rules of mj_collideGeoms, "   \
  "mj_EulerSkip, mj_advance, mj_RungeKutta, mj_implicitSkip: same law and step maps; solreffriction (2.3.6) acts " \
  "on friction rows only); line numbers as 2.2.2 give them up to formatting; formula only"
#define MJ_SOURCE_3                                                                                                \
  "MuJoCo 3.12.0 src/engine/engine_core_constraint.c:1977-2048 getsolparam (refsafe :2028), :2099-2147 "           \
  "getimpedance, :2151-2265 mj_makeImpedance (R :2170, K :2187/:2191, B :2196/:2201), :3257 aref, :3214-3240 "     \
  "adhesion, :3343 contact force 0 where jar >= 0, :1948 diagA; engine_setconst.c:919/:933 body_invweight0; "      \
  "engine_collision_driver.c:161-175 margin and gap (sums), :1790-1815 solmix, :1855 exclusion (dist >= margin), " \
  ":1941 detection within margin + gap; engine_collision_primitive.c:39; engine_forward.c:1261-1395 mj_advance, "  \
  ":1398-1476 mj_EulerSkip, :1499-1587 mj_RungeKutta, :1649-1771 mj_implicitSkip, :1846-1880 mj_step; compared "   \
  "at every tag 3.0.0-3.12.0; formula only"
#define MJ_TRAPS_COMMON                                                                                          \
  "Refsafe raises timeconst to 2 timestep; the default solimp (d0 0.9 != dwidth 0.95) makes e depend on the "    \
  "speed; the damping force jumps to M d0 B v at first contact, so a single impact's e depends on the phase at " \
  "first order in dt; Euler takes the force from the step's start; RK4 re-detects contact at every stage; "      \
  "implicit differentiates only smooth forces: for this contact it is Euler; solref set on one geom only is "    \
  "mixed with the other geom's default"

/* the integrators: the step map of each (Euler, implicit and implicitfast take the contact force as Euler does) */
static const impactfit_code_integrator mj_integrators_2[] = {
    {.name = "euler", .stepper = &impactfit__stepper_euler_type, .summary = "mjINT_EULER: semi-implicit Euler"},
    {.name = "rk4",
     .stepper = &impactfit__stepper_rk4_type,
     .summary = "mjINT_RK4: collision detection at every stage"},
    {.name = "implicit",
     .stepper = &impactfit__stepper_euler_type,
     .summary = "mjINT_IMPLICIT: differentiates the smooth forces only (none here): Euler's step map"},
};
static const impactfit_code_integrator mj_integrators_3[] = {
    {.name = "euler", .stepper = &impactfit__stepper_euler_type, .summary = "mjINT_EULER: semi-implicit Euler"},
    {.name = "rk4",
     .stepper = &impactfit__stepper_rk4_type,
     .summary = "mjINT_RK4: collision detection at every stage"},
    {.name = "implicit",
     .stepper = &impactfit__stepper_euler_type,
     .summary = "mjINT_IMPLICIT: differentiates the smooth forces only (none here): Euler's step map"},
    {.name = "implicitfast",
     .stepper = &impactfit__stepper_euler_type,
     .summary = "mjINT_IMPLICITFAST (3.0 on): Euler's step map for this contact"},
};

#define MJ_STD                                                                                                \
  .param = "dampratio", .param_unit = "-", .param_input = "solref", .param_index = 1, .law_text = MJ_LAW_STD, \
  .inputs = std_inputs, .n_inputs = IMPACTFIT__COUNT(std_inputs), .ops = &std_ops
/* the direct form's free parameter is damping = -solref[1] */
#define MJ_DIRECT                                                                                               \
  .param = "damping", .param_unit = "N s/m/kg", .param_input = "solref", .param_index = 1, .param_scale = -1.0, \
  .law_text = MJ_LAW_DIRECT, .inputs = direct_inputs, .n_inputs = IMPACTFIT__COUNT(direct_inputs), .ops = &direct_ops
#define MJ_COMMON                                                                                             \
  .code = &impactfit__code_mujoco, .law = &impactfit__law_impedance_type, .clamp_default = 1, .end = MJ_END,  \
  .bodies = MJ_BODIES, .dt_default = 0.002, .solver = IMPACTFIT_CODE_SOLVE_MEAN,                              \
  .mixing = "solmix: the weighted mean of two geoms' standard solref and solimp, the smaller of each direct " \
            "solref; a higher priority takes its own (engine_collision_driver.c)",                            \
  .assumes = "a frictionless contact (condim 1), no gravity, a head-on impact", .precision = "float64 (mjtNum)"
#define MJ_222                                                                                                     \
  MJ_COMMON, .versions = "2.2.2", .first_version = "2.2.2", .version_min = 2002002, .version_max = 2002002,        \
             .run_min = 2002002, .run_max = 2002002, .run_versions = "2.2.2 (Debian 12)", .source = MJ_SOURCE_222, \
             .integrators = mj_integrators_2, .n_integrators = IMPACTFIT__COUNT(mj_integrators_2)
#define MJ_23                                                                                                     \
  MJ_COMMON, .versions = "2.3.0-2.3.7", .first_version = "2.3.0", .version_min = 2003000, .version_max = 2003007, \
             .source = MJ_SOURCE_23, .integrators = mj_integrators_2,                                             \
             .n_integrators = IMPACTFIT__COUNT(mj_integrators_2)
#define MJ_3                                                                                                       \
  MJ_COMMON, .versions = "3.0.0-3.12.0", .first_version = "3.0.0", .version_min = 3000000, .version_max = 3012000, \
             .source = MJ_SOURCE_3, .integrators = mj_integrators_3,                                               \
             .n_integrators = IMPACTFIT__COUNT(mj_integrators_3)

static const impactfit_code_model models[] = {
    IMPACTFIT__ENTRY(MJ_222, .model = "soft contact", .option = "", MJ_STD,
                     .traps = MJ_TRAPS_COMMON "; the contact exists while dist < margin - gap (none at dist = 0 with "
                                              "margin 0)"),
    IMPACTFIT__ENTRY(MJ_222, .model = "soft contact direct", .option = "", MJ_DIRECT,
                     .traps = "Refsafe does not apply to the direct form; stiffness and damping are per unit effective "
                              "mass; "
                              "two geoms' direct solref mix to the smaller (stiffer, more damped) of each; the default "
                              "solimp "
                              "makes e depend on the speed"),
    IMPACTFIT__ENTRY(MJ_23, .model = "soft contact", .option = "", MJ_STD, .traps = MJ_TRAPS_COMMON),
    IMPACTFIT__ENTRY(MJ_23, .model = "soft contact direct", .option = "", MJ_DIRECT,
                     .traps = "Refsafe does not apply to the direct form; two geoms' direct solref mix to the smaller "
                              "of each"),
    IMPACTFIT__ENTRY(MJ_3, .model = "soft contact", .option = "", MJ_STD,
                     .traps = MJ_TRAPS_COMMON "; implicitfast (new in 3.0) is Euler here too; 3.7.0-3.10.0 "
                                              "implicit/implicitfast move a free body's "
                                              "rotation (and its translation when its centre of mass is off the body "
                                              "origin) with the midpoint velocity; "
                                              "two geoms' margins and gaps add up since 3.5.0 (the larger before); "
                                              "since 3.9.0 contacts are detected within "
                                              "margin + gap but act only within margin (before: within margin - gap); "
                                              "geom adhesion (3.11.0) adds R "
                                              "adhesion to aref and is not modelled (keep it 0); the diagexact flag "
                                              "leaves a sphere's A unchanged"),
    IMPACTFIT__ENTRY(MJ_3, .model = "soft contact direct", .option = "", MJ_DIRECT,
                     .traps = "Refsafe does not apply to the direct form; two geoms' direct solref mix to the smaller "
                              "of each; "
                              "margins and gaps add up since 3.5.0; adhesion (3.11.0) is not modelled (keep it 0)"),
};

const impactfit_code impactfit__code_mujoco = {
    .name = "mujoco",
    .display = "MuJoCo",
    .kind = "engine",
    .default_version = "2.2.2",
    .version_example = "2.2.2 or 3.1.0",
    .version_key = impactfit_code_version_dotted,
    .model_prefix = NULL,
    .run_versions = "2.2.2 (Debian 12)",
    .models = models,
    .n_models = sizeof models / sizeof models[0],
};
