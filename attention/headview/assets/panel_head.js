// The head's numbers for panel_predict.js (data: the JSON text of ui/head_view/panel_data.py, the same text for
// the same head, so Streamlit does not call this again on a rerun), and the hook that makes a click's
// blocks at once: the head view publishes each selection it sends to Python on "<channel>/pick".
function pnFloats(enc) {
  const bytes = hvBase64Bytes(enc.data);
  return enc.dtype === "float32" ? new Float32Array(bytes.buffer) : new Float64Array(bytes.buffer);
}

export default function (component) {
  const { data } = component;
  const h = typeof data === "string" ? JSON.parse(data) : data;
  if (!h || !h.channel) return undefined;
  const channel = h.channel;
  h.q = pnFloats(h.q);
  h.k = pnFloats(h.k);
  hvDecodeInts(h.vw).then((vw) => {
    h.vw = vw;
    h.ready = true;
    hvPublish(channel + "/head", h);
  });
  const bus = hvBus();
  bus.predicting ||= new Set();
  let off = null;
  if (!bus.predicting.has(channel)) { // one predictor per head view, however often this is called
    bus.predicting.add(channel);
    let live = false; // not the pick published before this subscribed: only the clicks from now on
    off = hvSubscribe(channel + "/pick", (sel) => { if (live) pnPredict(channel, sel); });
    live = true;
  }
  return () => {
    if (off) { off(); bus.predicting.delete(channel); }
  };
}
