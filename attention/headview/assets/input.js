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
  stage.addEventListener("pointermove", (e) => {
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
    if (e.button !== 0) return;
    const [x, y] = hvLocal(stage, e);
    press = { x, y, moved: false, view: { ...view.S.view } };
    if (stage.setPointerCapture && e.pointerId !== undefined) {
      try { stage.setPointerCapture(e.pointerId); } catch (err) { /* synthetic events have no capture */ }
    }
  });
  stage.addEventListener("pointerup", (e) => {
    const was = press;
    press = null;
    if (!was || was.moved) return;
    const [x, y] = hvLocal(stage, e);
    const t = hvTarget(view, panel, hitOf(x, y));
    if (t) view.setSelection(t.at, true);
    view.root.focus({ preventScroll: true });
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

function hvListenKeys(view) {
  let timer = null;
  const sendLater = () => {
    clearTimeout(timer);
    timer = setTimeout(() => view.onSelect([view.sel.row, view.sel.col]), HV_KEY_SEND_MS);
  };
  view.root.addEventListener("keydown", (e) => {
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
  view.buttons.png.addEventListener("click", () => hvDownload(view.fileName("png"), hvPngUrl(view)));
  view.buttons.svg.addEventListener("click", () => {
    const url = URL.createObjectURL(new Blob([hvSvgText(view)], { type: "image/svg+xml" }));
    hvDownload(view.fileName("svg"), url);
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  });
}
