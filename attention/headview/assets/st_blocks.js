// Streamlit element for a head sent in blocks: data = {channel, palette, head, blocks (new ones only)}.
// Blocks sent before are named in head.bands and taken from the page-wide store; if one is missing
// (the browser lost it), the trigger "missing" asks Python to send them all again.
export default function (component) {
  const { data, parentElement } = component;
  let host = parentElement.querySelector(".hv-host");
  if (!host) {
    host = document.createElement("div");
    host.className = "hv-host";
    parentElement.append(host);
  }
  const state = host.hvState || (host.hvState = { key: null, view: null, off: null, token: 0, pending: null });
  state.send = (sel) => component.setTriggerValue("select", sel);
  const msg = JSON.parse(typeof data === "string" ? data : JSON.stringify(data));
  hvKeepBlocks(msg.blocks);
  const store = hvBlockStore();
  const missing = [msg.head.labels, ...msg.head.bands].filter((id) => !store.has(id));
  const key = JSON.stringify([msg.channel, msg.palette, msg.head]);
  if (missing.length) {
    component.setTriggerValue("missing", missing.length);
  } else if (state.key !== key) {
    state.key = key;
    const token = ++state.token;
    if (state.off) state.off();
    state.view = null; // the old view is emptied by hvMount: a selection now waits for the new one
    const apply = (sel) => {
      if (state.view) state.view.setSelection({ row: sel[0], col: sel[1] }, false);
      else state.pending = sel;
    };
    state.off = hvSubscribe(msg.channel, apply);
    hvAssemble(msg.head).then(([payload, decoded]) => {
      if (token !== state.token) return null;
      return hvMount(host, payload, { palette: msg.palette, data: decoded, onSelect: (sel) => state.send(sel) })
        .then((view) => {
          if (token !== state.token) return;
          state.view = view;
          const last = hvBus().last.get(msg.channel); // the newest selection Python published
          if (last || state.pending) apply(last || state.pending);
          state.pending = null;
        });
    });
  }
  return () => {
    if (state.off) state.off();
    state.token++;
    host.hvState = null;
    host.replaceChildren();
  };
}
