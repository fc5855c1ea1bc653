"""Text that a chart clips or that lies on other text, measured from the DOM of a real browser.

Every plotly chart on the page is read: its title, axis titles, annotations (subplot titles, sums),
legend entries, tick labels, the words drawn beside points, and plotly's toolbar (shown on hover over the
figure's top right corner: it must cover no text). A text is clipped when its box
leaves the chart's own drawing; two texts overlap when their boxes share more than a sliver.
Tick labels of one axis are not compared with each other (plotly thins them itself), nor a
point's word with the point's own tick."""

from __future__ import annotations

COLLECT = """() => {
  const kinds = [['.gtitle', 'title'], ['.xtitle', 'axis'], ['.ytitle', 'axis'],
                 ['.annotation-text-g text', 'annotation'], ['.legendtext', 'legend'],
                 ['.xtick text', 'xtick'], ['.ytick text', 'ytick'], ['.textpoint text', 'point']];
  return [...document.querySelectorAll('[data-testid="stPlotlyChart"] .js-plotly-plot')].map((plot, i) => {
    const svg = plot.querySelector('.main-svg').getBoundingClientRect();
    const texts = [];
    for (const [sel, kind] of kinds) {
      for (const el of plot.querySelectorAll(sel)) {
        const r = el.getBoundingClientRect();
        if (r.width < 1 || r.height < 1 || !el.textContent.trim()) continue;
        texts.push({kind, text: el.textContent, x0: r.left, y0: r.top, x1: r.right, y1: r.bottom});
      }
    }
    const bar = plot.querySelector('.modebar');  // plotly's toolbar: hidden until hovered, but laid out
    const b = bar && bar.getBoundingClientRect();
    if (b && b.width >= 1) texts.push({kind: 'toolbar', text: 'toolbar', x0: b.left, y0: b.top, x1: b.right, y1: b.bottom});
    return {chart: i, box: {x0: svg.left, y0: svg.top, x1: svg.right, y1: svg.bottom}, texts};
  });
}"""

SLACK = 1.0  # px: a box may touch the edge or its neighbour
SLIVER = 3.0  # px: overlaps thinner than this (glyph ascenders) are not collisions
COMPARED = {"title", "axis", "annotation", "legend", "xtick", "ytick", "point", "toolbar"}


def _overlap(a: dict, b: dict) -> float:
    return min(min(a["x1"], b["x1"]) - max(a["x0"], b["x0"]), min(a["y1"], b["y1"]) - max(a["y0"], b["y0"]))


def problems(charts: list[dict]) -> list[str]:
    """Each clipped text and each pair of overlapping texts, in words."""
    out = []
    for chart in charts:
        box, texts = chart["box"], chart["texts"]
        for t in texts:
            if (t["x0"] < box["x0"] - SLACK or t["x1"] > box["x1"] + SLACK or t["y0"] < box["y0"] - SLACK
                    or t["y1"] > box["y1"] + SLACK):
                out.append(f"chart {chart['chart']}: {t['kind']} {t['text']!r} is clipped")
        for i, a in enumerate(texts):
            for b in texts[i + 1:]:
                if a["kind"] == b["kind"] and a["kind"] in ("xtick", "ytick"):
                    continue
                if _overlap(a, b) > SLIVER:
                    out.append(f"chart {chart['chart']}: {a['kind']} {a['text']!r} overlaps {b['kind']} {b['text']!r}")
    return out
