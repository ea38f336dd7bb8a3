// SPDX-License-Identifier: GPL-3.0-or-later
// Rapier (npm @dimforge/rapier3d-compat 0.21.0, the WebAssembly build; float32) for tests/engines/rapier_impacts.c:
// one JSON request a line on stdin, one answer a line on stdout (tests/engines/node_child.h). The script
// builds the scene with Rapier's own calls, steps world.step() and reports what Rapier did. Nothing of
// impactfit's is here.
//
// Request {"op": "impacts", "plane": 0|1, "r1", "m1", "r2", "m2", "v", "dt", "J", "phis": [...],
//          "restitution": r, "given": "both" | "sphere-only" | "max", "numSolverIterations",
//          "normalizedPredictionDistance", "ground": "halfspace" | "cuboid", "canSleep": true | false
//          (each optional: Rapier's default when absent)}
//   given: how the contact's restitution r is typed, as a user would:
//     "both"        both colliders get restitution r (the default rule Average gives r);
//     "sphere-only" the sphere's collider gets r, the other keeps its default 0 (Average: r/2);
//     "max"         the sphere's collider gets r with CoefficientCombineRule.Max, the other its default 0.
//   The ground (plane: 1) is a fixed body with a HalfSpace collider (z = 0, normal +z), or a 2 m cuboid
//   under z = 0; the spheres are balls of density m/((4/3) pi r^3), frictionless.
//   For each phase phi the sphere starts (J - phi) v dt from touching, approaching at v (a second sphere at
//   rest). world.step() until a step leaves the bodies apart (gap >= 0), separating and with no impulse on
//   the pair (impactfit's end of an impact), or at rest (no impulse, the state unchanged), or creeping
//   (no impulse after an impulse slowed the body, a gap the speed would not close within 1e4 steps: e = 0;
//   a body no impulse touched is still approaching through the prediction distance). Answers e = the
//   separating speed / v (null: the centres of two spheres crossed, or no end within J + 200000 steps), the
//   steps, and the
//   gap (with the engine's float32 radii) at the start of the first step that changed the velocity and that
//   step's index (gact, kact: the phase the engine's own float32 position has there).
// The first line says {"ready": true, "version": RAPIER.version()} or {"skip": reason}.
import { serve } from './serve.mjs';
import v8 from 'node:v8';

// Liftoff only: the 3 MB WebAssembly is not recompiled by TurboFan (that costs about 1.4 s of CPU per run,
// more than the impacts themselves); the results are the same IEEE float32 operations either way.
v8.setFlagsFromString('--liftoff-only');

let RAPIER;
try {
  RAPIER = (await import('@dimforge/rapier3d-compat')).default;
  await RAPIER.init();
} catch (e) {
  console.log(JSON.stringify({ skip: `@dimforge/rapier3d-compat is not installed in tests/engines/js (bash scripts/deps.sh npm-engines): ${String(e.message).split('\n')[0]}` }));
  process.exit(0);
}
console.log(JSON.stringify({ ready: true, version: RAPIER.version() }));

const density = (m, r) => m / ((4 / 3) * Math.PI * r * r * r);

function scene(q) {
  const world = new RAPIER.World({ x: 0, y: 0, z: 0 });
  world.timestep = q.dt;
  const ip = world.integrationParameters;
  if (q.numSolverIterations !== undefined) ip.numSolverIterations = q.numSolverIterations;
  if (q.normalizedPredictionDistance !== undefined) ip.normalizedPredictionDistance = q.normalizedPredictionDistance;
  const given = q.given || 'both';
  const ball = (r, m) => RAPIER.ColliderDesc.ball(r).setDensity(density(m, r)).setFriction(0);
  const c1 = ball(q.r1, q.m1).setRestitution(q.restitution);
  if (given === 'max') c1.setRestitutionCombineRule(RAPIER.CoefficientCombineRule.Max);
  let other, c2;
  if (q.plane) {
    other = world.createRigidBody(RAPIER.RigidBodyDesc.fixed());
    c2 = q.ground === 'cuboid' ? RAPIER.ColliderDesc.cuboid(1, 1, 1).setTranslation(0, 0, -1)
      : new RAPIER.ColliderDesc(new RAPIER.HalfSpace({ x: 0, y: 0, z: 1 }));
    c2.setFriction(0);
  } else {
    const d2 = RAPIER.RigidBodyDesc.dynamic();
    if (q.canSleep !== undefined) d2.setCanSleep(q.canSleep);
    other = world.createRigidBody(d2);
    c2 = ball(q.r2, q.m2);
  }
  if (given === 'both') c2.setRestitution(q.restitution);
  else if (given !== 'sphere-only' && given !== 'max') throw new Error(`unknown given ${given}`);
  const R = q.plane ? q.r1 : q.r1 + q.r2;
  const Rf = q.plane ? Math.fround(q.r1) : Math.fround(q.r1) + Math.fround(q.r2); // the engine's float32 radii
  return { world, other, c2: world.createCollider(c2, other), R, Rf, c1 };
}

function impacts(q) {
  const e = [], steps = [], gact = [], kact = [];
  for (const phi of q.phis) {
    const { world, other, c2, R, Rf, c1 } = scene(q);
    const d1 = RAPIER.RigidBodyDesc.dynamic().setTranslation(0, 0, R + (q.J - phi) * q.v * q.dt).setLinvel(0, 0, -q.v);
    if (q.canSleep !== undefined) d1.setCanSleep(q.canSleep);
    const body = world.createRigidBody(d1);
    const s1 = world.createCollider(c1, body);
    const gap = () => body.translation().z - other.translation().z - Rf;
    const vrel = () => body.linvel().z - other.linvel().z; // > 0: separating
    let out = null, k = 0, acting = false, pushed = false, ga = null, ka = null;
    for (; k < q.J + 200000; k++) {
      const g0 = gap(), u0 = vrel();
      world.step();
      let points = 0, impulse = 0;
      world.contactPair(s1, c2, (man) => {
        points += man.numContacts();
        for (let i = 0; i < man.numContacts(); i++) impulse += Math.abs(man.contactImpulse(i));
      });
      const g = gap(), u = vrel();
      if (ga === null && u !== u0) {
        ga = g0;
        ka = k;
      }
      acting = acting || points > 0 || impulse !== 0;
      pushed = pushed || impulse !== 0;
      if (!q.plane && g <= -R) break; // the centres crossed
      if (!acting) continue;
      if (g >= 0 && u > 0 && impulse === 0) {
        out = u / q.v;
        break;
      }
      if (impulse === 0 && ((g === g0 && u === u0) || (pushed && g > 0 && u < 0 && g > 1e4 * -u * q.dt))) {
        out = u > 0 ? u / q.v : 0;
        break;
      }
    }
    world.free();
    e.push(out);
    steps.push(k + 1);
    gact.push(ga);
    kact.push(ka);
  }
  return { e, steps, gact, kact };
}

await serve({ impacts });
