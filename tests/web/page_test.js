#!/usr/bin/env node
// SPDX-License-Identifier: GPL-3.0-or-later
// The page in a real browser (Debian's Chromium, headless, driven by playwright-core as
// tests/web/package-lock.json pins it): opens WEBDIR/index.html from file://, checks that it is ready
// (module loaded, registry listed; the time it took is printed), types each question into its form, reads the answers
// off the page and compares them with the native CLI's --json answer to the same question (the same
// doubles, the same text to paste, the same one-line error), follows the engine's pictures to the end
// of e against dt (the progress line), and takes screenshots at 1280 and 420 px wide (SHOTDIR).
// usage: page_test.js WEBDIR IMPACTFIT SHOTDIR
// Exit 0 when every check passes, 1 otherwise, 77 (SKIP) when playwright-core or Chromium is missing.
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const { execFileSync } = require("child_process");

let chromium;
try {
  ({ chromium } = require("playwright-core"));
} catch (e) {
  console.log("SKIP: playwright-core is not installed (bash scripts/deps.sh web: npm ci in tests/web)");
  process.exit(77);
}
const CHROME = "/usr/bin/chromium";
if (!fs.existsSync(CHROME)) {
  console.log("SKIP: /usr/bin/chromium is not installed (bash scripts/deps.sh web)");
  process.exit(77);
}
const [webdir, cli, shotdir] = process.argv.slice(2);
if (!shotdir) {
  console.error("usage: page_test.js WEBDIR IMPACTFIT SHOTDIR");
  process.exit(2);
}
fs.mkdirSync(shotdir, { recursive: true });

let passed = 0, failed = 0;
const check = (ok, what) => {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
};
// the CLI's answer: {status, json, err}
const cliAnswer = (words) => {
  try {
    const out = execFileSync(cli, words.concat(["--json"]), { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    return { status: 0, json: JSON.parse(out.split("\n")[0]), err: "" };
  } catch (e) {
    return { status: e.status, json: null, err: String(e.stderr).trim() };
  }
};
// the page's number is the CLI's double, or within MAX_ULPS of it (tests/web/wasm_answers.js, docs/WEB.md:
// glibc's FMA variant of pow and a few last bits of other libm functions)
const MAX_ULPS = 8;
const ulps = (a, b) => {
  if (a === b) return 0;
  if (!Number.isFinite(a) || !Number.isFinite(b) || Math.sign(a) !== Math.sign(b)) return Infinity;
  const v = new DataView(new ArrayBuffer(16));
  v.setFloat64(0, a);
  v.setFloat64(8, b);
  return Math.abs(Number(v.getBigInt64(0) - v.getBigInt64(8)));
};
const same = (pageText, x) => pageText !== null && ulps(Number(pageText.replace(/[^0-9eE.+-].*$/, "")), x) <= MAX_ULPS;

async function main() {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "impactfit-chromium-"));
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: CHROME,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
  });
  const page = ctx.pages()[0] || (await ctx.newPage());
  const consoleErrors = [];
  page.on("pageerror", (e) => consoleErrors.push(String(e)));
  page.on("console", (m) => m.type() === "error" && consoleErrors.push(m.text()));
  const url = "file://" + path.resolve(webdir, "index.html");
  // ---- load time: from navigation to ready (module instantiated in the worker, registry listed)
  const t0 = Date.now();
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.ready === "1", null, { timeout: 60000 });
  const loadMs = Date.now() - t0;
  const statusText = await page.textContent("#status");
  // a bound against a hang, not a speed claim (tests do not depend on the machine's speed); the load time
  // itself is measured and stated in docs/WEB.md
  check(loadMs < 20000, `ready from file:// in ${loadMs} ms: "${statusText}"`);
  check(/in a Web Worker/.test(statusText), "the module runs in a Web Worker");

  const cell = async (tab, key) => {
    const el = await page.$(`#ans-${tab} [data-key="${key}"]`);
    return el ? (await el.textContent()).trim() : null;
  };
  const fill = async (id, v) => page.fill("#" + id, v);
  const compute = async (tab) => {
    await page.evaluate((t) => (document.getElementById("ans-" + t).innerHTML = ""), tab);
    await page.click(`#${tab}-go`);
    await page.waitForSelector(`#ans-${tab} table, #ans-${tab} .error`, { timeout: 120000 });
  };
  const tab = async (name) => page.click(`#tabs button[data-tab="${name}"]`);
  const compareKeys = async (t, words, keys, what) => {
    const c = cliAnswer(words);
    if (!c.json) return check(false, `${what}: the CLI failed: ${c.err}`);
    for (const k of keys) {
      const [pageKey, cliKey] = Array.isArray(k) ? k : [k, k];
      const txt = await cell(t, pageKey);
      const want = typeof cliKey === "function" ? cliKey(c.json) : c.json[cliKey];
      check(same(txt, want), `${what}: ${pageKey} on the page "${txt}" = the CLI's ${want}`);
    }
    return c.json;
  };

  // ---- c for Hertz + damper
  await fill("copt-n", "1.5");
  await fill("copt-e", "0.7");
  await compute("copt");
  await compareKeys("copt", ["copt", "--n", "1.5", "--e", "0.7", "--k", "1e8", "--mass", "0.05", "--v", "2"], ["c_opt", "e_out", "zeta", "t_contact"], "copt n 1.5");
  await page.waitForSelector("#ans-copt figure", { timeout: 60000 });
  for (const id of ["copt-k", "copt-mass", "copt-v"]) await fill(id, "");
  await fill("copt-n", "2.2");
  await fill("copt-e", "0.3");
  await compute("copt");
  await compareKeys("copt", ["copt", "--n", "2.2", "--e", "0.3"], ["c_opt", "e_out"], "copt n 2.2 scaled");
  // bad input: the CLI's line
  await fill("copt-e", "1.5");
  await compute("copt");
  {
    const c = cliAnswer(["copt", "--n", "2.2", "--e", "1.5"]);
    check(c.status === 2 && (await cell("copt", "error")) === c.err, `copt e 1.5: the page says the CLI's "${c.err}"`);
  }
  await fill("copt-k", "1e8"); // a part of the units
  await fill("copt-e", "0.5");
  await compute("copt");
  {
    const c = cliAnswer(["copt", "--n", "2.2", "--e", "0.5", "--k", "1e8"]);
    check(c.status === 2 && (await cell("copt", "error")) === c.err, `copt with --k alone: the page says the CLI's "${c.err}"`);
  }
  await page.screenshot({ path: path.join(shotdir, "copt-error-1280.png") });

  // ---- Zhang
  await tab("zhang");
  await fill("zhang-m", "0.25");
  await fill("zhang-e", "0.4");
  await page.selectOption("#zhang-transition", "A");
  await compute("zhang");
  await compareKeys("zhang", ["zhang-alpha", "--n", "1.5", "--m", "0.25", "--e", "0.4", "--transition", "A", "--k", "1e8", "--mass", "0.05", "--v", "2"],
    ["alpha", "lambda_star", "lambda", "e_out"], "zhang-alpha m 0.25 A");
  await page.waitForSelector("#ans-zhang figure", { timeout: 60000 });
  await page.screenshot({ path: path.join(shotdir, "zhang-1280.png") });
  // ---- Hunt-Crossley
  await tab("hc");
  await fill("hc-e", "0.35");
  await compute("hc");
  await compareKeys("hc", ["hc-eps", "--e", "0.35", "--k", "1e8", "--v", "2"], ["eps", "lambda"], "hc-eps e 0.35");

  // ---- DEM: LAMMPS tsuji (the default code), YADE viscel en
  await tab("dem");
  await page.selectOption("#dem-model", "granular hertz/material");
  await page.selectOption("#dem-damping", "tsuji");
  await page.waitForSelector("#dem-E");
  await fill("dem-e", "0.5");
  await compute("dem");
  {
    const words = ["dem", "--code", "lammps", "--version", "29Sep2021", "--model", "granular hertz/material", "--damping", "tsuji",
      "--E", "1e8", "--nu", "0.3", "--r1", "0.005", "--m1", "0.001309", "--e", "0.5", "--v", "1"];
    const j = await compareKeys("dem", words, ["value", "e_naive"], "dem lammps tsuji");
    const paste = await page.textContent("#dem-paste code");
    check(j && paste === j.input, "dem lammps tsuji: the text to paste is the CLI's");
    await page.click("#dem-paste button[data-copy]");
    const copied = await page
      .waitForFunction(() => document.querySelector("#dem-paste button").textContent === "copied", null, { timeout: 10000 })
      .then(() => true, () => false);
    check(copied, "dem: the copy button copies");
  }
  await page.selectOption("#dem-code", "yade");
  await page.selectOption("#dem-model", "viscel");
  await page.selectOption("#dem-damping", "en");
  await page.waitForSelector("#dem-tc");
  await page.selectOption("#dem-geometry", "wall");
  await compute("dem");
  await compareKeys("dem", ["dem", "--code", "yade", "--version", "2023.02a", "--model", "viscel", "--damping", "en", "--tc", "1e-4", "--wall",
    "--r1", "0.005", "--m1", "0.001309", "--e", "0.5", "--v", "1"], ["value", "e_naive"], "dem yade viscel en wall");
  await page.waitForSelector("#ans-dem figure", { timeout: 60000 });
  await page.screenshot({ path: path.join(shotdir, "dem-1280.png"), fullPage: true });

  // ---- engines: MuJoCo's default (the pictures to the end), ODE spring-damper, a bad setting
  await tab("engine");
  await page.selectOption("#engine-code", "mujoco");
  await page.waitForSelector('#engine-settings input[data-setting="solref"]');
  await fill("engine-e", "0.5");
  await compute("engine");
  {
    const words = ["engine", "--code", "mujoco", "--version", "2.2.2", "--model", "soft contact", "--integrator", "euler", "--dt", "0.002",
      "--v", "1", "--mass", "0.001309", "--radius", "0.005", "--e", "0.5"];
    const j = await compareKeys("engine", words, ["value", "e_mean", "e_continuous", "e_naive", ["e_min", "e_min"]], "engine mujoco");
    check(j && (await page.textContent("#engine-paste code")) === j.input, "engine mujoco: the text to paste is the CLI's");
    await page.waitForFunction(() => document.querySelectorAll("#ans-engine figure").length === 3, null, { timeout: 300000 });
    const st = await page.textContent("#status");
    check(/e against dt: 13 step sizes/.test(st), `engine mujoco: three pictures, e against dt done: "${st}"`);
  }
  await page.screenshot({ path: path.join(shotdir, "engine-1280.png"), fullPage: true });
  await page.selectOption("#engine-code", "ode");
  await page.waitForSelector('#engine-settings input[data-setting="kp"]');
  await page.fill('#engine-settings input[data-setting="kp"]', "1000");
  await fill("engine-dt", "1e-4");
  await compute("engine");
  await compareKeys("engine", ["engine", "--code", "ode", "--version", "0.16.2", "--model", "spring-damper", "--integrator", "step", "--dt", "1e-4",
    "--kp", "1000", "--v", "1", "--mass", "0.001309", "--radius", "0.005", "--e", "0.5"], ["value", "e_mean"], "engine ode spring-damper");
  // an e out of reach: the page says so with the CLI's range
  await page.selectOption("#engine-model", "erp-cfm");
  await page.waitForSelector('#engine-settings input[data-setting="cfm"]');
  await page.fill('#engine-settings input[data-setting="cfm"]', "1e-5");
  await fill("engine-dt", "1e-3");
  await compute("engine");
  {
    const c = cliAnswer(["engine", "--code", "ode", "--version", "0.16.2", "--model", "erp-cfm", "--integrator", "step", "--dt", "1e-3",
      "--cfm", "1e-5", "--v", "1", "--mass", "0.001309", "--radius", "0.005", "--e", "0.5"]);
    const txt = await cell("engine", "unreachable");
    check(c.json && c.json.reachable === 0 && txt !== null, `engine ode erp-cfm cfm 1e-5: out of reach on the page too: "${txt}"`);
  }
  await page.selectOption("#engine-model", "spring-damper");
  await page.waitForSelector('#engine-settings input[data-setting="kp"]');
  await fill("engine-dt", "1e-4");
  await page.fill('#engine-settings input[data-setting="kp"]', "-5");
  await compute("engine");
  {
    const c = cliAnswer(["engine", "--code", "ode", "--version", "0.16.2", "--model", "spring-damper", "--integrator", "step", "--dt", "1e-4",
      "--kp", "-5", "--v", "1", "--mass", "0.001309", "--radius", "0.005", "--e", "0.5"]);
    check(c.status !== 0 && (await cell("engine", "error")) === c.err, `engine ode kp -5: the page says the CLI's "${c.err}"`);
  }

  // ---- 420 px: one column, nothing wider than the window
  await page.setViewportSize({ width: 420, height: 900 });
  await page.selectOption("#engine-code", "mujoco");
  await page.waitForSelector('#engine-settings input[data-setting="solref"]');
  await compute("engine");
  await page.waitForFunction(() => document.querySelectorAll("#ans-engine figure").length === 3, null, { timeout: 300000 });
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  check(wide <= 420, `420 px: the page is ${wide} px wide (no horizontal scrolling)`);
  await page.screenshot({ path: path.join(shotdir, "engine-420.png"), fullPage: true });
  await tab("copt");
  await fill("copt-e", "0.7");
  await fill("copt-n", "1.5");
  await fill("copt-mass", "0.05");
  await fill("copt-v", "2");
  await compute("copt");
  await page.waitForSelector("#ans-copt figure", { timeout: 60000 });
  await page.screenshot({ path: path.join(shotdir, "copt-420.png"), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: path.join(shotdir, "copt-1280.png") });
  // where a browser refuses the worker: the same answers on the page's own thread
  await page.goto(url + "?inpage");
  await page.waitForFunction(() => document.body.dataset.ready === "1", null, { timeout: 60000 });
  check(/on the page/.test(await page.textContent("#status")), "index.html?inpage: the module runs on the page itself");
  await compute("copt");
  await compareKeys("copt", ["copt", "--n", "1.5", "--e", "0.7", "--k", "1e8", "--mass", "0.05", "--v", "2"], ["c_opt", "e_out"], "copt on the page's thread");
  check(consoleErrors.length === 0, `no error in the browser's console${consoleErrors.length ? ": " + consoleErrors.join(" | ") : ""}`);
  await ctx.close();
  fs.rmSync(profile, { recursive: true, force: true });
  console.log(`page_test: screenshots in ${shotdir}`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(String((e && e.stack) || e).slice(0, 2000));
  process.exit(1);
});
