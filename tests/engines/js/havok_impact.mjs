// SPDX-License-Identifier: GPL-3.0-or-later
// Havok (npm @babylonjs/havok 1.3.14, a closed WebAssembly binary; float32) for tests/engines/havok_impacts.c:
// one JSON request a line on stdin, one answer a line on stdout (tests/engines/node_child.h). The script
// builds the scene with Havok's own HP_* calls, steps HP_World_Step(world, dt) and reports what Havok did.
// Nothing of impactfit's is here.
//
// Request {"op": "impacts", "plane": 0|1, "r1", "m1", "r2", "m2", "v", "dt", "J", "phis": [...],
//          "restitution": r, "given": "max" | "sphere-only" | "both", "gravity": g (each optional)}
//   given: how the pair's restitution r is typed, as a user would:
//     "max"         the sphere's material (friction 0, restitution r, restitution combine MAXIMUM), the other's
//                   restitution 0 with the default combine mode (GEOMETRIC_MEAN): MAXIMUM wins, r;
//     "sphere-only" the sphere's material restitution r with the default combine mode, the other's 0 (sqrt(0 r));
//     "both"        both materials restitution r with the default combine mode (sqrt(r r) = r).
//   gravity: the world's gravity magnitude along -y (0 when absent: HP_World_SetGravity(world, [0, 0, 0])); the
//   bodies' gravity factors are 0, so nothing but the contact acts on them.
//   The plane is a static 20 x 1 x 20 m box whose top face is y = 0; the spheres are dynamic bodies with
//   HP_Body_SetMassProperties(m, (2/5) r^2), along y.
//   For each phase phi the sphere starts (J - phi) v dt from touching, approaching at v (a second sphere at
//   rest). HP_World_Step until a step leaves the bodies apart (gap >= 0), separating and without a change of
//   their relative velocity beyond float32 rounding (|du| <= 4e-7 |u|: Havok's stored velocity alternates by
//   an ulp between steps), or at rest (the gap unchanged, no change of velocity), or creeping (a gap the speed
//   would not close within 1e4 steps, after a change of velocity: e = 0). Answers e = the separating speed / v
//   (null: the centres of two spheres crossed, or no end within J + 200000 steps), the steps, and the gap (with the float32 radii) at the
//   start of the first step that changed the velocity and that step's index (gact, kact).
// The first line says {"ready": true, "version": "1.3.14"} or {"skip": reason}.
import { serve } from './serve.mjs';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
let H, version;
try {
  const HavokPhysics = (await import('@babylonjs/havok')).default;
  H = await HavokPhysics({ wasmBinary: readFileSync(require.resolve('@babylonjs/havok/lib/esm/HavokPhysics.wasm')) });
} catch (e) {
  console.log(JSON.stringify({ skip: `@babylonjs/havok is not installed in tests/engines/js (bash scripts/deps.sh npm-engines): ${String(e.message).split('\n')[0]}` }));
  process.exit(0);
}
// the package's own version (its exports do not include package.json: read it next to lib/)
version = JSON.parse(readFileSync(join(dirname(require.resolve('@babylonjs/havok')), '..', '..', 'package.json'), 'utf8')).version;
console.log(JSON.stringify({ ready: true, version }));
const MC = H.MaterialCombine;
const identity = [0, 0, 0, 1];

function scene(q) {
  const [, world] = H.HP_World_Create();
  H.HP_World_SetGravity(world, [0, -(q.gravity ?? 0), 0]);
  const given = q.given || 'max';
  if (given !== 'max' && given !== 'sphere-only' && given !== 'both') throw new Error(`unknown given ${given}`);
  const mat1 = [0, 0, q.restitution, MC.GEOMETRIC_MEAN, given === 'max' ? MC.MAXIMUM : MC.GEOMETRIC_MEAN];
  const mat2 = [0, 0, given === 'both' ? q.restitution : 0, MC.GEOMETRIC_MEAN, MC.GEOMETRIC_MEAN];
  const bodies = [], shapes = [];
  const body = (shape, material, motion, y, m, r) => {
    H.HP_Shape_SetMaterial(shape, material);
    const [, b] = H.HP_Body_Create();
    H.HP_Body_SetShape(b, shape);
    H.HP_Body_SetMotionType(b, motion);
    if (m) {
      const I = 0.4 * r * r;
      H.HP_Body_SetMassProperties(b, [[0, 0, 0], m, [I, I, I], identity]);
      H.HP_Body_SetGravityFactor(b, 0);
    }
    H.HP_Body_SetQTransform(b, [[0, y, 0], identity]);
    bodies.push(b);
    shapes.push(shape);
    return b;
  };
  let other;
  if (q.plane) other = body(H.HP_Shape_CreateBox([0, 0, 0], identity, [20, 1, 20])[1], mat2, H.MotionType.STATIC, -0.5);
  else other = body(H.HP_Shape_CreateSphere([0, 0, 0], q.r2)[1], mat2, H.MotionType.DYNAMIC, 0, q.m2, q.r2);
  return { world, bodies, shapes, other, mat1, body };
}

function impacts(q) {
  const e = [], steps = [], gact = [], kact = [];
  const R = q.plane ? q.r1 : q.r1 + q.r2;
  const Rf = q.plane ? Math.fround(q.r1) : Math.fround(q.r1) + Math.fround(q.r2); // the float32 radii
  for (const phi of q.phis) {
    const { world, bodies, shapes, other, mat1, body } = scene(q);
    const b = body(H.HP_Shape_CreateSphere([0, 0, 0], q.r1)[1], mat1, H.MotionType.DYNAMIC, R + (q.J - phi) * q.v * q.dt,
      q.m1, q.r1);
    H.HP_Body_SetLinearVelocity(b, [0, -q.v, 0]);
    for (const x of bodies) H.HP_World_AddBody(world, x, false);
    const y = (x) => H.HP_Body_GetQTransform(x)[1][0][1];
    const vy = (x) => H.HP_Body_GetLinearVelocity(x)[1][1];
    const gap = () => y(b) - (q.plane ? 0 : y(other)) - Rf;
    const vrel = () => vy(b) - (q.plane ? 0 : vy(other)); // > 0: separating
    let out = null, k = 0, acting = false, ga = null, ka = null;
    for (; k < q.J + 200000; k++) {
      const g0 = gap(), u0 = vrel();
      H.HP_World_Step(world, q.dt);
      const g = gap(), u = vrel();
      const same = Math.abs(u - u0) <= 4e-7 * Math.abs(u);
      if (ga === null && !same) {
        ga = g0;
        ka = k;
      }
      acting = acting || !same;
      if (!q.plane && g <= -R) break; // the centres crossed
      if (!acting) continue;
      if (g >= 0 && u > 0 && same) {
        out = u / q.v;
        break;
      }
      if (same && (g === g0 || (g > 0 && u < 0 && g > 1e4 * -u * q.dt))) {
        out = u > 0 ? u / q.v : 0;
        break;
      }
    }
    for (const x of bodies) H.HP_World_RemoveBody(world, x);
    for (const x of bodies) H.HP_Body_Release(x);
    for (const s of shapes) H.HP_Shape_Release(s);
    H.HP_World_Release(world);
    e.push(out);
    steps.push(k + 1);
    gact.push(ga);
    kact.push(ka);
  }
  return { e, steps, gact, kact };
}

await serve({ impacts });
