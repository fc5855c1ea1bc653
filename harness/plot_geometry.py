"""Where a cell or a label of one of our heatmaps is on screen, from the chart's own axis ranges."""

from __future__ import annotations


def chart_point(page, chart_index: int, x: float, y: float) -> tuple[float, float]:
    """Page pixel of data point (x, y) in the chart_index-th plotly chart (axes from plots._layout)."""
    chart = page.locator('[data-testid="stPlotlyChart"]').nth(chart_index)
    box = chart.locator(".nsewdrag").first.bounding_box()
    x0, x1 = page.evaluate(
        "(el) => el.querySelector('.js-plotly-plot')._fullLayout.xaxis.range", chart.element_handle())
    y0, y1 = page.evaluate(
        "(el) => el.querySelector('.js-plotly-plot')._fullLayout.yaxis.range", chart.element_handle())
    px = box["x"] + (x - x0) / (x1 - x0) * box["width"]
    py = box["y"] + (y1 - y) / (y1 - y0) * box["height"]  # range is [bottom, top]; ours is reversed
    return px, py
