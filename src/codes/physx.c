/* SPDX-License-Identifier: GPL-3.0-or-later */
/* PhysX 4.1.1 (npm @cocos/physx 1.0.7, the WebAssembly build of Cocos' fork; float32): its time step of one
 * frictionless contact as a stepper (src/codes/npm_engines_impl.h), and its registry entry
 * (docs/engines/PHYSX.md).
 *
 * Which PhysX: the package's PX_PHYSICS_VERSION is 0x04010100 (4.1.1); its build script takes PhysX from
 * JayceLai/PhysX#cocos-dev, which is NVIDIAGameWorks/PhysX's commit ae80dede ("Update PhysX_4.1.1.27006925",
 * 2019-08-13) plus an Emscripten build target and its JavaScript bindings
 * (physx/source/physxwebbindings/src/PxWebBindings.cpp); `git diff ae80dede origin/cocos-dev` outside the
 * bindings touches only build files, PsHash.h and GuGJKType.h: the solver is 4.1.1's. Read at ae80dede:
 *   physx/source/lowleveldynamics/src/DyContactPrepShared.h:233-304  constructContactConstraint, per point:
 *     vrel = n·(v0 − v1) (< 0 approaching), penetration = separation − restDistance,
 *     bias = max(maxPenBias, 0.8 penetration/dt), bounce when restitution > 0, vrel < bounceThreshold
 *     (= −bounceThresholdVelocity) and −vrel > penetration/dt (the contact closes within this step); a
 *     bouncing point has no bias (ccdMaxSeparation is PX_MAX_F32 without CCD, DyDynamics.cpp:2779); target
 *     = −e vrel when bouncing, the solver's velocities are changes from vrel:
 *     biasedErr = m (target − vrel) − m bias, unbiasedErr = m (target − vrel) − (bounce ? 0 : m max(bias, 0))
 *   physx/source/lowleveldynamics/src/DyContactPrep.cpp:130 maxPenBias, 164-167 invDt·0.8, 182-195 the
 *     patch's combined restitution, 198-232 the points
 *   physx/source/lowleveldynamics/src/DySolverConstraintsShared.h:51-104  solveDynamicContacts (static:
 *     106-): ΔF = max(biasedErr − m Δv, −F), F = min(F + ΔF, maxImpulse), from F = 0 (the force buffer is
 *     zeroed at the prep, DyContactPrep.cpp:238-240: no warm start of the normal impulse)
 *   physx/source/lowleveldynamics/src/DySolverConstraints.cpp:429-459  concludeContact: biasedErr =
 *     unbiasedErr after the last position iteration (652-664, 707-719)
 *   physx/source/lowleveldynamics/src/DySolverControl.cpp:259-281  the position iterations, the motion
 *     velocity saved after them; 283-322 the velocity iterations
 *   physx/source/lowleveldynamics/src/DyBodyCoreIntegrator.h:133-143  the position integrated with the motion
 *     velocity (after the position iterations), the velocity kept from after the velocity iterations
 *   physx/source/lowlevel/api/include/PxvDynamics.h:143-174  defaults: 4 position and 1 velocity iterations,
 *     maxPenBias −1e32 (maxDepenetrationVelocity), sleepThreshold 5e-5 speed²
 *   physx/source/simulationcontroller/src/ScBodyCore.cpp:52-64  linear damping 0 for a dynamic body
 *   physx/source/simulationcontroller/src/ScShapeCore.cpp:95  contactOffset 0.02 × the tolerance length
 *   physx/source/simulationcontroller/src/ScScene.cpp:885  the solver's bounce threshold −bounceThresholdVelocity
 *   physx/include/PxSceneDesc.h:972  bounceThresholdVelocity 0.2 × PxTolerancesScale::speed (10 m/s): 2 m/s
 *   physx/source/lowlevel/common/src/pipeline/PxcNpBatch.cpp:312-315  contact distance = the shapes'
 *     contactOffsets summed (0.04 m)
 *   physx/source/geomutils/src/pcm/GuPCMContactSpherePlane.cpp:59-81  a point when contactDist >= separation;
 *     GuPCMContactSphereSphere.cpp:60-79 when (r1 + r2 + contactDist)² > d²
 *   physx/source/lowlevel/software/src/PxsMaterialCombiner.cpp:45-49 and include/PxsMaterialCombiner.h:118-135
 *     restitution = combineScalars(r0, r1, max of the two combine modes): eAVERAGE (0, the default) 0.5(a + b),
 *     eMIN, eMULTIPLY, eMAX
 * The port exposes no bounceThresholdVelocity, contactOffset, solver iteration count or maxDepenetrationVelocity
 * (PxWebBindings.cpp: PxSceneDesc has only `gravity`, PxShape no setContactOffset, PxTolerancesScale only
 * `speed`): the bounce threshold moves only with PxTolerancesScale.speed (0.2 × speed), given to
 * PxCreatePhysics and getDefaultSceneDesc.
 * For one point through the centres (effective mass M, gap p, approach speed u): with b = bounce, s = b ? 0 :
 * max(−1e32, 0.8 p/dt), t = (b ? e u : 0) + u, the position iterations give F = max(0, M (t − s)) (one iteration
 * converges), the motion velocity −u + F/M moves the body (p ← p + dt (F/M − u)), and the velocity iteration
 * gives F' = max(0, M (t − (b ? 0 : max(s, 0)))): the new approach speed is u − F'/M. Hence e = the combined
 * restitution when the approach speed at the step where the contact closes exceeds 2 m/s, and 0 (the
 * speculative contact stops the body asymptotically, 0.8 of the gap per step) below; a step inside the
 * contact distance that does not close the gap but 0.8 of it slows the body first (e = r u'/v, u' < v). */
#include <math.h>
#include <string.h>

#include "../common/common_impl.h"
#include "codes_impl.h"
#include "../law/stepper_impl.h"
#include "npm_engines_impl.h"
#include "friction_impl.h"

static const char *const physx_names[IMPACTFIT__PHYSX_NPARAMS] = {
    "restitution", "bounceThresholdVelocity", "contact_distance", "rest_distance", "maxDepenetrationVelocity", "plane"};
static const char *const physx_units[IMPACTFIT__PHYSX_NPARAMS] = {"-", "m/s", "m", "m", "m/s", "0/1"};

/* branch bits: a point, it bounces, the bias term stops the approach, the push out */
enum { B_POINT = 1, B_BOUNCE = 2, B_SLOW = 4, B_PUSH = 8 };

static int physx_check(const impactfit_stepper *st, impactfit_error *err) {
  const double *p = st->p;
  if (!(p[IMPACTFIT__PHYSX_RESTITUTION] >= 0.0 && isfinite(p[IMPACTFIT__PHYSX_RESTITUTION])))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper physx-pgs: the restitution must be >= 0 (got %.17g)",
                           p[IMPACTFIT__PHYSX_RESTITUTION]);
  if (!(p[IMPACTFIT__PHYSX_THRESHOLD] >= 0.0 && isfinite(p[IMPACTFIT__PHYSX_THRESHOLD])))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "stepper physx-pgs: bounceThresholdVelocity must be >= 0 (m/s) (got %.17g)",
                           p[IMPACTFIT__PHYSX_THRESHOLD]);
  if (!(p[IMPACTFIT__PHYSX_CONTACT] >= p[IMPACTFIT__PHYSX_REST] && isfinite(p[IMPACTFIT__PHYSX_CONTACT])))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "stepper physx-pgs: the contact distance must be finite and >= the rest distance (m) (got "
                           "%.17g, %.17g)",
                           p[IMPACTFIT__PHYSX_CONTACT], p[IMPACTFIT__PHYSX_REST]);
  if (!(p[IMPACTFIT__PHYSX_MAXDEPEN] > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "stepper physx-pgs: maxDepenetrationVelocity must be > 0 (m/s) (got %.17g)",
                           p[IMPACTFIT__PHYSX_MAXDEPEN]);
  return 0;
}

static int physx_step(const impactfit_stepper *st, impactfit_step_state *s) {
  const double *p = st->p;
  double dt = st->dt, invDt = 1.0 / dt, M = st->mass, u = s->u, gap = -s->x;
  double cd = p[IMPACTFIT__PHYSX_CONTACT];
  /* sphere-plane: a point when the separation is at most the contact distance; two spheres: below it */
  int point = p[IMPACTFIT__PHYSX_PLANE] != 0.0 ? gap <= cd : gap < cd;
  s->branch = 0;
  s->contact = point;
  if (!point) {
    s->x = s->x + dt * u;
    s->f = 0.0;
    return 0;
  }
  s->branch |= B_POINT;
  double r = p[IMPACTFIT__PHYSX_RESTITUTION], vrel = -u, pen = gap - p[IMPACTFIT__PHYSX_REST];
  int bounce = r > 0.0 && vrel < -p[IMPACTFIT__PHYSX_THRESHOLD] && -vrel > pen * invDt;
  double bias = pen * (invDt * 0.8);
  if (bias < -p[IMPACTFIT__PHYSX_MAXDEPEN])
    bias = -p[IMPACTFIT__PHYSX_MAXDEPEN];
  double scaled = bounce ? 0.0 : bias;
  double target = (bounce ? -vrel * r : 0.0) - vrel;
  /* the position iterations (the first converges), the motion velocity */
  double F = M * (target - scaled);
  if (F < 0.0)
    F = 0.0;
  double vpos = vrel + F / M;
  /* concluded: the velocity iteration with the unbiased error */
  double F2 = M * (target - (bounce ? 0.0 : (bias > 0.0 ? bias : 0.0)));
  if (F2 < 0.0)
    F2 = 0.0;
  double vfin = vrel + F2 / M;
  if (bounce)
    s->branch |= B_BOUNCE;
  else if (F2 > 0.0 && pen > 0.0)
    s->branch |= B_SLOW;
  if (F > F2)
    s->branch |= B_PUSH;
  s->x = s->x - dt * vpos;
  s->u = -vfin;
  /* below the bounce threshold the speculative bias lets the body close 0.8 of the gap per step, forever: the
   * model ends that approach at rest once the gap is below 1e-12 m (the float32 engine stops at its own
   * rounding, near 1e-9 m; e = 0 either way). Not in PhysX's source: a modelling choice. */
  if (!bounce && s->x < 0.0 && -s->x < 1e-12 && s->u > 0.0 && s->u * dt < 1e-12) {
    s->x = 0.0;
    s->u = 0.0;
  }
  /* the force the velocity kept (a push that only moved the body leaves the velocity, and the end of the
   * impact, as without it) */
  s->f = F2 * invDt;
  return 0;
}

/* The step's affine map (stepper.h: impactfit_step_affine) on the approach through the contact distance: a
 * point exists (the gap at most the contact distance), approaching (u > 0), and the bias 0.8 pen/dt is at least
 * the approach speed (pen = gap − rest distance ≥ 1.25 u dt): both iterations' impulses are max(0, M (u − 0.8
 * pen/dt)) = 0 and there is no bounce (it needs u > pen/dt), so x' = x + dt u and u' = u with no force; the gap
 * stays above the at-rest rule's 1e-12 m. The margins (1e-9 relative) keep the region inside the branch. */
static int physx_affine(const impactfit_stepper *st, const impactfit_step_state *s, impactfit_step_affine *a) {
  const double *p = st->p;
  double dt = st->dt, x = s->x, u = s->u, cd = p[IMPACTFIT__PHYSX_CONTACT], rest = p[IMPACTFIT__PHYSX_REST];
  if (st->gravity != 0.0 || !(u > 0.0) || !(x < 0.0) || !(cd > 0.0))
    return 0;
  memset(a, 0, sizeof *a);
  a->G[0][0] = 1.0, a->G[0][2] = cd * (1.0 - 1e-9);                                                  /* a point */
  a->G[1][0] = -1.0, a->G[1][1] = -1.25 * dt * (1.0 + 1e-9), a->G[1][2] = -rest - 1e-9 * fabs(rest); /* F = 0 */
  a->G[2][0] = -1.0, a->G[2][2] = -2e-12; /* not the at-rest end */
  a->n_forms = 3;
  for (int i = 0; i < 3; i++)
    if (!(a->G[i][0] * x + a->G[i][1] * u + a->G[i][2] > 0.0))
      return 0;
  a->B[0][1] = dt;
  return 1;
}

static double physx_reach(const impactfit_stepper *st, double v) {
  (void)v;
  return st->p[IMPACTFIT__PHYSX_CONTACT];
}

const impactfit_stepper_type impactfit__stepper_physx = {
    .name = "physx-pgs",
    .summary = "PhysX 4.1.1 PGS on one contact point: speculative within the contact distance (0.04 m), bias 0.8 "
               "penetration/dt, restitution only above bounceThresholdVelocity (2 m/s) when the contact closes "
               "within the step; the position moved with the velocity after the position iterations, the velocity "
               "kept from the velocity iteration",
    .n_params = IMPACTFIT__PHYSX_NPARAMS,
    .param_names = physx_names,
    .param_units = physx_units,
    .needs_law = 0,
    .check = physx_check,
    .step = physx_step,
    .reach = physx_reach,
    .amplification = NULL,
    .continuous = NULL,
    .affine = physx_affine,
};

void impactfit__physx_stepper(impactfit_stepper *st, double M, double dt, int plane, double restitution) {
  memset(st, 0, sizeof *st);
  st->type = &impactfit__stepper_physx;
  st->end = impactfit_transition_C;
  st->mass = M;
  st->dt = dt;
  st->p[IMPACTFIT__PHYSX_RESTITUTION] = restitution;
  st->p[IMPACTFIT__PHYSX_THRESHOLD] = 2.0;
  st->p[IMPACTFIT__PHYSX_CONTACT] = 0.04;
  st->p[IMPACTFIT__PHYSX_REST] = 0.0;
  st->p[IMPACTFIT__PHYSX_MAXDEPEN] = 1e32;
  st->p[IMPACTFIT__PHYSX_PLANE] = plane ? 1.0 : 0.0;
}

/* ---------------------------------------------------------------- the registry entry (include/impactfit/codes.h) */

static const impactfit_code_input px_inputs[] = {
    {.name = "restitution",
     .unit = "-",
     .help = "the point's restitution: the two PxMaterials' restitutions combined by the larger of their combine "
             "modes (eAVERAGE by default); PxMaterial takes [0, 1]",
     .count = 1,
     .def = {NAN}},
    {.name = "speed",
     .unit = "m/s",
     .help = "PxTolerancesScale.speed given to PxCreatePhysics and getDefaultSceneDesc: bounceThresholdVelocity = 0.2 "
             "speed (the only way to move the bounce threshold in @cocos/physx)",
     .count = 1,
     .def = {10.0}},
    {.name = "contactOffset",
     .unit = "m",
     .help = "each shape's contactOffset (0.02 x PxTolerancesScale.length; not exposed by @cocos/physx): the contact "
             "distance is their sum",
     .count = 1,
     .def = {0.02}},
    {.name = "maxDepenetrationVelocity",
     .unit = "m/s",
     .help = "PxRigidBody maxDepenetrationVelocity (not exposed by @cocos/physx)",
     .count = 1,
     .def = {1e32}},
    IMPACTFIT__IN_FRICTION("staticFriction",
                           "createMaterial's staticFriction of the sphere's material (PhysX has no default)", 0.6),
    IMPACTFIT__IN_FRICTION("dynamicFriction",
                           "createMaterial's dynamicFriction of the sphere's material (PhysX has no default)", 0.6),
};

static int px_build(const impactfit_code_ctx *c, double r, impactfit_stepper *st, impactfit_error *err) {
  impactfit__physx_stepper(st, c->M, (double)(float)c->dt, c->wall, r); /* the engine's float32 step */
  st->p[IMPACTFIT__PHYSX_THRESHOLD] = 0.2 * impactfit_code_value(c, "speed")[0];
  st->p[IMPACTFIT__PHYSX_CONTACT] = 2.0 * impactfit_code_value(c, "contactOffset")[0];
  st->p[IMPACTFIT__PHYSX_MAXDEPEN] = impactfit_code_value(c, "maxDepenetrationVelocity")[0];
  return impactfit_stepper_check(st, err);
}

static int px_naive(const impactfit_code_ctx *c, double e, double *value, impactfit_text *what, impactfit_error *err) {
  (void)c, (void)err;
  *value = 0.5 * e;
  impactfit_text_appendf(what, "createMaterial(sf, df, e) on the sphere, a ground material with restitution 0: "
                               "eAVERAGE makes the point's restitution e/2");
  return 0;
}

static void px_input(const impactfit_code_ctx *c, double r, impactfit_text *out) {
  impactfit_text_appendf(out, "const m = physics.createMaterial(");
  impactfit__friction_value(c, "staticFriction", out); /* yours: createMaterial needs them, never a silent value */
  impactfit_text_appendf(out, ", ");
  impactfit__friction_value(c, "dynamicFriction", out);
  impactfit_text_appendf(out,
                         ", %.12g); m.setRestitutionCombineMode(PhysX.PxCombineMode.eMAX);   // the sphere's shape; "
                         "scene.simulate(%.12g, true); scene.fetchResults(true)",
                         r, c->dt);
}

static void px_note(const impactfit_code_ctx *c, double r, impactfit_text *out) {
  double B = 0.2 * impactfit_code_value(c, "speed")[0];
  if (c->v <= B)
    impactfit_text_appendf(out,
                           "NO BOUNCE BELOW %.4g m/s: PhysX applies restitution only when the approach speed exceeds "
                           "bounceThresholdVelocity (0.2 x PxTolerancesScale.speed); at %.4g m/s the speculative "
                           "contact stops the sphere short (0.8 of the gap per step) and e = 0 for any restitution. "
                           "@cocos/physx exposes the threshold only as PxTolerancesScale.speed = %.4g or less. ",
                           B, c->v, c->v / 0.2);
  impactfit_text_appendf(out, "The point's restitution is the materials' combined by the larger combine mode (eAVERAGE "
                              "by "
                              "default: a ground at 0 halves it); PxMaterial refuses restitution above 1. A step that "
                              "ends within 0.25 v dt of contact without closing it slows the body to 0.8 gap/dt first "
                              "(e = r u'/v at those phases, 0 if u' falls below the threshold). ");
  (void)r;
}


/* the note, then the friction settings (yours) */
static void px_note_all(const impactfit_code_ctx *c, double r, impactfit_text *out) {
  px_note(c, r, out);
  impactfit__friction_note(c, "staticFriction, dynamicFriction", NULL, out);
}

static const impactfit_code_ops px_ops = {
    .build = px_build, .lo = 1e-6, .hi = 1.0, .naive = px_naive, .input = px_input, .note = px_note_all};

static const impactfit_code_integrator px_integrators[] = {
    {.name = "pgs",
     .stepper = &impactfit__stepper_physx,
     .summary = "PGS, 4 position and 1 velocity iterations (one point converges in one)"},
};

static const impactfit_code_source px_sources[] = {
    {"physx/source/lowleveldynamics/src/DyContactPrepShared.h:233-304", "4.1.1 (ae80dede)"},
    {"physx/source/lowleveldynamics/src/DyContactPrep.cpp:130-240", "4.1.1 (ae80dede)"},
    {"physx/source/lowleveldynamics/src/DySolverConstraintsShared.h:51-104", "4.1.1 (ae80dede)"},
    {"physx/source/lowleveldynamics/src/DySolverConstraints.cpp:429-459, 652-719", "4.1.1 (ae80dede)"},
    {"physx/source/lowleveldynamics/src/DySolverControl.cpp:259-322", "4.1.1 (ae80dede)"},
    {"physx/source/lowleveldynamics/src/DyBodyCoreIntegrator.h:133-143", "4.1.1 (ae80dede)"},
    {"physx/source/lowlevel/api/include/PxvDynamics.h:143-174", "4.1.1 (ae80dede)"},
    {"physx/source/simulationcontroller/src/ScScene.cpp:885; ScShapeCore.cpp:95; ScBodyCore.cpp:52-64", "4.1.1 "
                                                                                                        "(ae80dede)"},
    {"physx/include/PxSceneDesc.h:972", "4.1.1 (ae80dede)"},
    {"physx/source/lowlevel/common/src/pipeline/PxcNpBatch.cpp:312-315", "4.1.1 (ae80dede)"},
    {"physx/source/geomutils/src/pcm/GuPCMContactSpherePlane.cpp:59-81; GuPCMContactSphereSphere.cpp:60-79", "4.1.1 "
                                                                                                             "(ae80dede"
                                                                                                             ")"},
    {"physx/source/lowlevel/software/src/PxsMaterialCombiner.cpp:45-49; include/PxsMaterialCombiner.h:118-135", "4.1.1 "
                                                                                                                "(ae80d"
                                                                                                                "ede)"},
    {"physx/source/physxwebbindings/src/PxWebBindings.cpp (the port's bindings)", "JayceLai/PhysX cocos-dev 1ebbbc26"},
};

static const impactfit_code_model px_models[] = {
    {.code = &impactfit__code_physx,
     .model = "restitution",
     .option = "",
     .versions = "4.1.1 (npm @cocos/physx 1.0.7: NVIDIAGameWorks/PhysX 4.1.1.27006925 with Cocos' bindings)",
     .first_version = "4.1.1",
     .version_min = 4001001,
     .version_max = 4001001,
     .run_min = 4001001,
     .run_max = 4001001,
     .run_versions = "4.1.1 (npm @cocos/physx 1.0.7, node 20)",
     .law = NULL,
     .clamp_default = 1,
     .inputs = px_inputs,
     .n_inputs = IMPACTFIT__COUNT(px_inputs),
     .integrators = px_integrators,
     .n_integrators = IMPACTFIT__COUNT(px_integrators),
     .dt_default = 1.0 / 60.0,
     .solver = IMPACTFIT_CODE_SOLVE_MEAN,
     .param = "restitution",
     .param_unit = "-",
     .param_input = "restitution",
     .param_index = 0,
     .param_takes_zero = 1, /* the engine's default restitution is 0 (docs/engines) */
     .takes_e = 0,
     .ops = &px_ops,
     .law_text = "a point while the gap is at most the contact distance (the shapes' contactOffsets, 0.04 m); bounce "
                 "when restitution > 0, u > bounceThresholdVelocity (2 m/s) and u > gap/dt: the velocity becomes "
                 "r u (no bias); else the bias 0.8 gap/dt limits the approach (a gap) or pushes out (penetration, "
                 "position only); the position moves with the velocity after the position iterations, the velocity "
                 "is the velocity iteration's",
     .end = "C (the impulses are >= 0)",
     .bodies = "one point through the centres; M = m1 m2/(m1 + m2), a static actor has inverse mass 0",
     .mixing = "restitution: PxsMaterialCombiner::combineRestitution, combineScalars(r0, r1, max of the two combine "
               "modes): eAVERAGE (the default) 0.5 (r0 + r1), eMIN, eMULTIPLY, eMAX "
               "(PxsMaterialCombiner.cpp:45-49, PxsMaterialCombiner.h:118-135)",
     .traps = "no bounce below bounceThresholdVelocity 2 m/s (e = 0 for any restitution at 1 m/s), and the port moves "
              "it only with PxTolerancesScale.speed; eAVERAGE with a ground at 0 halves the restitution; restitution "
              "is capped at 1; the speculative contact slows the body one step before the bounce at some phases; "
              "the scene's filter shader needs simulation filter data on every shape (no contact otherwise)",
     .assumes = "a frictionless head-on contact, no gravity, no CCD flag on the bodies, default contact and rest "
                "offsets",
     .precision = "float64 model of a float32 engine: per phase within 1.9e-7 at the engine's own float32 phase",
     .source = "NVIDIAGameWorks/PhysX ae80dede (4.1.1.27006925, the solver @cocos/physx 1.0.7 builds): "
               "DyContactPrepShared.h, DyContactPrep.cpp, DySolverConstraintsShared.h, DySolverConstraints.cpp, "
               "DySolverControl.cpp, DyBodyCoreIntegrator.h, PxvDynamics.h, PxSceneDesc.h, PxsMaterialCombiner",
     .sources = px_sources,
     .n_sources = IMPACTFIT__COUNT(px_sources)},
};

const impactfit_code impactfit__code_physx = {
    .name = "physx",
    .display = "PhysX",
    .kind = "engine",
    .default_version = "4.1.1",
    .version_example = "4.1.1",
    .version_key = impactfit_code_version_dotted,
    .model_prefix = NULL,
    .run_versions = "4.1.1 (npm @cocos/physx 1.0.7)",
    .models = px_models,
    .n_models = IMPACTFIT__COUNT(px_models),
};
