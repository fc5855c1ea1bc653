// PNG and SVG of what the head view shows: the panels as laid out, with the current zoom,
// hover-free highlights of the selection, and the words as text.

const HV_SVG_NS = "http://www.w3.org/2000/svg";

function hvDownload(name, url) {
  const a = document.createElement("a");
  a.href = url; a.download = name;
  a.style.display = "none";
  document.body.append(a); a.click(); a.remove();
}

function hvLayout(view) {
  // [{key, el, x, y}] of every panel relative to the panels' box, and that box's size.
  const box = view.root.querySelector(".hv-panels").getBoundingClientRect();
  const items = Object.entries(view.els).map(([key, el]) => {
    const r = el.querySelector(".hv-stage, .hv-message").getBoundingClientRect();
    const t = el.querySelector(".hv-title").getBoundingClientRect();
    return { key, el, x: r.left - box.left, y: r.top - box.top, tx: t.left - box.left, ty: t.top - box.top + t.height / 2 };
  });
  return { items, w: Math.ceil(box.width), h: Math.ceil(box.height) };
}

function hvWithoutHover(view, draw) { // exports show the selection, not the pointer's hover
  const hover = view.hover;
  view.hover = HV_NONE; view.drawHighlights();
  try { return draw(); } finally { view.hover = hover; view.drawHighlights(); }
}

function hvPngUrl(view) {
  return hvWithoutHover(view, () => {
    const { items, w, h } = hvLayout(view), dpr = window.devicePixelRatio || 1;
    const out = document.createElement("canvas");
    out.width = Math.round(w * dpr); out.height = Math.round(h * dpr);
    const ctx = out.getContext("2d");
    ctx.scale(dpr, dpr);
    ctx.fillStyle = "#ffffff"; ctx.fillRect(0, 0, w, h);
    ctx.font = "bold " + HV_FONT; ctx.fillStyle = "#222"; ctx.textBaseline = "middle";
    for (const it of items) {
      ctx.fillText(it.el.querySelector(".hv-title").textContent, it.tx, it.ty);
      for (const c of it.el.querySelectorAll(".hv-base, .hv-overlay")) {
        ctx.drawImage(c, it.x, it.y, c.clientWidth, c.clientHeight);
      }
      const msg = it.el.querySelector(".hv-message");
      if (msg) { ctx.font = HV_FONT; ctx.fillText(hvFit(ctx, msg.textContent, 360), it.x, it.y + 10); ctx.font = "bold " + HV_FONT; }
    }
    return out.toDataURL("image/png");
  });
}

function hvSvgEl(tag, attrs, text) {
  const el = document.createElementNS(HV_SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text; // serialised escaped: tokens stay text
  return el;
}

function hvCrop(canvas, x, y, w, h) { // part of a canvas (CSS pixels) as a PNG data URL
  const dpr = canvas.width / canvas.clientWidth || 1;
  const c = document.createElement("canvas");
  c.width = Math.max(1, Math.round(w * dpr)); c.height = Math.max(1, Math.round(h * dpr));
  c.getContext("2d").drawImage(canvas, x * dpr, y * dpr, w * dpr, h * dpr, 0, 0, c.width, c.height);
  return c.toDataURL("image/png");
}

function hvSvgMatrix(g, panel) {
  // The heatmap (pixels: up to 2,048 x 2,048 cells) as an image; words as text; selection on top.
  const p = panel.plot;
  g.append(hvSvgEl("image", { x: p.x, y: p.y, width: p.w, height: p.h, href: hvCrop(panel.base, p.x, p.y, p.w, p.h) }));
  const ctx = panel.base.getContext("2d");
  ctx.font = HV_FONT;
  for (const l of panel.labels(ctx)) {
    const attrs = l.vertical
      ? { transform: `translate(${l.x},${l.y}) rotate(-90)`, "text-anchor": "start" }
      : { x: l.x, y: l.y, "text-anchor": "end" };
    g.append(hvSvgEl("text", { ...attrs, "dominant-baseline": "middle" }, l.text));
  }
  g.append(hvSvgEl("image", { x: 0, y: 0, width: panel.w, height: panel.h, href: hvCrop(panel.overlay, 0, 0, panel.w, panel.h) }));
}

function hvSvgLines(g, view) {
  const ln = view.lines, focus = ln.focusOf(HV_NONE, view.sel), any = view.sel.row >= 0 || view.sel.col >= 0;
  for (const l of ln.lines()) {
    const on = focus(l);
    g.append(hvSvgEl("line", { x1: ln.xq + 4, y1: ln.y(l.i), x2: ln.xk - 4, y2: ln.y(l.j), "stroke-width": 2,
      stroke: on ? HV_HIGHLIGHT : "#2166ac", "stroke-opacity": (on || !any ? l.w : l.w * 0.25).toFixed(4) }));
  }
  ln.q.forEach((t, i) => g.append(hvSvgEl("text", { x: ln.xq, y: ln.y(i), "text-anchor": "end", "dominant-baseline": "middle" }, t)));
  ln.k.forEach((t, j) => g.append(hvSvgEl("text", { x: ln.xk, y: ln.y(j), "dominant-baseline": "middle" }, t)));
}

function hvSvgText(view) {
  return hvWithoutHover(view, () => {
    const { items, w, h } = hvLayout(view);
    const svg = hvSvgEl("svg", { xmlns: HV_SVG_NS, width: w, height: h, viewBox: `0 0 ${w} ${h}`,
      "font-family": "system-ui, sans-serif", "font-size": 11 });
    svg.append(hvSvgEl("rect", { width: w, height: h, fill: "#ffffff" }));
    for (const it of items) {
      svg.append(hvSvgEl("text", { x: it.tx, y: it.ty, "font-weight": "bold", "dominant-baseline": "middle" },
        it.el.querySelector(".hv-title").textContent));
      const g = hvSvgEl("g", { transform: `translate(${it.x},${it.y})`, "data-matrix": it.key });
      if (it.key === "lines") {
        if (view.lines) hvSvgLines(g, view);
        else g.append(hvSvgEl("text", { x: 0, y: 10 }, it.el.querySelector(".hv-message").textContent));
      } else {
        hvSvgMatrix(g, view[it.key]);
      }
      svg.append(g);
    }
    return new XMLSerializer().serializeToString(svg);
  });
}
