"""The Forget page read as a learner reads it (issue 52), through AppTest: "Drop the first tokens" heads with
the case it names (no sinks) beside the one that keeps them; "Start again" starts again; snapkv's count above
its budget is explained; the KL is put in words; the full cache's own text stands beside the evicted one and a
name said once in the middle is said to be forgotten only because the numbers show it; choosing window draws
streaming beside it; a settings change says it rewrote the words; the newest row opens at the layer that lost
most and says which cache's weights it draws."""

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from attention import i18n
from attention.ui.state import Keys
from tests.pages.clicks import click_chart
from tests.pages.figure_words import page_texts
from tests.pages.page_text import page_text

pytestmark = pytest.mark.model
APP = str(Path(__file__).resolve().parents[2] / "app.py")
PROMPT = ("Once upon a time a small cat lived in a big old house by the sea with two dogs and a bird. Every "
          "morning the cat sat by the window and watched the boats go out to sea, and every evening")


def open_forget(lang: str = "en", **params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=300)
    at.switch_page("views/forget.py")
    at.query_params["lang"] = lang
    for name, value in params.items():
        at.query_params[name] = value
    return at.run()


def test_drop_the_first_tokens_heads_with_no_sinks_beside_the_sinks_kept(smollm2, monkeypatch):
    from attention.ui.pages import forgetting

    monkeypatch.setattr(forgetting, "LESSON_PROMPT", PROMPT)
    at = open_forget("en", words="0")
    at.button(key="fg_lesson").click().run()
    assert not at.exception
    runs = at.session_state[Keys.FG_RUNS]
    assert (runs[1].policy, runs[2].policy, runs[2].sinks) == ("window", "streaming", 4)
    labels = [m.label for m in at.metric]
    assert labels[0] == "KL, window" and labels[2] == "KL, streaming, 4 sinks"
    assert at.metric[0].value == f"{runs[1].steps[-1].kl:.3f}" and at.metric[2].value == f"{runs[2].steps[-1].kl:.3f}"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_start_again_starts_again(smollm2, lang):
    at = open_forget(lang, prompt=PROMPT, policy="streaming", budget="8", sinks="2", words="3")
    at.button(key="fg_restart").click().run()
    assert not at.exception and at.session_state[Keys.FG_WORDS] == 0
    assert i18n.t("fg.nothing_yet", lang) in page_text(at) and not at.metric
    at.button(key="fg_next").click().run()
    assert len(at.session_state[Keys.FG_RUNS][1].steps) == 1
    assert i18n.t("fg.first", lang) in page_text(at)  # word 1 again, not word 4


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_kl_is_put_in_words(smollm2, lang):
    at = open_forget(lang, prompt=PROMPT, policy="streaming", budget="8", sinks="2", words="3")
    shown = page_text(at)
    assert i18n.t("fg.kl_scale", lang) in shown  # the scale: what 0.03, 0.3, 3 and 10 nats mean
    from attention.analysis import claims

    kl = at.session_state[Keys.FG_RUNS][1].steps[-1].kl
    band, _ = claims.kl_band(kl)
    assert i18n.t(f"fg.kl_means.{band}", lang).split("{")[0] in shown


def test_a_link_asking_for_fewer_words_than_written_rewrites_from_the_prompt(smollm2):
    at = open_forget("en", prompt=PROMPT, policy="streaming", budget="8", sinks="2", words="3")
    at.query_params["words"] = "1"
    at.session_state[Keys.FG_WORDS] = 1
    at.run()
    assert len(at.session_state[Keys.FG_RUNS][1].steps) == 1


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_snapkv_says_why_it_sees_more_than_its_budget(smollm2, lang):
    at = open_forget(lang, prompt=PROMPT, policy="snapkv", budget="8", words="3")
    run = at.session_state[Keys.FG_RUNS][1]
    step = run.steps[-1]
    seen = int(step.kept_mask[min(step.kept_mask)][0].sum())
    assert seen == 8 + 2  # word 3: the prompt's 8 and two written keys (its own among them)
    assert i18n.t("fg.snapkv_over", lang).format(seen=seen, budget=8, prompt=8, written=2) in page_text(at)


def test_window_is_drawn_against_streaming_and_a_settings_change_says_it_rewrote(smollm2):
    at = open_forget("en", prompt=PROMPT, policy="window", budget="8", sinks="0", words="2")
    runs = at.session_state[Keys.FG_RUNS]
    assert (runs[2].policy, runs[2].sinks) == ("streaming", 4)
    titles = [re.sub(r"<br>|\s+", " ", text) for where, text in page_texts(at) if where == "title"]
    assert "KL per word: window against streaming, 4 sinks" in titles, titles
    at.selectbox(key=Keys.FG_POLICY).set_value("h2o").run()
    assert not at.exception
    assert len(at.session_state[Keys.FG_RUNS][1].steps) == 2  # the same two words' worth, rewritten
    assert i18n.t("fg.rewritten", "en").format(n=2) in page_text(at)


def test_the_newest_row_opens_where_most_was_lost_and_says_whose_weights(smollm2):
    from attention.analysis.eviction import heads_lost_most

    at = open_forget("en", prompt=PROMPT, policy="streaming", budget="8", sinks="2", words="3")
    step = at.session_state[Keys.FG_RUNS][1].steps[-1]
    lost = heads_lost_most(step.lost)
    assert at.session_state[Keys.FG_LAYER] == lost[0][0]
    assert i18n.t("fg.row_caption", "en") in page_text(at)
    other = next((layer, head) for layer, head, _ in lost if layer != lost[0][0])
    click_chart(at, "fg_lost", list(other))  # a bar names a head: the click draws its layer
    assert not at.exception and at.session_state[Keys.FG_LAYER] == other[0]


@pytest.mark.parametrize("lang", ["en"])
def test_a_name_from_the_middle_is_forgotten_by_the_numbers(smollm2, lang):
    """The built-in example earns its sentence: the full cache writes the name, streaming 64/4 does not, and
    claims.forgot_fact (not the page) decides the warning."""
    at = open_forget(lang, words="0")
    at.button(key="fg_fact_lesson").click().run()
    assert not at.exception
    runs = at.session_state[Keys.FG_RUNS]
    assert "Walsh" in runs[3].written and "Walsh" not in runs[1].written
    assert [c.value for c in at.code] == [runs[1].written, runs[3].written]  # side by side
    assert at.warning and "Walsh" in at.warning[0].value
