// SPDX-License-Identifier: GPL-3.0-or-later
// Jolt Physics (npm jolt-physics 1.1.0: JoltPhysics v5.6.0 in WebAssembly, single precision) for
// tests/engines/jolt_impacts.c: one JSON request a line on stdin, one answer a line on stdout
// (tests/engines/node_child.h). Nothing of impactfit's is here.
//
// Requests:
//   {"op": "defaults"}: the engine's PhysicsSettings and BodyCreationSettings defaults.
//   {"op": "impacts", "pair": 0|1, "r1", "r2", "m1", "m2", "dt", "v", "J", "phis": [...], "restitution",
//    "restitution2", "damping", "settings": {PhysicsSettings field: value, ...}}
//     For each phase phi: a static plane y = 0 (or, without the plane, a second dynamic sphere at rest at y = 0) and a dynamic
//     sphere at y = coord - (phi - J) v dt (coord = r1 or r1 + r2: touching) moving down at v, frictionless,
//     no gravity, angular damping 0; its mLinearDamping is `damping` in the steps that start within the
//     speculative contact distance of touching (the steps with a contact row) and 0 in free flight (the
//     flight's drag is not the contact's; the registry's e is taken so). PhysicsSystem steps of dt with
//     one collision step, until a step leaves the bodies apart (gap >= 0), separating, with no impulse (the
//     velocities only damped), or at rest against each other; e = (v1 - v2 along +y after)/v and the steps.
// The first line says {"ready": true, "version": ...} or {"skip": reason}.
import { serve } from './serve.mjs';

let J;
try {
  J = await (await import('jolt-physics')).default();
} catch (e) {
  console.log(JSON.stringify({ skip: `jolt-physics is not installed in tests/engines/js (bash scripts/deps.sh npm-engines): ${e.message.split('\n')[0]}` }));
  process.exit(0);
}

const LAYER_STATIC = 0, LAYER_MOVING = 1;
function makeWorld() {
  const objFilter = new J.ObjectLayerPairFilterTable(2);
  objFilter.EnableCollision(LAYER_STATIC, LAYER_MOVING);
  objFilter.EnableCollision(LAYER_MOVING, LAYER_MOVING);
  const bpInterface = new J.BroadPhaseLayerInterfaceTable(2, 2);
  bpInterface.MapObjectToBroadPhaseLayer(LAYER_STATIC, new J.BroadPhaseLayer(0));
  bpInterface.MapObjectToBroadPhaseLayer(LAYER_MOVING, new J.BroadPhaseLayer(1));
  const settings = new J.JoltSettings();
  settings.mObjectLayerPairFilter = objFilter;
  settings.mBroadPhaseLayerInterface = bpInterface;
  settings.mObjectVsBroadPhaseLayerFilter = new J.ObjectVsBroadPhaseLayerFilterTable(bpInterface, 2, objFilter, 2);
  const jolt = new J.JoltInterface(settings);
  const ps = jolt.GetPhysicsSystem();
  ps.SetGravity(new J.Vec3(0, 0, 0));
  const bi = ps.GetBodyInterface();
  const planeSettings = new J.BodyCreationSettings(new J.PlaneShape(new J.Plane(new J.Vec3(0, 1, 0), 0)),
    new J.RVec3(0, 0, 0), new J.Quat(0, 0, 0, 1), J.EMotionType_Static, LAYER_STATIC);
  planeSettings.mFriction = 0;
  const plane = bi.CreateBody(planeSettings);
  bi.AddBody(plane.GetID(), J.EActivation_DontActivate);
  return { jolt, ps, bi, plane, planeSettings, planeIn: true };
}
const world = makeWorld();
const defaultSettings = new J.PhysicsSettings();
const SETTINGS = ['mMinVelocityForRestitution', 'mSpeculativeContactDistance', 'mPenetrationSlop', 'mBaumgarte',
  'mNumVelocitySteps', 'mNumPositionSteps', 'mConstraintWarmStart', 'mMaxPenetrationDistance', 'mAllowSleeping'];
console.log(JSON.stringify({ ready: true, version: 'jolt-physics 1.1.0 (JoltPhysics v5.6.0, float32)' }));

function defaults() {
  const out = {};
  for (const k of SETTINGS) out[k] = defaultSettings[k];
  const b = new J.BodyCreationSettings();
  for (const k of ['mFriction', 'mRestitution', 'mLinearDamping', 'mAngularDamping', 'mMotionQuality', 'mAllowSleeping'])
    out[k] = b[k];
  out.EMotionQuality_Discrete = J.EMotionQuality_Discrete;
  J.destroy(b);
  return out;
}

function sphere(r, m, y, restitution) {
  const s = new J.BodyCreationSettings(new J.SphereShape(r), new J.RVec3(0, y, 0), new J.Quat(0, 0, 0, 1),
    J.EMotionType_Dynamic, LAYER_MOVING);
  s.mRestitution = restitution;
  s.mFriction = 0;
  s.mLinearDamping = 0;
  s.mAngularDamping = 0;
  s.mOverrideMassProperties = J.EOverrideMassProperties_CalculateInertia;
  s.mMassPropertiesOverride.mMass = m;
  const b = world.bi.CreateBody(s);
  J.destroy(s);
  world.bi.AddBody(b.GetID(), J.EActivation_Activate);
  return b;
}

function impacts(q) {
  const ps = new J.PhysicsSettings();
  for (const [k, v] of Object.entries(q.settings || {})) ps[k] = v;
  world.ps.SetPhysicsSettings(ps);
  world.plane.SetRestitution(q.restitution2 || 0);
  // the plane only for a sphere on a plane (two spheres at y = 0 would overlap it)
  if (!q.pair !== world.planeIn) {
    if (world.planeIn) world.bi.RemoveBody(world.plane.GetID());
    else world.bi.AddBody(world.plane.GetID(), J.EActivation_DontActivate);
    world.planeIn = !q.pair;
  }
  const f = Math.fround, h = q.dt, coord = q.pair ? q.r1 + q.r2 : q.r1;
  const spec = f(ps.mSpeculativeContactDistance), coordF = f(coord);
  const dampF = f(Math.max(0, f(1 - f(f(q.damping) * f(h)))));
  const vdt = q.v * q.dt;
  const e = [], steps = [];
  for (const phi of q.phis) {
    const b1 = sphere(q.r1, q.m1, coord - (phi - q.J) * vdt, q.restitution);
    const b2 = q.pair ? sphere(q.r2, q.m2, 0, q.restitution2 || 0) : null;
    world.bi.SetLinearVelocity(b1.GetID(), new J.Vec3(0, -q.v, 0));
    const y = (b) => (b ? b.GetPosition().GetY() : 0), vy = (b) => (b ? b.GetLinearVelocity().GetY() : 0);
    let acting = false, out = null, k = 0;
    for (; k < 20000; k++) {
      const y1 = y(b1), y2 = y(b2), v1 = vy(b1), v2 = vy(b2);
      const row = f(coordF - f(y1 - y2)) > -spec;
      const c = row ? q.damping : 0;
      b1.GetMotionProperties().SetLinearDamping(c);
      if (b2) b2.GetMotionProperties().SetLinearDamping(c);
      world.jolt.Step(h, 1);
      const Y1 = y(b1), Y2 = y(b2), V1 = vy(b1), V2 = vy(b2);
      const d = row ? dampF : 1;
      // an impulse: the velocities changed by more than this step's damping (1e-6 v: the warm start applied and
      // taken back again leaves a float32 rounding of about 1e-7)
      const impulse = Math.abs(V1 - f(v1 * d)) + Math.abs(V2 - f(v2 * d)) > 1e-6 * q.v;
      acting = acting || row || impulse;
      if (!acting) continue;
      const x = coord - (Y1 - Y2), u = V2 - V1;
      // apart and separating, or at rest against each other (two spheres then move on together)
      if (!impulse && ((x <= 0 && u < 0) || Math.abs(u) <= 1e-6 * q.v)) {
        out = u < 0 ? -u / q.v : 0;
        break;
      }
    }
    e.push(out);
    steps.push(k + 1);
    for (const b of [b1, b2]) {
      if (!b) continue;
      world.bi.RemoveBody(b.GetID());
      world.bi.DestroyBody(b.GetID());
    }
  }
  J.destroy(ps);
  return { e, steps };
}

await serve({ defaults, impacts });
