// Streamlit element 1 of 2: data = the JSON text {"channel": ..., "payload": ...}. Streamlit calls
// this again whenever data changes; the same text again (a rerun after a click) changes nothing.
// A click goes back to Python as the trigger "select": [query, key], -1 for none.
export default function (component) {
  const { data, parentElement } = component;
  let host = parentElement.querySelector(".hv-host");
  if (!host) {
    host = document.createElement("div");
    host.className = "hv-host";
    parentElement.append(host);
  }
  const state = host.hvState || (host.hvState = { text: null, view: null, off: null, token: 0, pending: null });
  state.send = (sel) => component.setTriggerValue("select", sel);
  const text = typeof data === "string" ? data : JSON.stringify(data);
  if (state.text !== text) {
    state.text = text;
    const msg = JSON.parse(text);
    const token = ++state.token;
    if (state.off) state.off();
    state.view = null;
    const apply = (sel) => {
      if (state.view) state.view.setSelection({ row: sel[0], col: sel[1] }, false);
      else state.pending = sel;
    };
    state.off = hvSubscribe(msg.channel, apply);
    // each selection sent to Python is also published on "<channel>/pick" (the panels below make their
    // blocks from it: panel_predict.js) once the highlight is painted (the frame, then a task: their
    // layout would delay it), and the view's integers on "<channel>/view"
    const pick = (sel) => {
      state.send(sel);
      requestAnimationFrame(() => setTimeout(() => hvPublish(msg.channel + "/pick", sel), 0));
    };
    hvMount(host, msg.payload, { palette: msg.palette, onSelect: pick }).then((view) => {
      if (token !== state.token) return;
      state.view = view;
      hvPublish(msg.channel + "/view", view);
      if (state.pending) apply(state.pending);
      state.pending = null;
    });
  }
  return () => {
    if (state.off) state.off();
    state.token++;
    host.hvState = null;
    host.replaceChildren();
  };
}
