"""Why this word's attribution bars: one bar per prompt token and series, labels escaped, the legend clear
of the axis title."""

from attention.plots.why_bars import attribution_figure


def test_one_bar_per_token_and_series_in_prompt_order_with_escaped_labels():
    tokens = ["The", "Ġ<b>cat</b>", "Ġwas"]
    fig = attribution_figure(tokens, {"IG": [0.5, -1.0, 2.0], "g×x": [0.1, 0.2, 0.3]}, "title", "nats")
    assert [tr.name for tr in fig.data] == ["IG", "g×x"]
    assert list(fig.data[0].x) == [0.5, -1.0, 2.0] and list(fig.data[1].x) == [0.1, 0.2, 0.3]
    ticks = fig.layout.yaxis.ticktext
    assert len(ticks) == 3 and "<b>" not in "".join(ticks) and "&lt;b&gt;" in ticks[1]
    assert fig.layout.yaxis.autorange == "reversed"  # the prompt reads top to bottom
    assert "<b>" not in fig.data[0].customdata[1]


def test_the_legend_is_placed_from_the_figure_edge_below_the_axis_title():
    fig = attribution_figure(["a", "b"], {"IG": [1.0, 2.0]}, "t", "x")
    assert fig.layout.legend.yref == "container" and fig.layout.legend.y == 0
    assert fig.layout.margin.b >= 60  # room for the axis title above the legend
