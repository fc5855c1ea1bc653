// LvView's drawing: the matrix into an off-screen base (on a change of view or data), then the base and
// the highlight onto the canvas (on every hover or click: one drawImage and a few rectangles).

LvView.prototype.render = function () {
  if (!this.d.pooled) return;
  const b = this.box, dpr = this.dpr, ctx = this.base.getContext("2d"), v = this.view;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, this.base.width, this.base.height);
  const W = Math.round(b.w * dpr), H = Math.round(b.h * dpr);
  ctx.putImageData(lvRender(this.d, v, W, H), Math.round(b.x * dpr), Math.round(b.y * dpr));
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.font = "11px system-ui, sans-serif";
  ctx.fillStyle = getComputedStyle(this.root).color || "#262730";
  ctx.textBaseline = "middle";
  ctx.textAlign = "right";
  for (const r of lvTicks(v.y0, v.y1, b.h, 28)) ctx.fillText(String(r), b.x - 4, this.toPx(r + 0.5, 0)[1]);
  ctx.textAlign = "center";
  ctx.textBaseline = "bottom";
  for (const c of lvTicks(v.x0, v.x1, b.w, 56)) ctx.fillText(String(c), this.toPx(0, c + 0.5)[0], b.y - 4);
  const l = this.lines || {};
  const top = this.L.strip_max;
  lvStrip(ctx, l.row, v.x0, v.x1, this.nk, b.x, b.y + b.h + LV_GAP, b.w, LV_STRIP, false, top); // the query's row, under A
  lvStrip(ctx, l.column, v.y0, v.y1, this.nq, b.x + b.w + LV_GAP, b.y, b.h, LV_STRIP, true, top); // the key's column
  const exact = this.covered(Math.floor(v.y0), Math.ceil(v.y1), Math.floor(v.x0), Math.ceil(v.x1)) || this.h.cell <= 1;
  this.root.setAttribute("data-exact", exact ? "1" : "0");
  this.root.setAttribute("data-view", [v.y0, v.y1, v.x0, v.x1].map((a) => a.toFixed(3)).join(",")); // for tests
  this.root.setAttribute("data-box", [b.x, b.y, b.w, b.h].join(","));
  this.where.textContent = lvFill(this.L.where, { r0: Math.floor(v.y0), r1: Math.ceil(v.y1) - 1, c0: Math.floor(v.x0),
    c1: Math.ceil(v.x1) - 1, how: exact ? this.L.exact : lvFill(this.L.pooled_how, { cell: this.h.cell }) });
  this.paint();
};

LvView.prototype.paint = function () { // the base, then the selection's crosshair and the hovered cell
  const ctx = this.canvas.getContext("2d"), b = this.box;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
  ctx.drawImage(this.base, 0, 0);
  ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
  ctx.save();
  ctx.beginPath();
  ctx.rect(b.x, b.y, b.w + LV_GAP + LV_STRIP, b.h + LV_GAP + LV_STRIP);
  ctx.clip();
  const [cw, ch] = this.cellPx(), s = this.sel;
  const band = (row, col) => { // a row (col < 0) or a column (row < 0) of A, at least 2 px wide, and its strip
    const [x, y] = this.toPx(Math.max(row, 0), Math.max(col, 0));
    if (col < 0) ctx.strokeRect(b.x, y, b.w, Math.max(2, ch));
    else ctx.strokeRect(x, b.y, Math.max(2, cw), b.h);
  };
  ctx.lineWidth = 2;
  ctx.strokeStyle = "#ff7f0e";
  if (s.row >= 0) band(s.row, -1);
  if (s.col >= 0) band(-1, s.col);
  if (s.row >= 0 && s.col >= 0) { // the key's place on the row's strip, the query's on the column's
    const [x, y] = this.toPx(s.row, s.col);
    ctx.strokeStyle = "#000";
    ctx.strokeRect(x - 1, y - 1, Math.max(2, cw) + 2, Math.max(2, ch) + 2);
    ctx.strokeStyle = "#ff7f0e";
    ctx.strokeRect(x, b.y + b.h + LV_GAP, Math.max(2, cw), LV_STRIP);
    ctx.strokeRect(b.x + b.w + LV_GAP, y, LV_STRIP, Math.max(2, ch));
  }
  if (this.hover) {
    const [x, y] = this.toPx(this.hover.row, this.hover.col);
    ctx.lineWidth = 1;
    ctx.strokeStyle = "#000";
    ctx.strokeRect(x, y, Math.max(2, cw), Math.max(2, ch));
  }
  ctx.restore();
};

LvView.prototype.setSelection = function (sel, fromUser) {
  const row = sel.row >= 0 && sel.row < this.nq ? sel.row : -1, col = sel.col >= 0 && sel.col < this.nk ? sel.col : -1;
  const same = row === this.sel.row && col === this.sel.col;
  this.sel = { row, col };
  this.root.setAttribute("data-selected", `${row},${col}`);
  this.paint(); // the highlight, in this task: before anything goes to Python
  if (!same) this.say();
  if (fromUser && !same) this.send();
};

LvView.prototype.send = function (tries = 3) { // the selection to Python; again if its row and column do not come back
  const { row, col } = this.sel;
  this.opts.onSelect([row, col]);
  clearTimeout(this.retrySel);
  this.retrySel = setTimeout(() => {
    const l = this.lines;
    if (tries > 1 && (!l || l.query !== this.sel.row || l.key !== this.sel.col)) this.send(tries - 1);
  }, LV_RETRY_MS);
};

LvView.prototype.say = function () { // the selection in words (a live region: screen readers read it)
  const { row, col } = this.sel, L = this.L;
  this.status.textContent = row >= 0 && col >= 0 ? this.describe(row, col)
    : row >= 0 ? lvFill(L.sr_row, { q: row }) : col >= 0 ? lvFill(L.sr_col, { k: col }) : L.sr_none;
};

LvView.prototype.setLines = function (msg) { // the selection's exact row and column from Python
  const h = msg.header;
  if (h.head !== this.h.head) return;
  const [q, k] = h.selection;
  this.lines = { query: q, key: k, row: h.row ? lvFloats(h.row, msg.body) : null,
    column: h.column ? lvFloats(h.column, msg.body) : null };
  this.root.setAttribute("data-lines", `${q},${k}`);
  const said = k < 0 ? this.L.strips_row : q < 0 ? this.L.strips_col : this.L.strips; // never an empty key quote
  this.legend.textContent = q < 0 && k < 0 ? "" : lvFill(said,
    { q: q < 0 ? "" : q, qt: q < 0 ? "" : this.qLabels[q], k: k < 0 ? "" : k, kt: k < 0 ? "" : this.kLabels[k] });
  this.setSelection({ row: q, col: k }, false);
  this.say(); // now with the exact weight
  if (h.goto) this.goTo(q, k, 128); // a position typed in: show it, exact
  else this.render();
};

LvView.prototype.setHover = function (at, clientXY) {
  this.hover = at;
  this.paint();
  if (!at || !clientXY) { this.tip.hidden = true; return; }
  this.tip.textContent = this.describe(at.row, at.col);
  this.tip.hidden = false;
  const r = this.stage.getBoundingClientRect(), [x, y] = [clientXY[0] - r.left, clientXY[1] - r.top];
  this.tip.style.left = Math.min(x + 14, Math.max(0, r.width - this.tip.offsetWidth - 4)) + "px";
  this.tip.style.top = y + 16 + "px";
};
