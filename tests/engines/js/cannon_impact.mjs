// SPDX-License-Identifier: GPL-3.0-or-later
// cannon-es 0.20.0 (npm cannon-es, plain JavaScript in float64) for tests/engines/cannon_impacts.c: one JSON
// request a line on stdin, one answer a line on stdout (tests/engines/node_child.h). The script builds the
// scene from the request with cannon-es's own calls, steps World.step(dt) and reports what cannon-es did.
// Nothing of impactfit's is here.
//
// Request {"op": "impacts", "plane": 0|1, "r1", "m1", "r2", "m2", "v", "dt", "J", "phis": [...],
//          "materials": "product" | "sphere-only" | "default" | "contact-material", "restitution": r,
//          "stiffness", "relaxation", "linearDamping" (each optional: cannon-es's default when absent)}
//   materials: how the restitution r is given, as a user would:
//     "product"          both bodies get a Material, the sphere's restitution r, the other's 1 (cannon-es
//                        multiplies the two materials' values when both are >= 0);
//     "sphere-only"      a Material with restitution r on the sphere only (the other body has none);
//     "default"          no materials: world.defaultContactMaterial.restitution = r;
//     "contact-material" a ContactMaterial(sphere's, other's, {restitution: r}) added to the world, the two
//                        materials' own restitution left unset (-1).
//   stiffness, relaxation set on the contact material that applies (contactEquationStiffness,
//   contactEquationRelaxation); linearDamping on every dynamic body.
//   For each phase phi the sphere starts (J - phi) v dt from touching, approaching at v (a second sphere at
//   rest). World.step(dt) until a step leaves the bodies apart (gap >= 0), separating and applied no
//   impulse (every contact equation's multiplier 0: impactfit's end of an impact), or at rest (no impulse,
//   the state unchanged), or creeping (no impulse after an impulse slowed the body, a gap the speed would not
//   close within 1e4 steps: e = 0; a body no impulse touched is still approaching).
//   Answers e = the separating speed / v (null: the centres of two spheres crossed, or no end within
//   1e6 steps) and the steps taken.
// The first line says {"ready": true, "version": ...} or {"skip": reason}.
import { serve } from './serve.mjs';
import { createRequire } from 'node:module';

let CANNON, version;
try {
  CANNON = await import('cannon-es');
  version = createRequire(import.meta.url)('cannon-es/package.json').version;
} catch (e) {
  console.log(JSON.stringify({ skip: `cannon-es is not installed in tests/engines/js (bash scripts/deps.sh npm-engines): ${String(e.message).split('\n')[0]}` }));
  process.exit(0);
}
console.log(JSON.stringify({ ready: true, version }));

function scene(q) {
  const world = new CANNON.World({ gravity: new CANNON.Vec3(0, 0, 0) });
  const r = q.restitution;
  const mode = q.materials || 'product';
  let m1 = null, m2 = null;
  if (mode === 'product') {
    m1 = new CANNON.Material({ restitution: r });
    m2 = new CANNON.Material({ restitution: 1 });
  } else if (mode === 'sphere-only') {
    m1 = new CANNON.Material({ restitution: r });
  } else if (mode === 'contact-material') {
    m1 = new CANNON.Material('sphere');
    m2 = new CANNON.Material('other');
  } else if (mode !== 'default') {
    throw new Error(`unknown materials mode ${mode}`);
  }
  let cm = world.defaultContactMaterial;
  if (mode === 'default') cm.restitution = r;
  if (mode === 'contact-material') {
    cm = new CANNON.ContactMaterial(m1, m2, { restitution: r, friction: 0 });
    world.addContactMaterial(cm);
  }
  cm.friction = 0;
  if (q.stiffness !== undefined) cm.contactEquationStiffness = q.stiffness;
  if (q.relaxation !== undefined) cm.contactEquationRelaxation = q.relaxation;
  const opts = (mass, shape, material) => {
    const o = { mass, shape };
    if (material) o.material = material;
    if (q.linearDamping !== undefined && mass > 0) o.linearDamping = q.linearDamping;
    return o;
  };
  const s1 = new CANNON.Body(opts(q.m1, new CANNON.Sphere(q.r1), m1));
  let s2;
  if (q.plane) s2 = new CANNON.Body(opts(0, new CANNON.Plane(), m2)); // the plane z = 0, normal +z
  else s2 = new CANNON.Body(opts(q.m2, new CANNON.Sphere(q.r2), m2));
  world.addBody(s1);
  world.addBody(s2);
  return { world, s1, s2 };
}

function impacts(q) {
  const e = [], steps = [];
  const R = q.plane ? q.r1 : q.r1 + q.r2;
  for (const phi of q.phis) {
    const { world, s1, s2 } = scene(q);
    s1.position.set(0, 0, R + (q.J - phi) * q.v * q.dt); // the other body's centre (or the plane) at z = 0
    s1.velocity.set(0, 0, -q.v);
    const gap = () => s1.position.z - s2.position.z - R;
    const vrel = () => s1.velocity.z - s2.velocity.z; // > 0: separating
    let out = null, k = 0, acting = false, pushed = false;
    for (; k < 1000000; k++) {
      const g0 = gap(), u0 = vrel();
      world.step(q.dt);
      let impulse = 0;
      for (const c of world.contacts) impulse += Math.abs(c.multiplier);
      const g = gap(), u = vrel();
      acting = acting || world.contacts.length > 0 || impulse !== 0;
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
    e.push(out);
    steps.push(k + 1);
  }
  return { e, steps };
}

await serve({ impacts });
