// Pointer, wheel and keyboard input of a head view: hover, click, zoom, pan, arrows, buttons.
// Everything happens in the browser; only a change of selection calls view.onSelect.

const HV_DRAG_PX = 4; // a press that moves less than this is a click, not a pan
const HV_KEY_SEND_MS = 250; // arrow keys: tell the host once the selection has rested this long

function hvLocal(el, e) { // the event's position in el's CSS pixels
  const r = el.getBoundingClientRect();
  return [e.clientX - r.left, e.clientY - r.top];
}

function hvTarget(view, panel, hit) {
  // What a hit in `panel` points at: {at: {row, col}, zDim}, or null (Z's dimension header).
  if (!hit) return null;
  if (panel === view.Z) return hit.row < 0 ? null : { at: { row: hit.row, col: -1 }, zDim: hit.col >= 0 ? hit.col : -1 };
  return { at: hit, zDim: -1 };
}

function hvListenPanel(view, panel, hitOf) {
  const stage = panel.el.querySelector(".hv-stage");
  let press = null; // {x, y, view} while a button is down on a matrix
  const where = (e) => hvLocal(view.root, e);
  const pinch = panel === view.lines ? null : hvListenPinch(view, panel, stage, () => { press = null; });
  stage.addEventListener("pointermove", (e) => {
    if (pinch && pinch.active()) return;
    const [x, y] = hvLocal(stage, e);
    if (press && panel !== view.lines && (press.moved || Math.hypot(x - press.x, y - press.y) >= HV_DRAG_PX)) {
      press.moved = true;
      const [cw, ch] = panel.cellPx(), v = press.view;
      const dx = panel === view.Z ? 0 : (x - press.x) / cw, dy = (y - press.y) / ch;
      view.setView(v.x0 - dx, v.x1 - dx, v.y0 - dy, v.y1 - dy);
      return;
    }
    const t = hvTarget(view, panel, hitOf(x, y));
    view.setHover(t ? t.at : null, t ? t.zDim : -1, where(e));
  });
  stage.addEventListener("pointerleave", () => view.setHover(null, -1, null));
  stage.addEventListener("pointerdown", (e) => {
    if (e.button !== 0 || (pinch && pinch.active())) return;
    const [x, y] = hvLocal(stage, e);
    press = { x, y, moved: false, view: { ...view.S.view } };
    if (stage.setPointerCapture && e.pointerId !== undefined) {
      try { stage.setPointerCapture(e.pointerId); } catch (err) { /* synthetic events have no capture */ }
    }
  });
  stage.addEventListener("pointercancel", () => { press = null; }); // the browser scrolls the page instead
  stage.addEventListener("pointerup", (e) => {
    const was = press;
    press = null;
    if (!was || was.moved) return;
    const [x, y] = hvLocal(stage, e);
    const t = hvTarget(view, panel, hitOf(x, y));
    if (t) view.setSelection(t.at, true);
    if (e.pointerType !== "touch") view.a11y.grid.focus({ preventScroll: true }); // keys go on from here
  });
  if (panel === view.lines) return;
  stage.addEventListener("wheel", (e) => {
    e.preventDefault();
    const [x, y] = hvLocal(stage, e), v = view.S.view, p = panel.plot;
    const factor = Math.exp(Math.max(-3, Math.min(3, e.deltaY * 0.002)));
    // the cell under the pointer stays under the pointer
    const fx = Math.max(0, Math.min(1, (x - p.x) / p.w)), fy = Math.max(0, Math.min(1, (y - p.y) / p.h));
    const cx = v.x0 + fx * (v.x1 - v.x0), cy = v.y0 + fy * (v.y1 - v.y0);
    const w = panel === view.Z ? v.x1 - v.x0 : (v.x1 - v.x0) * factor, h = (v.y1 - v.y0) * factor;
    const x0 = panel === view.Z ? v.x0 : cx - fx * w;
    view.setView(x0, x0 + w, cy - fy * h, cy - fy * h + h);
  }, { passive: false });
  const mm = panel.minimap;
  mm.addEventListener("pointerdown", (e) => e.stopPropagation());
  mm.addEventListener("pointerup", (e) => { // centre the view where the minimap was clicked
    e.stopPropagation();
    const [x, y] = hvLocal(mm, e), v = view.S.view;
    const cx = (x / mm.clientWidth) * panel.cfg.cols, cy = (y / mm.clientHeight) * panel.cfg.rows;
    const w = v.x1 - v.x0, h = v.y1 - v.y0;
    view.setView(panel === view.Z ? v.x0 : cx - w / 2, panel === view.Z ? v.x1 : cx + w / 2, cy - h / 2, cy + h / 2);
  });
}

function hvListenPinch(view, panel, stage, cancelPress) {
  // Two fingers on a matrix: pinch zooms, dragging both pans (one finger scrolls the page, a tap selects).
  const touches = new Map(); // pointerId -> [x, y] in stage pixels
  let start = null; // {cx, cy, dist, view} when the second finger came down
  const centre = () => {
    const [[ax, ay], [bx, by]] = [...touches.values()];
    return { cx: (ax + bx) / 2, cy: (ay + by) / 2, dist: Math.max(8, Math.hypot(ax - bx, ay - by)) };
  };
  stage.addEventListener("pointerdown", (e) => {
    if (e.pointerType !== "touch") return;
    touches.set(e.pointerId, hvLocal(stage, e));
    if (touches.size === 2) { start = { ...centre(), view: { ...view.S.view } }; cancelPress(); }
  });
  stage.addEventListener("pointermove", (e) => {
    if (!touches.has(e.pointerId)) return;
    touches.set(e.pointerId, hvLocal(stage, e));
    if (!start || touches.size !== 2) return;
    const now = centre(), v = start.view, p = panel.plot;
    const factor = start.dist / now.dist, w = (v.x1 - v.x0) * factor, h = (v.y1 - v.y0) * factor;
    // the cell under the fingers' first centre follows the centre
    const fx = (start.cx - p.x) / p.w, fy = (start.cy - p.y) / p.h;
    const gx = (now.cx - p.x) / p.w, gy = (now.cy - p.y) / p.h;
    const cx = v.x0 + fx * (v.x1 - v.x0), cy = v.y0 + fy * (v.y1 - v.y0);
    if (panel === view.Z) view.setView(v.x0, v.x1, cy - gy * h, cy - gy * h + h);
    else view.setView(cx - gx * w, cx - gx * w + w, cy - gy * h, cy - gy * h + h);
  });
  const lift = (e) => { touches.delete(e.pointerId); if (touches.size < 2) start = null; };
  stage.addEventListener("pointerup", lift);
  stage.addEventListener("pointercancel", lift);
  return { active: () => start !== null };
}

function hvListenKeys(view) {
  let timer = null;
  const sendLater = () => {
    clearTimeout(timer);
    timer = setTimeout(() => view.onSelect([view.sel.row, view.sel.col]), HV_KEY_SEND_MS);
  };
  view.root.addEventListener("keydown", (e) => {
    // the toolbar's buttons (and a host's pickers) keep their own keys: Enter and Space press them
    if (e.target.closest && e.target.closest("button, select, input, a, textarea")) return;
    const s = view.sel, d = view.d;
    const step = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[e.key];
    if (step) {
      e.preventDefault();
      // an axis not yet selected starts at its first word; a selected one moves by one
      const row = step[0] ? (s.row < 0 ? 0 : Math.max(0, Math.min(d.nq - 1, s.row + step[0]))) : s.row;
      const col = step[1] ? (s.col < 0 ? 0 : Math.max(0, Math.min(d.nk - 1, s.col + step[1]))) : s.col;
      view.setSelection({ row, col }, false);
      view.ensureVisible();
      sendLater();
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      if (view.hover.row >= 0 || view.hover.col >= 0) view.setSelection(view.hover, true);
    } else if (e.key === "Escape") {
      e.preventDefault();
      clearTimeout(timer);
      view.setSelection(HV_NONE, true);
    }
  });
}

function hvListen(view) {
  for (const panel of view.panels) hvListenPanel(view, panel, (x, y) => panel.hit(x, y));
  if (view.lines) hvListenPanel(view, view.lines, (x, y) => view.lines.hit(x, y));
  hvListenKeys(view);
  view.buttons.reset.addEventListener("click", () => view.resetView());
  view.buttons.ascale.addEventListener("click", () => view.setRowScale(!view.rowScale));
  if (view.buttons.palette) {
    view.buttons.palette.addEventListener("click", () => view.setPalette(view.palette === "cvd" ? "standard" : "cvd"));
  }
  view.buttons.png.addEventListener("click", () => hvDownload(view.fileName("png"), hvPngUrl(view)));
  view.buttons.svg.addEventListener("click", () => {
    const url = URL.createObjectURL(new Blob([hvSvgText(view)], { type: "image/svg+xml" }));
    hvDownload(view.fileName("svg"), url);
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  });
}
