// Streamlit element 2 of 2: data = {channel, selection: [query, key]} (-1 for none).
export default function (component) {
  const { channel, selection } = component.data || {};
  if (channel) hvPublish(channel, selection || [-1, -1]);
}
