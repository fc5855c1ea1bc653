"""Odd and hostile text: a clear message or a correct drawing, never an exception, never HTML."""

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.pages.head_views import head_views

APP = str(Path(__file__).resolve().parents[2] / "app.py")

CASES = {
    "empty": "",
    "blank": " \n\t ",
    "fifty thousand characters": "milk " * 10_000,
    "control characters": "the\x00 cat\x07 drank\x1b[31m milk\x7f",
    "zero-width and right-to-left": "the\u200b cat\u200d \u202edrank\u202c \u2067milk\u2069",
    "emoji": "🐱 drank 🥛 🎉🎉🎉",
    "chinese": "黑猫喝了牛奶",
    "only punctuation": "?!… ... ;;; ---",
    "script tag": "<script>alert('x')</script> the cat",
    "img onerror": '<img src=x onerror="alert(1)"> milk',
    "javascript link": '<a href="javascript:alert(1)">click</a> me',
    "markdown and backticks": "**bold** `code` [link](http://x) # heading",
    "very long single word": "super" + "califragilistic" * 400,
}
RAW_HTML = ("<script", "<img", "<a href", "onerror=")


def run_with(text: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["q"] = "1"
    at.query_params["k"] = "2"
    at.run()
    at.text_area(key="text").set_value(text).run()
    return at


def chart_specs(at: AppTest) -> list[str]:
    return [c.proto.spec for c in at.get("plotly_chart")]


@pytest.mark.parametrize("name", list(CASES))
def test_odd_text_is_handled_and_the_next_request_works(name):
    at = run_with(CASES[name])
    assert not at.exception, at.exception
    if not CASES[name].strip():
        assert at.info and not chart_specs(at) and not head_views(at)
    else:
        # the head view gets the tokens raw and writes them as text (tests/e2e: "<b>x</b>" shows literally)
        assert len(head_views(at)) == 1
        for spec in chart_specs(at):
            text = json.dumps(json.loads(spec))
            assert not any(tag in text for tag in RAW_HTML), "a label would be read as HTML by plotly"
    for block in [*at.markdown, *at.caption]:  # markdown never carries raw tags from the text
        assert "<script" not in block.value and "<img" not in block.value
    at.text_area(key="text").set_value("The ball is blue").run()
    assert not at.exception and len(head_views(at)) == 1


def test_fifty_thousand_characters_are_cut_with_notices():
    at = run_with(CASES["fifty thousand characters"])
    warnings = " ".join(w.value for w in at.warning)
    assert "cut to its first" in warnings and "dropped" in warnings


def test_hosted_mode_hides_the_model_folder_and_caps_input(monkeypatch):
    monkeypatch.setenv("ATTENTION_HOSTED", "1")
    at = run_with("word " * 1_000)
    assert not at.exception
    assert not at.sidebar.text_input  # no way to name a folder on the server
    assert any("2,000" in w.value for w in at.warning)


def overview_box(at: AppTest, source: str):
    """The Overview's sentence box: a text area for the pretrained model, a line for the translator."""
    return at.text_area(key="text") if source == "model" else at.text_input(key="tr_text")


@pytest.mark.parametrize("source", ["model", "translator"])
@pytest.mark.parametrize("name", list(CASES))
def test_the_overview_takes_odd_text_for_either_model(name, source):
    at = AppTest.from_file(APP, default_timeout=180).run()
    at.switch_page("views/overview.py").run()
    at.radio(key="overview_source").set_value(source).run()
    overview_box(at, source).set_value(CASES[name]).run()
    assert not at.exception, at.exception
    specs = chart_specs(at)
    if not CASES[name].strip():
        assert at.info and not specs
    for spec in specs:
        assert not any(tag in json.dumps(json.loads(spec)) for tag in RAW_HTML)
    for block in [*at.markdown, *at.caption]:  # the translation itself is shown as code, never as HTML
        assert "<script" not in block.value and "<img" not in block.value
    overview_box(at, source).set_value("The ball is blue.").run()
    assert not at.exception and chart_specs(at), "the page works again with an ordinary sentence"
