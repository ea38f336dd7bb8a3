#!/usr/bin/env node
// SPDX-License-Identifier: GPL-3.0-or-later
// How fast the page of web/ is ready from file:// in Debian's Chromium (headless, playwright-core as
// tests/web pins it), with the peer in the same run: an empty page from file:// in the same browser.
// Each run opens a fresh page and waits until the module is instantiated in its worker, the
// registries are listed and the forms filled (document.body.dataset.ready); then one answer (copt)
// and MuJoCo's default engine answer, timed from the click. Prints min, median and max over RUNS.
// usage: node bench/web_load.js [WEBDIR (default web)] [RUNS (default 7)]
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const { chromium } = require(path.join(__dirname, "..", "tests", "web", "node_modules", "playwright-core"));

async function main() {
  const webdir = path.resolve(process.argv[2] || path.join(__dirname, "..", "web"));
  const runs = Number(process.argv[3] || 7);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "impactfit-bench-"));
  const empty = path.join(profile, "empty.html");
  fs.writeFileSync(empty, "<!DOCTYPE html><title>empty</title><body data-ready=1></body>");
  const ctx = await chromium.launchPersistentContext(path.join(profile, "p"), {
    executablePath: "/usr/bin/chromium",
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
  });
  const t = { empty: [], ready: [], instantiate: [], copt: [], engine: [] };
  for (let i = 0; i < runs; i++) {
    const page = await ctx.newPage();
    let t0 = Date.now();
    await page.goto("file://" + empty);
    t.empty.push(Date.now() - t0);
    t0 = Date.now();
    await page.goto("file://" + path.join(webdir, "index.html"));
    await page.waitForFunction(() => document.body.dataset.ready === "1", null, { timeout: 60000 });
    t.ready.push(Date.now() - t0);
    const st = await page.textContent("#status");
    const m = /instantiated in (\d+) ms/.exec(st);
    if (m) t.instantiate.push(Number(m[1]));
    t0 = Date.now();
    await page.click("#copt-go");
    await page.waitForSelector("#ans-copt figure", { timeout: 60000 });
    t.copt.push(Date.now() - t0);
    await page.click('#tabs button[data-tab="engine"]');
    await page.selectOption("#engine-code", "mujoco");
    await page.waitForSelector('#engine-settings input[data-setting="solref"]');
    t0 = Date.now();
    await page.click("#engine-go");
    await page.waitForFunction(() => document.querySelectorAll("#ans-engine figure").length === 3, null, { timeout: 300000 });
    t.engine.push(Date.now() - t0);
    await page.close();
  }
  await ctx.close();
  fs.rmSync(profile, { recursive: true, force: true });
  const stat = (a) => {
    const s = a.slice().sort((x, y) => x - y);
    return `min ${s[0]}, median ${s[Math.floor(s.length / 2)]}, max ${s[s.length - 1]} ms`;
  };
  console.log(`web_load: ${runs} runs, ${webdir}, load average ${os.loadavg().map((x) => x.toFixed(1)).join(" ")}`);
  console.log(`  peer: an empty page from file://       ${stat(t.empty)}`);
  console.log(`  the page ready (module, registry, forms) ${stat(t.ready)}`);
  console.log(`    of which the module's instantiation  ${stat(t.instantiate)}`);
  console.log(`  copt with its loop picture             ${stat(t.copt)}`);
  console.log(`  MuJoCo's default answer, 3 pictures    ${stat(t.engine)}`);
}

main().catch((e) => {
  console.error(String(e && e.message ? e.message : e).slice(0, 2000));
  process.exit(1);
});
