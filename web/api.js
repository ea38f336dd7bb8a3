// SPDX-License-Identifier: GPL-3.0-or-later
// The module's API, shared by the page's worker (worker.js) and the tests under node
// (tests/web/wasm_answers.js): one function that turns the instantiated WebAssembly module
// (impactfit-core.js) into calls that return plain objects. docs/WEB.md describes it.
//
//   const api = await impactfitApi(impactfitCoreSource());
//   api.command(["copt", "--n", "1.5", "--e", "0.7", "--json"])
//     -> {status: 0, out: ['{"n":1.5,...}'], err: []}         (the CLI's exit status, stdout, stderr lines)
//   api.registry()  -> {codes: [...], dem: [...], engine: [...]}  (every entry of the registries)
//   api.lookup({kind: "engine", code: "mujoco", version: "", model: ""}) -> {ok: 1, index, version} | {ok: 0, error}
//   api.curve({code: ..., value: ..., dt: ..., ...settings}) -> e over the phase and one impact's force loop
//   api.trace(words) -> {status, out, err, csv}: simulate with --trace (the CSV text of the trajectory)
/* exported-by-name: impactfitApi */
async function impactfitApi(factory) {
  const sink = { out: [], err: [] };
  const M = await factory({
    print: (line) => sink.out.push(line),
    printErr: (line) => sink.err.push(line),
  });
  const text = (ptr) => {
    if (!ptr) throw new Error("impactfit: out of memory in the WebAssembly module");
    const s = M.UTF8ToString(ptr);
    M._impactfit_wasm_free(ptr);
    return s;
  };
  const lines = (obj) =>
    Object.keys(obj)
      .filter((k) => obj[k] !== undefined && obj[k] !== null && obj[k] !== "")
      .map((k) => (k === "settings" ? obj[k].map((s) => "set=" + s).join("\n") : k + "=" + obj[k]))
      .filter((l) => l !== "")
      .join("\n");
  const api = {
    command(words) {
      for (const w of words)
        if (String(w).indexOf("\n") >= 0) return { status: 2, out: [], err: ["impactfit: error: a newline in '" + w + "'"] };
      sink.out = [];
      sink.err = [];
      const status = M.ccall("impactfit_wasm_command", "number", ["string"], [words.join("\n")]);
      return { status, out: sink.out.slice(), err: sink.err.slice() };
    },
    registry() {
      return JSON.parse(text(M._impactfit_wasm_registry()));
    },
    lookup(q) {
      return JSON.parse(text(M.ccall("impactfit_wasm_lookup", "number", ["string"], [lines(q)])));
    },
    curve(q) {
      return JSON.parse(text(M.ccall("impactfit_wasm_engine_curve", "number", ["string"], [lines(q)])));
    },
    trace(words) {
      const path = "/tmp/impactfit-trace.csv";
      const r = api.command(words.concat(["--trace", path, "--trace-points", "401"]));
      try {
        r.csv = M.FS.readFile(path, { encoding: "utf8" });
        M.FS.unlink(path);
      } catch (e) {
        r.csv = "";
      }
      return r;
    },
  };
  return api;
}
if (typeof module === "object" && module.exports) module.exports = impactfitApi;
