// Streamlit: the selection travels from Python in its own tiny element (so a selection made in
// Python does not resend the matrices). Both elements' modules meet on this page-wide channel.

function hvBus() {
  return (globalThis.__attentionHeadviewBus ||= { last: new Map(), subs: new Map() });
}

function hvPublish(channel, selection) {
  const bus = hvBus();
  bus.last.set(channel, selection);
  for (const fn of bus.subs.get(channel) || []) fn(selection);
}

function hvSubscribe(channel, fn) { // fn(selection) now (if one was published) and on each change
  const bus = hvBus();
  if (!bus.subs.has(channel)) bus.subs.set(channel, new Set());
  bus.subs.get(channel).add(fn);
  if (bus.last.has(channel)) fn(bus.last.get(channel));
  return () => bus.subs.get(channel).delete(fn);
}
