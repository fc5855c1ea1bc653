// The panels' blocks for a new selection, made in the browser the moment the head view is clicked, so
// the detail panel and the q.k chart change with the highlight instead of after Python's rerun. The
// same blocks as ui/head_view/detail_blocks.py, from the head's numbers Python sent once (ui/head_view/panel_data.py) and
// the head view's own integers (decode.js): every digit is Python's, formatted as Python formats it
// (pnFixed: round half to even on the exact binary value; pnFsum: math.fsum, correctly rounded). The
// rerun that follows sends Python's own blocks; when they are the same, nothing on the page changes.

function pnFixed(x, d) { // Python's f"{x:.{d}f}" for a finite double
  const neg = x < 0 || Object.is(x, -0);
  const exact = Math.abs(x).toFixed(100); // every digit of |x| >= 2^-48 (fewer than 100 after the point)
  const dot = exact.indexOf(".");
  let digits = exact.slice(0, dot) + exact.slice(dot + 1, dot + 1 + d);
  const rest = exact.slice(dot + 1 + d);
  const up = rest[0] > "5" || (rest[0] === "5" && (/[1-9]/.test(rest.slice(1)) || Number(digits.at(-1)) % 2 === 1));
  if (up) {
    const arr = digits.split("").map(Number);
    let i = arr.length - 1;
    while (i >= 0 && arr[i] === 9) arr[i--] = 0;
    if (i < 0) arr.unshift(1); else arr[i] += 1;
    digits = arr.join("");
  }
  const whole = digits.slice(0, digits.length - d).replace(/^0+(?=\d)/, "") || "0";
  return (neg ? "-" : "") + whole + (d ? "." + digits.slice(digits.length - d) : "");
}

function pnFsum(xs) { // CPython's math.fsum (msum with partials, half-even across partials), finite input
  const p = [];
  for (let x of xs) {
    let i = 0;
    for (let j = 0; j < p.length; j++) {
      let y = p[j];
      if (Math.abs(x) < Math.abs(y)) { const t = x; x = y; y = t; }
      const hi = x + y, lo = y - (hi - x);
      if (lo !== 0) p[i++] = lo;
      x = hi;
    }
    p.length = i;
    if (x !== 0) p.push(x);
  }
  let n = p.length, hi = 0, lo = 0;
  if (n > 0) {
    hi = p[--n];
    while (n > 0) {
      const x = hi, y = p[--n];
      hi = x + y;
      lo = y - (hi - x);
      if (lo !== 0) break;
    }
    if (n > 0 && ((lo < 0 && p[n - 1] < 0) || (lo > 0 && p[n - 1] > 0))) {
      const y = lo * 2, x = hi + y;
      if (y === x - hi) hi = x;
    }
  }
  return hi;
}

function pnCode(token) { // params/markdown.py's code()
  return token.includes("`") ? "`` " + token + " ``" : "`" + token + "`";
}

function pnT(texts, key, values) { // i18n.t: str.format with named fields
  return texts[key].replace(/\{(\w+)\}/g, (m, name) => (name in values ? String(values[name]) : m));
}

function pnRound(x, d) { return Number(pnFixed(x, d)); } // Python's round(float, d)

function pnDotData(h, qi, ki, sort, range) { // headview/dot.py's dot_data
  const d = h.d_head, q = h.q.subarray(qi * d, qi * d + d), k = h.k.subarray(ki * d, ki * d + d);
  const terms = Array.from(q, (v, i) => v * k[i]);
  const order = [...terms.keys()];
  if (sort) order.sort((a, b) => terms[b] - terms[a]); // stable, as argsort(-terms, kind="stable")
  const total = pnFsum(terms);
  const norm = Math.sqrt(pnFsum(Array.from(q, (v) => v * v))) * Math.sqrt(pnFsum(Array.from(k, (v) => v * v)));
  return { terms, total, order, q, k, agree: terms.filter((v) => v > 0).length, cos: norm ? total / norm : 0, range };
}

function pnDetail(h, view, sel) { // ui/detail_blocks.detail
  const T = h.texts, [qi, ki] = sel;
  if (qi < 0) return [{ kind: "info", text: T["detail.nothing"] }];
  const qTok = h.query_tokens[qi], [top, special] = h.rows[qi];
  const out = [{ kind: "md", text: pnT(T, "detail.query_word", { word: pnCode(qTok), pos: qi }) },
    { kind: "caption", text: pnT(T, "detail.where", { word: pnCode(qTok) }) },
    { kind: "table", columns: h.columns, rows: top }];
  if (special) {
    const [tok, w, m, word, ww, mWord] = special;
    out.push({ kind: "caption", text: pnT(T, "detail.special", { tok: pnCode(tok), w, m,
      word: word === null ? "\u2014" : pnCode(word), ww, m_word: mWord }) });
  }
  if (ki < 0) return [...out, { kind: "caption", text: T["detail.pick_pair"] }];
  const kTok = h.key_tokens[ki], c = qi * view.nk + ki, masked = view.masked[c] === 1;
  const an = pnDotData(h, qi, ki, false, null);
  out.push({ kind: "md", text: pnT(T, "detail.pair", { q: pnCode(qTok), k: pnCode(kTok), qi, ki }) },
    { kind: "metrics", items: [
      [T["detail.dot"], pnFixed(an.total, 4), ""],
      [T["detail.scaled"], masked ? T.masked : hvFixed(view.scaled[c], view.decimals.scaled), ""],
      [T["detail.weight"], hvFixed(masked ? 0 : view.A[c], view.decimals.weight), ""], // A holds a code where masked
      [T["vw.metric"], hvFixed(h.vw[c], 4), T["vw.help"]]] },
    { kind: "caption", text: masked ? T["detail.masked_note"] : h.scaled_note });
  if (h.find_heads) out.push({ kind: "button", trigger: "find_heads", label: pnT(T, "relevance.explore_link", { q: qTok, k: kTok }) });
  return out;
}

function pnDotParts(h, sel, sort, other) { // ui/detail_blocks.dot_parts
  const T = h.texts, [qi, ki] = sel;
  if (qi < 0 || ki < 0) return { explain: [{ kind: "info", text: T["explain.need_pair"] }], "dot-0": [], "dot-1": [] };
  const keys = [ki];
  if (other !== null && other !== undefined && other !== ki && other >= 0 && other < h.key_tokens.length) keys.push(other);
  const anats = keys.map((k) => pnDotData(h, qi, k, sort, null));
  const lo = Math.min(...anats.map((a) => Math.min(...a.terms))), hi = Math.max(...anats.map((a) => Math.max(...a.terms)));
  const pad = 0.05 * (hi - lo || 1.0), range = [Math.min(lo, 0) - pad, Math.max(hi, 0) + pad];
  const qTok = h.query_tokens[qi];
  const parts = { explain: [{ kind: "md", text: pnT(T, "dot.explain", { q: pnCode(qTok), k: pnCode(h.key_tokens[ki]) }) }], "dot-1": [] };
  anats.forEach((an, i) => {
    const k = keys[i], r4 = (xs) => an.order.map((j) => pnRound(xs[j], 4));
    const data = {
      dims: an.order, q: r4(an.q), k: r4(an.k), terms: r4(an.terms), range: range.map((v) => pnRound(v, 4)),
      names: [`q (${h.query_shown[qi]})`, `k (${h.key_shown[k]})`], titles: [T["dot.vectors"], T["dot.terms"]],
      sum: pnT(T, "dot.sum", { total: pnFixed(an.total, 4), qi, ki: k }).replaceAll("-", "\u2212"),
      dimension: T["dot.dimension"], colours: h.colours,
    };
    parts[`dot-${i}`] = [{ kind: "md", text: `**${pnCode(qTok)} \u00b7 ${pnCode(h.key_tokens[k])}**` }, { kind: "dot", data },
      { kind: "caption", text: pnT(T, "dot.stats", { agree: an.agree, d: h.d_head, cos: pnFixed(an.cos, 3) }) }];
  });
  return parts;
}

function pnPredict(channel, sel) { // publish the blocks of `sel` before Python's (nothing when a piece is missing)
  const bus = hvBus(), h = bus.last.get(channel + "/head"), shown = bus.last.get(channel + "/view");
  const last = bus.last.get(channel + "/panel");
  if (!h || !h.ready || !shown || !last || !last.options) return;
  const p = shown.p, view = shown.d; // the head the view draws must be the head these numbers are of
  if (p.kind !== h.kind || p.layer !== h.layer || p.head !== h.head
      || p.query_tokens.join("\u0000") !== h.query_tokens.join("\u0000") || p.key_tokens.join("\u0000") !== h.key_tokens.join("\u0000")) return;
  const parts = { detail: pnDetail(h, view, sel) };
  if (last.options.tab === "dot") Object.assign(parts, pnDotParts(h, sel, last.options.sort, last.options.other));
  hvPublish(channel + "/panel", { ...last, selection: sel, parts, refresh: false, predicted: true });
}
