// Streamlit: a tile or the selection's row and column for a long head view (data = a long view
// message). The view's element listens on the message's channel (bus.js), so the pooled picture is
// never sent again for them.
export default function (component) {
  const msg = lvUnpack(component.data);
  if (msg && msg.header.channel) hvPublish(msg.header.channel + ":" + msg.header.kind, msg);
}
