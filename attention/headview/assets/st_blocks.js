// Streamlit element for a head sent in blocks, 1 of 2 (2: the carrier): data = {channel, palette}
// only, the same on every rerun, so Streamlit sends this element (and its code) once and names it afterwards. The
// head, its new blocks and the selection arrive in a hidden carrier (hvWatchCarriers, below). Blocks sent
// before are named in head.bands and taken from the page-wide store; if one is missing (the browser
// lost it), the trigger "missing" asks Python to send them all again.
export default function (component) {
  const { data, parentElement } = component;
  const { channel, palette } = typeof data === "string" ? JSON.parse(data) : data || {};
  let host = parentElement.querySelector(".hv-host");
  if (!host) {
    host = document.createElement("div");
    host.className = "hv-host";
    parentElement.append(host);
  }
  const state = host.hvState || (host.hvState = { key: null, view: null, off: null, token: 0, pending: null });
  state.send = (sel) => component.setTriggerValue("select", sel);
  state.ask = (n) => component.setTriggerValue("missing", n);
  if (state.offBlocks) state.offBlocks();
  hvWatchCarriers();
  state.offBlocks = hvSubscribe(channel + "#blocks", (msg) => hvShowBlocks(host, state, channel, palette, msg));
  return () => {
    if (state.off) state.off();
    if (state.offBlocks) state.offBlocks();
    state.token++;
    host.hvState = null;
    host.replaceChildren();
  };
}

function hvShowBlocks(host, state, channel, palette, msg) {
  hvKeepBlocks(msg.blocks);
  const store = hvBlockStore();
  // the first `keep` bands are those of the list `of` this browser was sent last (blocks.py message)
  const keep = msg.head.keep || 0;
  if (keep && (state.list !== msg.head.of || keep > state.bands.length)) {
    state.ask(keep);
    return;
  }
  const head = { ...msg.head, bands: [...(keep ? state.bands.slice(0, keep) : []), ...msg.head.bands] };
  delete head.keep; delete head.of;
  const missing = [head.labels, ...head.bands].filter((id) => !store.has(id));
  if (missing.length) {
    state.ask(missing.length);
    return;
  }
  state.bands = head.bands;
  state.list = head.list;
  const key = JSON.stringify([channel, palette, head]);
  if (state.key === key) return;
  state.key = key;
  const token = ++state.token;
  if (state.off) state.off();
  const shown = state.view, prev = state.assembled;
  state.view = null; // a selection now waits for the view that shows this head
  const apply = (sel) => {
    if (state.view) state.view.setSelection({ row: sel[0], col: sel[1] }, false);
    else state.pending = sel;
  };
  const ready = (view) => {
    state.view = view;
    const last = hvBus().last.get(channel); // the newest selection Python published
    if (last || state.pending) apply(last || state.pending);
    state.pending = null;
  };
  state.off = hvSubscribe(channel, apply);
  hvAssemble(head, prev, () => token === state.token).then((done) => {
    if (!done) return null;
    const [payload, decoded, edge] = done;
    state.assembled = { bands: head.bands, data: decoded };
    // a written word: the same head one row longer is grown in place, not mounted again
    const grows = shown && prev && shown.d === prev.data && edge === prev.data.nq && edge === prev.data.nk
      && state.palette === palette;
    if (grows && shown.grow(payload, decoded)) return ready(shown);
    state.palette = palette;
    return hvMount(host, payload, { palette, data: decoded, onSelect: (sel) => state.send(sel) })
      .then((view) => { if (token === state.token) ready(view); });
  });
}

// The head's new blocks and the selection come in a hidden st.html element (head_component.py): React
// puts its HTML into the page while it commits, so a MutationObserver hands the message over before the
// frame is drawn. (A component's data reaches its code one task and one frame later.) One observer per
// page, for every view; a carrier already on the page is read at once.
function hvWatchCarriers() {
  if (globalThis.__hvCarriers) return;
  const read = (el) => {
    let msg, sel;
    try {
      msg = JSON.parse(el.getAttribute("data-msg"));
      sel = JSON.parse(el.getAttribute("data-sel"));
    } catch (e) {
      return;
    }
    if (!msg || !msg.channel) return;
    hvPublish(msg.channel + "#blocks", msg); // first: the view it selects in is the new one (hvShowBlocks)
    if (Array.isArray(sel)) hvPublish(msg.channel, sel);
  };
  const scan = (node) => {
    if (node.nodeType !== 1) return;
    if (node.classList.contains("hv-msg")) read(node);
    else for (const el of node.querySelectorAll(".hv-msg")) read(el);
  };
  globalThis.__hvCarriers = new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) scan(n);
  });
  globalThis.__hvCarriers.observe(document.body, { childList: true, subtree: true });
  scan(document.body);
}
