"""In Chinese, no chart on any page keeps an English title, axis title, annotation or legend entry
(collected from the figure specs; the sentence's own words and notation such as softmax are allowed)."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.pages.figure_words import english_left, figure_texts, page_texts

pytestmark = pytest.mark.model  # every test here reads a model (tests/lanes.py)

APP = str(Path(__file__).resolve().parents[2] / "app.py")
SENTENCE_WORDS = set("the black cat drank milk el gato negro bebió la leche cls sep ball blue bola azul".split())
TABS = ("dot", "sum", "steps", "space", "origin")


def _open(page: str, **params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=300)
    at.switch_page(f"views/{page}.py")
    at.query_params.update(lang="zh", **params)
    return at.run()


def _check(at: AppTest, where: str) -> int:
    assert not at.exception, where
    texts = page_texts(at)
    assert not english_left(texts, SENTENCE_WORDS), (where, english_left(texts, SENTENCE_WORDS))
    return len(texts)


@pytest.mark.parametrize("page, tab_key, params", [
    ("explore", "explore_tab", {"q": "6", "k": "4", "words": "1"}),
    ("translate", "tr_tab", {"q": "5", "k": "5", "kind": "cross"}),
])
def test_every_explanation_chart_is_in_chinese(page, tab_key, params):
    at = _open(page, **params)
    seen = 0
    for tab in TABS:
        at.radio(key=tab_key).set_value(tab).run()
        seen += _check(at, f"{page}/{tab}")
    assert seen >= 10  # the charts were there to be read


@pytest.mark.parametrize("page, params", [
    ("learning", {}), ("learning", {"kind": "encoder"}), ("overview", {}),
    ("overview", {"source": "translator", "kind": "encoder"}),
    *[("lesson", {"step": str(i)}) for i in (0, 1, 2, 6, 7)],  # the steps whose chart shows before any prediction
])
def test_every_chart_of_the_page_is_in_chinese(page, params):
    assert _check(_open(page, **params), page) >= 1


def test_the_check_finds_english_when_there_is_some():
    spec = {"layout": {"title": {"text": "训练损失"}, "xaxis": {"title": {"text": "step"}}},
            "data": [{"name": "leche·milk"}, {"name": "loss"}]}
    found = english_left(figure_texts(spec), SENTENCE_WORDS)
    assert found == [("xaxis", "step"), ("legend", "loss")]
