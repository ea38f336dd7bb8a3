// SPDX-License-Identifier: GPL-3.0-or-later
// The calculator page (docs/WEB.md). Every answer is a command of the impactfit program run by the
// WebAssembly module in a Web Worker (worker.js): the page builds the command line from the form,
// shows it, and shows the CLI's JSON answer, its error line, and the pictures. The DEM codes and the
// engines, their models, settings and defaults come from the module's registry listing.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const status = $("status");
  const setStatus = (text, busy) => {
    status.textContent = text;
    status.classList.toggle("busy", !!busy);
  };

  // ---- the worker: started from the text of its functions (a page from file:// may load no worker file)
  let worker = null, inPage = false, nextId = 1;
  const pending = new Map();
  let readyMs = null, onReady = null;
  const ready = new Promise((res) => (onReady = res));
  const onMessage = (m) => {
    if (m.id === 0 && m.ready !== undefined) {
      readyMs = m.ready;
      onReady();
      return;
    }
    const p = pending.get(m.id);
    if (!p) return;
    if (m.progress) return p.progress && p.progress(m.progress);
    pending.delete(m.id);
    if (m.error) p.reject(new Error(m.error));
    else p.resolve(m.result);
  };
  const startInPage = () => {
    // the same worker function on the page itself (a browser that refuses a blob worker)
    inPage = true;
    const fake = { postMessage: (m) => setTimeout(() => onMessage(m), 0) };
    impactfitWorker(fake, impactfitCoreSource, impactfitApi);
    worker = { postMessage: (m) => setTimeout(() => fake.onmessage({ data: m }), 0) };
  };
  try {
    // index.html?inpage: the page's own thread, as where a browser refuses the worker (tests/web/page_test.js)
    if (/[?&]inpage\b/.test(location.search)) throw new Error("inpage");
    const src =
      "var impactfitCoreSource = " + impactfitCoreSource.toString() + ";\n" +
      "var impactfitApi = " + impactfitApi.toString() + ";\n" +
      "(" + impactfitWorker.toString() + ")(self, impactfitCoreSource, impactfitApi);\n";
    const url = URL.createObjectURL(new Blob([src], { type: "text/javascript" }));
    worker = new Worker(url);
    worker.onmessage = (ev) => onMessage(ev.data);
    worker.onerror = () => {
      if (readyMs === null && !inPage) startInPage();
    };
  } catch (e) {
    startInPage();
  }
  const t0 = performance.now();
  const ask = (op, args, progress) =>
    ready.then(
      () =>
        new Promise((resolve, reject) => {
          const id = nextId++;
          pending.set(id, { resolve, reject, progress });
          worker.postMessage({ id, op, args });
        }),
    );

  // ---- small helpers
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
  const num = (x) => (x === null || x === undefined ? "—" : typeof x === "number" ? String(x) : esc(x));
  const val = (id) => $(id).value.trim();
  const pow = (x, p) => (p === 0 ? "" : p === 1 ? x + " " : `${x}<sup>${p}</sup> `);
  const quote = (w) => (/^[A-Za-z0-9_.,:/+=-]+$/.test(w) ? w : "'" + w.replace(/'/g, "'\\''") + "'");
  const cliLine = (words) => "impactfit " + words.filter((w) => w !== "--json").map(quote).join(" ");
  const table = (rows) =>
    '<table class="result">' +
    rows.filter((r) => r).map(([k, v, key]) => `<tr><th>${k}</th><td${key ? ` data-key="${key}"` : ""}>${v}</td></tr>`).join("") +
    "</table>";
  const pasteBox = (text, id) =>
    `<pre class="paste" id="${id}"><button type="button" data-copy="${id}">copy</button><code>${esc(text)}</code></pre>`;
  const errorBox = (lines) => `<div class="error" data-key="error">${lines.map(esc).join("<br>")}</div>`;
  const figure = (svg, caption) => {
    const f = document.createElement("figure");
    f.appendChild(svg);
    const c = document.createElement("figcaption");
    c.textContent = caption;
    f.appendChild(c);
    return f;
  };
  document.addEventListener("click", (ev) => {
    const id = ev.target.getAttribute && ev.target.getAttribute("data-copy");
    if (!id) return;
    const text = $(id).querySelector("code").textContent;
    const done = () => {
      ev.target.textContent = "copied";
      setTimeout(() => (ev.target.textContent = "copy"), 1500);
    };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, done);
    else {
      const ta = document.createElement("textarea");
      ta.value = text;
      document.body.appendChild(ta);
      ta.select();
      try { document.execCommand("copy"); } catch (e) { /* the text stays selectable */ }
      ta.remove();
      done();
    }
  });
  // a command with the status line showing how long it has run
  const run = (op, words, what) => {
    const tStart = performance.now();
    setStatus(what + "…", true);
    const tick = setInterval(() => setStatus(`${what}… ${((performance.now() - tStart) / 1000).toFixed(1)} s`, true), 200);
    return ask(op, words).finally(() => {
      clearInterval(tick);
      setStatus(`${what}: ${((performance.now() - tStart) / 1000).toFixed(2)} s`);
    });
  };
  const parse = (r) => (r.status === 0 && r.out.length ? JSON.parse(r.out[0]) : null);
  const loopFigure = (csv, caption, si) => {
    const rows = csv.split("\n").slice(1).filter((l) => l).map((l) => l.split(",").map(Number));
    const d = [], f = [];
    for (const r of rows) if (r[5] === 1) { d.push(r[1]); f.push(r[3]); }
    return figure(
      impactfitPlot({ title: "force against penetration, one impact", xlabel: si ? "penetration δ (m)" : "penetration δ (scaled)",
        ylabel: si ? "force (N)" : "force (scaled)", series: [{ x: d, y: f, color: "#1f5fbf" }] }),
      caption,
    );
  };
  // the units of a form: every field given or none (the CLI says which when a part is given)
  const units = (pairs) => {
    const w = [];
    for (const [opt, id] of pairs) if (val(id) !== "") w.push(opt, val(id));
    return w;
  };

  // ---- tabs
  document.querySelectorAll("#tabs button").forEach((b) =>
    b.addEventListener("click", () => {
      document.querySelectorAll("#tabs button").forEach((x) => x.setAttribute("aria-selected", x === b ? "true" : "false"));
      document.querySelectorAll(".tab").forEach((s) => (s.hidden = s.id !== "tab-" + b.dataset.tab));
    }),
  );
  const busy = (form, on) => form.querySelectorAll("button[type=submit]").forEach((b) => (b.disabled = on));

  // ---- c for Hertz + damper (copt)
  $("form-copt").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const out = $("ans-copt");
    const u = units([["--k", "copt-k"], ["--mass", "copt-mass"], ["--v", "copt-v"]]);
    const words = ["copt", "--n", val("copt-n"), "--e", val("copt-e")].concat(u, ["--json"]);
    busy(ev.target, true);
    try {
      const r = await run("command", words, "c_opt");
      const a = parse(r);
      if (!a) return (out.innerHTML = errorBox(r.err) + `<p class="cli">${esc(cliLine(words))}</p>`);
      const unit = u.length ? " N·s/m" : " (scaled: k = mass = v = 1)";
      out.innerHTML =
        "<h3>The damping</h3>" +
        table([
          ["c", `<b>${num(a.c_opt)}</b>${unit}`, "c_opt"],
          ["e of one impact with it", num(a.e_out), "e_out"],
          ["ζ (scaled damping)", num(a.zeta), "zeta"],
          ["contact duration", num(a.t_contact) + (u.length ? " s" : ""), "t_contact"],
          ["penetration at separation", num(a.delta_sep) + (u.length ? " m" : ""), "delta_sep"],
        ]) +
        `<p class="cli">${esc(cliLine(words))}</p><div class="figs"></div>`;
      const sim = ["simulate", "--n", val("copt-n"), "--c", String(a.c_opt)].concat(u, ["--json"]);
      const t = await run("trace", sim, "one impact simulated");
      if (t.csv) out.querySelector(".figs").appendChild(loopFigure(t.csv, `${cliLine(sim)} --trace: the loop's area is the energy the damper takes`, u.length > 0));
    } finally {
      busy(ev.target, false);
    }
  });

  // ---- Zhang's alpha and lambda
  $("form-zhang").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const out = $("ans-zhang");
    const u = units([["--k", "zhang-k"], ["--mass", "zhang-mass"], ["--v", "zhang-v"]]);
    const base = ["zhang-alpha", "--n", val("zhang-n"), "--m", val("zhang-m"), "--e", val("zhang-e"), "--transition", val("zhang-transition")];
    const words = base.concat(u, ["--json"]);
    busy(ev.target, true);
    try {
      const r = await run("command", words, "α and λ");
      const a = parse(r);
      if (!a) return (out.innerHTML = errorBox(r.err) + `<p class="cli">${esc(cliLine(words))}</p>`);
      out.innerHTML =
        "<h3>The damping</h3>" +
        table([
          ["α", `<b>${num(a.alpha)}</b>`, "alpha"],
          ["λ* (scaled)", num(a.lambda_star), "lambda_star"],
          a.lambda !== undefined ? ["λ", `<b>${num(a.lambda)}</b> N·s/m<sup>${Number(val("zhang-m")) + 1}</sup>`, "lambda"] : null,
          ["e of one impact with it", num(a.e_out), "e_out"],
          ["ζ (scaled damping)", num(a.zeta), "zeta"],
          ["contact ends", a.transition === "C" ? "C: where the force falls to zero" : "A: at δ = 0", "transition"],
        ]) +
        `<p class="cli">${esc(cliLine(words))}</p><div class="figs"></div>`;
      // the loop: with the units given, or in scaled units (lambda for k = mass = v = 1)
      let lam = a.lambda, su = u;
      if (lam === undefined) {
        const s = parse(await ask("command", base.concat(["--k", "1", "--mass", "1", "--v", "1", "--json"])));
        lam = s && s.lambda;
        su = [];
      }
      if (lam !== undefined) {
        const sim = ["simulate", "--n", val("zhang-n"), "--m", val("zhang-m"), "--c", String(lam), "--transition", a.transition].concat(su, ["--json"]);
        const t = await run("trace", sim, "one impact simulated");
        if (t.csv) out.querySelector(".figs").appendChild(loopFigure(t.csv, cliLine(sim) + " --trace", su.length > 0));
      }
    } finally {
      busy(ev.target, false);
    }
  });

  // ---- Hunt-Crossley eps
  $("form-hc").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const out = $("ans-hc");
    const words = ["hc-eps", "--e", val("hc-e")].concat(units([["--k", "hc-k"], ["--v", "hc-v"]]), ["--json"]);
    busy(ev.target, true);
    try {
      const r = await run("command", words, "ε");
      const a = parse(r);
      if (!a) return (out.innerHTML = errorBox(r.err) + `<p class="cli">${esc(cliLine(words))}</p>`);
      out.innerHTML =
        "<h3>The damping ratio</h3>" +
        table([
          ["ε", `<b>${num(a.eps)}</b>`, "eps"],
          a.lambda !== undefined ? ["λ = ε k / v", `<b>${num(a.lambda)}</b> N·s/m<sup>n+1</sup>`, "lambda"] : null,
          ["formula", esc(a.formula), "formula"],
        ]) +
        `<p class="cli">${esc(cliLine(words))}</p>`;
    } finally {
      busy(ev.target, false);
    }
  });

  // ---- the registry: DEM codes and engines
  let REG = null;
  const uniq = (xs) => xs.filter((x, i) => xs.indexOf(x) === i);
  const fill = (sel, items, keep) => {
    const old = sel.value;
    sel.innerHTML = items.map(([v, t]) => `<option value="${esc(v)}">${esc(t)}</option>`).join("");
    if (keep && items.some(([v]) => v === old)) sel.value = old;
  };
  // the codes of a kind, those of that kind alone first (Chrono, in both, after the others)
  const codesOf = (kind) =>
    REG.codes.filter((c) => c.kind === kind).concat(REG.codes.filter((c) => c.kind !== kind && c.kind.split("+").includes(kind)));

  // DEM
  let demEntry = null;
  const demCodeChanged = () => {
    const code = val("dem-code");
    const c = REG.codes.find((x) => x.code === code);
    $("dem-version").value = c ? c.version : "";
    $("dem-versions").innerHTML = uniq(REG.dem.filter((m) => m.code === code).map((m) => m.first_version)).map((v) => `<option value="${esc(v)}">`).join("");
    fill($("dem-model"), uniq(REG.dem.filter((m) => m.code === code).map((m) => m.model)).map((m) => [m, m]));
    demModelChanged();
  };
  const demModelChanged = () => {
    const code = val("dem-code"), model = val("dem-model");
    const opts = uniq(REG.dem.filter((m) => m.code === code && m.model === model).map((m) => m.damping)).filter((d) => d);
    fill($("dem-damping"), [["", opts.length ? "the code's default" : "(the model has one)"]].concat(opts.map((d) => [d, d])), true);
    demLookup();
  };
  const demLookup = async () => {
    const r = await ask("lookup", { kind: "dem", code: val("dem-code"), version: val("dem-version"), model: val("dem-model"), damping: val("dem-damping") });
    const box = $("dem-stiffness");
    demEntry = r.ok ? REG.dem[r.index] : null;
    const m = demEntry || REG.dem.find((x) => x.code === val("dem-code") && x.model === val("dem-model"));
    const field = (id, label, value) => `<label>${label} <input id="${id}" value="${value}" inputmode="decimal"></label>`;
    const keep = (id, d) => ($(id) ? $(id).value : d);
    let html = "";
    if (m && m.stiffness === "material") html = '<div class="row">' + field("dem-E", "E (Pa)", keep("dem-E", "1e8")) + field("dem-nu", "ν", keep("dem-nu", "0.3")) + "</div>";
    else if (m && m.stiffness === "tc") html = field("dem-tc", "contact time tc (s)", keep("dem-tc", "1e-4"));
    else if (m) html = field("dem-kn", `kn (${esc(m.kn_unit || "the code's units")})`, keep("dem-kn", m.kn_unit === "Pa" ? "1e8" : "1000"));
    if (m && m.vchar) html += field("dem-vchar", "characteristic velocity (m/s; empty: the impact speed)", keep("dem-vchar", ""));
    box.innerHTML = html + (r.ok ? "" : `<p class="note" data-key="lookup">${esc(r.error)}</p>`);
    $("dem-limit-row").hidden = !(m && m.clamp_switch);
    $("dem-limit-row").firstChild.textContent = m && m.clamp_switch ? `force clamp (${m.clamp_switch}) ` : "force clamp ";
  };
  const geometry = (prefix) => {
    const g = val(prefix + "-geometry");
    document.querySelectorAll(`#form-${prefix} .body2`).forEach((l) => (l.hidden = g !== "sphere"));
  };
  $("dem-code").addEventListener("change", demCodeChanged);
  $("dem-model").addEventListener("change", demModelChanged);
  $("dem-damping").addEventListener("change", demLookup);
  $("dem-version").addEventListener("change", demLookup);
  $("dem-geometry").addEventListener("change", () => geometry("dem"));
  const demWords = () => {
    const w = ["dem", "--code", val("dem-code")];
    if (val("dem-version")) w.push("--version", val("dem-version"));
    w.push("--model", val("dem-model"));
    if (val("dem-damping")) w.push("--damping", val("dem-damping"));
    for (const [opt, id] of [["--E", "dem-E"], ["--nu", "dem-nu"], ["--kn", "dem-kn"], ["--tc", "dem-tc"], ["--vchar", "dem-vchar"]])
      if ($(id) && val(id) !== "") w.push(opt, val(id));
    if (!$("dem-limit-row").hidden && val("dem-limit")) w.push("--limit", val("dem-limit"));
    const g = val("dem-geometry");
    if (g === "wall") w.push("--wall");
    w.push("--r1", val("dem-r1"), "--m1", val("dem-m1"));
    if (g === "sphere") w.push("--r2", val("dem-r2"), "--m2", val("dem-m2"));
    return w.concat(["--e", val("dem-e"), "--v", val("dem-v"), "--json"]);
  };
  $("form-dem").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const out = $("ans-dem");
    const words = demWords();
    busy(ev.target, true);
    try {
      const r = await run("command", words, "the DEM input");
      const a = parse(r);
      if (!a) return (out.innerHTML = errorBox(r.err) + `<p class="cli">${esc(cliLine(words))}</p>`);
      const shown = a.param === "e" ? "e" : `${a.param} (${a.param_unit})`;
      out.innerHTML =
        `<h3>Paste into ${esc(a.code)} ${esc(a.version)}${a.run_here ? "" : " <span class=note>(formula only: not run here)</span>"}</h3>` +
        (a.reachable ? pasteBox(a.input, "dem-paste") : `<p class="error">${esc(a.note)}</p>`) +
        (a.e_naive !== null && a.e_naive !== undefined
          ? `<p class="naive">Typing e = ${num(a.e_asked)} as it is gives <b data-key="e_naive">${num(a.e_naive)}</b>` +
            (a.speed_dependent && a.e_naive_range ? ` (${num(a.e_naive_range[0])} to ${num(a.e_naive_range[1])} over the speeds)` : "") + ".</p>"
          : "") +
        table([
          ["type " + esc(shown), `<b>${num(a.value)}</b>`, "value"],
          ["e it gives", a.e_range ? `${num(a.e_range[0])} to ${num(a.e_range[1])}` : "—", "e_range"],
          ["force", `F = K ${pow("δ", a.n)} + C ${pow("δ", a.m)}δ', K = ${num(a.K)}, C = ${num(a.C)}`, "C"],
          ["effective radius, mass", `${num(a.R)} m, ${num(a.M)} kg`, "M"],
          ["contact ends", a.end === "C" ? "C: the force is clamped at zero" : "A: at δ = 0 (tensile force near the end)", "end"],
        ]) +
        `<p class="note" data-key="note">${esc(a.note)}</p><details><summary>the code's source read</summary><p>${esc(a.source)}</p></details>` +
        `<p class="cli">${esc(cliLine(words))}</p><div class="figs"></div>`;
      if (a.reachable) {
        const sim = ["simulate", "--n", String(a.n), "--m", String(a.m), "--k", String(a.K), "--c", String(a.C), "--mass", String(a.M),
          "--v", val("dem-v"), "--transition", a.end, "--json"];
        const t = await run("trace", sim, "one impact simulated");
        if (t.csv) out.querySelector(".figs").appendChild(loopFigure(t.csv, "the code's force with the input above: " + cliLine(sim) + " --trace", true));
      }
    } finally {
      busy(ev.target, false);
    }
  });

  // engines
  let engEntry = null;
  const engCodeChanged = () => {
    const code = val("engine-code");
    const c = REG.codes.find((x) => x.code === code);
    $("engine-version").value = c ? c.version : "";
    // the first version of each entry's range (key a·10⁶ + b·10³ + c)
    const key = (k) => `${Math.floor(k / 1e6)}.${Math.floor(k / 1e3) % 1000}.${k % 1000}`;
    const firsts = uniq(REG.engine.filter((m) => m.code === code && m.version_min > 0).map((m) => key(m.version_min)));
    $("engine-versions").innerHTML = firsts.map((v) => `<option value="${esc(v)}">`).join("");
    fill($("engine-model"), uniq(REG.engine.filter((m) => m.code === code).map((m) => m.model)).map((m) => [m, m]));
    engLookup();
  };
  const engLookup = async () => {
    const r = await ask("lookup", { kind: "engine", code: val("engine-code"), version: val("engine-version"), model: val("engine-model") });
    const box = $("engine-settings");
    engEntry = r.ok ? REG.engine[r.index] : null;
    if (!engEntry) {
      box.innerHTML = `<p class="note" data-key="lookup">${esc(r.error)}</p>`;
      return;
    }
    const m = engEntry;
    fill($("engine-integrator"), m.integrators.split(",").map((i) => [i, i + (m.adaptive.split(",").includes(i) ? " (adaptive: no dt)" : "")]), true);
    $("engine-dt").value = m.dt_default ? String(m.dt_default) : "";
    $("engine-dt").placeholder = m.dt_default ? "" : "required: the engine has no default";
    integratorChanged();
    box.innerHTML =
      "<fieldset><legend>settings, in the engine's names (defaults filled in)</legend>" +
      m.inputs
        .map((inp) => {
          const def = inp.def.some((x) => x === null) ? "" : inp.def.join(",");
          const solved = inp.name === m.param_input;
          return `<label class="setting">${esc(inp.name)} <span class="unit">[${esc(inp.unit)}]</span>` +
            `<input data-setting="${esc(inp.name)}" data-default="${esc(def)}" value="${esc(def)}" placeholder="${solved ? "solved for (or give it: what it gives)" : def ? "" : "required"}">` +
            `<span class="what">${esc(inp.help)}${solved ? ` — holds ${esc(m.param)}, which the answer solves for` : ""}</span></label>`;
        })
        .join("") +
      "</fieldset>" +
      `<p class="note">solves for ${esc(m.param)} (${esc(m.param_unit)})${m.run_here ? "" : " · formula only: not run here"}</p>`;
  };
  const integratorChanged = () => {
    const adaptive = engEntry && engEntry.adaptive.split(",").includes(val("engine-integrator"));
    $("engine-dt").disabled = !!adaptive;
  };
  $("engine-code").addEventListener("change", engCodeChanged);
  $("engine-model").addEventListener("change", engLookup);
  $("engine-version").addEventListener("change", engLookup);
  $("engine-integrator").addEventListener("change", integratorChanged);
  $("engine-geometry").addEventListener("change", () => geometry("engine"));
  const engSettings = () => {
    const s = [];
    document.querySelectorAll("#engine-settings input[data-setting]").forEach((i) => {
      const v = i.value.trim().replace(/\s+/g, "");
      if (v !== "" && v !== i.dataset.default) s.push([i.dataset.setting, v]);
    });
    return s;
  };
  const engWords = (withE) => {
    const w = ["engine", "--code", val("engine-code")];
    if (val("engine-version")) w.push("--version", val("engine-version"));
    w.push("--model", val("engine-model"), "--integrator", val("engine-integrator"));
    if (!$("engine-dt").disabled && val("engine-dt")) w.push("--dt", val("engine-dt"));
    for (const [k, v] of engSettings()) w.push("--" + k, v);
    w.push("--v", val("engine-v"), "--mass", val("engine-mass"), "--radius", val("engine-radius"));
    if (val("engine-geometry") === "sphere") w.push("--m2", val("engine-m2"), "--r2", val("engine-r2"));
    if (withE && val("engine-e") !== "") w.push("--e", val("engine-e"));
    return w;
  };
  $("form-engine").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const out = $("ans-engine");
    const words = engWords(true).concat(["--json"]);
    busy(ev.target, true);
    try {
      const r = await run("command", words, "the engine input");
      const a = parse(r);
      if (!a) return (out.innerHTML = errorBox(r.err) + `<p class="cli">${esc(cliLine(words))}</p>`);
      const adaptive = a.dt === null;
      const inverse = a.e_asked !== null;
      out.innerHTML =
        `<h3>${inverse ? "Paste into" : "Your settings in"} ${esc(a.code)} ${esc(a.version)}, ${esc(a.model)}${a.run_here ? "" : " <span class=note>(formula only: not run here)</span>"}</h3>` +
        (a.reachable || !inverse ? pasteBox(a.input, "engine-paste") : `<p class="error" data-key="unreachable">no ${esc(a.param)} gives e = ${num(a.e_asked)} here${a.e_reach_range ? `: the reachable means are ${num(a.e_reach_range[0])} to ${num(a.e_reach_range[1])}` : ""}</p>`) +
        (inverse && a.naive_value !== null
          ? `<p class="naive">The usual input, ${esc(a.param)} = ${num(a.naive_value)} (${esc(a.naive)}), gives <b data-key="e_naive">${num(a.e_naive)}</b>` +
            (adaptive || !a.e_naive_range ? "" : ` (one impact: ${num(a.e_naive_range[0])} to ${num(a.e_naive_range[1])})`) + ".</p>"
          : "") +
        table([
          [esc(a.param), `<b>${num(a.value)}</b>`, "value"],
          [adaptive ? "e" : "mean e over the phase", `<b>${num(a.e_mean)}</b>`, "e_mean"],
          adaptive ? null : ["one impact's e", `${num(a.e_min)} to ${num(a.e_max)}`, "e_min"],
          ["continuous-time e (dt → 0)", num(a.e_continuous), "e_continuous"],
          ["integrator, dt", `${esc(a.integrator)}, ${adaptive ? "adaptive (no time step)" : num(a.dt) + " s"}`, "dt"],
          ["stable", a.stable ? `yes${a.dt_stable !== null ? ` (up to dt = ${num(a.dt_stable)} s)` : ""}` : `<span class="error">no: the largest stable dt is ${num(a.dt_stable)} s</span>`, "stable"],
          ["effective mass", num(a.mass) + " kg", "mass"],
        ]) +
        `<p class="note" data-key="note">${esc(a.note)}</p><details><summary>law, end, source</summary><p>${esc(engEntry ? engEntry.law : "")}</p><p>end: ${esc(a.end)}</p><p>${esc(a.source)}</p></details>` +
        `<p class="cli">${esc(cliLine(words))}</p><div class="progress" hidden><div></div></div><div class="figs"></div>`;
      if (a.value === null) return;
      const figs = out.querySelector(".figs");
      // e over the phase and one impact's loop: the stepper of this answer
      const q = {
        code: a.code, version: a.version, model: a.model, integrator: a.integrator, dt: adaptive ? "" : String(a.dt), v: val("engine-v"),
        mass: val("engine-mass"), radius: val("engine-radius"), value: String(a.value),
        m2: val("engine-geometry") === "sphere" ? val("engine-m2") : "", r2: val("engine-geometry") === "sphere" ? val("engine-r2") : "",
        settings: engSettings().map(([k, v]) => k + "=" + v),
      };
      const c = await run("curve", q, "e over the phase");
      if (c.ok) {
        const hl = a.e_mean === null ? [] : [{ y: a.e_mean, label: "mean " + a.e_mean.toFixed(4), color: "#c0392b" }];
        if (inverse) hl.push({ y: a.e_asked, label: "asked", color: "#27ae60" });
        figs.appendChild(figure(impactfitPlot({ title: "e over the phase of the first contact step", xlabel: "phase φ", ylabel: "e",
          series: [{ x: c.phi, y: c.e, color: "#1f5fbf" }], hlines: hl }),
          adaptive ? "an adaptive integrator takes no fixed step: the same e at every phase" : `one impact's e when the first contact step falls at phase φ (dt = ${a.dt} s)`));
        figs.appendChild(figure(impactfitPlot({ title: "force against penetration, one impact", xlabel: "penetration δ (m)", ylabel: "force (N)",
          series: [{ x: c.loop.x, y: c.loop.f, color: "#1f5fbf", points: c.loop.x.length < 80 ? 2.5 : 0, line: true }] }),
          adaptive ? "the law itself (RK4 at 1/400 of the contact)" : `the force of each of the engine's ${c.loop.steps} steps against the penetration at its middle, phase ${c.loop.phi}`));
      } else figs.insertAdjacentHTML("beforeend", errorBox([c.error]));
      // e against dt: the CLI's forward answer at 13 step sizes around the user's (progress line)
      if (!adaptive) {
        const bar = out.querySelector(".progress");
        bar.hidden = false;
        const dts = [];
        for (let i = -6; i <= 6; i++) dts.push(+(a.dt * Math.pow(10, i / 6)).toPrecision(6));
        const base = engWords(false).filter((w, i, all) => !(w === "--dt" || all[i - 1] === "--dt"));
        base.push("--value", String(a.value));
        const tStart = performance.now();
        const rows = await ask("edt", { words: base, dts }, ([done, total]) => {
          bar.firstChild.style.width = (100 * done) / total + "%";
          setStatus(`e against dt: ${done} of ${total} step sizes, ${((performance.now() - tStart) / 1000).toFixed(1)} s`, true);
        });
        setStatus(`e against dt: ${dts.length} step sizes in ${((performance.now() - tStart) / 1000).toFixed(1)} s`);
        bar.hidden = true;
        const pick = (k) => rows.map((x) => (x.answer && x.answer.stable ? x.answer[k] : NaN));
        const hl = inverse ? [{ y: a.e_asked, label: "asked", color: "#27ae60" }] : [];
        figs.appendChild(figure(impactfitPlot({ title: "e against the time step", xlabel: "dt (s)", ylabel: "e", xlog: true,
          series: [{ x: dts, y: pick("e_mean"), label: "mean over φ", color: "#1f5fbf", points: 2.5, line: true },
            { x: dts, y: pick("e_min"), label: "one impact: min, max", color: "#8aa9d6", dash: "4 3" },
            { x: dts, y: pick("e_max"), color: "#8aa9d6", dash: "4 3" },
            { x: dts, y: pick("e_continuous"), label: "continuous time", color: "#888", dash: "1 3" }],
          hlines: hl, vlines: [{ x: a.dt, color: "#c0392b" }] }),
          `${esc(a.param)} = ${a.value} at 13 step sizes (the red line: your dt); a missing point is an unstable step`));
      }
    } finally {
      busy(ev.target, false);
    }
  });

  // ---- start: the registry fills the DEM and engine forms
  ready.then(() => {
    setStatus(`ready: the module loaded in ${Math.round(performance.now() - t0)} ms (instantiated in ${readyMs} ms${inPage ? ", on the page: this browser refused the worker" : ", in a Web Worker"})`);
    return ask("registry").then((reg) => {
      REG = reg;
      fill($("dem-code"), codesOf("dem").map((c) => [c.code, c.code]));
      fill($("engine-code"), codesOf("engine").map((c) => [c.code, c.code]));
      demCodeChanged();
      engCodeChanged();
      geometry("dem");
      geometry("engine");
      document.body.dataset.ready = "1";
    });
  });
})();
