// One part of the detail panel or of the q.k explanation (ui/head_view/panel_view.py). Its blocks come over the
// bus from the head view's fragment (panel_carrier.js), so a click in the head view reruns that small
// fragment only and the page around stays as it is. Blocks are laid out as they come, numbers and all:
// nothing is computed here. A block of the same kind at the same place is updated in place (the q.k
// chart keeps its SVG and moves its bars, dot.js).

function pnInline(parent, text) { // **bold** and `code` (or `` co`de ``, code.py's fence), as text nodes
  const re = /\*\*|(`+)/g;
  let at = 0, into = parent, m;
  while ((m = re.exec(text))) {
    if (m.index > at) into.append(text.slice(at, m.index));
    if (m[1]) {
      const end = text.indexOf(m[1], re.lastIndex);
      if (end < 0) { into.append(m[1]); at = re.lastIndex; continue; }
      let inner = text.slice(re.lastIndex, end);
      if (m[1].length > 1 && inner.startsWith(" ") && inner.endsWith(" ") && inner.length > 2) inner = inner.slice(1, -1);
      const code = document.createElement("code");
      code.textContent = inner;
      into.append(code);
      re.lastIndex = end + m[1].length;
    } else if (into === parent) {
      into = document.createElement("strong");
      parent.append(into);
    } else {
      into = parent;
    }
    at = re.lastIndex;
  }
  if (at < text.length) into.append(text.slice(at));
}

function pnEl(tag, cls, parent) {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  if (parent) parent.append(el);
  return el;
}

function pnFill(el, b, st) { // (re)fill a block's element with block b
  if (b.kind === "dot") {
    if (!el.dotS || el.dotS.n !== b.data.q.length) el.dotS = dotBuild(el, b.data.q.length);
    el.dotData = b.data;
    dotDraw(el.dotS, b.data, el.clientWidth || 600);
    return;
  }
  el.replaceChildren();
  if (b.kind === "md" || b.kind === "caption" || b.kind === "info") pnInline(el, b.text);
  else if (b.kind === "table") {
    const head = pnEl("tr", "", pnEl("thead", "", el));
    for (const c of b.columns) pnEl("th", "", head).textContent = c;
    const body = pnEl("tbody", "", el);
    for (const row of b.rows) {
      const tr = pnEl("tr", "", body);
      row.forEach((v, i) => { const td = pnEl("td", i ? "pn-num" : "", tr); td.textContent = String(v); });
    }
  } else if (b.kind === "metrics") {
    for (const [label, value, help] of b.items) {
      const m = pnEl("div", "pn-metric", el);
      const l = pnEl("div", "pn-metric-label", m);
      l.textContent = label;
      if (help) l.title = help;
      pnEl("div", "pn-metric-value", m).textContent = value;
    }
  } else if (b.kind === "button") {
    const button = pnEl("button", "pn-go", el);
    button.type = "button";
    button.textContent = b.label;
    button.addEventListener("click", () => st.component.setTriggerValue(b.trigger, 1));
  }
}

const PN_TAG = { md: "div", caption: "div", info: "div", table: "table", metrics: "div", button: "div", dot: "div" };

function pnShow(host, st, msg) {
  st.last = msg;
  const blocks = (msg.parts && msg.parts[st.data.part]) || [];
  const text = JSON.stringify(blocks);
  if (text !== st.shown) { // the same blocks again (a rerun): nothing on the page changes
    st.shown = text;
    const kept = [...host.children];
    blocks.forEach((b, i) => {
      let el = kept[i];
      if (!el || el.dataset.kind !== b.kind) {
        const fresh = pnEl(PN_TAG[b.kind] || "div", `pn-${b.kind}`);
        fresh.dataset.kind = b.kind;
        if (el) host.replaceChild(fresh, el); else host.append(fresh);
        kept[i] = el = fresh;
      }
      pnFill(el, b, st);
    });
    for (const el of kept.slice(blocks.length)) el.remove();
  }
  // Parts of the page that Python draws from the selection (a Plotly explanation, the value-weighted chart) are
  // redrawn by a rerun of the panel's own fragment, asked for once per new selection.
  if (msg.refresh && st.data.part === "detail" && String(msg.selection) !== String(st.data.drawn)
      && String(msg.selection) !== st.asked) {
    st.asked = String(msg.selection);
    st.component.setTriggerValue("refresh", msg.selection);
  }
}

export default function (component) {
  const { data, parentElement } = component;
  let host = parentElement.querySelector(".pn-host");
  if (!host) host = pnEl("div", "pn-host", parentElement);
  const st = host.pnState || (host.pnState = { off: null, channel: null, shown: null, last: null, asked: null, ro: null });
  st.component = component;
  st.data = data || {};
  if (st.channel !== st.data.channel) {
    if (st.off) st.off();
    st.channel = st.data.channel;
    st.off = hvSubscribe(st.channel + "/panel", (msg) => pnShow(host, st, msg));
  } else if (st.last) {
    pnShow(host, st, st.last);
  }
  if (!st.ro && typeof ResizeObserver === "function") { // the chart follows the column's width
    let last = host.clientWidth;
    st.ro = new ResizeObserver(() => {
      if (host.clientWidth === last) return;
      last = host.clientWidth;
      for (const el of host.children) if (el.dotS) dotDraw(el.dotS, el.dotData, el.clientWidth || 600);
    });
    st.ro.observe(host);
  }
  return () => {
    if (st.off) st.off();
    if (st.ro) st.ro.disconnect();
    host.pnState = null;
    host.replaceChildren();
  };
}
