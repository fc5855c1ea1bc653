"""A as lines: which lines are drawn, that every drawn line is sent once, and that words click like labels."""

import numpy as np

import attention
from attention.analysis.selection import Selection, click_to_selection
from attention.plots import attention_lines

RNG = np.random.default_rng(5)


def random_weights(n_q: int, n_k: int) -> np.ndarray:
    a = RNG.random((n_q, n_k)) ** 4
    return a / a.sum(-1, keepdims=True)


def segments_sent(fig) -> int:
    binned = [tr for tr in fig.data if tr.name.startswith("weights ≥")]
    return sum(sum(x is None for x in tr.x) for tr in binned)


def test_each_query_keeps_its_strongest_keys_above_the_floor():
    w = random_weights(5, 30)
    lines = attention_lines.drawn_lines(w)
    for i in range(5):
        mine = [(j, x) for q, j, x in lines if q == i]
        assert len(mine) <= attention_lines.LINES_PER_QUERY and all(x >= attention_lines.MIN_WEIGHT for _, x in mine)
        assert mine[0][0] == int(w[i].argmax())  # the strongest key first
        weaker = sorted(set(range(30)) - {j for j, _ in mine})
        assert all(w[i, j] <= min(x for _, x in mine) for j in weaker)


def test_every_drawn_line_is_sent_exactly_once_in_its_weight_bin():
    w = random_weights(7, 7)
    fig = attention_lines.lines_figure(w, list("abcdefg"), list("abcdefg"))
    assert segments_sent(fig) == len(attention_lines.drawn_lines(w))


def test_words_click_like_the_labels_beside_the_heatmaps():
    fig = attention_lines.lines_figure(random_weights(3, 4), ["a", "b", "c"], ["w", "x", "y", "z"])
    queries = next(tr for tr in fig.data if tr.name == "query words")
    keys = next(tr for tr in fig.data if tr.name == "key words")
    assert [list(c) for c in queries.customdata] == [[0, -1], [1, -1], [2, -1]]
    assert click_to_selection(Selection(None, 3), list(queries.customdata[1])) == Selection(1, 3)
    assert click_to_selection(Selection(2, None), list(keys.customdata[3])) == Selection(2, 3)


def test_a_chosen_query_gets_its_own_lines_and_the_rest_fade():
    w = random_weights(4, 4)
    plain = attention_lines.lines_figure(w, list("abcd"), list("abcd"))
    chosen = attention_lines.lines_figure(w, list("abcd"), list("abcd"), Selection(2, None))
    mine = [tr for tr in chosen.data if tr.name == "chosen"]
    assert len(mine) == sum(1 for q, _, _ in attention_lines.drawn_lines(w) if q == 2) and all(tr.x == (0, 1) for tr in mine)
    assert not [tr for tr in plain.data if tr.name == "chosen"]
    assert max(tr.opacity for tr in chosen.data if tr.name.startswith("weights")) < 0.5


def test_the_decoder_never_draws_a_line_into_the_future():
    site = attention.translate("The black cat drank the milk.").trace.site(0, "decoder")
    for head in range(site.n_heads):
        assert all(j <= i for i, j, _ in attention_lines.drawn_lines(site.weights[head]))
