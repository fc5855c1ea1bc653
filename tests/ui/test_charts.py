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
    assert abs((1 - fig.layout.title.y) * fig.layout.height - (18 + MODEBAR_BAND)) < 1e-9  # was the margin's middle
    paper = go.Figure(layout={"height": 200, "title": {"text": "t", "yref": "paper", "y": 1.0}})
    toolbar_band(paper)
    assert paper.layout.title.y == 1.0 and paper.layout.margin.t == 100 + MODEBAR_BAND  # moves with the plot area
