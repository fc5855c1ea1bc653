"""A link to any page reopens the same view in a fresh session; a new sentence or kind clears the selection."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from attention.ui import state

pytestmark = pytest.mark.model  # every test here reads a model (tests/lanes.py)

APP = str(Path(__file__).resolve().parents[2] / "app.py")

# page -> a view different from every default (session key -> value)
VIEWS = {
    "explore": {"text": "the cat saw the dog", "kind": "encoder", "layer": 3, "head": 7, "sel_q": 4, "sel_k": 2,
                "merge_words": True},
    "lesson": {"lesson_text": "the cat saw the dog", "lesson_tr_text": "The cat is blue.", "lesson_step": 2,
               "lesson_layer": 3, "lesson_head": 7, "sel_lesson_q": 2, "sel_lesson_k": 3},
    "translate": {"tr_text": "The ball is blue.", "tr_kind": "cross", "tr_layer": 1, "tr_head": 2, "sel_tr_q": 2,
                  "sel_tr_k": 3},
    "learning": {"learn_text": "The ball is blue.", "learn_kind": "encoder", "learn_layer": 1, "learn_head": 3,
                 "learn_step": 0},
    "find_heads": {"text": "the cat saw the dog", "kind": "encoder", "rel_query": 4, "rel_key": 2, "rel_by": "score"},
    "overview": {"overview_source": "translator", "tr_text": "The ball is blue.", "overview_kind": "cross",
                 "overview_order": "entropy", "overview_ascending": True},
    "does_it_matter": {"abl_source": "translator", "tr_text": "The ball is blue.", "abl_heads": "cross.1.0",
                 "abl_mode": "mean", "abl_word": 2, "tr_kind": "decoder", "sel_tr_q": 3, "sel_tr_k": 1},
    "write": {"wr_prompt": "Once upon a time", "wr_temperature": 0.7, "wr_top_k": 40, "wr_top_p": 0.9,
              "wr_sampled": True, "wr_seed": 7, "wr_ids": "11,1117,2059", "wr_step": 2, "wr_layer": 3, "wr_head": 2},
    "compare": {"cmp_a": "the black cat drank the milk .", "cmp_b": "the black dog drank the milk .",
                "cmp_model": "translator", "cmp_measure": "max_abs", "cmp_kind": "cross", "cmp_layer": 1, "cmp_head": 2,
                "cmp_patch": True},
    "forget": {"fg_prompt": "Once upon a time a small cat lived in a big old house by the sea", "fg_policy": "h2o",
               "fg_budget": 8, "fg_sinks": 2, "fg_words": 2, "fg_layer": 3},
}


def opened(page: str, params: dict[str, str] | None = None, values: dict | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=240)
    for key, value in (params or {}).items():
        at.query_params[key] = value
    at.switch_page(state.PAGES[page].path)
    for key, value in (values or {}).items():
        at.session_state[key] = value
    at.run()
    assert not at.exception, at.exception
    return at


@pytest.mark.parametrize("page", list(VIEWS))
def test_a_link_to_any_page_reopens_the_same_view_in_a_fresh_session(page):
    first = opened(page, values=VIEWS[page])
    link = {k: v[0] if isinstance(v, list) else v for k, v in first.query_params.items()}
    wanted = {param for param, key in state.PAGES[page].params.items() if key in VIEWS[page]}
    assert wanted <= set(link), f"the link misses {wanted - set(link)}"
    fresh = opened(page, params=link)  # a new browser: nothing but the link
    for key, value in VIEWS[page].items():
        assert fresh.session_state[key] == value, key


def test_the_link_carries_only_the_shown_pages_view():
    at = opened("translate", values=VIEWS["translate"])
    params = set(at.query_params.keys())
    assert params <= {*state.PAGES["translate"].params, "lang"}
    assert at.query_params["text"] == "The ball is blue."  # the translator's sentence, not Explore's


def test_a_new_sentence_clears_the_selection_and_a_new_head_keeps_it():
    at = opened("explore", values={"sel_q": 6, "sel_k": 4})
    at.session_state["head"] = 5
    at.run()
    assert (at.session_state["sel_q"], at.session_state["sel_k"]) == (6, 4)
    at.text_area(key="text").set_value("A ball is blue").run()
    assert at.session_state["sel_q"] is None and at.session_state["sel_k"] is None
    assert "q" not in at.query_params and "k" not in at.query_params


def test_go_rejects_an_undeclared_key(monkeypatch):
    import streamlit as st

    monkeypatch.setattr(st, "session_state", {})
    with pytest.raises(KeyError, match="undeclared"):
        state.go_later("explore", not_a_key=1)
    state.go_later("explore", head=3)
    assert st.session_state == {"head": 3, "_go_to": "explore"}


def test_every_key_the_pages_use_is_declared():
    """Widget keys in views/ and attention/ui/ are Keys.* constants, not strings written on the spot
    (a few per-chart keys derived from the page's name are the exception)."""
    import re

    root = Path(APP).parent
    loose = []
    for path in [*root.glob("views/*.py"), *root.glob("attention/ui/*.py"), root / "app.py"]:
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if re.search(r"session_state\[\"|session_state\.get\(\"", line):
                loose.append(f"{path.name}:{n}")
    assert loose == []
