// "A as lines" (bertviz's head view): query words on the left, key words on the right, one line per
// pair as opaque as its weight. Redrawn whole on hover (at most 64 x 64 lines: a few milliseconds).

const HV_LINE_COLOUR = [33, 102, 172]; // #2166ac, the app's line colour
const HV_LINE_MIN = 0.005; // lighter lines are invisible anyway

class HvLines {
  constructor(el, data, queryTokens, keyTokens, width) {
    this.el = el; this.data = data;
    this.q = queryTokens; this.k = keyTokens;
    this.canvas = el.querySelector(".hv-base");
    const n = Math.max(this.q.length, this.k.length);
    this.rowH = n <= 24 ? 20 : 14;
    // 380 px, or the host's width on a narrow screen (a 390-px phone), words keeping their share
    this.w = Math.round(Math.max(220, Math.min(380, width || 380))); this.top = 6;
    this.h = this.top + n * this.rowH + 6;
    this.xq = Math.round(this.w * 150 / 380); this.xk = this.w - this.xq; // where the words end (left) and start (right)
    this.wordPx = this.xq - 10;
    const dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(this.w * dpr); this.canvas.height = Math.round(this.h * dpr);
    this.canvas.style.width = this.w + "px"; this.canvas.style.height = this.h + "px";
    const stage = el.querySelector(".hv-stage");
    stage.style.width = this.w + "px"; stage.style.height = this.h + "px";
  }

  y(i) { return this.top + (i + 0.5) * this.rowH; }

  weight(i, j) { // the weight as a number in 0..1, or -1 where masked
    const a = this.data.A[i * this.data.nk + j];
    return a === -1 ? -1 : a / Math.pow(10, this.data.decimals.weight);
  }

  hit(px, py) {
    const i = Math.floor((py - this.top) / this.rowH);
    if (px < this.xq + 6 && i >= 0 && i < this.q.length) return { row: i, col: -1 };
    if (px > this.xk - 6 && i >= 0 && i < this.k.length) return { row: -1, col: i };
    return null;
  }

  lines() { // [{i, j, w}] of every line drawn
    const out = [];
    for (let i = 0; i < this.q.length; i++) {
      for (let j = 0; j < this.k.length; j++) {
        const w = this.weight(i, j);
        if (w >= HV_LINE_MIN) out.push({ i, j, w });
      }
    }
    return out;
  }

  focusOf(hover, sel) { // which lines stand out: those of the hovered word, else of the selection
    const at = hover.row >= 0 || hover.col >= 0 ? hover : sel;
    return (ln) => (at.row < 0 || ln.i === at.row) && (at.col < 0 || ln.j === at.col) && (at.row >= 0 || at.col >= 0);
  }

  draw(hover, sel, textColour) {
    const ctx = this.canvas.getContext("2d"), dpr = window.devicePixelRatio || 1;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, this.w, this.h);
    const focus = this.focusOf(hover, sel), any = hover.row >= 0 || hover.col >= 0 || sel.row >= 0 || sel.col >= 0;
    ctx.lineWidth = 2;
    for (const ln of this.lines()) {
      const on = focus(ln);
      const [r, g, b] = on ? [255, 127, 14] : HV_LINE_COLOUR;
      ctx.strokeStyle = `rgba(${r}, ${g}, ${b}, ${on || !any ? ln.w : ln.w * 0.25})`;
      ctx.beginPath(); ctx.moveTo(this.xq + 4, this.y(ln.i)); ctx.lineTo(this.xk - 4, this.y(ln.j)); ctx.stroke();
    }
    ctx.font = HV_FONT; ctx.textBaseline = "middle";
    this.words(ctx, this.q, this.xq, "right", hover.row, sel.row, textColour);
    this.words(ctx, this.k, this.xk, "left", hover.col, sel.col, textColour);
  }

  words(ctx, tokens, x, align, hovered, selected, textColour) {
    ctx.textAlign = align;
    for (let i = 0; i < tokens.length; i++) {
      const text = hvFit(ctx, tokens[i], this.wordPx);
      if (i === selected || i === hovered) {
        const w = ctx.measureText(text).width + 6, left = align === "right" ? x - w + 3 : x - 3;
        ctx.fillStyle = i === selected ? "rgba(255, 127, 14, 0.35)" : "rgba(0, 0, 0, 0.12)";
        ctx.fillRect(left, this.y(i) - this.rowH / 2 + 1, w, this.rowH - 2);
      }
      ctx.fillStyle = textColour;
      ctx.fillText(text, x, this.y(i));
    }
  }
}
