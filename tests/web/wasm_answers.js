#!/usr/bin/env node
// SPDX-License-Identifier: GPL-3.0-or-later
// The WebAssembly module answers every request of a fixed grid (tests/web/requests.js: every question
// of the page, every DEM and engine registry entry, bad input) as the native CLI does: the same exit
// status, the same error line on stderr, the same JSON keys and strings, and the same doubles bitwise
// or within MAX_ULPS units in the last place (docs/WEB.md says why a few ulps: glibc's pow, exp and log
// are not musl's on every input, and glibc picks an FMA variant of pow on CPUs that have FMA).
// usage: wasm_answers.js MODULE.js API.js IMPACTFIT [--jobs N]
//   MODULE.js  the module as the page loads it (web/impactfit-core.js or build-wasm/web/impactfit-core.js)
//   API.js     web/api.js;  IMPACTFIT the native CLI
// Prints one line per difference beyond MAX_ULPS and a summary; exit 1 on any failure.
"use strict";
const fs = require("fs");
const path = require("path");
const { spawn } = require("child_process");
const { requests } = require("./requests.js");

const MAX_ULPS = 8;

function ulps(a, b) {
  // the distance of two doubles in units in the last place (0 for equal, Infinity across signs)
  if (Object.is(a, b) || a === b) return 0;
  if (Math.sign(a) !== Math.sign(b)) return Infinity;
  const buf = new DataView(new ArrayBuffer(16));
  buf.setFloat64(0, a);
  buf.setFloat64(8, b);
  return Math.abs(Number(buf.getBigInt64(0) - buf.getBigInt64(8)));
}

// compares two parsed JSON values; pushes [key, native, wasm, ulps] of every difference
function compare(a, b, key, diffs, worst) {
  if (typeof a === "number" && typeof b === "number") {
    const u = ulps(a, b);
    if (u > 0) worst.push({ key, a, b, u });
    if (u > MAX_ULPS) diffs.push(`${key}: native ${a} wasm ${b} (${u} ulps)`);
  } else if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((x, i) => compare(x, b[i], `${key}[${i}]`, diffs, worst));
  } else if (a && b && typeof a === "object" && typeof b === "object") {
    const ka = Object.keys(a).join(","), kb = Object.keys(b).join(",");
    if (ka !== kb) diffs.push(`${key}: keys differ: native ${ka} wasm ${kb}`);
    else for (const k of Object.keys(a)) compare(a[k], b[k], key ? `${key}.${k}` : k, diffs, worst);
  } else if (a !== b) {
    // a text (the input to paste, a note) may print a number with fewer digits: same text, or fail
    diffs.push(`${key}: native ${JSON.stringify(a)} wasm ${JSON.stringify(b)}`);
  }
}

function runNative(cli, words) {
  return new Promise((resolve) => {
    const p = spawn(cli, words, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "", err = "";
    p.stdout.on("data", (d) => (out += d));
    p.stderr.on("data", (d) => (err += d));
    p.on("close", (status) => resolve({ status, out: out.split("\n").filter((l) => l), err: err.split("\n").filter((l) => l) }));
  });
}

async function main() {
  const args = process.argv.slice(2);
  if (args.length < 3) {
    console.error("usage: wasm_answers.js MODULE.js API.js IMPACTFIT [--jobs N]");
    process.exit(2);
  }
  const [modFile, apiFile, cli] = args;
  const jobs = args.includes("--jobs") ? Number(args[args.indexOf("--jobs") + 1]) : 2;
  // the module as the page loads it: a script defining impactfitCoreSource (node's require and
  // __dirname handed to the loader, which uses them under node)
  const impactfitCoreSource = new Function("require", "__dirname", fs.readFileSync(modFile, "utf8") + "\nreturn impactfitCoreSource;")(
    require, path.dirname(path.resolve(modFile)));
  const impactfitApi = require(path.resolve(apiFile));
  const t0 = Date.now();
  const api = await impactfitApi(impactfitCoreSource());
  const tLoad = Date.now() - t0;
  const reg = api.registry();
  const list = requests(reg);
  // the native answers, `jobs` at a time, while node waits
  const native = new Array(list.length);
  let next = 0;
  const t1 = Date.now();
  await Promise.all(
    Array.from({ length: jobs }, async () => {
      while (next < list.length) {
        const i = next++;
        native[i] = await runNative(cli, list[i].words);
      }
    }),
  );
  const tNative = Date.now() - t1;
  const t2 = Date.now();
  let failed = 0, bitwise = 0, numbers = 0;
  const worstAll = [];
  const models = { dem: new Set(), engine: new Set() };
  for (let i = 0; i < list.length; i++) {
    const q = list[i], n = native[i];
    const w = api.command(q.words);
    const diffs = [], worst = [];
    if (n.status !== w.status) diffs.push(`exit status: native ${n.status} wasm ${w.status}`);
    if (n.err.join("\n") !== w.err.join("\n")) diffs.push(`stderr: native ${JSON.stringify(n.err)} wasm ${JSON.stringify(w.err)}`);
    if (n.out.length !== w.out.length) diffs.push(`stdout: native ${n.out.length} lines, wasm ${w.out.length}`);
    else
      for (let l = 0; l < n.out.length; l++) {
        let a, b;
        try {
          a = JSON.parse(n.out[l]);
          b = JSON.parse(w.out[l]);
        } catch (e) {
          diffs.push(`line ${l}: not JSON: ${e.message}`);
          continue;
        }
        compare(a, b, "", diffs, worst);
        const count = (x) => (typeof x === "number" ? 1 : x && typeof x === "object" ? Object.values(x).reduce((s, y) => s + count(y), 0) : 0);
        numbers += count(a);
        if (n.status === 0 && (q.what.startsWith("dem") || q.what.startsWith("engine")))
          models[q.what.split(" ")[0]].add(`${a.code}|${a.model}|${a.damping || ""}|${a.versions || a.version}`);
      }
    bitwise += numbers && worst.length === 0;
    worstAll.push(...worst.map((x) => ({ ...x, req: q.words.join(" ") })));
    if (diffs.length) {
      failed++;
      console.log(`FAIL ${q.what}: impactfit ${q.words.map((x) => (/\s/.test(x) ? `'${x}'` : x)).join(" ")}`);
      for (const d of diffs) console.log("  " + d);
    }
  }
  // the pictures' numbers (api.curve): e over 200 phases of the stepper each engine entry's answer runs,
  // built from the request's fields by src/wasm/registry.c, must be the function the CLI's statistics
  // describe: within its [e_min, e_max] (1 % of the range, for sampling between the CLI's nodes), its
  // midpoint mean within 5 % of the range of e_mean, and for an adaptive integrator e_mean itself
  let curves = 0;
  for (let i = 0; i < list.length; i++) {
    const q = list[i];
    if (!q.what.startsWith("engine") || !q.words.includes("--e") || q.words.includes("--m2") || native[i].status !== 0) continue;
    const a = JSON.parse(native[i].out[0]);
    if (a.value === null || !a.stable) continue;
    const w = q.words, at = (k) => (w.indexOf(k) >= 0 ? w[w.indexOf(k) + 1] : "");
    const settings = [];
    for (let k = 0; k < w.length; k++)
      if (/^--/.test(w[k]) && !["--code", "--version", "--model", "--integrator", "--dt", "--e", "--v", "--mass", "--radius", "--json"].includes(w[k]))
        settings.push(w[k].slice(2) + "=" + w[k + 1]);
    const c = api.curve({ code: a.code, version: a.version, model: a.model, integrator: a.integrator, dt: a.dt === null ? "" : String(a.dt),
      v: at("--v"), mass: at("--mass"), radius: at("--radius"), value: String(a.value), settings });
    curves++;
    const span = a.e_max - a.e_min, mean = c.ok ? c.e.reduce((x, y) => x + y, 0) / c.e.length : NaN;
    const bad = !c.ok ? c.error
      : c.adaptive ? (c.e.every((x) => x === a.e_mean) ? "" : "an adaptive integrator's e(phi) is not e_mean")
      : Math.min(...c.e) < a.e_min - 0.01 * span - 1e-12 || Math.max(...c.e) > a.e_max + 0.01 * span + 1e-12 ? `e(phi) in ${Math.min(...c.e)}..${Math.max(...c.e)}, the CLI's ${a.e_min}..${a.e_max}`
      : Math.abs(mean - a.e_mean) > 0.05 * span + 1e-12 ? `the midpoint mean ${mean}, the CLI's e_mean ${a.e_mean}`
      : !(c.loop.x.length > 0) ? "no force loop" : "";
    if (bad) {
      failed++;
      console.log(`FAIL curve of ${a.code} '${a.model}' ${a.integrator}: ${bad}`);
    }
  }
  console.log(`  ${curves} engine answers' pictures (e over the phase, the force loop) match the CLI's statistics`);
  const tWasm = Date.now() - t2;
  // the module's registry is the native program's: the same codes, models and versions (the native --list of
  // dem and of engine, one command, lists every model; the module's two lists are its dem and engine kinds,
  // Chrono in both: together every model once)
  const key = (m) => `${m.code}|${m.model}|${m.damping || ""}|${m.versions}`;
  const mod = [...new Set(reg.dem.map(key).concat(reg.engine.map(key)))].sort();
  for (const kind of ["dem", "engine"]) {
    const n = await runNative(cli, [kind, "--list", "--json"]);
    const nat = n.out.map((l) => JSON.parse(l)).map(key).sort();
    if (nat.join("\n") !== mod.join("\n")) {
      failed++;
      console.log(`FAIL: the module lists ${mod.length} entries (dem and engine), the native ${kind} --list ${nat.length} (or others)`);
    }
  }
  // every registry entry answered at least once
  const byEntry = (m, kind) => list.some((q) => q.what === kind + " " + m.code && q.words.includes(m.model));
  const missing = reg.dem.filter((m) => !byEntry(m, "dem")).length + reg.engine.filter((m) => !byEntry(m, "engine")).length;
  if (missing) {
    failed++;
    console.log(`FAIL: ${missing} registry entries have no request`);
  }
  worstAll.sort((x, y) => y.u - x.u);
  const off = worstAll.length;
  console.log(
    `wasm_answers: ${list.length} requests (${reg.dem.length} DEM and ${reg.engine.length} engine entries, every one), ` +
      `${numbers} numbers: ${off} differ from the native CLI's, by at most ${off ? worstAll[0].u : 0} ulps (allowed ${MAX_ULPS})`,
  );
  const byCmd = {};
  for (const x of worstAll) { const c = x.req.split(" ").slice(0, 3).join(" ") + " " + x.key.split("[")[0]; byCmd[c] = (byCmd[c] || 0) + 1; }
  if (process.env.IMPACTFIT_WEB_VERBOSE) for (const c in byCmd) console.log(`  ${byCmd[c]} numbers off in ${c}`);
  for (const x of worstAll.slice(0, 5)) console.log(`  ${x.u} ulps in ${x.key}: ${x.a} vs ${x.b} (${x.req})`);
  console.log(`  module loaded in ${tLoad} ms; native CLI ${tNative} ms (${jobs} at a time), wasm ${tWasm} ms`);
  console.log(`${list.length - failed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(String((e && e.stack) || e).slice(0, 2000));
  process.exit(1);
});
