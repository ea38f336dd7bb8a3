// SPDX-License-Identifier: GPL-3.0-or-later
// A small SVG plot for the page's pictures (docs/WEB.md): lines and points on linear or logarithmic
// axes, with ticks, a grid, labels and a legend. No library: the page must open from a file.
//   impactfitPlot({title, xlabel, ylabel, xlog, series: [{x, y, label, color, dash, points, width}],
//                  hlines: [{y, label, color}], vlines: [{x, label, color}]}) -> an <svg> element
/* exported-by-name: impactfitPlot */
function impactfitPlot(o) {
  const W = 440, H = 290, L = 60, R = 12, T = 26, B = 44;
  const NS = "http://www.w3.org/2000/svg";
  const el = (name, attrs, text) => {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const fx = o.xlog ? Math.log10 : (v) => v;
  let xs = [], ys = [];
  for (const s of o.series)
    for (let i = 0; i < s.x.length; i++)
      if (Number.isFinite(s.x[i]) && Number.isFinite(s.y[i]) && (!o.xlog || s.x[i] > 0)) {
        xs.push(fx(s.x[i]));
        ys.push(s.y[i]);
      }
  for (const h of o.hlines || []) if (Number.isFinite(h.y)) ys.push(h.y);
  for (const v of o.vlines || []) if (Number.isFinite(v.x) && (!o.xlog || v.x > 0)) xs.push(fx(v.x));
  if (!xs.length) xs = [0, 1];
  if (!ys.length) ys = [0, 1];
  let x0 = Math.min(...xs), x1 = Math.max(...xs), y0 = Math.min(...ys), y1 = Math.max(...ys);
  if (x1 - x0 < 1e-300) { x0 -= 0.5; x1 += 0.5; }
  if (y1 - y0 < 1e-12 * Math.max(1, Math.abs(y0))) { const d = Math.max(1e-3 * Math.abs(y0), 1e-6); y0 -= d; y1 += d; }
  const pad = 0.05 * (y1 - y0);
  y0 -= pad;
  y1 += pad;
  const X = (v) => L + ((fx(v) - x0) / (x1 - x0)) * (W - L - R);
  const Y = (v) => T + (1 - (v - y0) / (y1 - y0)) * (H - T - B);
  const svg = el("svg", { class: "plot", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": o.title || "" });
  const fmt = (v) => {
    if (v === 0) return "0";
    const a = Math.abs(v);
    return a >= 1e4 || a < 1e-3 ? v.toExponential(1).replace("e+", "e") : String(+v.toPrecision(4));
  };
  const ticks = (a, b, n) => {
    const step0 = (b - a) / n, mag = Math.pow(10, Math.floor(Math.log10(step0)));
    const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= step0);
    const out = [];
    for (let v = Math.ceil(a / step) * step; v <= b + 1e-9 * step; v += step) out.push(Math.abs(v) < 1e-12 * step ? 0 : v);
    return out;
  };
  // grid and ticks
  // log axis: 1, 2, 5 times the powers of ten over a short range, the powers alone over a long one
  const logTicks = () => {
    const out = [], lo = Math.floor(x0), hi = Math.ceil(x1), each = hi - lo <= 3 ? [1, 2, 5] : [1];
    for (let p = lo; p <= hi; p++) for (const m of each) { const v = m * Math.pow(10, p); if (Math.log10(v) >= x0 - 1e-9 && Math.log10(v) <= x1 + 1e-9) out.push(v); }
    return out;
  };
  const xt = o.xlog ? logTicks() : ticks(x0, x1, 5);
  for (const v of xt) {
    const x = X(v);
    svg.appendChild(el("line", { class: "grid", x1: x, x2: x, y1: T, y2: H - B }));
    svg.appendChild(el("text", { x, y: H - B + 15, "text-anchor": "middle" }, o.xlog ? v.toExponential(0).replace("e+", "e") : fmt(v)));
  }
  for (const v of ticks(y0, y1, 5)) {
    const y = Y(v);
    svg.appendChild(el("line", { class: "grid", x1: L, x2: W - R, y1: y, y2: y }));
    svg.appendChild(el("text", { x: L - 6, y: y + 4, "text-anchor": "end" }, fmt(v)));
  }
  svg.appendChild(el("rect", { class: "axis", x: L, y: T, width: W - L - R, height: H - T - B, fill: "none" }));
  if (o.title) svg.appendChild(el("text", { x: L, y: 15, "font-weight": "600" }, o.title));
  if (o.xlabel) svg.appendChild(el("text", { x: (L + W - R) / 2, y: H - 8, "text-anchor": "middle" }, o.xlabel));
  if (o.ylabel)
    svg.appendChild(el("text", { x: 14, y: (T + H - B) / 2, "text-anchor": "middle", transform: `rotate(-90 14 ${(T + H - B) / 2})` }, o.ylabel));
  for (const h of o.hlines || []) {
    if (!Number.isFinite(h.y)) continue;
    svg.appendChild(el("line", { x1: L, x2: W - R, y1: Y(h.y), y2: Y(h.y), stroke: h.color || "#888", "stroke-dasharray": "5 4" }));
  }
  for (const v of o.vlines || []) {
    if (!Number.isFinite(v.x) || (o.xlog && !(v.x > 0))) continue;
    svg.appendChild(el("line", { x1: X(v.x), x2: X(v.x), y1: T, y2: H - B, stroke: v.color || "#888", "stroke-dasharray": "2 3" }));
  }
  // the series, clipped to the frame
  const clipId = "clip" + Math.random().toString(36).slice(2);
  const defs = el("defs", {});
  const cp = el("clipPath", { id: clipId });
  cp.appendChild(el("rect", { x: L, y: T, width: W - L - R, height: H - T - B }));
  defs.appendChild(cp);
  svg.appendChild(defs);
  const g = el("g", { "clip-path": `url(#${clipId})` });
  for (const s of o.series) {
    const pts = [];
    for (let i = 0; i < s.x.length; i++)
      if (Number.isFinite(s.x[i]) && Number.isFinite(s.y[i]) && (!o.xlog || s.x[i] > 0)) pts.push([X(s.x[i]), Y(s.y[i])]);
    if (!pts.length) continue;
    if (s.points) {
      for (const p of pts) g.appendChild(el("circle", { cx: p[0].toFixed(1), cy: p[1].toFixed(1), r: s.points, fill: s.color }));
    }
    if (!s.points || s.line) {
      const d = pts.map((p, i) => (i ? "L" : "M") + p[0].toFixed(1) + " " + p[1].toFixed(1)).join("");
      g.appendChild(el("path", { d, fill: "none", stroke: s.color, "stroke-width": s.width || 1.8, "stroke-dasharray": s.dash || "" }));
    }
  }
  svg.appendChild(g);
  // legend, top right inside the frame
  const named = o.series.filter((s) => s.label).concat((o.hlines || []).filter((h) => h.label && Number.isFinite(h.y)));
  if (named.length)
    svg.appendChild(el("rect", { x: W - R - 184, y: T + 3, width: 178, height: 15 * named.length + 4, fill: "#fff", "fill-opacity": 0.85, stroke: "#e7eaf0" }));
  named.forEach((s, i) => {
    const y = T + 14 + 15 * i, x = W - R - 8;
    svg.appendChild(el("line", { x1: x - 170, x2: x - 150, y1: y - 4, y2: y - 4, stroke: s.color || "#888", "stroke-width": 2,
      "stroke-dasharray": s.dash || (s.y !== undefined && !s.x ? "5 4" : "") }));
    svg.appendChild(el("text", { x: x - 146, y }, s.label));
  });
  return svg;
}
