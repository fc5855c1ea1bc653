"""The lesson's last chart: the ten likeliest tokens beside the leading heads' rows; tokens shown as text
(no "Ġ"), escaped, one column per position (a repeated token stays two columns)."""

import numpy as np

from attention.plots.deciding_figure import WRITTEN_UP_TO, deciding_figure

TOP = ["Ġthe", "Ġa", "<b>"]
TOKENS = ["The", "Ġcat", "Ġthe", "Ġcat"]


def test_bars_and_rows_side_by_side_with_readable_tokens():
    rows = np.array([[0.1, 0.2, 0.3, 0.4], [0.7, 0.1, 0.1, 0.1]])
    fig = deciding_figure(TOP, [0.5, 0.3, 0.1], TOKENS, ["h1", "h2"], rows, ("a", "b"), ("p", "key"))
    bar, heat = fig.data
    assert list(fig.layout.yaxis.ticktext) == ["·the ", "·a ", "&lt;b&gt; "]
    assert list(fig.layout.xaxis2.ticktext) == ["The", "·cat", "·the", "·cat"]  # four columns, not three
    assert np.allclose(np.array(heat.z), rows) and heat.texttemplate == "%{text}"
    assert bar.marker.color[0] != bar.marker.color[1]  # the likeliest marked


def test_no_heads_draws_the_bars_alone_and_long_rows_drop_the_numbers():
    assert len(deciding_figure(TOP, [0.5, 0.3, 0.1], TOKENS, [], np.zeros((0, 4)), ("a", "b"), ("p", "k")).data) == 1
    n = WRITTEN_UP_TO + 1
    fig = deciding_figure(TOP, [0.5, 0.3, 0.1], ["x"] * n, ["h"], np.full((1, n), 1 / n), ("a", "b"), ("p", "k"))
    assert fig.data[1].texttemplate is None
