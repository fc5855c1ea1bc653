"""The role grid's click targets: one invisible marker per head with (layer, head) as plain lists, able to fire
a click (plotly fires none for a trace whose hoverinfo is "skip"), and hover text for every cell."""

import numpy as np

from attention.plots import role_grid


def test_every_head_has_a_clickable_marker_with_its_layer_and_head():
    scores = np.array([[0.1, 0.2, 0.3], [0.4, np.nan, 0.6]])
    fig = role_grid.role_figure(scores, "t", "layer", "head")
    markers = [d for d in fig.data if d.type == "scatter"]
    assert len(markers) == 1
    m = markers[0]
    assert m.hoverinfo != "skip"  # else the browser sends no click (tests/e2e/test_roles_browser.py)
    assert [list(c) for c in m.customdata] == [[lay, h] for lay in range(2) for h in range(3)]
    assert list(m.x) == [0, 1, 2] * 2 and list(m.y) == [0, 0, 0, 1, 1, 1]
    assert m.hovertext[4] == "layer 1 · head 1: –" and m.hovertext[5] == "layer 1 · head 2: 0.600"


def test_the_axes_span_the_layers_and_heads_only_layer_0_on_top():
    """Issue 46: autorange padded for the click markers, and 30 layers had ticks −2 … 31."""
    fig = role_grid.role_figure(np.zeros((30, 9)), "t", "layer", "head")
    assert tuple(fig.layout.yaxis.range) == (29.5, -0.5) and fig.layout.yaxis.autorange is None
    assert tuple(fig.layout.xaxis.range) == (-0.5, 8.5) and fig.layout.xaxis.autorange is None
