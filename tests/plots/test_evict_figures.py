"""The Forget page's charts (issue 52): every cell of the newest row says whether its key was kept or evicted
and the weight drawn, and only the trace drawn there answers a hover; the kept keys among evicted ones are
marked; the "heads that lost most" axis is a share's, and a bar carries its head for a click."""

import numpy as np

from attention.plots import evict_figures

TOKENS = ["<s>", "The", "Ġcat", "Ġsat", "Ġon", "Ġthe", "Ġmat", "."]


def figure():
    row = np.array([[0.5, 0.0, 0.0, 0.0, 0.0, 0.2, 0.3, 0.0], [0.1, 0.0, 0.0, 0.0, 0.0, 0.6, 0.2, 0.1]])
    kept = np.array([[1, 0, 0, 0, 0, 1, 1, 1], [1, 0, 0, 0, 0, 1, 1, 1]], bool)
    return row, kept, evict_figures.newest_row_figure(row, kept, TOKENS, "t", "x", "y", "kept {weight}",
                                                      "evicted {weight}", "marked")


def test_each_cell_is_answered_by_the_trace_drawn_there_and_says_kept_or_evicted_with_its_weight():
    row, kept, fig = figure()
    blue, grey = fig.data[0], fig.data[1]
    assert blue.hoverongaps is False and grey.hoverongaps is False  # a NaN cell of the top layer answers nothing
    for h in range(row.shape[0]):
        for j in range(row.shape[1]):
            drawn = blue if kept[h, j] else grey
            assert np.isfinite(drawn.z[h][j])
            text = drawn.customdata[h][j]
            assert drawn.hovertemplate.startswith("%{customdata}")
            assert text.endswith(f"kept {row[h, j]:.3f}" if kept[h, j] else "evicted 0"), (h, j, text)


def test_the_kept_keys_among_evicted_ones_are_marked():
    _, _, fig = figure()
    marks = [d for d in fig.data if d.type == "scatter"]
    assert len(marks) == 1 and list(marks[0].x) == [0]  # the sink, not the recent run 5..7
    assert list(evict_figures.kept_islands(np.ones((2, 5), bool))) == []  # nothing evicted: nothing to mark


def test_the_lost_share_axis_ends_at_one_and_a_bar_carries_its_head():
    fig = evict_figures.lost_figure([(17, 3, 0.97), (2, 1, 0.4)], "x")
    assert fig.layout.xaxis.range[1] <= 1.0
    assert [list(c) for c in fig.data[0].customdata] == [[17, 3], [2, 1]]
