// SPDX-License-Identifier: GPL-3.0-or-later
// PhysX 4.1.1 (npm @cocos/physx 1.0.7, the WebAssembly build of Cocos' fork; float32) for
// tests/engines/physx_impacts.c: one JSON request a line on stdin, one answer a line on stdout
// (tests/engines/node_child.h). The script builds the scene with the port's own calls (those Cocos Creator
// makes: getDefaultSceneDesc, shapes with simulation filter data), steps scene.simulate(dt) +
// fetchResults(true) and reports what PhysX did. Nothing of impactfit's is here.
//
// Request {"op": "impacts", "plane": 0|1, "r1", "m1", "r2", "m2", "v", "dt", "J", "phis": [...],
//          "restitution": r, "given": "both" | "sphere-only" | "max", "speed" (each optional)}
//   given: how the point's restitution r is typed, as a user would:
//     "both"        both shapes' materials have restitution r (the default combine mode eAVERAGE gives r);
//     "sphere-only" the sphere's material has r, the other's 0 (eAVERAGE: r/2);
//     "max"         the sphere's material has r and the combine mode eMAX, the other's 0.
//   speed: PxTolerancesScale.speed for PxCreatePhysics and the scene (10: bounceThresholdVelocity 2 m/s).
//   The plane is a static actor with a PxPlaneGeometry shape turned to the normal +y at y = 0; the spheres
//   are dynamic actors with PxSphereGeometry shapes and setMassAndUpdateInertia(m), frictionless, along y.
//   For each phase phi the sphere starts (J - phi) v dt from touching, approaching at v (a second sphere at
//   rest). Steps until a step leaves the bodies apart (gap >= 0), separating and did not change their relative
//   velocity (no impulse: impactfit's end of an impact), or at rest (the state unchanged), or creeping (a gap
//   the speed would not close within 1e4 steps: e = 0). Answers e = the separating speed / v (null: the
//   centres of two spheres crossed, or no end within 200000 steps), the steps, and the gap (with the engine's
//   float32 radii) at the start of the first step that changed the velocity and that step's index (gact,
//   kact: the phase the engine's own float32 position has there).
// The first line says {"ready": true, "version": "4.1.1"} or {"skip": reason}.
import { serve } from './serve.mjs';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

const require = createRequire(import.meta.url);
let P;
try {
  const PHYSX = require('@cocos/physx/builds/physx.release.wasm.js');
  const wasmBinary = readFileSync(require.resolve('@cocos/physx/builds/physx.release.wasm.wasm'));
  P = await new Promise((resolve) => {
    const m = PHYSX({ wasmBinary, onRuntimeInitialized() { resolve(m); } });
  });
} catch (e) {
  console.log(JSON.stringify({ skip: `@cocos/physx is not installed in tests/engines/js (bash scripts/deps.sh npm-engines): ${String(e.message).split('\n')[0]}` }));
  process.exit(0);
}
const ver = P.PX_PHYSICS_VERSION;
console.log(JSON.stringify({ ready: true, version: `${ver >>> 24}.${(ver >>> 16) & 255}.${(ver >>> 8) & 255}` }));

const foundation = P.PxCreateFoundation(ver, new P.PxDefaultAllocator(), new P.PxDefaultErrorCallback());
const physicsBySpeed = new Map();
function physicsFor(speed) {
  let p = physicsBySpeed.get(speed);
  if (!p) {
    const scale = new P.PxTolerancesScale();
    scale.speed = speed;
    p = { scale, physics: P.PxCreatePhysics(ver, foundation, scale, false, null) };
    physicsBySpeed.set(speed, p);
  }
  return p;
}
const flags = new P.PxShapeFlags(P.PxShapeFlag.eSCENE_QUERY_SHAPE.value | P.PxShapeFlag.eSIMULATION_SHAPE.value);
const filter = { word0: 1, word1: 1, word2: 0, word3: 0 }; // group 1, mask 1 (the filter shader's group test)
const identity = { x: 0, y: 0, z: 0, w: 1 };

function scene(q) {
  const { scale, physics } = physicsFor(q.speed ?? 10);
  const sc = physics.createScene(P.getDefaultSceneDesc(scale, 0, null));
  sc.setGravity({ x: 0, y: 0, z: 0 });
  const given = q.given || 'both';
  if (given !== 'both' && given !== 'sphere-only' && given !== 'max') throw new Error(`unknown given ${given}`);
  const m1 = physics.createMaterial(0, 0, q.restitution);
  if (given === 'max') m1.setRestitutionCombineMode(P.PxCombineMode.eMAX);
  const m2 = given === 'both' ? m1 : physics.createMaterial(0, 0, 0);
  const dynamic = (r, m, y, material) => {
    const a = physics.createRigidDynamic({ translation: { x: 0, y, z: 0 }, rotation: identity });
    const s = physics.createShape(new P.PxSphereGeometry(r), material, true, flags);
    s.setSimulationFilterData(filter);
    a.attachShape(s);
    a.setMassAndUpdateInertia(m);
    return a;
  };
  let other;
  if (q.plane) {
    other = physics.createRigidStatic({ translation: { x: 0, y: 0, z: 0 }, rotation: identity });
    const s = physics.createShape(new P.PxPlaneGeometry(), m2, true, flags);
    s.setLocalPose({ translation: { x: 0, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: Math.SQRT1_2, w: Math.SQRT1_2 } });
    s.setSimulationFilterData(filter);
    other.attachShape(s);
  } else {
    other = dynamic(q.r2, q.m2, 0, m2);
  }
  sc.addActor(other, null);
  return { sc, other, m1, m2, dynamic, physics };
}

function impacts(q) {
  const e = [], steps = [], gact = [], kact = [];
  const R = q.plane ? q.r1 : q.r1 + q.r2;
  const Rf = q.plane ? Math.fround(q.r1) : Math.fround(q.r1) + Math.fround(q.r2); // the engine's float32 radii
  for (const phi of q.phis) {
    const { sc, other, m1, m2, dynamic } = scene(q);
    const body = dynamic(q.r1, q.m1, R + (q.J - phi) * q.v * q.dt, m1);
    body.setLinearVelocity({ x: 0, y: -q.v, z: 0 }, true);
    sc.addActor(body, null);
    const y2 = () => (q.plane ? 0 : other.getGlobalPose().translation.y);
    const v2 = () => (q.plane ? 0 : other.getLinearVelocity().y);
    const gap = () => body.getGlobalPose().translation.y - y2() - Rf;
    const vrel = () => body.getLinearVelocity().y - v2(); // > 0: separating
    let out = null, k = 0, acting = false, ga = null, ka = null;
    for (; k < 200000; k++) {
      const g0 = gap(), u0 = vrel();
      sc.simulate(q.dt, true);
      sc.fetchResults(true);
      const g = gap(), u = vrel();
      if (ga === null && u !== u0) {
        ga = g0;
        ka = k;
      }
      acting = acting || u !== u0;
      if (!q.plane && g <= -R) break; // the centres crossed
      if (!acting) continue;
      if (g >= 0 && u > 0 && u === u0) {
        out = u / q.v;
        break;
      }
      if (u === u0 && ((g === g0) || (g > 0 && u < 0 && g > 1e4 * -u * q.dt))) {
        out = u > 0 ? u / q.v : 0;
        break;
      }
    }
    body.release();
    other.release();
    sc.release();
    m1.release();
    if (m2 !== m1) m2.release();
    e.push(out);
    steps.push(k + 1);
    gact.push(ga);
    kact.push(ka);
  }
  return { e, steps, gact, kact };
}

await serve({ impacts });
