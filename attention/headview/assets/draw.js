// Drawing one matrix panel: the heatmap is an offscreen image with one pixel per cell (built once),
// scaled into the plot area for the current view; labels go in the margins only where they fit;
// hover and selection go on a separate overlay canvas, so a hover redraws a few rectangles only.

const HV_HIGHLIGHT = "#ff7f0e";
const HV_HOVER = "rgba(0, 0, 0, 0.6)";
const HV_MASKED = [217, 217, 217]; // #d9d9d9, as the app's heatmaps
const HV_LABEL_PX = 13; // a label needs this many pixels of row (or column) to be written
const HV_FONT = "11px system-ui, -apple-system, 'Segoe UI', sans-serif";
const HV_BLUES = ["#f7fbff", "#deebf7", "#c6dbef", "#9ecae1", "#6baed6", "#4292c6", "#2171b5", "#08519c", "#08306b"];
const HV_RDBU = ["#053061", "#2166ac", "#4393c3", "#92c5de", "#d1e5f0", "#f7f7f7",
  "#fddbc7", "#f4a582", "#d6604d", "#b2182b", "#67001f"]; // negative blue, 0 white, positive red
// Colour-blind safe: cividis for weights (dark blue to yellow, even in lightness, readable with every
// common colour-vision deficiency) and blue-orange for signed values (the two hues all of them tell apart).
const HV_CIVIDIS = ["#00224e", "#123570", "#3b496c", "#575d6d", "#707173", "#8a8779", "#a69d75", "#c4b56c",
  "#e4cf5b", "#fee838"];
const HV_BUOR = ["#08306b", "#2171b5", "#6baed6", "#c6dbef", "#f7f7f7", "#fdd0a2", "#fd8d3c", "#d94801", "#7f2704"];
const HV_PALETTE_KEY = "attention.headview.palette";
const HV_ROOM = 64; // rows and keys a head may grow by (a written word) before its arrays and images are made again

function hvLuts(palette) { // {sequential, diverging} colour tables of a palette
  return palette === "cvd" ? { sequential: hvLut(HV_CIVIDIS), diverging: hvLut(HV_BUOR) }
    : { sequential: hvLut(HV_BLUES), diverging: hvLut(HV_RDBU) };
}

function hvPaletteOf(root, asked) {
  // The host's choice, else the one kept over a head change, else the one this browser remembers.
  if (asked === "cvd" || asked === "standard") return asked;
  const kept = root.getAttribute("data-palette");
  if (kept) return kept;
  try { return localStorage.getItem(HV_PALETTE_KEY) === "cvd" ? "cvd" : "standard"; } catch (e) { return "standard"; }
}

function hvRememberPalette(palette) {
  try { localStorage.setItem(HV_PALETTE_KEY, palette); } catch (e) { /* storage may be off (a sandboxed frame) */ }
}

function hvLut(stops) {
  // 256 colours interpolated between hex stops: Uint8Array(256 * 3).
  const rgb = stops.map((h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16)));
  const lut = new Uint8Array(256 * 3);
  for (let i = 0; i < 256; i++) {
    const t = (i / 255) * (rgb.length - 1), k = Math.min(Math.floor(t), rgb.length - 2), f = t - k;
    for (let c = 0; c < 3; c++) lut[i * 3 + c] = Math.round(rgb[k][c] * (1 - f) + rgb[k + 1][c] * f);
  }
  return lut;
}

function hvColours(lut) { // a lut as packed 32-bit colours (RGBA in memory, little-endian), and the masked grey
  const pack = (r, g, b) => ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0;
  const colours = new Uint32Array(256);
  for (let i = 0; i < 256; i++) colours[i] = pack(lut[i * 3], lut[i * 3 + 1], lut[i * 3 + 2]);
  return { colours, grey: pack(HV_MASKED[0], HV_MASKED[1], HV_MASKED[2]) };
}

function hvPaint(ctx, values, masked, cols, lut, lo, hi, r0, r1, c0, c1) {
  // Colour the cells [r0, r1) x [c0, c1) of values (row-major, `cols` wide) into ctx at the same place:
  // lo..hi onto the lut, masked cells grey; hi may be an array, one top per row (each row coloured from lo
  // to its own largest value). One 32-bit write a pixel: at 1,000 tokens S and A are a million pixels.
  if (r1 <= r0 || c1 <= c0) return;
  const w = c1 - c0, img = new ImageData(w, r1 - r0), px = new Uint32Array(img.data.buffer);
  const { colours, grey } = hvColours(lut);
  const spanOf = (top) => (top > lo ? 255 / (top - lo) : 0);
  const perRow = Array.isArray(hi);
  for (let r = r0; r < r1; r++) {
    const span = spanOf(perRow ? hi[r] : hi), start = r * cols + c0, out = (r - r0) * w - start;
    for (let c = start; c < start + w; c++) {
      px[out + c] = masked && masked[c] ? grey : colours[Math.max(0, Math.min(255, Math.round((values[c] - lo) * span)))];
    }
  }
  ctx.putImageData(img, c0, r0);
}

function hvImage(values, masked, rows, cols, lut, lo, hi, old, room) {
  // A canvas with one pixel a cell in its top-left cols x rows (hvPaint), and room (= [cols, rows]) to
  // grow into. old: the image of the same values' first rows and columns (a head that grew, blocks.js):
  // its pixels are kept and only the new cells coloured, in old itself when it has the room.
  let canvas = old, r = old ? Math.min(old.hvRows, rows) : 0, c = old ? Math.min(old.hvCols, cols) : 0;
  if (!old || old.width < cols || old.height < rows) {
    canvas = document.createElement("canvas");
    canvas.width = Math.max(cols + (room ? room[0] : 0), 1);
    canvas.height = Math.max(rows + (room ? room[1] : 0), 1);
    if (r && c) canvas.getContext("2d").drawImage(old, 0, 0, c, r, 0, 0, c, r);
  }
  const ctx = canvas.getContext("2d");
  hvPaint(ctx, values, masked, cols, lut, lo, hi, r, rows, 0, cols); // new rows
  hvPaint(ctx, values, masked, cols, lut, lo, hi, 0, r, c, cols); // new columns of the old rows
  canvas.hvRows = rows; canvas.hvCols = cols; // the part that holds cells
  return canvas;
}

function hvAbsMaxBeyond(values, masked, rows, cols, r0, c0) {
  // The largest |value| over the cells that may be seen in rows >= r0 or columns >= c0 (-Infinity if none).
  let m = -Infinity;
  for (let r = 0; r < rows; r++) {
    for (let c = r < r0 ? c0 : 0; c < cols; c++) {
      const i = r * cols + c;
      if (!(masked && masked[i]) && Math.abs(values[i]) > m) m = Math.abs(values[i]);
    }
  }
  return m;
}

function hvRange(values, masked, symmetric) {
  let lo = Infinity, hi = -Infinity;
  for (let c = 0; c < values.length; c++) {
    if (masked && masked[c]) continue;
    if (values[c] < lo) lo = values[c];
    if (values[c] > hi) hi = values[c];
  }
  if (!isFinite(lo)) return [0, 1];
  if (symmetric) { const m = Math.max(Math.abs(lo), Math.abs(hi), 1e-12); return [-m, m]; }
  return [lo, hi];
}

function hvRowMax(values, masked, rows, cols) {
  // Each row's largest value over the cells it may see (0 for a row that sees none).
  const out = new Array(rows).fill(0);
  for (let r = 0; r < rows; r++) {
    for (let c = r * cols; c < (r + 1) * cols; c++) if (!(masked && masked[c]) && values[c] > out[r]) out[r] = values[c];
  }
  return out;
}

function hvFit(ctx, text, width) {
  // text cut (with an ellipsis) to at most `width` pixels.
  if (ctx.measureText(text).width <= width) return text;
  let lo = 0, hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ctx.measureText(text.slice(0, mid) + "\u2026").width <= width) lo = mid; else hi = mid - 1;
  }
  return lo > 0 ? text.slice(0, lo) + "\u2026" : "";
}

function hvLabelIndices(v0, v1, cellPx) {
  // Indices of the labels written on an axis showing cells v0..v1: every step-th, step chosen so
  // that neighbouring labels are at least HV_LABEL_PX apart (so they never overlap).
  const step = Math.max(1, Math.ceil(HV_LABEL_PX / cellPx));
  const out = [];
  for (let i = Math.ceil(Math.max(0, Math.floor(v0)) / step) * step; i < v1; i += step) out.push(i);
  return out;
}

class HvPanel {
  // One matrix: geometry, view, base drawing, overlay drawing, hit testing.
  constructor(el, cfg) {
    // cfg: {name, rows, cols, rowLabels|null, colLabels, image, size: [w, h], margin: [left, top]}
    this.el = el; this.cfg = cfg;
    this.stage = el.querySelector(".hv-stage");
    this.base = el.querySelector(".hv-base");
    this.overlay = el.querySelector(".hv-overlay");
    this.minimap = el.querySelector(".hv-minimap");
    this.view = { x0: 0, x1: cfg.cols, y0: 0, y1: cfg.rows };
    this.resize(cfg.size[0], cfg.size[1]);
  }

  resize(w, h) {
    const dpr = window.devicePixelRatio || 1;
    this.w = w; this.h = h;
    const [left, top] = this.cfg.margin;
    this.plot = { x: left, y: top, w: Math.max(10, w - left - 4), h: Math.max(10, h - top - 4) };
    for (const c of [this.base, this.overlay]) {
      c.width = Math.round(w * dpr); c.height = Math.round(h * dpr);
      c.style.width = w + "px"; c.style.height = h + "px";
    }
    this.stage.style.width = w + "px"; this.stage.style.height = h + "px";
    this.el.setAttribute("data-plot", [this.plot.x, this.plot.y, this.plot.w, this.plot.h].join(","));
  }

  cellPx() {
    const v = this.view;
    return [this.plot.w / (v.x1 - v.x0), this.plot.h / (v.y1 - v.y0)];
  }

  toScreen(col, row) { // cell coordinates (may be fractional) -> CSS pixels in the stage
    const v = this.view, [cw, ch] = this.cellPx();
    return [this.plot.x + (col - v.x0) * cw, this.plot.y + (row - v.y0) * ch];
  }

  hit(px, py) {
    // What is under stage pixel (px, py): {row, col} with -1 for "none", or null outside.
    const p = this.plot, v = this.view, [cw, ch] = this.cellPx();
    const inX = px >= p.x && px < p.x + p.w, inY = py >= p.y && py < p.y + p.h;
    const col = Math.min(this.cfg.cols - 1, Math.floor(v.x0 + (px - p.x) / cw));
    const row = Math.min(this.cfg.rows - 1, Math.floor(v.y0 + (py - p.y) / ch));
    if (inX && inY) return { row, col };
    if (inY && px < p.x && this.cfg.rowLabels) return { row, col: -1 }; // a query word
    if (inX && py < p.y && this.cfg.colLabels) return { row: -1, col }; // a key word (or a dimension)
    return null;
  }

  labels(ctx) {
    // The labels to write for the current view: [{text, x, y, vertical}] in stage pixels.
    const out = [], v = this.view, [cw, ch] = this.cellPx(), p = this.plot;
    if (this.cfg.rowLabels) {
      for (const i of hvLabelIndices(v.y0, v.y1, ch)) {
        const [, y] = this.toScreen(0, i + 0.5);
        if (y < p.y || y > p.y + p.h) continue;
        const text = hvFit(ctx, this.cfg.rowLabels[i], p.x - 6);
        if (text) out.push({ text, x: p.x - 4, y, vertical: false });
      }
    }
    if (this.cfg.colLabels) {
      for (const j of hvLabelIndices(v.x0, v.x1, cw)) {
        const [x] = this.toScreen(j + 0.5, 0);
        if (x < p.x || x > p.x + p.w) continue;
        const text = hvFit(ctx, this.cfg.colLabels[j], p.y - 6);
        if (text) out.push({ text, x, y: p.y - 4, vertical: true });
      }
    }
    return out;
  }

  drawBase(textColour) {
    const ctx = this.base.getContext("2d"), dpr = window.devicePixelRatio || 1, v = this.view, p = this.plot;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, this.w, this.h);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(this.cfg.image, v.x0, v.y0, v.x1 - v.x0, v.y1 - v.y0, p.x, p.y, p.w, p.h);
    this.hatchMasked(ctx);
    ctx.font = HV_FONT; ctx.fillStyle = textColour; ctx.textBaseline = "middle";
    for (const l of this.labels(ctx)) {
      if (l.vertical) {
        ctx.save(); ctx.translate(l.x, l.y); ctx.rotate(-Math.PI / 2);
        ctx.textAlign = "left"; ctx.fillText(l.text, 0, 0); ctx.restore();
      } else {
        ctx.textAlign = "right"; ctx.fillText(l.text, l.x, l.y);
      }
    }
    this.el.setAttribute("data-view", [v.x0, v.y0, v.x1, v.y1].map((x) => +x.toFixed(3)).join(","));
    this.drawMinimap();
  }

  hatchMasked(ctx) {
    // Masked cells are grey in the image; once cells are big enough they are hatched too.
    const m = this.cfg.masked, v = this.view, [cw, ch] = this.cellPx();
    if (!m || cw < 6 || ch < 6) return;
    ctx.save();
    ctx.beginPath(); ctx.rect(this.plot.x, this.plot.y, this.plot.w, this.plot.h); ctx.clip();
    ctx.strokeStyle = "rgba(90, 90, 90, 0.7)"; ctx.lineWidth = 1; ctx.beginPath();
    for (let i = Math.floor(v.y0); i < Math.min(this.cfg.rows, Math.ceil(v.y1)); i++) {
      for (let j = Math.floor(v.x0); j < Math.min(this.cfg.cols, Math.ceil(v.x1)); j++) {
        if (!m[i * this.cfg.cols + j]) continue;
        const [x, y] = this.toScreen(j, i);
        ctx.moveTo(x, y + ch); ctx.lineTo(x + cw, y);
        ctx.moveTo(x, y + ch / 2); ctx.lineTo(x + cw / 2, y);
        ctx.moveTo(x + cw / 2, y + ch); ctx.lineTo(x + cw, y + ch / 2);
      }
    }
    ctx.stroke(); ctx.restore();
  }

  zoomed() {
    const v = this.view;
    return v.x0 > 0 || v.y0 > 0 || v.x1 < this.cfg.cols || v.y1 < this.cfg.rows;
  }

  drawMinimap() {
    // The whole matrix small, the visible window outlined; hidden when everything is visible.
    const mm = this.minimap;
    if (!mm) return;
    if (this.cfg.name === "Z") { mm.hidden = true; return; } // Z zooms with A's rows; A's minimap shows them
    mm.hidden = !this.zoomed();
    if (mm.hidden) return;
    const size = 84, sx = size / Math.max(this.cfg.cols, this.cfg.rows);
    mm.width = Math.max(8, Math.round(this.cfg.cols * sx)); mm.height = Math.max(8, Math.round(this.cfg.rows * sx));
    const ctx = mm.getContext("2d"), v = this.view;
    ctx.imageSmoothingEnabled = true;
    ctx.drawImage(this.cfg.image, 0, 0, this.cfg.cols, this.cfg.rows, 0, 0, mm.width, mm.height);
    ctx.strokeStyle = HV_HIGHLIGHT; ctx.lineWidth = 2;
    ctx.strokeRect(v.x0 * mm.width / this.cfg.cols, v.y0 * mm.height / this.cfg.rows,
      Math.max(2, (v.x1 - v.x0) * mm.width / this.cfg.cols), Math.max(2, (v.y1 - v.y0) * mm.height / this.cfg.rows));
  }

  drawOverlay(hover, sel) {
    // hover, sel: {row, col} with -1 for "not this axis" (row only, column only, or nothing).
    const ctx = this.overlay.getContext("2d"), dpr = window.devicePixelRatio || 1;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, this.w, this.h);
    this.band(ctx, hover, HV_HOVER, 1);
    this.band(ctx, sel, HV_HIGHLIGHT, 2);
    hvSelectedLabels(this, ctx, sel); // marks.js
  }

  band(ctx, at, colour, width) {
    const p = this.plot, [cw, ch] = this.cellPx();
    const col = this.cfg.name === "Z" ? -1 : at.col; // Z's columns are dimensions, not key words
    ctx.save();
    ctx.strokeStyle = colour; ctx.fillStyle = colour; ctx.lineWidth = width;
    ctx.beginPath(); ctx.rect(0, 0, this.w, this.h); ctx.clip();
    if (at.row >= 0) {
      const [, y] = this.toScreen(0, at.row);
      if (y + ch >= p.y && y <= p.y + p.h) {
        ctx.strokeRect(p.x, y, p.w, Math.max(ch, 1));
        ctx.fillRect(p.x - 4, y, 3, Math.max(ch, 2)); // a mark beside the row's word
      }
    }
    if (col >= 0) {
      const [x] = this.toScreen(col, 0);
      if (x + cw >= p.x && x <= p.x + p.w) {
        ctx.strokeRect(x, p.y, Math.max(cw, 1), p.h);
        ctx.fillRect(x, p.y - 4, Math.max(cw, 2), 3);
      }
    }
    if (at.row >= 0 && col >= 0) {
      const [x, y] = this.toScreen(col, at.row);
      ctx.lineWidth = width + 1; ctx.strokeRect(x - 1, y - 1, Math.max(cw, 1) + 2, Math.max(ch, 1) + 2);
    }
    ctx.restore();
  }
}
