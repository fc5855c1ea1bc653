// The head view: S, A and Z panels and the lines view of one head, with one shared hover and one
// shared selection. Host-agnostic: hvMount(root, payload, {onSelect, store}) is all a host calls.

const HV_NONE = { row: -1, col: -1 };
const HV_MARGIN = [92, 84]; // room for the query words (left) and the key words (top)

function hvEl(tag, cls, attrs) {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
  return el;
}

function hvPanelEl(name, title) {
  const el = hvEl("div", "hv-panel", { "data-matrix": name, "data-selected": "", "data-hover": "" });
  const t = hvEl("div", "hv-title");
  t.textContent = title;
  const stage = hvEl("div", "hv-stage");
  stage.append(hvEl("canvas", "hv-base"));
  if (name !== "lines") {
    stage.append(hvEl("canvas", "hv-overlay"), hvEl("canvas", "hv-minimap"));
  }
  el.append(t, stage);
  return el;
}

function hvPair(at) { // "q,k", "q," (a row), ",k" (a column) or "" (nothing)
  if (at.row < 0 && at.col < 0) return "";
  return (at.row >= 0 ? at.row : "") + "," + (at.col >= 0 ? at.col : "");
}

class HvView {
  constructor(root, payload, data, onSelect, options) {
    this.root = root; this.p = payload; this.d = data; this.onSelect = onSelect || (() => {});
    this.options = options || {};
    this.palette = hvPaletteOf(this.root, this.options.palette);
    this.labels = payload.labels;
    this.hover = HV_NONE; this.hoverZDim = -1;
    const s = payload.selection || [-1, -1];
    this.sel = this.clamp({ row: s[0], col: s[1] });
    this.build();
  }

  clamp(at) {
    const ok = (x, n) => (Number.isInteger(x) && x >= 0 && x < n ? x : -1);
    return { row: ok(at.row, this.d.nq), col: ok(at.col, this.d.nk) };
  }

  build() {
    const p = this.p, d = this.d, L = this.labels;
    this.root.classList.add("hv");
    this.root.setAttribute("lang", L.lang || "en"); // a screen reader reads the labels in their language
    const bar = hvEl("div", "hv-toolbar");
    this.buttons = {};
    for (const [key, cls] of [["reset", "hv-reset"], ["png", "hv-png"], ["svg", "hv-svg"], ["table", "hv-table-toggle"]]) {
      const b = hvEl("button", cls, { type: "button" });
      b.textContent = L[key];
      bar.append(b);
      this.buttons[key] = b;
    }
    // A's colours: 0 to 1 (comparable between rows and heads), or each row from 0 to its own largest
    // weight (a long input's rows hold weights near 1/n, pale on 0..1); the hover always says the weight
    const scale = hvEl("button", "hv-ascale", { type: "button", "aria-pressed": "false" });
    bar.append(scale);
    this.buttons.ascale = scale;
    if (this.options.paletteButton) { // hosts without settings of their own (a saved file, Jupyter)
      const pal = hvEl("button", "hv-palette", { type: "button", "aria-pressed": "false" });
      pal.textContent = L.palette;
      bar.append(pal);
      this.buttons.palette = pal;
    }
    const help = hvEl("span", "hv-help");
    help.textContent = hvTouchScreen() && L.help_touch ? L.help_touch : L.help;
    bar.append(help);
    const panels = hvEl("div", "hv-panels");
    this.els = { S: hvPanelEl("S", L.S), A: hvPanelEl("A", L.A), Z: hvPanelEl("Z", L.Z), lines: hvPanelEl("lines", L.lines) };
    panels.append(this.els.S, this.els.A, this.els.Z, this.els.lines);
    this.tip = hvEl("div", "hv-tip");
    this.tip.hidden = true;
    this.root.append(bar, panels, this.tip);

    // S and A as large as the host allows next to Z (two rows on a narrow page), 300..440 px
    const zWidth = 12 + Math.min(260, Math.max(120, d.dh * 6));
    const size = Math.max(300, Math.min(440, Math.floor(((this.root.clientWidth || 1200) - zWidth - 48) / 2)));
    const w10 = Math.pow(10, d.decimals.weight);
    this.ranges = { S: hvRange(d.S, d.masked, true), Z: hvRange(d.Z, null, true) };
    this.luts = hvLuts(this.palette);
    this.qLabels = p.query_labels || p.query_tokens; // tokens as text (payload.py); raw ones in the hover
    this.kLabels = p.key_labels || p.key_tokens;
    const common = { rows: d.nq, cols: d.nk, rowLabels: this.qLabels, colLabels: this.kLabels,
      masked: d.masked, size: [size, size], margin: HV_MARGIN };
    this.S = new HvPanel(this.els.S, { ...common, name: "S", image: this.sImage() });
    this.w10 = w10;
    this.rowScale = this.root.getAttribute("data-a-scale") === "rows"; // kept over a head change
    this.A = new HvPanel(this.els.A, { ...common, name: "A", image: this.aImage() });
    this.showRowScale();
    this.A.view = this.S.view; // S and A always show the same window
    const dims = Array.from({ length: d.dh }, (_, i) => String(i));
    this.Z = new HvPanel(this.els.Z, { name: "Z", rows: d.nq, cols: d.dh, rowLabels: null, colLabels: dims,
      masked: null, size: [zWidth, size], margin: [8, HV_MARGIN[1]], image: this.zImage() });
    this.panels = [this.S, this.A, this.Z];
    const tooLong = Math.max(d.nq, d.nk) > p.lines_max;
    if (tooLong) {
      const msg = hvEl("p", "hv-message");
      msg.textContent = L.lines_too_long.replace("{max}", p.lines_max).replace("{n}", Math.max(d.nq, d.nk));
      this.els.lines.querySelector(".hv-stage").replaceWith(msg);
      this.lines = null;
    } else {
      this.lines = new HvLines(this.els.lines, d, this.qLabels, this.kLabels, this.root.clientWidth || 380);
    }
    hvA11yBuild(this);
    this.showPalette();
    this.redraw();
    this.root.setAttribute("data-ready", "1");
  }

  sImage(old) { const d = this.d, [lo, hi] = this.ranges.S; return hvImage(d.S, d.masked, d.nq, d.nk, this.luts.diverging, lo, hi, old, this.room(HV_ROOM)); }

  zImage(old) { const d = this.d, [lo, hi] = this.ranges.Z; return hvImage(d.Z, null, d.nq, d.dh, this.luts.diverging, lo, hi, old, this.room(0)); }

  setPalette(name) { // "standard" or "cvd" (colour-blind safe); the numbers and the hatching do not change
    this.palette = name === "cvd" ? "cvd" : "standard";
    hvRememberPalette(this.palette);
    this.luts = hvLuts(this.palette);
    this.S.cfg.image = this.sImage(); this.Z.cfg.image = this.zImage(); this.A.cfg.image = this.aImage();
    this.showPalette();
    this.redraw();
  }

  showPalette() {
    this.root.setAttribute("data-palette", this.palette);
    if (this.buttons.palette) this.buttons.palette.setAttribute("aria-pressed", this.palette === "cvd" ? "true" : "false");
  }

  room(cols) { // spare [columns, rows] of an image: only a head sent in blocks grows (a written word)
    return this.options.data ? [cols, HV_ROOM] : null;
  }

  aImage(old, tops) { // A coloured 0..1, or each row 0..its largest weight (tops, if computed already)
    const d = this.d;
    this.aHi = this.rowScale ? tops || hvRowMax(d.A, d.masked, d.nq, d.nk) : null; // kept for grow
    return hvImage(d.A, d.masked, d.nq, d.nk, this.luts.sequential, 0, this.aHi || this.w10, old, this.room(HV_ROOM));
  }

  grow(payload, data) {
    // The same head with more rows and keys (a written word, blocks.js): the cells of the old rows and
    // keys are unchanged, so the view is kept (zoom, selection, focus) and the images keep their pixels,
    // only the new rows and columns coloured. False (nothing changed) when the host must mount afresh.
    const old = this.d, p = this.p, fits = (d) => Math.max(d.nq, d.nk) <= p.lines_max;
    const same = ["format", "kind", "layer", "head", "d_head", "scale", "lines_max", "labels"].every((k) => payload[k] === p[k]);
    if (!same || fits(old) !== fits(data) || data.nq < old.nq || data.nk < old.nk || data.dh !== old.dh) return false;
    const whole = !this.S.zoomed(), aHiOld = this.aHi; // old's arrays may be moved already (blocks.js)
    this.p = payload; this.d = data;
    this.qLabels = payload.query_labels || payload.query_tokens;
    this.kLabels = payload.key_labels || payload.key_tokens;
    // an image is extended only when its colour scale stays: else every cell is coloured again
    const grown = (range, m) => (range[0] === -range[1] && m <= range[1] ? range : null);
    const sKept = grown(this.ranges.S, hvAbsMaxBeyond(data.S, data.masked, data.nq, data.nk, old.nq, old.nk));
    const zKept = grown(this.ranges.Z, hvAbsMaxBeyond(data.Z, null, data.nq, data.dh, old.nq, data.dh));
    this.ranges = { S: sKept || hvRange(data.S, data.masked, true), Z: zKept || hvRange(data.Z, null, true) };
    // with A coloured per row, each old row's top must stay for its pixels to stay
    const tops = aHiOld ? hvRowMax(data.A, data.masked, data.nq, data.nk) : null;
    const aKept = !aHiOld || aHiOld.every((v, r) => v === tops[r]);
    const common = { rows: data.nq, cols: data.nk, rowLabels: this.qLabels, colLabels: this.kLabels, masked: data.masked };
    Object.assign(this.S.cfg, common, { image: this.sImage(sKept ? this.S.cfg.image : null) });
    Object.assign(this.A.cfg, common, { image: this.aImage(aKept ? this.A.cfg.image : null, tops) });
    Object.assign(this.Z.cfg, { rows: data.nq, image: this.zImage(zKept ? this.Z.cfg.image : null) });
    if (whole) Object.assign(this.S.view, { x0: 0, x1: data.nk, y0: 0, y1: data.nq }); // A shares it
    if (this.lines) this.lines = new HvLines(this.els.lines, data, this.qLabels, this.kLabels, this.root.clientWidth || 380);
    this.sel = this.clamp(this.sel); this.hover = this.clamp(this.hover);
    hvA11yGrow(this);
    this.redraw();
    return true;
  }

  setRowScale(on) {
    this.rowScale = on;
    this.A.cfg.image = this.aImage();
    this.showRowScale();
    this.redraw();
  }

  showRowScale() {
    const on = this.rowScale;
    this.buttons.ascale.textContent = on ? this.labels.colour_rows : this.labels.colour_one;
    this.buttons.ascale.setAttribute("aria-pressed", on ? "true" : "false");
    this.root.setAttribute("data-a-scale", on ? "rows" : "one");
  }

  textColour() { return getComputedStyle(this.root).color || "#222"; }

  syncZ() { // Z shares the rows (queries) of S and A; its columns are all of d_head
    const v = this.S.view;
    this.Z.view = { x0: 0, x1: this.d.dh, y0: v.y0, y1: v.y1 };
  }

  redraw() { // after a zoom or pan: the base layers, then the overlays
    this.syncZ();
    const colour = this.textColour();
    for (const panel of this.panels) panel.drawBase(colour);
    this.drawHighlights();
  }

  drawHighlights() { // after a hover or a selection: overlays only
    for (const panel of this.panels) panel.drawOverlay(this.hover, this.sel);
    if (this.lines) this.lines.draw(this.hover, this.sel, this.textColour());
    const hover = hvPair(this.hover), sel = hvPair(this.sel);
    for (const el of Object.values(this.els)) {
      el.setAttribute("data-hover", hover);
      el.setAttribute("data-selected", sel);
    }
  }

  setHover(at, zDim, where) {
    // at: {row, col}; zDim: the Z dimension under the pointer or -1; where: [x, y] in root pixels.
    at = at ? this.clamp(at) : HV_NONE;
    zDim = zDim === undefined ? -1 : zDim;
    const same = at.row === this.hover.row && at.col === this.hover.col && zDim === this.hoverZDim;
    this.hover = at; this.hoverZDim = zDim;
    if (!same) this.drawHighlights();
    this.showTip(where);
  }

  setSelection(sel, notify) {
    sel = this.clamp(sel);
    if (sel.row === this.sel.row && sel.col === this.sel.col) return;
    this.sel = sel;
    this.drawHighlights();
    hvA11yUpdate(this, true);
    if (notify) this.onSelect([sel.row, sel.col]);
  }

  tipLines() { // [[label, value]] describing the hovered cell, row or column
    const d = this.d, L = this.labels, h = this.hover, out = [];
    const both = (shown, raw) => (shown === raw ? raw : `${shown}  (${raw})`);
    if (h.row >= 0) out.push([L.query, `${both(this.qLabels[h.row], this.p.query_tokens[h.row])}  #${h.row}`]);
    if (h.col >= 0) out.push([L.key, `${both(this.kLabels[h.col], this.p.key_tokens[h.col])}  #${h.col}`]);
    if (h.row >= 0 && h.col >= 0) {
      const c = h.row * d.nk + h.col, dec = d.decimals;
      out.push([L.score, hvFixed(d.S[c], dec.score)]);
      out.push([L.scaled, d.masked[c] ? L.masked : hvFixed(d.scaled[c], dec.scaled)]);
      out.push([L.weight, d.masked[c] ? L.masked : hvFixed(d.A[c], dec.weight)]);
    } else if (h.row >= 0 && this.hoverZDim >= 0) {
      out.push([L.dim, String(this.hoverZDim)]);
      out.push([L.z, hvFixed(d.Z[h.row * d.dh + this.hoverZDim], d.decimals.z)]);
    }
    return out;
  }

  showTip(where) {
    const lines = this.tipLines();
    this.tip.hidden = lines.length === 0;
    if (this.tip.hidden) return;
    this.tip.replaceChildren(...lines.map(([label, value]) => {
      const row = hvEl("div", "hv-tip-row");
      const l = hvEl("span", "hv-tip-label"), v = hvEl("span", "hv-tip-value");
      l.textContent = label; v.textContent = value; // tokens are text, never markup
      row.append(l, v);
      return row;
    }));
    if (where) {
      const maxX = this.root.clientWidth - this.tip.offsetWidth - 4;
      this.tip.style.left = Math.max(0, Math.min(where[0] + 16, maxX)) + "px";
      this.tip.style.top = where[1] + 16 + "px";
    }
  }

  setView(x0, x1, y0, y1) {
    // The window of S and A in cells, kept inside the matrix and at least 2 cells wide.
    const fit = (a, b, n) => {
      const w = Math.min(n, Math.max(Math.min(2, n), b - a));
      a = Math.max(0, Math.min(a, n - w));
      return [a, a + w];
    };
    const [nx0, nx1] = fit(x0, x1, this.d.nk), [ny0, ny1] = fit(y0, y1, this.d.nq);
    Object.assign(this.S.view, { x0: nx0, x1: nx1, y0: ny0, y1: ny1 });
    this.redraw();
  }

  resetView() { this.setView(0, this.d.nk, 0, this.d.nq); }

  ensureVisible() { // after the keyboard moved the selection: pan so that it stays in view
    const v = this.S.view, s = this.sel;
    let dx = 0, dy = 0;
    if (s.col >= 0 && s.col < v.x0) dx = s.col - v.x0;
    if (s.col >= 0 && s.col + 1 > v.x1) dx = s.col + 1 - v.x1;
    if (s.row >= 0 && s.row < v.y0) dy = s.row - v.y0;
    if (s.row >= 0 && s.row + 1 > v.y1) dy = s.row + 1 - v.y1;
    if (dx || dy) this.setView(v.x0 + dx, v.x1 + dx, v.y0 + dy, v.y1 + dy);
  }

  fileName(ext) { return `${this.p.kind}-layer${this.p.layer}-head${this.p.head}.${ext}`; }

  destroy() { this.root.replaceChildren(); this.root.removeAttribute("data-ready"); }
}

async function hvMount(root, payload, options) {
  // Draw one head payload into root (emptied first). options: {onSelect([q, k]), store: Uint8Array,
  // palette: "standard" | "cvd" (else the one remembered in this browser), paletteButton: bool,
  // data: the integers already decoded (blocks.js)}.
  options = options || {};
  root.replaceChildren();
  root.removeAttribute("data-ready");
  const data = options.data || await hvDecodeHead(payload, options.store); // blocks.js decodes its own
  const view = new HvView(root, payload, data, options.onSelect, options);
  hvListen(view);
  return view;
}
