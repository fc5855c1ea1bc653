"""The Forget page through AppTest, in both languages: a policy and a budget from the link, the words written
with the evicted cache, the KL and top word, both next-word bars, the KL chart against window, the heads that
lost most and the newest row; the lesson button sets "Drop the first tokens"; a link out of range is held."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from attention import i18n
from attention.ui.state import Keys
from tests.pages.page_text import page_text

pytestmark = pytest.mark.model
APP = str(Path(__file__).resolve().parents[2] / "app.py")
PROMPT = "Once upon a time a small cat lived in a big old house by the sea with two dogs and a bird"


def open_forget(lang: str = "en", **params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=300)
    at.switch_page("views/forget.py")
    at.query_params["lang"] = lang
    for name, value in params.items():
        at.query_params[name] = value
    return at.run()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_link_writes_with_the_evicted_cache_and_shows_what_it_cost(smollm2, lang):
    at = open_forget(lang, prompt=PROMPT, policy="streaming", budget="8", sinks="2", words="2")
    assert not at.exception and not at.error
    assert at.title[0].value == i18n.t("fg.title", lang)
    run = at.session_state[Keys.FG_RUNS][1]
    assert len(run.steps) == 2 and at.code[0].value == run.written
    assert [m.label for m in at.metric] == [i18n.t("fg.kl_of", lang).format(policy=i18n.t("fg.with_sinks", lang).format(
        name="streaming", sinks=2)), i18n.t("fg.top", lang), i18n.t("fg.kl_of", lang).format(policy="window")]
    assert at.metric[0].value == f"{run.steps[-1].kl:.3f}"
    shown = page_text(at)
    assert i18n.t("fg.lost_title", lang) in shown
    html = "".join(h.proto.body for h in at.get("html"))
    assert i18n.t("fg.bars_evicted", lang) in html and i18n.t("fg.bars_full", lang) in html
    at.button(key="fg_next").click().run()  # one more word, for both runs (the policy's and window's)
    assert not at.exception
    assert len(at.session_state[Keys.FG_RUNS][1].steps) == 3 and len(at.session_state[Keys.FG_RUNS][2].steps) == 3
    assert at.session_state[Keys.FG_WORDS] == 3


def test_the_lesson_button_drops_the_first_tokens(smollm2, monkeypatch):
    from attention.ui.pages import forgetting

    monkeypatch.setattr(forgetting, "LESSON_PROMPT", PROMPT)  # the lesson's settings, on a prompt quick to read
    at = open_forget("en", words="0")
    at.button(key="fg_lesson").click().run()
    assert not at.exception
    s = at.session_state
    assert (s[Keys.FG_POLICY], s[Keys.FG_BUDGET], s[Keys.FG_SINKS], s[Keys.FG_WORDS]) == ("window", 64, 4, 6)
    assert (s[Keys.FG_RUNS][2].policy, s[Keys.FG_RUNS][2].sinks) == ("streaming", 4)  # the sinks kept, beside it


def test_a_link_out_of_range_is_held_to_the_widgets(smollm2):
    at = open_forget("en", prompt="A cat", policy="lru", budget="100000", sinks="99", words="0")
    assert not at.exception
    s = at.session_state
    assert (s[Keys.FG_POLICY], s[Keys.FG_BUDGET], s[Keys.FG_SINKS]) == ("streaming", 1024, 16)
    assert i18n.t("fg.nothing_yet", "en") in page_text(at)
