"""The Write page read as a learner reads it (issue 46), in both languages: a colour legend under the
head view, the step shown named plainly, a warning before Next word replaces later words, and greedy
mode said to ignore temperature."""

import html

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attention import i18n
from attention.ui.state import Keys
from tests.pages.head_views import head_views

pytestmark = pytest.mark.model
from tests.pages.test_write_page import PROMPT, open_write  # noqa: E402, F401 - one way to open Write


def legends(at: AppTest) -> list[str]:
    return [html.unescape(el.proto.body) for el in at.get("html") if "hv-legend" in el.proto.body]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_head_view_has_a_legend_that_says_what_dark_blue_means_in_s_and_in_a(smollm2, lang):
    at = open_write(lang)
    at.button(key="wr_next").click().run()
    assert not at.exception and not at.error
    shown = legends(at)
    assert len(shown) == 1, "one legend under the head view"
    view = head_views(at)[0]
    s = view["numbers"]["S"][~view["numbers"]["masked"]]
    m = f"{np.abs(s).max():.1f}"
    body = shown[0]
    for title in ("headview.S", "headview.A", "headview.Z"):
        assert i18n.t(title, lang) in body
    assert f"<span>−{m}</span>" in body and f"<span>{m}</span>" in body  # S's ends: this head's largest |q·k|
    assert i18n.t("legend.opposite", lang) in body  # dark blue: very negative in S, near 1 in A
    assert i18n.t("legend.masked", lang) in body  # causal: the grey of the later words


def captions(at: AppTest) -> list[str]:
    return [c.value for c in at.caption]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_step_shown_is_named_and_writing_from_it_is_said_to_replace_the_words_after(smollm2, lang):
    at = open_write(lang)
    for _ in range(3):
        at.button(key="wr_next").click().run()  # " the only thing"
    assert i18n.t("write.shown_newest", lang, i=3, n=3, token="`·thing`", next=4) in captions(at)
    assert not any(c.startswith(i18n.t("write.replaces", lang, n=0, i=0)[:6]) for c in captions(at))
    at.session_state[Keys.WR_STEP] = 1  # a click on the first written word, "·the"
    at.run()
    said = captions(at)
    assert i18n.t("write.shown_step", lang, i=1, n=3, token="`·the`", next=2) in said
    # the bars below are the prediction from step 1: the word they chose is word 2, "·only", and said so
    assert any(c.startswith(i18n.t("write.chosen", lang, i=2, token="`·only`", p="|").split("|")[0]) for c in said)
    assert i18n.t("write.replaces", lang, n=2, i=1) in said  # before Next word drops "·only" and "·thing"
    at.session_state[Keys.WR_STEP] = 2
    at.run()
    assert i18n.t("write.replaces_one", lang, i=2) in captions(at)
    at.session_state[Keys.WR_STEP] = 0
    at.run()
    assert i18n.t("write.shown_prompt", lang) in captions(at)


def test_after_the_end_of_text_going_back_writes_again(smollm2):
    at = open_write(ids="", prompt=PROMPT)
    at.button(key="wr_ten").click().run()
    w = at.session_state[Keys.WR_WRITING].value
    w.ended = True  # as if the model had chosen the end-of-text token after word 10
    at.run()
    assert at.button(key="wr_next").disabled and at.button(key="wr_ten").disabled
    assert at.info and at.info[0].value == i18n.t("write.ended")
    at.session_state[Keys.WR_STEP] = 4  # "click a word to go back to that step"
    at.run()
    assert not at.button(key="wr_next").disabled and not at.button(key="wr_ten").disabled
    assert not at.button(key="wr_play").disabled
    assert i18n.t("write.replaces", n=6, i=4) in captions(at)
    at.button(key="wr_next").click().run()  # writes from step 4: words 5.. replaced
    assert at.session_state[Keys.WR_STEP] == 5 and len(w.steps) == 5 and not w.ended


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_greedy_mode_says_temperature_changes_the_bars_never_the_word(smollm2, lang):
    at = open_write(lang, t="3")
    assert i18n.t("write.greedy_note", lang) in captions(at)
    at.button(key="wr_next").click().run()
    assert at.code[0].value == PROMPT + " the"  # temperature 3, greedy: the same word as at 1
    at = open_write(lang, sampled="1")
    assert i18n.t("write.greedy_note", lang) not in captions(at)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_once_rows_are_too_thin_for_every_word_the_page_says_how_to_read_a_row(smollm2, lang):
    at = open_write(lang)  # 9 tokens: every word is written beside its row
    assert i18n.t("legend.rows", lang) not in captions(at)
    at.button(key="wr_ten").click().run()  # 19 tokens: on a narrow page every other word
    assert i18n.t("legend.rows", lang) in captions(at)
