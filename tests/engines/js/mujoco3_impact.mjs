// SPDX-License-Identifier: GPL-3.0-or-later
// MuJoCo 3.3.8 (npm mujoco-js 0.0.7, the WebAssembly build; mjtNum is double) for tests/engines/mujoco3_impact.c:
// one JSON request a line on stdin, one answer a line on stdout (tests/engines/node_child.h). The C harness
// writes the MJCF text; this script loads it (cached by its text), places the bodies, steps mj_step and
// reports what MuJoCo did. Nothing of impactfit's is here.
//
// Requests:
//   {"op": "impacts", "xml": MJCF, "plane": 0|1, "r1", "r2", "offset", "v", "dt", "J", "M", "phis": [...]}
//     for each phase phi: the sphere (J - phi) v dt before the place where the contact acts (dist = offset
//     = margin - gap), approaching at v (the second sphere at rest); mj_step until a step leaves the bodies
//     apart (dist >= offset), separating, and did not change the speed; answers e = v_after / v (null when
//     the centres of two spheres crossed or no end came within 400000 steps), the steps, and the largest
//     |efc_force - M d (aref - a0)| / f over the steps with one frictionless row (a0 = efc_b + efc_aref:
//     the row's acceleration without the contact), Euler and implicit steps only ("fmodel").
//   {"op": "contacts", "xml": MJCF, "plane", "r1", "r2", "dists": [...]}: mj_forward with the surfaces
//     dist apart: the number of contacts and of constraint rows for each.
// The first line says {"ready": true, "version": mj_versionString()} or {"skip": reason}.
import { serve } from './serve.mjs';

let mj;
try {
  mj = await (await import('mujoco-js')).default();
} catch (e) {
  console.log(JSON.stringify({ skip: `mujoco-js is not installed in tests/engines/js (bash scripts/deps.sh npm-engines): ${e.message.split('\n')[0]}` }));
  process.exit(0);
}
mj.FS.mkdir('/scenes');
console.log(JSON.stringify({ ready: true, version: mj.mj_versionString(), mjtNum: 8 }));

// the last few models, by their text (each holds its arena in the WebAssembly heap: delete the rest)
const cache = new Map();
function load(xml) {
  let s = cache.get(xml);
  if (s) {
    cache.delete(xml);
    cache.set(xml, s);
    return s;
  }
  if (cache.size >= 4) {
    const [oldest, old] = cache.entries().next().value;
    old.d.delete();
    old.m.delete();
    cache.delete(oldest);
  }
  mj.FS.writeFile('/scenes/scene.xml', xml);
  const m = mj.MjModel.loadFromXML('/scenes/scene.xml');
  if (!m) throw new Error(`the MJCF does not load: ${xml}`);
  s = { m, d: new mj.MjData(m) };
  cache.set(xml, s);
  return s;
}

function impacts(q) {
  const { m, d } = load(q.xml);
  const rk4 = m.opt.integrator === 1; // mjINT_RK4
  const e = [], steps = [];
  let fmodel = 0;
  for (const phi of q.phis) {
    mj.mj_resetData(m, d);
    const qpos = d.qpos, qvel = d.qvel;
    const start = q.offset + (q.J - phi) * q.v * q.dt;
    if (q.plane) {
      qpos[2] = q.r1 + start;
    } else {
      qpos[2] = q.r1 + q.r2 + start;
      qpos[9] = 0;
    }
    qvel[2] = -q.v;
    const gap = () => (q.plane ? qpos[2] - q.r1 : qpos[2] - qpos[9] - q.r1 - q.r2);
    const vrel = () => (q.plane ? qvel[2] : qvel[2] - qvel[8]);
    let acting = false, out = null, k = 0;
    for (; k < 400000; k++) {
      const v0 = vrel();
      mj.mj_step(m, d);
      if (!rk4 && d.nefc === 1) {
        const aref = d.efc_aref[0], a0 = d.efc_b[0] + aref, f = q.M * d.efc_KBIP[2] * Math.max(0, aref - a0);
        const force = d.efc_force[0];
        if (f > 0) fmodel = Math.max(fmodel, Math.abs(force - f) / f);
        else if (force !== 0) fmodel = Infinity;
      }
      const v1 = vrel();
      acting = acting || v1 !== v0;
      if (!q.plane && gap() <= -(q.r1 + q.r2)) break; // the centres crossed
      if (acting && gap() >= q.offset && v1 > 0 && v1 === v0) {
        out = v1 / q.v;
        break;
      }
    }
    e.push(out);
    steps.push(k + 1);
  }
  return { e, steps, fmodel: Number.isFinite(fmodel) ? fmodel : 1e300 };
}

function contacts(q) {
  const { m, d } = load(q.xml);
  const ncon = [], nefc = [];
  for (const dist of q.dists) {
    mj.mj_resetData(m, d);
    const qpos = d.qpos;
    if (q.plane) qpos[2] = q.r1 + dist;
    else {
      qpos[2] = q.r1 + q.r2 + dist;
      qpos[9] = 0;
    }
    d.qvel[2] = -1;
    mj.mj_forward(m, d);
    ncon.push(d.ncon);
    nefc.push(d.nefc);
  }
  return { ncon, nefc };
}

await serve({ impacts, contacts });
