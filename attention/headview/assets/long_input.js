// Input of the long head view: wheel zooms about the pointer, a drag pans, a click selects a cell (the
// highlight is drawn before the click goes to Python); the buttons and the keys do the same without a mouse.

const LV_DRAG_PX = 4;
const LV_KEY_SEND_MS = 250; // arrows: tell Python once the selection has rested this long

function lvListen(view) {
  const c = view.canvas;
  let press = null;
  const local = (e) => { const r = c.getBoundingClientRect(); return [e.clientX - r.left, e.clientY - r.top]; };
  c.addEventListener("pointerdown", (e) => {
    if (e.button !== 0) return;
    const [x, y] = local(e);
    press = { x, y, moved: false, view: { ...view.view } };
    try { c.setPointerCapture(e.pointerId); } catch (err) { /* synthetic events have no capture */ }
  });
  c.addEventListener("pointermove", (e) => {
    const [x, y] = local(e);
    if (press && (press.moved || Math.hypot(x - press.x, y - press.y) >= LV_DRAG_PX)) {
      press.moved = true;
      const [cw, ch] = view.cellPx(), v = press.view, dx = (x - press.x) / cw, dy = (y - press.y) / ch;
      view.setView(v.x0 - dx, v.x1 - dx, v.y0 - dy, v.y1 - dy);
      return;
    }
    view.setHover(view.toPos(x, y), [e.clientX, e.clientY]);
  });
  c.addEventListener("pointerleave", () => view.setHover(null, null));
  c.addEventListener("pointercancel", () => { press = null; });
  c.addEventListener("pointerup", (e) => {
    const was = press;
    press = null;
    if (!was || was.moved) return;
    const at = view.toPos(...local(e));
    if (at) view.setSelection(at, true);
    c.focus({ preventScroll: true });
  });
  c.addEventListener("wheel", (e) => {
    const [x, y] = local(e), b = view.box, v = view.view;
    if (x < b.x || y < b.y || x > b.x + b.w || y > b.y + b.h) return; // the page scrolls
    e.preventDefault();
    const cx = v.x0 + ((x - b.x) / b.w) * (v.x1 - v.x0), cy = v.y0 + ((y - b.y) / b.h) * (v.y1 - v.y0);
    view.zoom(Math.exp(Math.max(-3, Math.min(3, e.deltaY * 0.002))), cx, cy);
  }, { passive: false });
  let timer = null;
  c.addEventListener("keydown", (e) => {
    const s = view.sel, big = e.shiftKey ? 16 : 1;
    const step = { ArrowUp: [-big, 0], ArrowDown: [big, 0], ArrowLeft: [0, -big], ArrowRight: [0, big] }[e.key];
    if (step) {
      e.preventDefault();
      const row = step[0] ? (s.row < 0 ? 0 : Math.max(0, Math.min(view.nq - 1, s.row + step[0]))) : s.row;
      const col = step[1] ? (s.col < 0 ? 0 : Math.max(0, Math.min(view.nk - 1, s.col + step[1]))) : s.col;
      view.setSelection({ row, col }, false);
      view.ensureVisible();
      clearTimeout(timer);
      timer = setTimeout(() => view.send(), LV_KEY_SEND_MS);
    } else if (e.key === "+" || e.key === "=") { e.preventDefault(); view.zoom(0.5); }
    else if (e.key === "-" || e.key === "_") { e.preventDefault(); view.zoom(2); }
    else if (e.key === "0") { e.preventDefault(); view.resetView(); }
    else if (e.key === "Escape") { e.preventDefault(); clearTimeout(timer); view.setSelection({ row: -1, col: -1 }, true); }
  });
  view.buttons.in.addEventListener("click", () => view.zoom(0.5));
  view.buttons.out.addEventListener("click", () => view.zoom(2));
  view.buttons.reset.addEventListener("click", () => view.resetView());
}
