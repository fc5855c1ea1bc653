// The long head view: one head's A at any length in a canvas. The pooled picture is drawn at once;
// zoomed in to LV_TILE_SHOW positions or fewer, the view asks Python for the exact tile it shows
// (onTile) and draws it over the picture; a click is highlighted here, at once, then sent (onSelect);
// the selected query's exact row and key's exact column come back as strips along the axes.

const LV_AXIS_L = 52, LV_AXIS_T = 22, LV_GAP = 6, LV_STRIP = 56, LV_MAX_SIDE = 960;
const LV_TILE_SHOW = 512; // positions a side at most for an exact tile to be asked for
const LV_TILE_GRID = 64; // analysis/long_rows.TILE_GRID
const LV_TILES_KEPT = 12; // exact tiles kept in the browser (each \u2264 576\u00b2 codes)
const LV_MIN_SPAN = 8;
const LV_RETRY_MS = 5000; // a tile or a selection Python has not answered this long is sent again

class LvView {
  constructor(host, msg, opts) {
    const h = msg.header;
    this.h = h;
    this.L = h.labels;
    this.opts = opts; // {onSelect([q, k]), onTile([r0, c0, span])}
    this.nq = h.n_query;
    this.nk = h.n_key;
    this.qLabels = h.query_labels;
    this.kLabels = h.key_labels || h.query_labels;
    this.sel = { row: -1, col: -1 };
    this.hover = null;
    this.lines = null; // {query, key, row: Float32Array|null, column: Float32Array|null}
    this.tiles = [];
    this.asked = null; // the tile asked for and not yet received: "r0,c0,span"
    this.view = { x0: 0, x1: this.nk, y0: 0, y1: this.nq };
    this.d = { nq: this.nq, nk: this.nk, cell: h.cell, tiles: this.tiles, lut: lvLut(h.decimals), pooled: null };
    this.build(host);
  }

  async load(msg) {
    const codes = await hvDecodeInts(msg.header.pooled, msg.body);
    const [rows, cols] = msg.header.pooled.shape;
    this.d.pooled = { codes, rows, cols };
    this.layout();
    this.root.setAttribute("data-ready", "1");
    return this;
  }

  build(host) {
    const L = this.L, el = (tag, cls, text) => {
      const e = document.createElement(tag);
      if (cls) e.className = cls;
      if (text) e.textContent = text;
      return e;
    };
    this.root = el("div", "lv");
    this.root.setAttribute("data-matrix", "A-long");
    const bar = el("div", "lv-toolbar");
    this.buttons = { out: el("button", "", "\u2212"), in: el("button", "", "+"), reset: el("button", "", L.reset) };
    this.buttons.out.setAttribute("aria-label", L.zoom_out);
    this.buttons.in.setAttribute("aria-label", L.zoom_in);
    for (const b of Object.values(this.buttons)) { b.type = "button"; bar.append(b); }
    this.where = el("span", "lv-where");
    bar.append(this.where);
    this.canvas = el("canvas", "lv-canvas");
    this.canvas.tabIndex = 0;
    this.canvas.setAttribute("role", "application");
    this.canvas.setAttribute("aria-roledescription", L.roledescription);
    this.canvas.setAttribute("aria-label", L.grid);
    this.stage = el("div", "lv-stage");
    this.tip = el("div", "lv-tip");
    this.tip.hidden = true;
    this.stage.append(this.canvas, this.tip);
    this.status = el("div", "lv-status");
    this.status.setAttribute("aria-live", "polite");
    this.legend = el("div", "lv-legend");
    this.root.append(bar, el("div", "lv-help", L.help), this.stage, this.legend, this.status);
    host.append(this.root);
    this.base = document.createElement("canvas");
    this.resize = new ResizeObserver(() => this.layout());
    this.resize.observe(host);
    this.host = host;
  }

  destroy() { this.resize.disconnect(); for (const t of [this.tileTimer, this.retryTile, this.retrySel]) clearTimeout(t); }

  layout() {
    const width = Math.max(240, this.host.clientWidth || 700);
    const side = Math.max(160, Math.min(LV_MAX_SIDE, width - LV_AXIS_L - LV_GAP - LV_STRIP - 4));
    this.box = { x: LV_AXIS_L, y: LV_AXIS_T, w: side, h: side };
    const dpr = window.devicePixelRatio || 1;
    const cssW = LV_AXIS_L + side + LV_GAP + LV_STRIP + 4, cssH = LV_AXIS_T + side + LV_GAP + LV_STRIP + 4;
    for (const c of [this.canvas, this.base]) { c.width = Math.round(cssW * dpr); c.height = Math.round(cssH * dpr); }
    this.canvas.style.width = cssW + "px";
    this.canvas.style.height = cssH + "px";
    this.dpr = dpr;
    if (this.d.pooled) this.render();
  }

  // ---- positions and pixels
  cellPx() { return [this.box.w / (this.view.x1 - this.view.x0), this.box.h / (this.view.y1 - this.view.y0)]; }
  toPos(x, y) { // css px in the canvas -> {row, col} or null outside the matrix
    const b = this.box, v = this.view;
    if (x < b.x || y < b.y || x >= b.x + b.w || y >= b.y + b.h) return null;
    const col = Math.floor(v.x0 + ((x - b.x) / b.w) * (v.x1 - v.x0)), row = Math.floor(v.y0 + ((y - b.y) / b.h) * (v.y1 - v.y0));
    return row >= 0 && row < this.nq && col >= 0 && col < this.nk ? { row, col } : null;
  }
  toPx(row, col) { // the top left corner of a cell, css px
    const b = this.box, v = this.view;
    return [b.x + ((col - v.x0) / (v.x1 - v.x0)) * b.w, b.y + ((row - v.y0) / (v.y1 - v.y0)) * b.h];
  }

  setView(x0, x1, y0, y1) {
    const fit = (a0, a1, n) => {
      let w = Math.max(Math.min(LV_MIN_SPAN, n), Math.min(n, a1 - a0));
      let s = Math.max(0, Math.min(n - w, a0 + (a1 - a0 - w) / 2));
      return [s, s + w];
    };
    [x0, x1] = fit(x0, x1, this.nk);
    [y0, y1] = fit(y0, y1, this.nq);
    this.view = { x0, x1, y0, y1 };
    this.render();
    clearTimeout(this.tileTimer);
    this.tileTimer = setTimeout(() => this.askTile(), 120); // once the wheel or the drag rests
  }
  zoom(factor, cx, cy) { // about the position (cx, cy); default the selection, else the centre
    const v = this.view;
    cx = cx ?? (this.sel.col >= 0 ? this.sel.col + 0.5 : (v.x0 + v.x1) / 2);
    cy = cy ?? (this.sel.row >= 0 ? this.sel.row + 0.5 : (v.y0 + v.y1) / 2);
    const fx = (cx - v.x0) / (v.x1 - v.x0), fy = (cy - v.y0) / (v.y1 - v.y0);
    const w = (v.x1 - v.x0) * factor, h = (v.y1 - v.y0) * factor;
    this.setView(cx - fx * w, cx - fx * w + w, cy - fy * h, cy - fy * h + h);
  }
  resetView() { this.setView(0, this.nk, 0, this.nq); }
  goTo(row, col, span) { // centre a span \u00d7 span window on a cell
    const r = row >= 0 ? row : (this.view.y0 + this.view.y1) / 2, c = col >= 0 ? col : (this.view.x0 + this.view.x1) / 2;
    this.setView(c - span / 2, c + span / 2, r - span / 2, r + span / 2);
  }
  ensureVisible() {
    const v = this.view, s = this.sel;
    const inside = (p, a0, a1) => p < 0 || (p >= a0 && p + 1 <= a1);
    if (inside(s.row, v.y0, v.y1) && inside(s.col, v.x0, v.x1)) return;
    const dx = s.col < 0 ? 0 : s.col < v.x0 ? s.col - v.x0 : Math.max(0, s.col + 1 - v.x1);
    const dy = s.row < 0 ? 0 : s.row < v.y0 ? s.row - v.y0 : Math.max(0, s.row + 1 - v.y1);
    this.setView(v.x0 + dx, v.x1 + dx, v.y0 + dy, v.y1 + dy);
  }

  // ---- exact tiles
  covered(r0, r1, c0, c1) { return this.tiles.some((t) => t.r0 <= r0 && t.r1 >= r1 && t.c0 <= c0 && t.c1 >= c1); }
  askTile() {
    const v = this.view;
    const r0 = Math.max(0, Math.floor(v.y0)), r1 = Math.min(this.nq, Math.ceil(v.y1));
    const c0 = Math.max(0, Math.floor(v.x0)), c1 = Math.min(this.nk, Math.ceil(v.x1));
    if (this.h.cell <= 1 || Math.max(r1 - r0, c1 - c0) > LV_TILE_SHOW || this.covered(r0, r1, c0, c1)) return;
    const g0r = Math.floor(r0 / LV_TILE_GRID) * LV_TILE_GRID, g0c = Math.floor(c0 / LV_TILE_GRID) * LV_TILE_GRID;
    const span = Math.ceil(Math.max(r1 - g0r, c1 - g0c) / LV_TILE_GRID) * LV_TILE_GRID;
    const ask = `${g0r},${g0c},${span}`;
    if (ask === this.asked && performance.now() - this.askedAt < 5000) return; // asked already (a lost answer: again)
    this.asked = ask;
    this.askedAt = performance.now();
    this.root.setAttribute("data-asked", ask);
    this.opts.onTile([g0r, g0c, span]);
    clearTimeout(this.retryTile); // a rerun asked for while another runs can be lost: ask again if nothing came
    this.retryTile = setTimeout(() => { this.asked = null; this.askTile(); }, LV_RETRY_MS);
  }
  async addTile(msg) {
    const h = msg.header;
    if (h.head !== this.h.head || this.tiles.some((t) => t.r0 === h.r0 && t.c0 === h.c0 && t.r1 === h.r1 && t.c1 === h.c1)) return;
    const codes = await hvDecodeInts(h.A, msg.body);
    this.tiles.unshift({ r0: h.r0, r1: h.r1, c0: h.c0, c1: h.c1, codes });
    this.tiles.length = Math.min(this.tiles.length, LV_TILES_KEPT);
    this.asked = null;
    clearTimeout(this.retryTile);
    this.root.setAttribute("data-tiles", this.tiles.map((t) => `${t.r0},${t.r1},${t.c0},${t.c1}`).join(";"));
    this.render();
  }

  // ---- what a cell shows
  exact(row, col) { // the exact code of a cell if a tile holds it, else null
    const t = this.tiles.find((t) => row >= t.r0 && row < t.r1 && col >= t.c0 && col < t.c1);
    return t ? t.codes[(row - t.r0) * (t.c1 - t.c0) + col - t.c0] : null;
  }
  lineValue(row, col) { // the exact float from the selection's row or column, if it crosses the cell
    const l = this.lines;
    if (!l) return null;
    if (l.row && row === l.query) return l.row[col];
    if (l.column && col === l.key) return l.column[row];
    return null;
  }
  describe(row, col) { // the words a hover, the status line and a screen reader give for a cell
    const L = this.L, dec = this.h.decimals, code = this.exact(row, col), f = this.lineValue(row, col);
    const words = `${L.query} ${row} \u00ab${this.qLabels[row]}\u00bb \u00b7 ${L.key} ${col} \u00ab${this.kLabels[col]}\u00bb`;
    if (code === this.h.masked_code) return `${words}: ${L.masked}`;
    if (f !== null) return `${words}: ${L.weight} ${f.toPrecision(4)} (${L.exact})`;
    if (code !== null) return `${words}: ${L.weight} ${hvFixed(code, dec)} (${L.exact})`;
    const p = this.d.pooled, cell = this.h.cell, pr = Math.floor(row / cell), pc = Math.floor(col / cell);
    const best = p.codes[pr * p.cols + pc];
    const block = `${pr * cell}\u2013${Math.min(this.nq, pr * cell + cell) - 1} \u00d7 ${pc * cell}\u2013${Math.min(this.nk, pc * cell + cell) - 1}`;
    return best < 0 ? `${words}: ${L.masked}` : `${words}: ${lvFill(L.pooled_value, { w: hvFixed(best, dec), block })}`;
  }
}
