"""The temperature figure's legend is laid out under its rotated word labels, never on them."""

import numpy as np

from attention.analysis.anatomy import row_pipeline
from attention.plots.explain_figures import temperature_figure
from tests.plots.test_heatmaps import site_of


def test_the_temperature_legend_is_anchored_below_the_word_labels():
    site = site_of(["the", "cat", "drank", "milk"])
    row = row_pipeline(site, 0, 0, 1.0)
    fig = temperature_figure(row, row, [f"word{j}" for j in range(len(site.key_tokens))], "T", "model", "title")
    legend = fig.layout.legend
    assert legend.yref == "container" and legend.yanchor == "bottom" and legend.y == 0
    assert fig.layout.margin.b >= 100  # room for labels rotated by 45°, between the axis and the legend
    assert np.allclose(fig.data[0].y, row.weights)
