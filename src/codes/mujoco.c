/* SPDX-License-Identifier: GPL-3.0-or-later */
/* MuJoCo's soft contact in the code registry (include/impactfit/codes.h; docs/engines/MUJOCO.md).
 *
 * Read in MuJoCo 2.2.2 (Debian 12's libmujoco-dev; double precision, mjtNum = double) and proven
 * against it by tests/engines/mujoco_impact.c; read in 3.3.8 (npm mujoco-js 0.0.7, the official WebAssembly
 * build of the 3.3.8 development version) and proven against it by tests/engines/mujoco3_impact.c; the same
 * law read in 2.3.0-2.3.7 and at every tag 3.0.0-3.12.0 (formula only), in the version ranges below where
 * what a user types around it changed (margin and gap, adhesion). For one frictionless contact (condim 1)
 * of a free sphere on a plane or of two free spheres, with no other force:
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

#define MJ_CONE_INPUTS                                                                                            \
  {.name = "condim",                                                                                              \
   .unit = "1, 3, 4 or 6",                                                                                        \
   .help = "the contact's condim (the larger of the two geoms'; MuJoCo's default 3)",                             \
   .count = 1,                                                                                                    \
   .def = {3.0}},                                                                                                 \
      {.name = "cone",                                                                                            \
       .unit = "0 or 1",                                                                                          \
       .help = "0: pyramidal (MuJoCo's default), 1: <option cone=\"elliptic\"/>",                                 \
       .count = 1,                                                                                                \
       .def = {0.0}},                                                                                             \
      {.name = "friction",                                                                                        \
       .unit = "-",                                                                                               \
       .help = "the contact's 5 friction values (a <pair>'s; two geoms give slide, slide, torsion, roll, roll, "  \
               "each the larger of the two)",                                                                     \
       .count = 5,                                                                                                \
       .def = {[0] = 1.0, [1] = 1.0, [2] = 0.005, [3] = 0.0001, [4] = 0.0001}},                                   \
  {                                                                                                               \
    .name = "impratio", .unit = "-", .help = "<option impratio>: friction-to-normal impedance ratio (default 1)", \
    .count = 1, .def = {                                                                                          \
      1.0                                                                                                         \
    }                                                                                                             \
  }

static const impactfit_code_input std_inputs[] = {
    {.name = "solref",
     .unit = "s, -",
     .help = "timeconst and dampratio (standard form, both > 0)",
     .count = 2,
     .def = {0.02, 1.0}},
    {.name = "solimp",
     .unit = "-, -, m, -, -",
     .help = "d0, dwidth, width, midpoint, power of the impedance (any finite values: clamped as MuJoCo's "
             "getsolparam does, engine_core_constraint.c:1023-1028)",
     .count = 5,
     .def = {0.9, 0.95, 0.001, 0.5, 2.0}},
    {.name = "refsafe",
     .unit = "0 or 1",
     .help = "1: MuJoCo raises timeconst to 2 timestep (the default); 0: <flag refsafe=\"disable\"/>",
     .count = 1,
     .def = {1.0}},
    MJ_CONE_INPUTS,
};

static const impactfit_code_input direct_inputs[] = {
    {.name = "solref",
     .unit = "N/m/kg, N s/m/kg",
     .help = "-stiffness and -damping (direct form, both < 0), per unit mass",
     .count = 2,
     .def = {NAN, NAN}},
    {.name = "solimp",
     .unit = "-, -, m, -, -",
     .help = "d0, dwidth, width, midpoint, power of the impedance (any finite values: clamped as MuJoCo's "
             "getsolparam does, engine_core_constraint.c:1023-1028)",
     .count = 5,
     .def = {0.9, 0.95, 0.001, 0.5, 2.0}},
    MJ_CONE_INPUTS,
};

/* The contact's regulariser over condim 1's, R/((1 − d)/d A), read in engine_core_constraint.c of 2.2.2 and
 * of 3.3.8 (commit 6e59f61, the last with mjVERSION_HEADER 338, the version mujoco-js 0.0.7 reports):
 * mj_diagApprox gives both edges of pyramid pair j diagApprox (1 + μ_j²) A (2.2.2 :957-966, 3.3.8
 * :1230-1239); mj_makeImpedance sets R = (1 − d)/d diagApprox (:1146 / :1439), then R[1] = R[0]/impratio and
 * mu = μ_0 sqrt(R[1]/R[0]) (:1195-1198 / :1492-1495) and R_py = 2 mu² R[0] on all 2 (condim − 1) edges
 * (:1215-1220 / :1512-1517). Head-on with no tangential motion the two edges of a pair carry equal forces
 * (J_t a = 0 by the mirror symmetry of the quadratic program), so the normal force is
 * (aref − a0)/(A + R_py/(2 (condim − 1))): rscale = μ_0² (1 + μ_0²)/(impratio (condim − 1)). Only the first
 * friction value enters, clamped to mjMINMU = 1e-5 (2.2.2 engine_collision_driver.c:720-723, 3.3.8
 * engine_core_constraint.c:98-108), impratio at least mjMINVAL. The elliptic cone's tangential rows have
 * jar = 0 (T = 0, N < 0: the bottom zone, 2.2.2 :1580-1588, 3.3.8 :2444-2452), so the normal row keeps its own
 * R: rscale 1, as for condim 1. */
static double rscale_of(const impactfit_code_ctx *c) {
  const double *cd = impactfit_code_value(c, "condim"), *cone = impactfit_code_value(c, "cone");
  const double *fr = impactfit_code_value(c, "friction"), *ir = impactfit_code_value(c, "impratio");
  if (!cd || cd[0] == 1.0 || cone[0] != 0.0)
    return 1.0;
  double mu0 = fmax(1e-5, fr[0]);
  double mu2 = mu0 * mu0 / fmax(1e-15, ir[0]);
  return mu2 * (1.0 + mu0 * mu0) / (cd[0] - 1.0);
}

/* condim, cone and impratio as MuJoCo accepts them */
static int check_cone(const impactfit_code_ctx *c, impactfit_error *err) {
  const double *cd = impactfit_code_value(c, "condim"), *cone = impactfit_code_value(c, "cone");
  const double *fr = impactfit_code_value(c, "friction"), *ir = impactfit_code_value(c, "impratio");
  if (!cd)
    return 0;
  if (!(cd[0] == 1.0 || cd[0] == 3.0 || cd[0] == 4.0 || cd[0] == 6.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "mujoco: condim must be 1, 3, 4 or 6 (got %.17g)", cd[0]);
  if (!(cone[0] == 0.0 || cone[0] == 1.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "mujoco: cone must be 0 (pyramidal) or 1 (elliptic) (got %.17g)",
                           cone[0]);
  for (int i = 0; i < 5; i++)
    if (!(fr[i] >= 0.0 && isfinite(fr[i])))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "mujoco: friction values must be >= 0 (value %d is %.17g)", i + 1,
                             fr[i]);
  if (!(ir[0] > 0.0 && isfinite(ir[0])))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "mujoco: impratio must be > 0 (got %.17g)", ir[0]);
  if (!isfinite(c->req->gravity))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "mujoco: gravity must be finite (got %.17g)", c->req->gravity);
  return 0;
}

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
  law->p[8] = rscale_of(c);
  law->p[9] = c->req->gravity;
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
  st->gravity = c->req->gravity;
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
  int s = check_cone(c, err);
  if (s)
    return s;
  impactfit_law law;
  law_of(c, 0, sr[0], dampratio, &law);
  return stepper_of(c, &law, st);
}

static int direct_build(const impactfit_code_ctx *c, double damping, impactfit_stepper *st, impactfit_error *err) {
  const double *sr = impactfit_code_value(c, "solref");
  if (!(sr[0] < 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "mujoco: solref[0] must be -stiffness < 0 in the direct form (got %.17g)", sr[0]);
  int s = check_cone(c, err);
  if (s)
    return s;
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

/* <default><geom condim friction solref solimp/></default> (or a <pair> for 5 friction values a geom cannot
 * give), <option cone impratio> with the refsafe flag when it is off, and the Python equivalent: every geom
 * gets the values, so both sides of the contact agree and solmix does not matter; the contact settings the
 * answer was computed for are always written (the pyramidal cone's normal force depends on them) */
static void paste(const impactfit_code_ctx *c, double r0, double r1, impactfit_text *out) {
  const double *imp = impactfit_code_value(c, "solimp"), *rs = impactfit_code_value(c, "refsafe");
  const double *cd = impactfit_code_value(c, "condim"), *cone = impactfit_code_value(c, "cone");
  const double *fr = impactfit_code_value(c, "friction"), *ir = impactfit_code_value(c, "impratio");
  int off = rs && rs[0] == 0.0, pair = fr[0] != fr[1] || fr[3] != fr[4];
  const char *cone_name = cone[0] != 0.0 ? "elliptic" : "pyramidal";
  if (pair)
    impactfit_text_appendf(out,
                           "<contact><pair geom1=\"sphere\" geom2=\"ground\" condim=\"%.0f\" friction=\"%.12g %.12g "
                           "%.12g "
                           "%.12g %.12g\" solref=\"%.12g %.12g\" solimp=\"%.12g %.12g %.12g %.12g %.12g\"/></contact>",
                           cd[0], fr[0], fr[1], fr[2], fr[3], fr[4], r0, r1, imp[0], imp[1], imp[2], imp[3], imp[4]);
  else
    impactfit_text_appendf(out,
                           "<default><geom condim=\"%.0f\" friction=\"%.12g %.12g %.12g\" solref=\"%.12g %.12g\" "
                           "solimp=\"%.12g %.12g %.12g %.12g %.12g\"/></default>",
                           cd[0], fr[0], fr[2], fr[3], r0, r1, imp[0], imp[1], imp[2], imp[3], imp[4]);
  impactfit_text_appendf(out, " <option cone=\"%s\" impratio=\"%.12g\"%s", cone_name, ir[0],
                         off ? "><flag refsafe=\"disable\"/></option>" : "/>");
  if (pair)
    impactfit_text_appendf(out,
                           "   (Python: the <pair> above in the MJCF; model.pair_solref[:] = [%.12g, %.12g]; "
                           "model.pair_solimp[:] = [%.12g, %.12g, %.12g, %.12g, %.12g]",
                           r0, r1, imp[0], imp[1], imp[2], imp[3], imp[4]);
  else
    impactfit_text_appendf(out,
                           "   (Python: model.geom_condim[:] = %.0f; model.geom_friction[:] = [%.12g, %.12g, %.12g]; "
                           "model.geom_solref[:] = [%.12g, %.12g]; model.geom_solimp[:] = [%.12g, %.12g, %.12g, %.12g, "
                           "%.12g]",
                           cd[0], fr[0], fr[2], fr[3], r0, r1, imp[0], imp[1], imp[2], imp[3], imp[4]);
  impactfit_text_appendf(out, "; model.opt.cone = mujoco.mjtCone.mjCONE_%s; model.opt.impratio = %.12g%s)",
                         cone[0] != 0.0 ? "ELLIPTIC" : "PYRAMIDAL", ir[0],
                         off ? "; model.opt.disableflags |= mujoco.mjtDisableBit.mjDSBL_REFSAFE" : "");
}

/* the first sentence of every MuJoCo note: the contact settings the answer is for, the user's or the defaults */
static void cone_note(const impactfit_code_ctx *c, impactfit_text *out) {
  const double *cd = impactfit_code_value(c, "condim"), *cone = impactfit_code_value(c, "cone");
  const double *fr = impactfit_code_value(c, "friction"), *ir = impactfit_code_value(c, "impratio");
  int any = impactfit_code_given(c, "condim") || impactfit_code_given(c, "cone") ||
            impactfit_code_given(c, "friction") || impactfit_code_given(c, "impratio");
  impactfit_text_appendf(out,
                         "Computed for condim %.0f, the %s cone, friction %.12g (the contact's first value) and "
                         "impratio %.12g (%s). ",
                         cd[0], cone[0] != 0.0 ? "elliptic" : "pyramidal", fr[0], ir[0],
                         any ? "your settings, MuJoCo's defaults for the rest" : "MuJoCo's defaults");
  if (cd[0] != 1.0 && cone[0] == 0.0)
    impactfit_text_appendf(out,
                           "With the pyramidal cone the friction and impratio change the normal force (rscale %.9g "
                           "in the law above): keep the pasted condim, friction and impratio, or ask again for "
                           "yours. ",
                           rscale_of(c));
  else
    impactfit_text_appendf(out, "With %s the friction and impratio do not enter the normal force. ",
                           cd[0] == 1.0 ? "condim 1" : "the elliptic cone");
}

static void std_input(const impactfit_code_ctx *c, double dampratio, impactfit_text *out) {
  paste(c, impactfit_code_value(c, "solref")[0], dampratio, out);
}

static void direct_input(const impactfit_code_ctx *c, double damping, impactfit_text *out) {
  paste(c, impactfit_code_value(c, "solref")[0], -damping, out);
}

static void common_note(const impactfit_code_ctx *c, impactfit_text *out) {
  const double *imp = impactfit_code_value(c, "solimp");
  cone_note(c, out);
  if (imp[0] != imp[1] && imp[2] > 0.0)
    impactfit_text_appendf(out, "With solimp d0 != dwidth the law is not scale-free: e depends on the impact speed. ");
  if (imp[0] > 0.0001)
    impactfit_text_appendf(out, "The damping force jumps to M d0 B v at first contact, so a single impact's e depends "
                                "on "
                                "where the first contact step falls at first order in dt (its spread over the phase): "
                                "only the "
                                "mean over the phase is exact at any dt. ");
  impactfit_text_appendf(out, "Both geoms must carry these values: MuJoCo mixes two geoms' solref and solimp by solmix "
                              "(standard solref: weighted mean; direct: the smaller of each), so solref on the sphere "
                              "alone gives the mean with the plane's default 0.02 1. A <pair> or <option o_solref "
                              "o_solimp> with <flag override=\"enable\"/> takes the same values. margin and gap only "
                              "move where the contact starts. ");
  impactfit_text_appendf(out, "The answer does not depend on the mass or the radius given (the soft contact sets the "
                              "bodies' relative acceleration, M cancels; the same value to rounding for any mass, "
                              "radius or second body): they are asked for as every code's request asks them. ");
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

#define MJ_LAW_STD                                                                                                 \
  "f = M s(delta) (B delta' + K d(delta) delta + g) while positive, else 0, s = d/(d + rscale (1 - d)), rscale = " \
  "mu0^2 (1 + mu0^2)/(impratio (condim - 1)) for the pyramidal cone, 1 for condim 1 and the elliptic cone, g "     \
  "the gravity along the normal (MuJoCo's -a0); delta = (margin - gap) - dist; "                                   \
  "B = 2/(dwidth timeconst), K = 1/(dwidth^2 timeconst^2 dampratio^2), timeconst raised to 2 timestep unless "     \
  "refsafe is off; d(delta) the solimp impedance at delta/width (d0 at 0, dwidth from width on), clamped to "      \
  "[0.0001, 0.9999]; M = 1/(1/m1 + 1/m2) (solver force = M s (aref - a0), exact for a sphere)"
#define MJ_LAW_DIRECT                                                                                     \
  "f = M s(delta) (B delta' + K d(delta) delta + g) while positive, else 0 (s and g as for solref's "     \
  "standard form); delta = (margin - gap) - dist; "                                                       \
  "K = stiffness/dwidth^2, B = damping/dwidth with solref = (-stiffness, -damping); d(delta) the solimp " \
  "impedance; M = 1/(1/m1 + 1/m2)"
/* 3.9.0 on: the contact acts within the margin (the gap only widens detection) */
#define MJ_LAW_STD39                                                                                            \
  "f = M d(delta) (B delta' + K d(delta) delta) while positive, else 0; delta = margin - dist (3.9.0: the gap " \
  "only widens detection); B = 2/(dwidth timeconst), K = 1/(dwidth^2 timeconst^2 dampratio^2), timeconst "      \
  "raised to 2 timestep unless refsafe is off; d(delta) the solimp impedance at delta/width, clamped to "       \
  "[0.0001, 0.9999]; M = 1/(1/m1 + 1/m2)"
#define MJ_LAW_DIRECT39                                                                                          \
  "f = M d(delta) (B delta' + K d(delta) delta) while positive, else 0; delta = margin - dist; K = "             \
  "stiffness/dwidth^2, B = damping/dwidth with solref = (-stiffness, -damping); d(delta) the solimp impedance; " \
  "M = 1/(1/m1 + 1/m2)"
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
/* MuJoCo 3.x, read at every tag 3.0.0-3.12.0 and at the 3.3.8 development commit 59f14485e (2025-10-20; mujoco-js
 * 0.0.7's build: its strings hold the flex code of ffdfe542c, 2025-10-16, and none of 01d1ac34e's or 2f65e2377's,
 * 2025-10-21; the files below are 3.3.7's but for engine_core_constraint.c's flex vertex weights). The law's
 * functions (getsolparam, getimpedance, mj_makeImpedance, mj_referenceConstraint, the contact rows of
 * mj_constraintUpdate, mj_diagApprox, body_invweight0) and the step maps (mj_advance, mj_EulerSkip,
 * mj_RungeKutta, mj_implicitSkip) give the same law and maps at every tag for this contact: getimpedance's
 * power() (3.1.1) is x*x for p = 2; implicit's midpoint velocity (3.7.0) moves only the rotation of a free body
 * whose centre of mass is its origin. What changed is around it: 3.5.0 adds two geoms' margins and gaps (the
 * larger before), 3.9.0 acts within the margin and detects within margin + gap (before: acts within margin -
 * gap), 3.11.0 adds geom adhesion. */
#define MJ3_SOURCE(tag, gs, gi, mi, rs, rr, kk, bb, ar, ja, da, ex, mx, iw, ad, eu, rk, im)                      \
  "MuJoCo " tag " src/engine/engine_core_constraint.c:" gs " getsolparam (refsafe :" rs "), :" gi                \
  " getimpedance, :" mi " mj_makeImpedance (R :" rr ", K :" kk ", B :" bb "), :" ar " aref, :" ja                \
  " contact force 0 where jar >= 0, :" da " mj_diagApprox; engine_setconst.c:" iw " body_invweight0; "           \
  "engine_collision_driver.c:" ex " exclusion (dist >= includemargin), :" mx " solmix; engine_init.c:32-44 "     \
  "default solref/solimp; engine_forward.c:" ad " mj_advance, :" eu " mj_EulerSkip, :" rk " mj_RungeKutta, :" im \
  " mj_implicitSkip"
#define MJ_SOURCE_30                                                                                         \
  MJ3_SOURCE("3.3.7", "1195-1266", "1317-1365", "1369-1483", "1246", "1388", "1405", "1414", "2226", "2304", \
             "1018-1191", "1375", "1313", "155", "788-829", "832-881", "904-992", "996-1059")                \
  "; the same at every tag 3.0.0-3.3.7 (3.0.0: engine_core_constraint.c:1206-1277, :1326-1374, :1379-1493; " \
  "engine_forward.c:680-716, :719-769, :794-882, :887-949); formula only"
#define MJ_SOURCE_338                                                                                            \
  MJ3_SOURCE("3.3.8 (59f14485e)", "1193-1264", "1315-1363", "1367-1481", "1244", "1386", "1403", "1412", "2224", \
             "2302", "1016-1189", "1375", "1313", "155", "788-829", "832-881", "904-992", "996-1059")            \
  "; run here: npm mujoco-js 0.0.7 (tests/engines/mujoco3_impact.c)"
#define MJ_SOURCE_34                                                                                         \
  MJ3_SOURCE("3.4.0", "1246-1317", "1368-1416", "1420-1534", "1297", "1439", "1456", "1465", "2327", "2405", \
             "1063-1242", "1420", "1358", "379", "849-906", "909-979", "1002-1090", "1094-1171")             \
  "; formula only"
#define MJ_SOURCE_35                                                                                               \
  MJ3_SOURCE("3.8.1", "1892-1963", "2014-2062", "2066-2180", "1943", "2085", "2102", "2111", "2970", "3053",       \
             "1634-1888", "1627", "1565", "919", "1072-1179", "1182-1260", "1283-1371", "1954-2110")               \
  "; engine_collision_driver.c:1717 margin = the two geoms' sum, :1541 gap = the sum (3.4.0: the larger, :1516); " \
  "the same at every tag 3.5.0-3.8.1; formula only"
#define MJ_SOURCE_39                                                                                             \
  MJ3_SOURCE("3.10.0", "1978-2049", "2100-2148", "2152-2266", "2029", "2171", "2188", "2197", "3140", "3223",    \
             "1720-1974", "1799", "1737", "795", "981-1088", "1091-1169", "1192-1280", "1766-1908")              \
  "; engine_collision_driver.c:161 getMargin (sums), the contact acts within the margin and is detected within " \
  "margin + gap (the margin and gap redesign a4e49f2df, 3.9.0); the same at 3.9.0; formula only"
#define MJ_SOURCE_311                                                                                           \
  MJ3_SOURCE("3.12.0", "1977-2048", "2099-2147", "2151-2265", "2028", "2170", "2187", "2196", "3257", "3343",   \
             "1719-1973", "1855", "1790", "933", "1261-1395", "1398-1476", "1499-1587", "1649-1771")            \
  "; engine_collision_driver.c:1855-1863 adhesive contacts act in the gap, engine_core_constraint.c:3245-3268 " \
  "adhesion in aref (mj_adhesionRef); the same at 3.11.0; formula only"
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

/* the standard form's free parameter is dampratio = solref[1]; law_text: the law as the version computes it */
#define MJ_STD_LAW(law_text_)                                                                                \
  .param = "dampratio", .param_unit = "-", .param_input = "solref", .param_index = 1, .law_text = law_text_, \
  .inputs = std_inputs, .n_inputs = IMPACTFIT__COUNT(std_inputs), .ops = &std_ops
#define MJ_STD MJ_STD_LAW(MJ_LAW_STD)
/* the direct form's free parameter is damping = -solref[1] */
#define MJ_DIRECT_LAW(law_text_)                                                                                \
  .param = "damping", .param_unit = "N s/m/kg", .param_input = "solref", .param_index = 1, .param_scale = -1.0, \
  .law_text = law_text_, .inputs = direct_inputs, .n_inputs = IMPACTFIT__COUNT(direct_inputs), .ops = &direct_ops
#define MJ_DIRECT MJ_DIRECT_LAW(MJ_LAW_DIRECT)
#define MJ_COMMON                                                                                                    \
  .code = &impactfit__code_mujoco, .law = &impactfit__law_impedance_type, .clamp_default = 1, .end = MJ_END,         \
  .bodies = MJ_BODIES, .dt_default = 0.002, .solver = IMPACTFIT_CODE_SOLVE_MEAN,                                     \
  .mixing = "solmix: the weighted mean of two geoms' standard solref and solimp, the smaller of each direct "        \
            "solref; a higher priority takes its own (engine_collision_driver.c)",                                   \
  .assumes = "a head-on impact with no tangential motion (friction acts only through the pyramidal cone's "          \
             "regulariser: condim, friction, impratio), gravity along the normal as the request gives it (0: none)", \
  .precision = "float64 (mjtNum)"
#define MJ_222                                                                                                     \
  MJ_COMMON, .versions = "2.2.2", .first_version = "2.2.2", .version_min = 2002002, .version_max = 2002002,        \
             .run_min = 2002002, .run_max = 2002002, .run_versions = "2.2.2 (Debian 12)", .source = MJ_SOURCE_222, \
             .integrators = mj_integrators_2, .n_integrators = IMPACTFIT__COUNT(mj_integrators_2)
#define MJ_23                                                                                                     \
  MJ_COMMON, .versions = "2.3.0-2.3.7", .first_version = "2.3.0", .version_min = 2003000, .version_max = 2003007, \
             .source = MJ_SOURCE_23, .integrators = mj_integrators_2,                                             \
             .n_integrators = IMPACTFIT__COUNT(mj_integrators_2)
/* one 3.x version range (its two models: MJ3_ENTRIES), run here (run_ = 1: its own range) or formula only */
#define MJ_3(vtext, first, vmin, vmax, src, run_)                                                 \
  MJ_COMMON, .versions = vtext, .first_version = first, .version_min = vmin, .version_max = vmax, \
             .run_min = (run_) ? (vmin) : 0, .run_max = (run_) ? (vmax) : 0,                      \
             .run_versions = (run_) ? vtext " (npm mujoco-js 0.0.7)" : NULL, .source = src,       \
             .integrators = mj_integrators_3, .n_integrators = IMPACTFIT__COUNT(mj_integrators_3)
#define MJ3_TRAPS                                                                                                   \
  MJ_TRAPS_COMMON "; implicitfast (new in 3.0) is Euler here too; implicit's midpoint velocity (3.7.0) moves only " \
                  "a free body's rotation (and its translation when its centre of mass is off the body origin)"
#define MJ3_DIRECT_TRAPS                                                                                      \
  "Refsafe does not apply to the direct form; stiffness and damping are per unit effective mass; two geoms' " \
  "direct solref mix to the smaller of each; the default solimp makes e depend on the speed"
#define MJ_TRAPS_GAP_MAX \
  "; margin and gap: the larger of the two geoms' each, the contact acts while dist < margin - gap"
#define MJ_TRAPS_GAP_SUM \
  "; margin and gap: the sum of the two geoms' each (3.5.0), the contact acts while dist < margin - gap"
#define MJ_TRAPS_GAP_39                                                                                            \
  "; margin and gap: sums; the contact acts while dist < margin and is only detected within margin + gap (3.9.0: " \
  "a model written for 3.8 with a gap now acts earlier)"
#define MJ_TRAPS_ADHESION \
  "; geom adhesion (3.11.0) adds R adhesion to aref and keeps contacts in the gap: not modelled (keep it 0)"
/* the two models of one 3.x version range */
#define MJ3_ENTRIES(vtext, first, vmin, vmax, src, extra, run_, lawstd, lawdirect)                              \
  IMPACTFIT__ENTRY(MJ_3(vtext, first, vmin, vmax, src, run_), .model = "soft contact", .option = "",            \
                   MJ_STD_LAW(lawstd), .traps = MJ3_TRAPS extra),                                               \
      IMPACTFIT__ENTRY(MJ_3(vtext, first, vmin, vmax, src, run_), .model = "soft contact direct", .option = "", \
                       MJ_DIRECT_LAW(lawdirect), .traps = MJ3_DIRECT_TRAPS extra)

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
    MJ3_ENTRIES("3.0.0-3.3.7", "3.0.0", 3000000, 3003007, MJ_SOURCE_30, MJ_TRAPS_GAP_MAX, 0, MJ_LAW_STD, MJ_LAW_DIRECT),
    MJ3_ENTRIES("3.3.8", "3.3.8", 3003008, 3003008, MJ_SOURCE_338, MJ_TRAPS_GAP_MAX, 1, MJ_LAW_STD, MJ_LAW_DIRECT),
    MJ3_ENTRIES("3.4.0", "3.4.0", 3004000, 3004000, MJ_SOURCE_34, MJ_TRAPS_GAP_MAX, 0, MJ_LAW_STD, MJ_LAW_DIRECT),
    MJ3_ENTRIES("3.5.0-3.8.1", "3.5.0", 3005000, 3008001, MJ_SOURCE_35, MJ_TRAPS_GAP_SUM, 0, MJ_LAW_STD, MJ_LAW_DIRECT),
    MJ3_ENTRIES("3.9.0-3.10.0", "3.9.0", 3009000, 3010000, MJ_SOURCE_39, MJ_TRAPS_GAP_39, 0, MJ_LAW_STD39,
                MJ_LAW_DIRECT39),
    MJ3_ENTRIES("3.11.0-3.12.0", "3.11.0", 3011000, 3012000, MJ_SOURCE_311, MJ_TRAPS_GAP_39 MJ_TRAPS_ADHESION, 0,
                MJ_LAW_STD39, MJ_LAW_DIRECT39),
};

const impactfit_code impactfit__code_mujoco = {
    .name = "mujoco",
    .display = "MuJoCo",
    .kind = "engine",
    .default_version = "2.2.2",
    .version_example = "2.2.2 or 3.1.0",
    .version_key = impactfit_code_version_dotted,
    .model_prefix = NULL,
    .run_versions = "2.2.2 (Debian 12), 3.3.8 (npm mujoco-js 0.0.7)",
    .models = models,
    .n_models = sizeof models / sizeof models[0],
};
