// SPDX-License-Identifier: GPL-3.0-or-later
// The fixed grid of requests that the WebAssembly module must answer as the CLI does
// (tests/web/wasm_answers.js, and a part of it through the page: tests/web/page_test.js): every
// question the page offers, every entry of the DEM and engine registries (taken from the module's own
// listing, so a new entry is in the grid without editing this file), and bad input whose one-line
// message and exit status must be the CLI's.

// values for the settings an engine requires besides its free parameter (the registry has no default)
const SAMPLE_SETTING = { solref: "-1000,-10", cfm: "1e-7", stiffness: "1e7,1e9", kp: "1000", erp: "0.2" };
// DEM inputs by what a model's stiffness comes from
const DEM_STIFFNESS = {
  material: ["--E", "1e8", "--nu", "0.3"],
  tc: ["--tc", "1e-4"],
  kn: { Pa: ["--kn", "1e8"], "N/m": ["--kn", "1000"], "": ["--kn", "1000"] },
};
const BODY = ["--v", "1", "--mass", "0.001309", "--radius", "0.005"];

function demBase(m) {
  const w = ["dem", "--code", m.code, "--version", m.first_version, "--model", m.model];
  if (m.damping) w.push("--damping", m.damping);
  if (m.stiffness === "kn") w.push(...(DEM_STIFFNESS.kn[m.kn_unit] || DEM_STIFFNESS.kn[""]));
  else w.push(...DEM_STIFFNESS[m.stiffness]);
  return w.concat(["--radius", "0.005", "--density", "2500"]);
}

// the first version of an engine entry's range (its key a·10⁶ + b·10³ + c), or none (the default)
function engineVersion(m) {
  const k = m.version_min;
  return k > 0 ? `${Math.floor(k / 1e6)}.${Math.floor(k / 1e3) % 1000}.${k % 1000}` : "";
}

function engineBase(m) {
  const w = ["engine", "--code", m.code];
  if (engineVersion(m)) w.push("--version", engineVersion(m));
  w.push("--model", m.model);
  for (const inp of m.inputs) {
    const required = inp.def.some((x) => x === null);
    if (required && SAMPLE_SETTING[inp.name]) w.push("--" + inp.name, SAMPLE_SETTING[inp.name]);
  }
  if (!(m.dt_default > 0) && m.adaptive !== m.integrators) w.push("--dt", "1e-4");
  return w;
}

// [words, what] pairs; every request ends with --json (the bad ones too: the CLI checks first)
function requests(registry) {
  const out = [];
  const add = (words, what) => out.push({ words: words.concat(["--json"]), what });
  const dims = ["--k", "1e8", "--mass", "0.05", "--v", "2"];
  // copt: any n, e up to 1, scaled and in units
  for (const n of ["1", "1.5", "2.2"])
    for (const e of ["0.05", "0.3", "0.7", "0.95", "1"]) {
      add(["copt", "--n", n, "--e", e], "copt");
      add(["copt", "--n", n, "--e", e].concat(dims), "copt");
    }
  // Zhang's alpha and lambda: any m, both end conditions
  for (const n of ["1", "1.5"])
    for (const m of ["0", "0.25", "1.5"])
      for (const tr of ["C", "A"])
        for (const e of ["0.2", "0.6", "0.9"])
          add(["zhang-alpha", "--n", n, "--m", m, "--e", e, "--transition", tr].concat(e === "0.6" ? dims : []), "zhang");
  // Hunt-Crossley eps
  for (const e of ["0.01", "0.1", "0.5", "0.9", "0.999"]) {
    add(["hc-eps", "--e", e], "hc-eps");
    add(["hc-eps", "--e", e, "--k", "1e8", "--v", "2"], "hc-eps");
  }
  // one impact
  for (const tr of ["C", "A"])
    for (const [n, m, c] of [["1.5", "0", "66.2788628110104"], ["1.5", "1.5", "3e7"], ["1", "0", "2000"]])
      add(["simulate", "--n", n, "--m", m, "--c", c, "--transition", tr].concat(dims), "simulate");
  // every DEM entry: the exact input for e, and what a typed value gives
  for (const m of registry.dem) {
    const base = demBase(m);
    for (const e of ["0.3", "0.8"]) add(base.concat(["--e", e, "--v", "1"]), "dem " + m.code);
    if (m.clamp_switch) add(base.concat(["--e", "0.5", "--v", "1", "--limit", "on"]), "dem " + m.code);
    if (m.takes_e) add(base.concat(["--value", "0.5", "--v", "1", "--wall"]), "dem " + m.code);
  }
  // every engine entry: every integrator at e = 0.5, the default one at e = 0.2 and two spheres; but
  // Chrono's explicit integrators with a nonlinear spring, whose inverse takes minutes in the native
  // library too (runge-kutta for Hertz at dt = 1e-4: 190 s; at 1e-5 and 1e-6 over 30 s)
  const slow = (m, integ) => m.code === "chrono" && !/^Hooke/.test(m.model) && /^(euler-explicit|runge-kutta|heun)$/.test(integ);
  for (const m of registry.engine) {
    const base = engineBase(m);
    for (const integ of m.integrators.split(",").filter((i) => !slow(m, i)))
      add(base.concat(["--integrator", integ, "--e", "0.5"]).concat(BODY), "engine " + m.code);
    add(base.concat(["--e", "0.2", "--v", "1", "--mass", "0.001309", "--radius", "0.005", "--m2", "0.002", "--r2", "0.01"]), "engine " + m.code);
    add(base.concat(BODY), "engine " + m.code); // forward: what the settings as they are give (or the message)
  }
  // bad input: the CLI's message and exit status
  const bad = [
    ["copt", "--n", "1.5", "--e", "1.5"],
    ["copt", "--n", "-1", "--e", "0.5"],
    ["copt", "--n", "1.5", "--e", "0.5", "--k", "1e8"],
    ["copt", "--e", "0.5"],
    ["zhang-alpha", "--n", "1.5", "--m", "0.5", "--e", "1"],
    ["zhang-alpha", "--n", "1.5", "--m", "0.5", "--e", "0.5", "--transition", "B"],
    ["hc-eps", "--e", "0"],
    ["hc-eps", "--e", "abc"],
    ["simulate", "--n", "1.5", "--c", "1", "--k", "-3", "--mass", "1", "--v", "1"],
    ["dem", "--code", "lamps", "--model", "granular hertz/material", "--e", "0.5", "--v", "1"],
    ["dem", "--code", "lammps", "--model", "granular hertz/material", "--damping", "tsuji", "--E", "1e8", "--nu", "0.3",
      "--radius", "0.005", "--density", "2500", "--e", "0.5", "--v", "1", "--version", "1999"],
    ["engine", "--code", "mujoco", "--e", "0.5", "--v", "1"],
    ["engine", "--code", "mujoko", "--e", "0.5", "--v", "1", "--mass", "1"],
    ["engine", "--code", "mujoco", "--integrator", "rk5", "--e", "0.5", "--v", "1", "--mass", "1"],
    ["engine", "--code", "mujoco", "--solref", "0.02", "--e", "0.5", "--v", "1", "--mass", "1"],
    ["engine", "--code", "ode", "--e", "0.5", "--v", "1", "--mass", "1"],
    ["engine", "--code", "mujoco", "--e", "1.2", "--v", "1", "--mass", "1"],
    ["engine", "--code", "simbody", "--model", "CompliantContactSubsystem", "--e", "0.5", "--v", "1", "--mass", "1"],
  ];
  for (const b of bad) add(b, "bad input");
  return out;
}

module.exports = { requests, demBase, engineBase, engineVersion };
