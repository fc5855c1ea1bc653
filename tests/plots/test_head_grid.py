"""The layer × head grid: faithful downsampling, plain-list click data, layout order, bounded size."""

import json

import numpy as np
import plotly.io as pio
import pytest

from attention.plots import head_grid as po

RNG = np.random.default_rng(5)


def heads(layers=2, n_heads=3, n=10):
    out = {}
    for layer in range(layers):
        for h in range(n_heads):
            a = RNG.random((n, n))
            out[(layer, h)] = a / a.sum(-1, keepdims=True)
    return out


def named(fig, name):
    return next(t for t in fig.data if t.name == name)


def test_thumbnails_click_with_plain_list_layer_head():
    fig = po.grid_figure(heads())
    spec = json.loads(pio.to_json(fig, validate=False))
    clicks = next(t for t in spec["data"] if t.get("name") == "heads")
    assert clicks["customdata"] == [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2]]
    assert named(fig, "titles").text[4] == "L1 H1"
    assert po.head_from_event({"selection": {"points": [{"customdata": [1, 2]}]}}) == (1, 2)
    assert po.head_from_event({"selection": {"points": []}}) is None
    assert po.head_from_event(None) is None


def test_order_lays_thumbnails_out_row_major():
    hs = heads()
    order = [(1, 2), (0, 0), (1, 0), (0, 1), (0, 2), (1, 1)]
    fig = po.grid_figure(hs, order=order, n_cols=3)
    assert list(named(fig, "titles").text) == [f"L{layer} H{h}" for layer, h in order]
    first = named(fig, "L1 H2")
    assert (first.x0, first.y0) == (0, named(fig, "L0 H0").y0)  # (1, 2) now sits top left
    assert named(fig, "L1 H0").x0 > named(fig, "L0 H0").x0
    assert named(fig, "L0 H1").y0 > named(fig, "L0 H0").y0  # second row


def test_highlight_and_selected_outline():
    fig = po.grid_figure(heads(), highlight_query=3, selected=(1, 1))
    line = named(fig, "highlight")
    assert list(line.y[:4]) == [named(fig, "L0 H0").y0 + 3 - 0.5] * 2 + [named(fig, "L0 H0").y0 + 3 + 0.5] * 2
    assert named(fig, "selected").x[0] == named(fig, "L1 H1").x0 - 0.5
    assert not any(t.name == "highlight" for t in po.grid_figure(heads()).data)


def test_grid_payload_is_bounded_on_long_inputs():
    big = {(layer, h): np.full((512, 512), 1 / 512) for layer in range(6) for h in range(12)}
    text = pio.to_json(po.grid_figure(big, highlight_query=300), validate=False)
    assert len(text) < 1_200_000  # 72 thumbnails of 48×48 float32, not 72 × 512²


def test_rollout_figure_is_a_clickable_matrix():
    fig = po.rollout_figure(np.eye(3), ["<b>", "cat", "[SEP]"])
    assert [list(c) for c in named(fig, "cells").customdata] == [[r, c] for r in range(3) for c in range(3)]
    assert [list(c) for c in named(fig, "query words").customdata] == [[0, -1], [1, -1], [2, -1]]
    assert [list(c) for c in named(fig, "key words").customdata] == [[-1, 0], [-1, 1], [-1, 2]]


def test_rollout_labels_are_escaped_before_plotly_reads_them():
    """Markup that survives tokenisation (a word such as "<b>x</b>" after whole-word merging) is shown
    as text: every place plotly reads a word gets the escaped form, read from the figure itself
    (fig.to_json() writes "<" as \\u003c, so searching it for "<b>" proves nothing)."""
    words = ["<b>x</b>", "a&b", "cat"]
    fig = po.rollout_figure(np.eye(3), words)
    shown = ["&lt;b&gt;x&lt;/b&gt;", "a&amp;b", "cat"]
    assert list(fig.layout.xaxis.ticktext) == shown
    assert list(named(fig, "query words").text) == shown and list(named(fig, "query words").hovertext) == shown
    assert list(named(fig, "key words").hovertext) == shown
    assert named(fig, "cells").text[1] == "&lt;b&gt;x&lt;/b&gt; → a&amp;b: 0.0000"
    long = po.rollout_figure(np.full((90, 90), 1 / 90), ["<i>w</i>"] * 90)  # rows as axis ticks past 80 words
    assert set(long.layout.yaxis.ticktext) == {"&lt;i&gt;w&lt;/i&gt;"}


@pytest.mark.model
def test_overview_data_maps_tokens_to_word_rows_and_back():
    import attention
    from attention.analysis import overview_data

    tr = attention.trace("the unbelievably black cat")  # [CLS] the un ##bel ##ie ##va ##bly black cat [SEP]
    tokens = overview_data.build(tr, "encoder", merge_words=False)
    words = overview_data.build(tr, "encoder", merge_words=True)
    assert len(tokens.thumbs) == len(words.thumbs) == 72
    assert tokens.thumbs[(0, 0)].shape == (10, 10) and words.thumbs[(0, 0)].shape == (6, 6)
    assert words.query_labels[2] == "unbelievably"
    assert [words.to_shown(i) for i in range(10)] == [0, 1, 2, 2, 2, 2, 2, 3, 4, 5]
    assert words.to_token(3) == 7 and tokens.to_token(3) == 3
    assert words.to_shown(None) is None and words.to_shown(99) is None and tokens.to_shown(-1) is None
    np.testing.assert_allclose(words.rollout.sum(-1), 1.0, atol=1e-9)
    assert words.stats == tokens.stats  # the statistics are the model's own, per token


def test_titles_of_the_grid_and_the_rollout_are_parameters():
    fig = po.grid_figure(heads(), tile_title="层{layer} 头{head}")
    assert named(fig, "titles").text[4] == "层1 头1"
    assert named(po.grid_figure(heads()), "titles").text[4] == "L1 H1"
    big = np.full((70, 70), 1 / 70)
    rollout = po.rollout_figure(big, ["w"] * 70, title="注意力展开", axis_names=("位置", "输入词"))
    assert rollout.layout.title.text == "注意力展开" and rollout.data[0].hovertemplate.startswith("位置 %{y} · 输入词 %{x}")
    assert po.rollout_figure(np.eye(3), ["a", "b", "c"]).layout.title.text == po.ROLLOUT_TITLE


def test_training_curves_take_their_words():
    from attention.plots import training_curves

    fig = training_curves.loss_figure([3.0, 2.0, 1.0], "训练损失", y_title="交叉熵", x_title="训练步", name="损失")
    assert (fig.layout.title.text, fig.layout.xaxis.title.text, fig.layout.yaxis.title.text) == ("训练损失", "训练步",
                                                                                              "交叉熵")
    assert fig.data[0].name == "损失"
    plain = training_curves.curves_figure([0, 10], {"a": np.zeros(2)}, "t", "y")
    assert plain.layout.xaxis.title.text == "step"
