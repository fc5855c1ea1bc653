// Marks drawn on a panel's overlay beside the hover and selection bands (draw.js): the selected row's and
// column's words, so that a selection is always named, wherever the base leaves a label out.

function hvSelectedLabels(panel, ctx, sel) {
  // The selected row's and column's words, boxed over the margin: from ~16 tokens on the base writes
  // only every other label (hvLabelIndices), and a selection must still be named where it is drawn.
  const p = panel.plot, written = [];
  ctx.save();
  ctx.font = HV_FONT; ctx.textBaseline = "middle"; ctx.textAlign = "left"; ctx.lineWidth = 1;
  const boxed = (text, x, y, vertical) => {
    const w = ctx.measureText(text).width;
    ctx.save(); ctx.translate(x, y);
    if (vertical) ctx.rotate(-Math.PI / 2); else ctx.translate(-w, 0);
    ctx.fillStyle = "rgba(255, 255, 255, 0.95)"; ctx.strokeStyle = HV_HIGHLIGHT;
    ctx.fillRect(-3, -7, w + 6, 14); ctx.strokeRect(-3, -7, w + 6, 14);
    ctx.fillStyle = "#222"; ctx.fillText(text, 0, 0);
    ctx.restore();
    written.push(text);
  };
  if (sel.row >= 0 && panel.cfg.rowLabels) {
    const [, y] = panel.toScreen(0, sel.row + 0.5), text = hvFit(ctx, panel.cfg.rowLabels[sel.row], p.x - 12);
    if (text && y >= p.y && y <= p.y + p.h) boxed(text, p.x - 8, y, false);
  }
  if (sel.col >= 0 && panel.cfg.colLabels && panel.cfg.name !== "Z") {
    const [x] = panel.toScreen(sel.col + 0.5, 0), text = hvFit(ctx, panel.cfg.colLabels[sel.col], p.y - 12);
    if (text && x >= p.x && x <= p.x + p.w) boxed(text, x, p.y - 8, true);
  }
  ctx.restore();
  panel.el.setAttribute("data-selected-labels", JSON.stringify(written)); // what a test reads
}
