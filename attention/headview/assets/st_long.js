// Streamlit: the long head view's element. data = the first message (the pooled picture and the words:
// the same bytes on every rerun for the same head, so sent once). Tiles and the selection's row and
// column arrive through the part elements on this view's channel (st_long_part.js). To Python go the
// triggers "select": [query, key] (-1 for none) and "tile": [r0, c0, span].
export default function (component) {
  const { data, parentElement } = component;
  let host = parentElement.querySelector(".lv-host");
  if (!host) {
    host = document.createElement("div");
    host.className = "lv-host";
    parentElement.append(host);
  }
  const state = host.lvState || (host.lvState = { key: null, view: null, offs: [] });
  state.select = (sel) => component.setTriggerValue("select", sel);
  state.tile = (ask) => component.setTriggerValue("tile", ask);
  const msg = lvUnpack(data);
  if (!msg) return undefined;
  const key = msg.header.channel + "|" + msg.header.layer + "|" + msg.header.head + "|" + msg.body.length + "|" + msg.header.labels.help;
  if (state.key === key) return undefined;
  state.key = key;
  for (const off of state.offs) off();
  if (state.view) state.view.destroy();
  host.replaceChildren();
  const view = new LvView(host, msg, { onSelect: (s) => state.select(s), onTile: (a) => state.tile(a) });
  state.view = view;
  const ready = view.load(msg).then(() => { lvListen(view); return view; });
  const on = (kind, fn) => hvSubscribe(msg.header.channel + ":" + kind, (m) => ready.then((v) => { if (state.view === v) fn(v, m); }));
  state.offs = [on("lines", (v, m) => v.setLines(m)), on("tile", (v, m) => v.addTile(m))];
  return () => {
    for (const off of state.offs) off();
    if (state.view) state.view.destroy();
    host.lvState = null;
    host.replaceChildren();
  };
}
