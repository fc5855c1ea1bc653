"""The "What each head writes" grid (attention/plots/writes_grid.py): a shared scale when asked, hover in the
caller's words, the chosen cell outlined, and none of the word dots of the app's matrices."""

import numpy as np
import pytest

from attention.params.selection import Selection
from attention.plots.writes_grid import writes_figure


def named(fig, name):
    return next((tr for tr in fig.data if tr.name == name), None)


def test_a_shared_scale_hover_words_and_no_bare_dots():
    parts = np.array([[0.654, 1.813, 0.269, -0.957], [1.952, 1.277, 2.026, -0.428]])
    hover = [f"layer {r}, head {h}" for r in range(2) for h in range(4)]
    fig = writes_figure(parts, ["L0", "L1"], [f"H{h}" for h in range(4)], "t", ("layer", "head"),
                        Selection(1, 2), top=7.098, hover=hover)
    heat = fig.data[0]
    assert heat.zmax == pytest.approx(7.098) and heat.zmin == pytest.approx(-7.098) and heat.zmid == 0.0
    assert list(named(fig, "cells").text) == hover
    assert named(fig, "key words") is None and named(fig, "query words").mode == "text"
    assert list(named(fig, "query words").text) == ["L0", "L1"]  # the layers still named
    assert len(fig.layout.shapes) == 3  # the chosen cell: its row, its column and the cell itself
    alone = writes_figure(parts, ["L0", "L1"], [f"H{h}" for h in range(4)], "t", ("layer", "head"))
    assert alone.data[0].zmax == pytest.approx(2.026) and not alone.layout.shapes  # its own scale, none chosen
