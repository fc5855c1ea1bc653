// Drawing the long head view: A from the pooled picture and any exact tiles, at screen resolution.
// Each screen pixel shows the largest weight of the positions it covers (as the pooled picture does),
// so a sink column or one strong cell stays visible at every zoom; hidden cells are grey.

const LV_LOW = [247, 251, 255], LV_HIGH = [8, 48, 107]; // white 0 to dark blue 1, the square root of the weight
const LV_MASKED = [217, 217, 217];
const LV_OUTSIDE = [255, 255, 255];

function lvPack(r, g, b) { return (255 << 24) | (b << 16) | (g << 8) | r; } // RGBA in memory, little-endian

function lvLut(decimals) { // code (0..10^d) -> packed colour, on a square-root scale (small weights show)
  const top = 10 ** decimals, lut = new Uint32Array(top + 1);
  for (let c = 0; c <= top; c++) {
    const a = Math.sqrt(c / top);
    lut[c] = lvPack(...[0, 1, 2].map((i) => Math.round(LV_LOW[i] + (LV_HIGH[i] - LV_LOW[i]) * a)));
  }
  return lut;
}

function lvRanges(a0, a1, n, px) {
  // per screen pixel, the positions [lo, hi) it shows: a partition when a pixel covers \u2265 1 position,
  // the position under its centre when zoomed in further
  const lo = new Int32Array(px), hi = new Int32Array(px), step = (a1 - a0) / px;
  for (let i = 0; i < px; i++) {
    const s = a0 + i * step;
    let l, h;
    if (step < 1) { l = Math.floor(s + step / 2); h = l + 1; } else { l = Math.round(s); h = Math.max(l + 1, Math.round(s + step)); }
    lo[i] = Math.max(0, Math.min(n, l));
    hi[i] = Math.max(0, Math.min(n, h));
  }
  return [lo, hi];
}

function lvMaxOf(codes, width, r0, r1, c0, c1) { // the largest code in rows r0..r1, cols c0..c1 of a grid
  let best = -2;
  for (let r = r0; r < r1; r++) {
    const o = r * width;
    for (let c = c0; c < c1; c++) if (codes[o + c] > best) best = codes[o + c];
  }
  return best;
}

function lvRender(d, view, W, H) {
  // d: {nq, nk, cell, pooled: {codes, rows, cols}, tiles: [...], lut}; view: {x0, x1, y0, y1} in positions.
  // Returns ImageData W \u00d7 H (device pixels) of the matrix area.
  const img = new ImageData(W, H), px = new Uint32Array(img.data.buffer);
  const [rlo, rhi] = lvRanges(view.y0, view.y1, d.nq, H), [clo, chi] = lvRanges(view.x0, view.x1, d.nk, W);
  const tiles = d.tiles.filter((t) => t.r1 > view.y0 && t.r0 < view.y1 && t.c1 > view.x0 && t.c0 < view.x1);
  const grey = lvPack(...LV_MASKED), out = lvPack(...LV_OUTSIDE), cell = d.cell, p = d.pooled;
  for (let y = 0; y < H; y++) {
    const rl = rlo[y], rh = rhi[y], o = y * W;
    if (rh <= rl) { px.fill(out, o, o + W); continue; }
    const rows = tiles.filter((t) => rl >= t.r0 && rh <= t.r1);
    const pr0 = Math.floor(rl / cell), pr1 = Math.floor((rh - 1) / cell) + 1;
    for (let x = 0; x < W; x++) {
      const cl = clo[x], ch = chi[x];
      if (ch <= cl) { px[o + x] = out; continue; }
      let code = -2;
      for (const t of rows) {
        if (cl >= t.c0 && ch <= t.c1) { code = lvMaxOf(t.codes, t.c1 - t.c0, rl - t.r0, rh - t.r0, cl - t.c0, ch - t.c0); break; }
      }
      if (code === -2) code = lvMaxOf(p.codes, p.cols, pr0, pr1, Math.floor(cl / cell), Math.floor((ch - 1) / cell) + 1);
      px[o + x] = code < 0 ? grey : d.lut[Math.min(code, d.lut.length - 1)];
    }
  }
  return img;
}

function lvTicks(a0, a1, px, minGap) { // round positions to label along an axis, at least minGap px apart
  const span = Math.max(1e-9, a1 - a0), raw = (span * minGap) / px;
  const pow = 10 ** Math.floor(Math.log10(Math.max(1, raw)));
  const step = [1, 2, 5, 10].map((m) => m * pow).find((s) => s >= raw) || 10 * pow;
  const out = [];
  for (let v = Math.ceil(a0 / step) * step; v < a1; v += step) out.push(v);
  return out;
}

function lvStrip(ctx, values, a0, a1, n, x, y, len, depth, vertical, label) {
  // An exact row (or column) as bars along the matrix's axis: per pixel the largest of the positions it
  // covers, bar length \u221d weight over the largest in view (written in the strip: `label` with {w}).
  ctx.fillStyle = "#f4f6f8";
  if (vertical) ctx.fillRect(x, y, depth, len); else ctx.fillRect(x, y, len, depth);
  if (!values) return;
  const [lo, hi] = lvRanges(a0, a1, n, Math.max(1, Math.round(len)));
  const k = len / lo.length, best = new Float32Array(lo.length);
  let top = 0;
  for (let i = 0; i < lo.length; i++) {
    for (let j = lo[i]; j < hi[i]; j++) if (values[j] > best[i]) best[i] = values[j];
    top = Math.max(top, best[i]);
  }
  if (top <= 0) return;
  ctx.fillStyle = "#2171b5";
  for (let i = 0; i < lo.length; i++) {
    if (best[i] <= 0) continue;
    const bar = Math.max(1, (best[i] / top) * (depth - 14)); // 14 px left for the label
    if (vertical) ctx.fillRect(x, y + i * k, bar, Math.max(1, k)); else ctx.fillRect(x + i * k, y + depth - bar, Math.max(1, k), bar);
  }
  ctx.save();
  ctx.fillStyle = "#444";
  ctx.font = "10px system-ui, sans-serif";
  ctx.textAlign = "left";
  ctx.textBaseline = "top";
  const text = label.replace("{w}", top.toPrecision(3));
  if (vertical) { ctx.translate(x + depth - 2, y + 2); ctx.rotate(Math.PI / 2); ctx.fillText(text, 0, 0); }
  else ctx.fillText(text, x + 2, y + 1);
  ctx.restore();
}

function lvFill(text, values) { // "{a} and {b}" with values {a: \u2026, b: \u2026}, every occurrence
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in values ? String(values[name]) : m));
}
