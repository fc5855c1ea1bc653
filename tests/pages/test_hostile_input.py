"""Odd and hostile text: a clear message or a correct drawing, never an exception, never HTML."""

import html
import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from attention import i18n
from tests.pages.head_views import head_views

pytestmark = pytest.mark.model  # every test here reads a model (tests/lanes.py)

APP = str(Path(__file__).resolve().parents[2] / "app.py")

CASES = {
    "empty": "",
    "blank": " \n\t ",
    "seventy thousand characters": "milk " * 14_000,  # past the 64,000-character cap
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
# Both tokenizers split "<script>" into "<", "script", ">" (the translator reads unknown words as
# "<unk>"), so no token holds a whole tag: the check is that every token label reaches plotly escaped
# ("<" as "&lt;"), read from the labels themselves (the spec's JSON writes "<" as \\u003c anyway).
LABEL_TRACES = ("query words", "key words", "cells")


def run_with(text: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["q"] = "1"
    at.query_params["k"] = "2"
    at.run()
    at.text_area(key="text").set_value(text).run()
    return at


def chart_specs(at: AppTest) -> list[str]:
    return [c.proto.spec for c in at.get("plotly_chart")]


def token_labels(spec: str) -> list[str]:
    """Every word a matrix chart shows: axis ticks, the clickable words beside it, and cell hover."""
    data = json.loads(spec)
    out = [*data["layout"].get("xaxis", {}).get("ticktext", []), *data["layout"].get("yaxis", {}).get("ticktext", [])]
    for trace in data["data"]:
        if trace.get("name") in LABEL_TRACES:
            for field in ("text", "hovertext"):
                value = trace.get(field)
                out += [value] if isinstance(value, str) else list(value or [])
    return out


def assert_escaped(labels: list[str], text: str) -> None:
    assert labels, "no token labels to check"
    for lab in labels:
        assert "<" not in lab and ">" not in lab, f"a label plotly would read as markup: {lab!r}"
        assert html.escape(html.unescape(lab), quote=False) == lab, f"a bare & in {lab!r}"
    if "<" in text:  # the text's "<" is a token (or part of one): its escaped form must be on the chart
        assert any("&lt;" in lab for lab in labels)


@pytest.mark.parametrize("name", list(CASES))
def test_odd_text_is_handled_and_the_next_request_works(name):
    at = run_with(CASES[name])
    assert not at.exception, at.exception
    if not CASES[name].strip():
        assert [i.value for i in at.info] == [i18n.t("text.blank")]
        assert not chart_specs(at) and not head_views(at)
    else:
        # the head view gets the tokens raw and writes them as text (tests/e2e: "<b>x</b>" shows literally)
        assert len(head_views(at)) == 1
        at.toggle(key="value_weighted").set_value(True).run()  # ‖α·v‖: a plotly matrix labelled with the tokens
        assert not at.exception
        vw = [c.proto.spec for c in at.get("plotly_chart") if c.key == "explore_vw"]
        assert len(vw) == 1
        assert_escaped(token_labels(vw[0]), CASES[name])
        at.toggle(key="value_weighted").set_value(False).run()
    for block in [*at.markdown, *at.caption]:  # markdown never carries raw tags from the text
        assert "<script" not in block.value and "<img" not in block.value
    at.text_area(key="text").set_value("The ball is blue").run()
    assert not at.exception and len(head_views(at)) == 1


def test_seventy_thousand_characters_are_cut_with_notices():
    at = run_with(CASES["seventy thousand characters"])
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


# What the Overview draws for each odd text: nothing (and why) where no word is left to translate
NOTHING_TO_DRAW = {("translator", "only punctuation")}


@pytest.mark.parametrize("source", ["model", "translator"])
@pytest.mark.parametrize("name", list(CASES))
def test_the_overview_takes_odd_text_for_either_model(name, source):
    at = AppTest.from_file(APP, default_timeout=180).run()
    at.switch_page("views/overview.py").run()
    at.radio(key="overview_source").set_value(source).run()
    overview_box(at, source).set_value(CASES[name]).run()
    assert not at.exception, at.exception
    specs = chart_specs(at)
    if not CASES[name].strip() or (source, name) in NOTHING_TO_DRAW:
        assert [i.value for i in at.info] == [i18n.t("text.blank" if source == "model" else "translate.nothing")]
        assert not specs
    else:
        assert len(specs) == 2, "the grid and the rollout"  # never an empty list to loop over
        assert_escaped(token_labels(specs[1]), CASES[name])  # the rollout, labelled with the tokens
        if source == "translator" and name in ("script tag", "img onerror", "chinese"):
            assert "&lt;unk&gt;" in token_labels(specs[1])  # the translator's own markup-like token
    for block in [*at.markdown, *at.caption]:  # the translation itself is shown as code, never as HTML
        assert "<script" not in block.value and "<img" not in block.value
    overview_box(at, source).set_value("The ball is blue.").run()
    assert not at.exception and chart_specs(at), "the page works again with an ordinary sentence"
