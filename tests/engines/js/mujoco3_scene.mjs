// SPDX-License-Identifier: GPL-3.0-or-later
// MuJoCo 3.3.8 (npm mujoco-js 0.0.7, its WebAssembly build) as the oracle of the user's scene (issue 33):
// runs the cases that `mujoco_scene --emit FILE` writes (tests/engines/mujoco_scene.c: the MJCF text with
// impactfit's input, and what impactfit predicts) and checks them as that program does against 2.2.2:
//  - phase cases (no gravity): one impact at each Gauss-Legendre node of impactfit's pieces of e(phi), the body
//    placed (2 - phi) v dt above the contact with speed v: the engine's e at every node within 1e-6 of
//    impactfit's, the nodes' weighted sum (the engine's phase mean) within 1e-6 of the asked e;
//  - drop cases: a release from rest at the gap h under the scene's gravity: the engine's apexes (local maxima
//    of the gap at the step starts above min_h) within 1e-6 (relative) of impactfit's while impactfit says they
//    are determined; where impactfit's whole sequence is determined, the user's fit (ln h_n on n, h_0 the
//    release) within 1e-9 of impactfit's and within 1e-4 of the asked e; with `samples` K > 0 the mean fit over
//    K releases spread over one step of the first impact's travel within the statistical bound of impactfit's.
// usage: node mujoco3_scene.mjs CASES.jsonl    (exit 0: passed, 1: failed, 77: mujoco-js not installed)
import { readFileSync } from 'node:fs';

let load;
try {
  load = (await import('mujoco-js')).default;
} catch (e) {
  console.log('mujoco3_scene: SKIP: mujoco-js is not installed (bash scripts/deps.sh npm-engines)');
  process.exit(77);
}
const mj = await load();
const lines = readFileSync(process.argv[2], 'utf8').split('\n').filter((l) => l.trim());
console.log(`mujoco3_scene: MuJoCo ${mj.mj_versionString()} (WebAssembly, mujoco-js), ${lines.length} cases`);
let failures = 0, checks = 0;
const check = (ok, what) => {
  checks++;
  if (!ok) {
    failures++;
    console.error(`FAIL ${what}`);
  }
};

let cache = { xml: null, m: null, d: null };
function model(xml) {
  if (cache.xml === xml) return cache;
  if (cache.m) {
    cache.d.delete();
    cache.m.delete();
  }
  mj.FS.writeFile('/scene.xml', xml);
  const m = mj.MjModel.loadFromXML('/scene.xml');
  cache = { xml, m, d: new mj.MjData(m) };
  return cache;
}

// one impact without gravity at phase phi: e, or NaN
function impact(c, phi) {
  const { m, d } = model(c.xml);
  mj.mj_resetData(m, d);
  d.qpos[2] = c.r + (2 - phi) * c.v * c.dt;
  d.qvel[2] = -c.v;
  let acting = false;
  for (let k = 0; k < 1000000; k++) {
    const v0 = d.qvel[2];
    mj.mj_step(m, d);
    const v1 = d.qvel[2];
    acting = acting || v1 !== v0;
    if (acting && d.qpos[2] - c.r >= 0 && v1 > 0 && v1 === v0) return v1 / c.v;
  }
  return NaN;
}

// a release from rest at gap h: the apexes above min_h (local maxima of the gap at the step starts), at most n
function drop(c, h, nsteps, n) {
  const { m, d } = model(c.xml);
  mj.mj_resetData(m, d);
  d.qpos[2] = c.r + h;
  let g2 = h, g1 = h;
  const apex = [];
  for (let k = 0; k < nsteps && apex.length < n; k++) {
    mj.mj_step(m, d);
    const g0 = d.qpos[2] - c.r;
    if (k >= 1 && g1 > g2 && g1 >= g0 && g1 > c.min_h && g1 > 0) apex.push(g1);
    g2 = g1;
    g1 = g0;
  }
  return apex;
}

// the user's fit: ln h_k on k (k = 0..n, h_0 the release), e = exp(slope/2)
function fit(h0, apex, n) {
  let sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (let k = 0; k <= n; k++) {
    const y = Math.log(k === 0 ? h0 : apex[k - 1]);
    sx += k;
    sy += y;
    sxx += k * k;
    sxy += k * y;
  }
  const N = n + 1;
  return Math.exp((0.5 * (N * sxy - sx * sy)) / (N * sxx - sx * sx));
}

const fmt = (x, w, p) => (Number.isFinite(x) ? x.toFixed(p) : String(x)).padStart(w);
const exp = (x) => x.toExponential(1).padStart(8);
let worstMean = 0, worstNode = 0;
for (const line of lines) {
  const c = JSON.parse(line);
  const t0 = process.cpuUsage();
  if (c.kind === 'phase') {
    let mean = 0, dmax = 0;
    for (let i = 0; i < c.phi.length; i++) {
      const e = impact(c, c.phi[i]);
      mean += c.w[i] * e;
      dmax = Number.isNaN(e) ? Infinity : Math.max(dmax, Math.abs(e - c.model[i]));
    }
    worstMean = Math.max(worstMean, Math.abs(mean - c.e));
    worstNode = Math.max(worstNode, dmax);
    console.log(`  ${c.name.padEnd(54)} mean - e ${exp(mean - c.e)}  max|de| ${exp(dmax)}  nodes ${c.phi.length}`);
    check(dmax <= 1e-6, `${c.name}: the engine's e at every node vs impactfit's (max |de| ${dmax})`);
    check(Math.abs(mean - c.e) <= 1e-6, `${c.name}: the engine's phase mean ${mean} vs the asked e ${c.e}`);
  } else {
    const n = c.bounces, det = c.determined;
    const got = drop(c, c.h, det === n ? c.nsteps : 2 * c.nsteps, n + 1);
    let worst = 0, worstAll = 0;
    for (let k = 0; k < n && k < got.length; k++) {
      const dd = Math.abs(got[k] / c.apex[k] - 1);
      if (k < det) worst = Math.max(worst, dd);
      worstAll = Math.max(worstAll, dd);
    }
    const f = got.length >= n && n > 0 ? fit(c.h, got, n) : NaN;
    let line = `  ${c.name.padEnd(54)} bounces ${det}/${n}/${got.length}  max rel ${exp(worst)}  fit ${fmt(c.e_fit, 11, 8)}` +
      `  engine ${fmt(f, 11, 8)}`;
    check(got.length >= det, `${c.name}: the engine has the ${det} determined apexes (found ${got.length})`);
    check(worst <= 1e-6, `${c.name}: the determined apexes vs impactfit's (largest relative difference ${worst})`);
    if (det === n) {
      check(worstAll <= 1e-6, `${c.name}: every apex vs impactfit's (${worstAll})`);
      check(Math.abs(f - c.e_fit) <= 1e-9, `${c.name}: the user's fit of the engine's heights ${f} vs impactfit's ${c.e_fit}`);
      if (c.e > 0) check(Math.abs(f - c.e) <= 1e-4, `${c.name}: the user's fit with impactfit's input ${f} vs the asked e ${c.e}`);
    }
    if (c.samples > 0) {
      // K releases spread over one step; impactfit's mean is over its own samples_impactfit releases
      let sum = 0, cnt = 0;
      const limit = c.t_max > 0 ? Math.floor(c.t_max / (c.xml.match(/timestep="([^"]+)"/)[1] * 1) + 1e-9) : 2 * c.nsteps;
      for (let k = 0; k < c.samples; k++) {
        const hk = c.h + ((k + 0.5) / c.samples) * c.step;
        const gk = drop(c, hk, limit, c.max_bounces);
        if (gk.length < 1) continue;
        sum += fit(hk, gk, gk.length);
        cnt++;
      }
      const em = sum / cnt;
      const tol = 1e-6 + 4 * c.e_sd * Math.sqrt(1 / c.samples + 1 / c.samples_impactfit);
      line += `  mean over ${c.samples}: ${fmt(em, 11, 8)} (impactfit ${fmt(c.e_mean, 11, 8)} sd ${exp(c.e_sd)})`;
      check(cnt === c.samples, `${c.name}: the engine counts bounces in every release`);
      check(Math.abs(em - c.e_mean) <= tol, `${c.name}: the engine's mean fit ${em} vs impactfit's ${c.e_mean} (tol ${tol})`);
      if (c.e > 0) check(Math.abs(em - c.e) <= Math.max(1e-4, tol), `${c.name}: the engine's mean fit ${em} vs the asked e`);
    }
    console.log(line);
  }
  const t = process.cpuUsage(t0);
  if (process.env.MUJOCO3_SCENE_TIMES) console.log(`    (${((t.user + t.system) / 1e6).toFixed(2)} s)`);
}
console.log(`  phase cases: largest |mean - e| ${worstMean.toExponential(2)}, largest |de| at a node ${worstNode.toExponential(2)}`);
if (failures) {
  console.error(`mujoco3_scene: ${failures} of ${checks} checks failed`);
  process.exit(1);
}
console.log(`mujoco3_scene: all ${checks} checks passed`);
