// The head view's fragment sends, with each selection, what the panels below it show (blocks that
// Python formatted: ui/head_view/detail_blocks.py); this element hands them to those panels over the bus.
export default function (component) {
  const d = component.data || {};
  if (d.channel) hvPublish(d.channel + "/panel", d);
}
