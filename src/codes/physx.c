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
#include "../law/stepper_impl.h"
#include "npm_engines_impl.h"

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
