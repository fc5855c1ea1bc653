// q.k dimension by dimension (data from attention/headview/dot.py): q and k side by side on top,
// q_d*k_d below (red where the signs agree, blue where they differ), the sum written over it.
// Built once per host (assets/panel.js); a new selection moves the same bars (attributes only), so a click
// changes a few hundred attributes instead of replacing a chart.
const SVG_NS = "http://www.w3.org/2000/svg";
const DOT_H = 440, DOT_M = { l: 52, r: 10, t: 26, b: 44 }, DOT_GAP = 40;

function dotEl(parent, tag, attrs) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
  parent.append(el);
  return el;
}

function dotNum(v) { // at most 4 significant figures, with a true minus sign
  const s = Math.abs(v) >= 100 ? v.toFixed(1) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toFixed(3);
  return s.replace("-", "\u2212");
}

function dotBuild(root, n) {
  root.replaceChildren();
  const svg = dotEl(root, "svg", { class: "dot-svg", role: "img", height: DOT_H, width: "100%" });
  svg.style.display = "block";
  svg.style.fontFamily = "sans-serif";
  const s = { svg, n, bars: [], hits: [], ticks: [], axes: [] };
  for (let p = 0; p < 2; p++) {
    s.axes.push({
      title: dotEl(svg, "text", { "font-size": 13, "font-weight": 600 }),
      zero: dotEl(svg, "line", { stroke: "#444", "stroke-width": 1 }),
      labels: [0, 1].map(() => dotEl(svg, "text", { "font-size": 10, "text-anchor": "end", fill: "#444" })),
    });
  }
  s.legend = [0, 1].map(() => ({ box: dotEl(svg, "rect", { width: 10, height: 10 }),
    text: dotEl(svg, "text", { "font-size": 11, fill: "#222" }) }));
  for (let i = 0; i < n; i++) {
    s.bars.push([dotEl(svg, "rect", {}), dotEl(svg, "rect", {}), dotEl(svg, "rect", {})]); // q, k, q.k
    s.ticks.push(dotEl(svg, "text", { "font-size": 9, "text-anchor": "middle", fill: "#444" }));
  }
  for (let i = 0; i < n; i++) { // hover: the dimension's three numbers (drawn last, on top, transparent)
    const hit = dotEl(svg, "rect", { fill: "transparent" });
    s.hits.push([hit, dotEl(hit, "title", {})]);
  }
  s.xTitle = dotEl(svg, "text", { "font-size": 12, "text-anchor": "middle", fill: "#222" });
  s.sumBox = dotEl(svg, "rect", { fill: "rgba(255,255,255,0.85)" });
  s.sum = dotEl(svg, "text", { "font-size": 13, "text-anchor": "end", fill: "#000" });
  return s;
}

function dotDraw(s, d, width) {
  const n = d.q.length, W = Math.max(width, 240), plotW = W - DOT_M.l - DOT_M.r;
  const plotH = DOT_H - DOT_M.t - DOT_M.b - DOT_GAP, h1 = plotH * 0.45, h2 = plotH - h1;
  const top1 = DOT_M.t, top2 = DOT_M.t + h1 + DOT_GAP, band = plotW / n;
  const peak = Math.max(1e-9, ...d.q.map(Math.abs), ...d.k.map(Math.abs));
  const panels = [[-peak, peak, top1, h1], [Math.min(d.range[0], 0), Math.max(d.range[1], 0), top2, h2]];
  const y = ([lo, hi, top, h], v) => top + (hi - Math.min(hi, Math.max(lo, v))) / ((hi - lo) || 1) * h;
  s.svg.setAttribute("viewBox", `0 0 ${W} ${DOT_H}`);
  s.svg.setAttribute("aria-label", d.sum);
  panels.forEach((p, i) => {
    const a = s.axes[i], y0 = y(p, 0);
    a.title.textContent = d.titles[i];
    a.title.setAttribute("x", DOT_M.l); a.title.setAttribute("y", p[2] - 8);
    for (const [attr, v] of [["x1", DOT_M.l], ["x2", W - DOT_M.r], ["y1", y0], ["y2", y0]]) a.zero.setAttribute(attr, v);
    [p[1], p[0]].forEach((v, j) => {
      a.labels[j].textContent = dotNum(v);
      a.labels[j].setAttribute("x", DOT_M.l - 4);
      a.labels[j].setAttribute("y", y(p, v) + (j ? 0 : 9));
    });
  });
  let lx = W - DOT_M.r; // the legend, right-aligned on the first title's line
  for (let i = 1; i >= 0; i--) {
    const { box, text } = s.legend[i];
    text.textContent = d.names[i];
    const w = text.getComputedTextLength ? text.getComputedTextLength() : 60;
    lx -= w; text.setAttribute("x", lx); text.setAttribute("y", top1 - 8);
    lx -= 14; box.setAttribute("x", lx); box.setAttribute("y", top1 - 17); box.setAttribute("fill", d.colours[i ? "k" : "q"]);
    lx -= 12;
  }
  const every = Math.max(1, Math.ceil(22 / band)); // tick labels at least 22 px apart
  for (let i = 0; i < n; i++) {
    const x = DOT_M.l + i * band, [qb, kb, tb] = s.bars[i];
    const rect = (el, x0, w, p, v, fill) => {
      const ya = y(p, 0), yb = y(p, v);
      el.setAttribute("x", x0); el.setAttribute("width", Math.max(w, 0.5));
      el.setAttribute("y", Math.min(ya, yb)); el.setAttribute("height", Math.max(Math.abs(ya - yb), 0.5));
      el.setAttribute("fill", fill);
    };
    rect(qb, x + band * 0.08, band * 0.42, panels[0], d.q[i], d.colours.q);
    rect(kb, x + band * 0.5, band * 0.42, panels[0], d.k[i], d.colours.k);
    rect(tb, x + band * 0.1, band * 0.8, panels[1], d.terms[i], d.terms[i] > 0 ? d.colours.pos : d.colours.neg);
    const tick = s.ticks[i];
    tick.textContent = i % every ? "" : `d${d.dims[i]}`;
    tick.setAttribute("x", x + band / 2); tick.setAttribute("y", top2 + h2 + 13);
    const [hit, title] = s.hits[i];
    hit.setAttribute("x", x); hit.setAttribute("width", band); hit.setAttribute("y", top1); hit.setAttribute("height", top2 + h2 - top1);
    title.textContent = `d${d.dims[i]}: q ${dotNum(d.q[i])}, k ${dotNum(d.k[i])}, q\u00b7k ${dotNum(d.terms[i])}`;
  }
  s.xTitle.textContent = d.dimension;
  s.xTitle.setAttribute("x", DOT_M.l + plotW / 2); s.xTitle.setAttribute("y", DOT_H - 8);
  s.sum.textContent = d.sum;
  s.sum.setAttribute("x", W - DOT_M.r - 4); s.sum.setAttribute("y", top2 + 16);
  const sw = s.sum.getComputedTextLength ? s.sum.getComputedTextLength() : 0;
  for (const [attr, v] of [["x", W - DOT_M.r - sw - 8], ["y", top2 + 2], ["width", sw + 8], ["height", 19]]) s.sumBox.setAttribute(attr, v);
}
