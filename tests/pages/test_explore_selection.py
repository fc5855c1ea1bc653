"""Explore's selection under AppTest: clicks through the head view's and the charts' own callbacks,
the first and last words, links that reopen a pair, and the detail panel's numbers against formulas
written out here."""

import pytest
from streamlit.testing.v1 import AppTest

from tests.pages.clicks import click_chart, click_head_view
from tests.pages.explore_app import start
from tests.pages.head_views import head_views, panel_metrics, panel_texts, selections

pytestmark = pytest.mark.model  # every test here reads a model (tests/lanes.py)


def by_hand(text: str, layer: int, head: int, query: int, key: int) -> dict[str, str]:
    """The detail panel's four numbers for one pair, computed here from the site's q, k, v and d_k
    with the textbook formulas (not through core.py or Site): what the metrics must show."""
    import numpy as np

    import attention

    site = attention.trace(text).site(layer)
    q, k, v = (np.asarray(a[head], dtype=np.float64) for a in (site.q, site.k, site.v))
    d_k = q.shape[-1]
    row = np.array([q[query] @ k[j] for j in range(k.shape[0])]) / np.sqrt(d_k)
    weights = np.exp(row - row.max()) / np.exp(row - row.max()).sum()
    moved = weights * np.sqrt((v**2).sum(-1))
    return {"q·k (raw S)": f"{q[query] @ k[key]:.4f}", "scaled score": f"{row[key]:.4f}".replace("-0.0000", "0.0000"),
            "weight (A)": f"{weights[key]:.4f}", "share of the output ‖α·v‖": f"{moved[key] / moved.sum():.4f}"}


def metrics(at: AppTest) -> dict[str, str]:
    return panel_metrics(at)  # the detail panel, drawn by the browser from the blocks Python sends


def pair_line(at: AppTest) -> list[str]:
    return [text for text in panel_texts(at) if text.startswith(("**Pair:**", "**Query word:**"))]


def test_a_click_in_the_head_view_selects_the_pair_and_the_panel_shows_its_numbers():
    """The click goes through the head view's own callback, with the trigger the browser sends."""
    at = start()
    assert pair_line(at) == [] and not metrics(at)  # nothing selected before the click
    click_head_view(at, "explore-head", 6, 4)
    assert not at.exception
    assert (at.session_state["sel_q"], at.session_state["sel_k"]) == (6, 4)
    assert selections(at) == [(6, 4)]
    assert pair_line(at) == ["**Query word:** `milk` (position 6)", "**Pair:** `milk` → `drank` (query 6, key 4)"]
    text = "The black cat drank the milk"
    assert metrics(at) == by_hand(text, 0, 0, 6, 4)
    at.session_state["head"] = 5
    at.run()
    assert (at.session_state["sel_q"], at.session_state["sel_k"]) == (6, 4)  # a new head keeps the pair
    assert selections(at) == [(6, 4)] and metrics(at) == by_hand(text, 0, 5, 6, 4)
    assert at.query_params["q"] == "6" and at.query_params["k"] == "4" and at.query_params["head"] == "5"


@pytest.mark.parametrize("query, key", [(0, 0), (7, 7), (0, 7), (7, 0)])
def test_clicks_on_the_first_and_last_words_are_taken(query, key):
    at = start(q="3", k="3")  # a selection to move away from
    click_head_view(at, "explore-head", query, key)
    assert (at.session_state["sel_q"], at.session_state["sel_k"]) == (query, key)
    assert selections(at) == [(query, key)] and at.query_params["q"] == str(query)
    words = ["[CLS]", "the", "black", "cat", "drank", "the", "milk", "[SEP]"]
    assert pair_line(at)[1] == f"**Pair:** `{words[query]}` → `{words[key]}` (query {query}, key {key})"
    assert metrics(at) == by_hand("The black cat drank the milk", 0, 0, query, key)


def test_a_click_on_a_row_word_or_a_column_word_selects_that_word_alone():
    at = start(q="6", k="4")
    click_head_view(at, "explore-head", 0, -1)  # the query word [CLS], beside its row
    assert (at.session_state["sel_q"], at.session_state["sel_k"]) == (0, None)
    assert pair_line(at) == ["**Query word:** `[CLS]` (position 0)"] and selections(at) == [(0, -1)]
    click_head_view(at, "explore-head", -1, 0)  # the key word [CLS], above its column
    assert (at.session_state["sel_q"], at.session_state["sel_k"]) == (None, 0)
    assert selections(at) == [(-1, 0)] and pair_line(at) == []


def test_a_click_on_a_plotly_matrix_goes_through_its_callback():
    """The ‖α·v‖ chart beside A: plotly's selection event, sent as the browser sends it, reaches
    matrices.select_from_chart; a cell, then a column word alone (which keeps the query)."""
    at = start()
    at.toggle(key="value_weighted").set_value(True).run()
    click_chart(at, "explore_vw", [2, 3], trace="cells")
    assert not at.exception
    assert (at.session_state["sel_q"], at.session_state["sel_k"]) == (2, 3) and selections(at) == [(2, 3)]
    assert pair_line(at)[1] == "**Pair:** `black` → `cat` (query 2, key 3)"
    click_chart(at, "explore_vw", [-1, 0], trace="key words")  # the dot above [CLS]'s column
    assert (at.session_state["sel_q"], at.session_state["sel_k"]) == (2, 0) and selections(at) == [(2, 0)]
    click_chart(at, "explore_vw", [7, 7], trace="cells")  # the last cell
    assert (at.session_state["sel_q"], at.session_state["sel_k"]) == (7, 7)


def test_url_reopens_the_same_view():
    at = start(text="I saw her duck", layer="2", head="4", q="3", k="2")
    assert not at.exception
    assert at.session_state["layer"] == 2 and at.session_state["head"] == 4
    assert head_views(at)[0]["key_tokens"] == ["[CLS]", "i", "saw", "her", "duck", "[SEP]"]
    assert selections(at) == [(3, 2)]
    assert pair_line(at) == ["**Query word:** `her` (position 3)", "**Pair:** `her` → `saw` (query 3, key 2)"]
    assert metrics(at) == by_hand("I saw her duck", 2, 4, 3, 2)


def test_a_link_past_the_last_word_selects_nothing():
    at = start(text="I saw her duck", q="6", k="6")  # six tokens: positions 0..5
    assert not at.exception
    assert (at.session_state["sel_q"], at.session_state["sel_k"]) == (None, None)
    assert selections(at) == [(-1, -1)] and pair_line(at) == [] and "q" not in at.query_params
    at = start(text="I saw her duck", q="5", k="5")  # the last one is kept
    assert (at.session_state["sel_q"], at.session_state["sel_k"]) == (5, 5) and selections(at) == [(5, 5)]
