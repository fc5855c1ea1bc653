"""Every plotly chart goes through attention.ui.charts.show, which keeps a band at the top of the figure
free for plotly's toolbar (it covered chart titles, #46): the figure grows by the band, the plot area and
a title measured from the top edge move down by it, and a figure shown twice is moved once."""

from __future__ import annotations

import ast
from pathlib import Path

import plotly.graph_objects as go

from attention.ui.charts import MODEBAR_BAND, PLOTLY_HEIGHT, toolbar_band

ROOT = Path(__file__).resolve().parents[2]


def test_no_page_draws_a_plotly_chart_around_charts_show():
    calls = []
    for path in [*ROOT.joinpath("attention").rglob("*.py"), *ROOT.joinpath("views").glob("*.py"), ROOT / "app.py"]:
        if path.name == "charts.py" and path.parent.name == "ui":
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "plotly_chart":
                calls.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not calls, calls


def test_a_title_from_the_top_edge_moves_down_by_the_band_with_the_plot_area():
    fig = go.Figure(layout={"height": 300, "margin": {"t": 40}, "title": {"text": "S", "y": 1.0, "yref": "container",
                                                                          "yanchor": "top", "pad": {"t": 20}}})
    toolbar_band(fig)
    assert fig.layout.height == 300 + MODEBAR_BAND and fig.layout.margin.t == 40 + MODEBAR_BAND
    assert abs((1 - fig.layout.title.y) * fig.layout.height - MODEBAR_BAND) < 1e-9  # its top: the band's bottom
    assert fig.layout.title.yanchor == "top"
    toolbar_band(fig)  # the same figure again (a kept figure redrawn): not moved twice
    assert fig.layout.height == 300 + MODEBAR_BAND


def test_an_auto_placed_title_and_a_figure_without_height_keep_their_place_below_the_band():
    fig = go.Figure(layout={"margin": {"t": 36}, "title": {"text": "next token"}})
    toolbar_band(fig)
    assert fig.layout.height == PLOTLY_HEIGHT + MODEBAR_BAND
    line = round(1.3 * 17)  # plotly's title font, 17 px
    middle = (1 - fig.layout.title.y) * fig.layout.height + line / 2  # the line's middle, measured from the top
    assert abs(middle - (18 + MODEBAR_BAND)) < 1e-9 and fig.layout.title.yanchor == "top"  # was the margin's middle
    paper = go.Figure(layout={"height": 200, "title": {"text": "t", "yref": "paper", "y": 1.0}})
    toolbar_band(paper)
    assert paper.layout.title.y == 1.0 and paper.layout.margin.t == 100 + MODEBAR_BAND  # moves with the plot area


def test_a_long_title_is_wrapped_for_a_phone_and_the_figure_grows_by_its_added_lines():
    """At 390 px Change one word's titles ran past the chart's right edge ("… per hea"): plotly never wraps."""
    from attention.plots.heatmaps import text_units
    from attention.plots.title_wrap import TITLE_UNITS, wrap_title

    en = "Jensen–Shannon distance of A's and B's attention, per head (0: the same, 1: nothing shared)"
    zh = "对齐词上的 A_B − A_A（红：B 中权重更大，蓝：更小）每个头的詹森-香农距离"
    for text in (en, zh):
        lines = wrap_title(text).split("<br>")
        assert len(lines) >= 2 and all(text_units(x) <= TITLE_UNITS for x in lines), lines
        assert "".join(lines).replace(" ", "") == text.replace(" ", "")  # nothing lost, nothing added
    assert all(not x.startswith(("，", "：", "）")) for x in wrap_title(zh).split("<br>"))
    assert wrap_title("S = Q·Kᵀ<br>step 100") == "S = Q·Kᵀ<br>step 100"  # short lines stay as they are
    fig = go.Figure(layout={"height": 300, "margin": {"t": 36}, "title": {"text": en, "font": {"size": 13}}})
    toolbar_band(fig)
    added = fig.layout.title.text.count("<br>")
    assert fig.layout.height == 300 + MODEBAR_BAND + added * 17 and fig.layout.margin.t == 36 + MODEBAR_BAND + added * 17
