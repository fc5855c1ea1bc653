// Streamlit element for a head sent in blocks, 2 of 2: data = {channel, head, blocks (new ones only)},
// a few kB per written word. It only hands the message to element 1 (st_blocks.js) on the bus.
export default function (component) {
  const msg = typeof component.data === "string" ? JSON.parse(component.data) : component.data;
  if (msg && msg.channel) hvPublish(msg.channel + "#blocks", msg);
}
