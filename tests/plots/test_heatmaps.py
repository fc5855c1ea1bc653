"""Figures: labels escaped, repeated words kept apart, clicks wired, masked cells marked, size bounded."""

import json

import numpy as np
import plotly.io as pio
import pytest

from attention import core
from attention.params.selection import Selection
from attention.plots import heatmaps
from attention.trace import make_site

RNG = np.random.default_rng(1)


def site_of(tokens, causal=False):
    n, h, d = len(tokens), 2, 4
    q, k, v = (RNG.standard_normal((h, n, d)) for _ in range(3))
    mask = core.causal_mask(n) if causal else None
    _, weights, z = core.attention(q, k, v, mask=mask)
    return make_site(layer=0, kind="decoder" if causal else "encoder", query_tokens=tuple(tokens),
                     key_tokens=tuple(tokens), q=q, k=k, v=v, scale=core.default_scale(d), mask=mask,
                     model_weights=weights, model_z=z)


def traces_named(fig, name):
    return [t for t in fig.data if t.name == name]


def test_repeated_words_keep_their_own_rows_and_columns():
    fig = heatmaps.weights_figure(site_of(["the", "cat", "the", "milk"]), head=0)
    assert list(fig.layout.xaxis.ticktext) == ["the", "cat", "the", "milk"]
    assert list(fig.data[0].x) == [0, 1, 2, 3]
    assert fig.layout.yaxis.range[0] > fig.layout.yaxis.range[1]  # row 0 at the top


def test_markup_in_tokens_is_escaped_everywhere():
    """Read from the figure, not from fig.to_json() (which writes "<" as \\u003c whatever the labels)."""
    shown = ["&lt;b&gt;x&lt;/b&gt;", "&lt;script&gt;", "a&amp;b"]
    for fig in (heatmaps.scores_figure(site_of(["<b>x</b>", "<script>", "a&b"]), head=0),
                heatmaps.weights_figure(site_of(["<b>x</b>", "<script>", "a&b"]), head=1),
                heatmaps.merged_weights_figure(np.eye(3), ["<b>x</b>", "<script>", "a&b"], ["<b>x</b>", "<script>",
                                                                                         "a&b"], "t")):
        assert list(fig.layout.xaxis.ticktext) == shown
        rows = traces_named(fig, "query words")[0]
        assert list(rows.text) == shown and list(rows.hovertext) == shown
        assert list(traces_named(fig, "key words")[0].hovertext) == shown
        assert traces_named(fig, "cells")[0].text[1].startswith("&lt;b&gt;x&lt;/b&gt; → &lt;script&gt;: ")
    assert heatmaps.label("") == "∅" and heatmaps.label("<") == "&lt;"  # a lone "<" as BERT splits "<b>"


def test_click_targets_carry_plain_list_customdata():
    fig = heatmaps.scores_figure(site_of(["a", "b", "c"]), head=1)
    cells = traces_named(fig, "cells")[0]
    assert isinstance(cells.customdata, tuple | list) and list(cells.customdata[5]) == [1, 2]
    rows = traces_named(fig, "query words")[0]
    assert [list(c) for c in rows.customdata] == [[0, -1], [1, -1], [2, -1]]
    cols = traces_named(fig, "key words")[0]
    assert [list(c) for c in cols.customdata] == [[-1, 0], [-1, 1], [-1, 2]]
    spec = json.loads(pio.to_json(fig, validate=False))
    overlay = next(t for t in spec["data"] if t.get("name") == "cells")
    assert overlay["customdata"][5] == [1, 2]  # plain lists, not a typed-array dict


def test_selection_is_highlighted_and_moves_with_it():
    s = site_of(["a", "b", "c", "d"])
    none = heatmaps.weights_figure(s, 0, Selection())
    cell = heatmaps.weights_figure(s, 0, Selection(2, 1))
    assert len(none.layout.shapes) == 0 and len(cell.layout.shapes) == 3
    row = cell.layout.shapes[0]
    assert (row.y0, row.y1) == (1.5, 2.5)


def test_masked_cells_are_drawn_as_masked_not_as_zero():
    s = site_of(["<s>", "la", "bola", "es"], causal=True)
    fig = heatmaps.weights_figure(s, 0)
    z = np.array(fig.data[0].z, dtype=float)
    assert np.isnan(z[0, 1]) and np.isnan(z[0, 3]) and not np.isnan(z[3, 0])
    hover = traces_named(fig, "cells")[0].text
    assert hover[1].endswith("masked")


@pytest.mark.parametrize("n", [512])
def test_long_input_figures_stay_small(n):
    s = site_of([f"w{i}" for i in range(n)])
    total = sum(len(pio.to_json(f(s, 0, Selection(3, 4)), validate=False)) for f in
                (heatmaps.scores_figure, heatmaps.weights_figure))
    assert not traces_named(heatmaps.weights_figure(s, 0), "cells")  # no per-cell overlay at this size
    assert total < 5_000_000


def test_every_word_a_matrix_shows_is_a_parameter():
    big = np.full((70, 70), 1 / 70)  # past CELL_CLICK_MAX: hover comes from the heatmap's own template
    fig = heatmaps.merged_weights_figure(big, ["w"] * 70, ["w"] * 70, "整词之间的 A", axis_names=("查询", "<键>"))
    assert fig.layout.title.text == "整词之间的 A"
    assert fig.data[0].hovertemplate.startswith("查询 %{y} · &lt;键&gt; %{x}:")  # escaped: plotly reads markup
    assert "column" not in fig.data[0].hovertemplate
    default = heatmaps.weights_figure(site_of(["w"] * 70), 0)  # a notebook's call keeps English words
    assert default.data[0].hovertemplate.startswith("query %{y} · key %{x}:")
    small = heatmaps.scores_figure(site_of(["a", "b", "c"], causal=True), 0, title="S", masked_text="已屏蔽",
                                   axis_names=("查询", "键"))
    assert any("已屏蔽" in text for text in traces_named(small, "cells")[0].text)


def test_no_tick_marks_beside_the_row_words():
    """A theme's tick marks drew a stray "–" left of every other row word (in the app and the download)."""
    site = site_of(["the", "black", "cat", "drank", "the", "milk"])
    for fig in (heatmaps.scores_figure(site, 0, Selection()), heatmaps.weights_figure(site, 0, Selection())):
        assert fig.layout.yaxis.ticks == ""


def test_the_row_words_margin_counts_a_chinese_character_as_two_widths():
    from attention.plots.heatmaps import left_margin, text_units

    assert text_units("decoder 12") == 10 and text_units("解码器 12") == 9
    assert left_margin(["解码器自注意"]) == 20 + 7 * 12 > left_margin(["decoder"])
