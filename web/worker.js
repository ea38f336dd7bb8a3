// SPDX-License-Identifier: GPL-3.0-or-later
// The page's Web Worker (docs/WEB.md): it instantiates the module and answers the page's requests,
// so that a long answer (an engine's inverse, e against dt) never blocks the page. app.js starts it
// from the text of these functions (a blob: a page opened from file:// may not load a worker file),
// or, where a browser refuses even that, runs the same function on the page itself.
//
// A request {id, op, args}; the answers {id, result} or {id, error}, and {id, progress: [done, total]}
// while e against dt runs (one CLI answer per step size). ops: registry, lookup, command, trace, curve, edt.
/* exported-by-name: impactfitWorker */
function impactfitWorker(self, coreSource, apiFactory) {
  const t0 = Date.now();
  const ready = apiFactory(coreSource()).then((api) => {
    self.postMessage({ id: 0, ready: Date.now() - t0 });
    return api;
  });
  const edt = (api, id, a) => {
    // e against dt at the answer's value: the CLI's own forward answer at each step size
    const out = [];
    for (let i = 0; i < a.dts.length; i++) {
      const r = api.command(a.words.concat(["--dt", String(a.dts[i]), "--json"]));
      let row = null;
      if (r.status === 0 && r.out.length) row = JSON.parse(r.out[0]);
      out.push({ dt: a.dts[i], status: r.status, answer: row, error: r.err.join(" ") });
      self.postMessage({ id, progress: [i + 1, a.dts.length] });
    }
    return out;
  };
  self.onmessage = (ev) => {
    const { id, op, args } = ev.data;
    ready
      .then((api) => {
        let result;
        if (op === "registry") result = api.registry();
        else if (op === "lookup") result = api.lookup(args);
        else if (op === "command") result = api.command(args);
        else if (op === "trace") result = api.trace(args);
        else if (op === "curve") result = api.curve(args);
        else if (op === "edt") result = edt(api, id, args);
        else throw new Error("unknown request " + op);
        self.postMessage({ id, result });
      })
      .catch((e) => self.postMessage({ id, error: String((e && e.message) || e) }));
  };
}
