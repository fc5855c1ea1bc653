"""The Lesson page through AppTest: every step forward and back in both languages, on the article's
sentences and on one with unknown words; the adaptive text; a prediction right and wrong; the summary."""

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from attention import i18n
from attention.lesson.story import N_STEPS
from tests.pages.head_views import panel_texts

pytestmark = pytest.mark.model  # every test here reads a model (tests/lanes.py)

APP = str(Path(__file__).resolve().parents[2] / "app.py")
UNKNOWN = "The zorblax drank the glorp"  # words neither the translator nor (as whole words) MiniLM knows


def opened(lang: str = "en", **values) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=300)
    at.query_params["lang"] = lang
    at.switch_page("views/lesson.py")
    for key, value in values.items():
        at.session_state[key] = value
    at.run()
    assert not at.exception, at.exception
    return at


def text(at: AppTest) -> str:
    return "\n".join([m.value for m in at.markdown] + [e.value for e in at.error] + [s.value for s in at.success]
                     + [i.value for i in at.info] + [w.value for w in at.warning])


def title(at: AppTest) -> str:
    return at.subheader[0].value


@pytest.mark.parametrize("lang, sentences", [("en", {}), ("zh", {}),
                                             ("en", {"lesson_text": UNKNOWN, "lesson_tr_text": UNKNOWN + "."}),
                                             ("zh", {"lesson_text": UNKNOWN, "lesson_tr_text": UNKNOWN + "."})])
def test_every_step_forward_and_back(lang, sentences):
    at = opened(lang, **sentences)
    titles = []
    for i in range(N_STEPS):
        assert at.session_state["lesson_step"] == i
        titles.append(title(at))
        no_pair = i18n.t("lesson.training.no_pair", lang).split("{words}")[0]  # too few known words: said, no chart
        assert (at.get("plotly_chart") or i == N_STEPS - 1 or any(r.key.startswith("lesson_pick") for r in at.radio)
                or any(no_pair in m.value for m in at.markdown)), i
        if i < N_STEPS - 1:
            at.button(key="lesson_next_bottom").click().run()
            assert not at.exception, (i, at.exception)
    assert at.button(key="lesson_next_top").disabled
    assert len(set(titles)) == N_STEPS  # every step its own title
    expected = [i18n.t(f"lesson.{s}.title", lang) for s in
                ("vectors", "qkv", "factor", "dot", "softmax", "temperature", "sum", "training", "three", "cross",
                 "predict_word")]
    assert titles[:-1] == expected
    for i in reversed(range(N_STEPS - 1)):
        at.button(key="lesson_back_top").click().run()
        assert not at.exception, (i, at.exception)
        assert title(at) == titles[i]
    assert at.button(key="lesson_back_top").disabled
    if sentences:  # the sentence the learner typed is the one read: its words are named
        assert "zorblax" in text(at) or "z" in "".join(str(c) for c in at.session_state["lesson_text"])
        at.session_state["lesson_step"] = 8
        at.run()
        assert "zorblax" in text(at)  # the translator's notice names the unknown word


def test_the_step_names_the_words_and_says_when_the_claim_fails():
    """Layer 0, head 0 of MiniLM: milk gives cat more weight than drank (a hand-picked case). The step
    says so and offers the relevance finder's head; switching to it, the claim holds."""
    at = opened("en", lesson_layer=0, lesson_head=0, lesson_step=4, lesson_answers={})
    at.radio(key=next(r.key for r in at.radio if r.key.startswith("lesson_pick_top"))).set_value("3")
    at.button(key="lesson_check_top").click().run()
    said = text(at)
    assert "does not hold in this head" in said and "`milk` gives `drank` only" in said and "`cat`" in said
    assert "strongest head for `milk` → `drank` is layer 2, head 0" in said
    assert "Right" in said  # cat was the answer here
    at.button(key="lesson_switch").click().run()
    assert (at.session_state["lesson_layer"], at.session_state["lesson_head"]) == (2, 0)
    at.radio(key=next(r.key for r in at.radio if r.key.startswith("lesson_pick_top"))).set_value("4")
    at.button(key="lesson_check_top").click().run()
    assert "As the article says: among the words, `milk` attends to `drank` most" in text(at)


def test_a_right_and_a_wrong_prediction_each_get_their_feedback_and_count():
    at = opened("en", lesson_step=9)  # which English word does azul read? (blue, position 3)
    pick = next(r.key for r in at.radio if r.key.startswith("lesson_pick_cross"))
    at.button(key="lesson_check_cross").click().run()  # nothing picked yet: asked to pick
    assert "Pick an answer first" in text(at)
    at.radio(key=pick).set_value("3")
    at.button(key="lesson_check_cross").click().run()
    assert "Right" in text(at) and "`azul` reads `blue`" in text(at)
    assert "Predictions: 1 right of 1" in at.get("progress")[0].proto.text
    at.button(key="lesson_back_top").click().run()  # can the decoder writing "la" look at "azul"? no
    at.radio(key=next(r.key for r in at.radio if r.key.startswith("lesson_pick_mask"))).set_value("yes")
    at.button(key="lesson_check_mask").click().run()
    said = text(at)
    assert "Not this time: the model's answer is no" in said and "the mask adds −∞" in said
    assert "Predictions: 1 right of 2" in at.get("progress")[0].proto.text
    # Chinese: the same answers, the same score, the feedback in Chinese
    at.query_params["lang"] = "zh"
    at.session_state["lang"] = "zh"
    at.run()
    assert "不能" in text(at) and "2 次中答对 1 次" in at.get("progress")[0].proto.text


def test_the_summary_holds_every_step_and_the_answers_in_the_chosen_language():
    at = opened("zh", lesson_step=N_STEPS - 1)
    assert "课程" in at.get("download_button")[0].label
    from attention.lesson import printout
    assert printout.inline("`a<b>` and **x**") == "<code>a&lt;b&gt;</code> and <b>x</b>"
    # the page built by the same function the button offers (AppTest cannot read a download's bytes)
    from attention.lesson.steps import Step

    page = printout.summary_html("t", "zh", ["`x`"], [Step("s", "model", "标题", ("正文 `w`",), "提示",
                                     ("explore", {}))], {}, {"try": "试", "predict": "预", "answer_was": "{chosen}",
                                                             "print": "打印"})
    assert "<h2>标题</h2>" in page and "<code>w</code>" in page and 'lang="zh"' in page
    titles = [i18n.t(f"lesson.{s}.title", "zh") for s in ("vectors", "cross")]
    assert all(t in text(at).replace("\\.", ".") for t in titles)  # the list escapes each number's dot


def test_the_downloaded_page_has_every_step_chart_and_answer(monkeypatch):
    """The download's bytes (caught on their way into st.download_button: AppTest runs the page in
    this process): every step, one chart each, plotly.js inlined once, an answer given shown."""
    import streamlit as st

    caught = []
    original = st.download_button
    monkeypatch.setattr(st, "download_button", lambda label, data, **kw: (caught.append(data), original(
        label, data, **kw))[1])
    at = opened("en", lesson_step=4, lesson_layer=0, lesson_head=0, lesson_answers={})
    at.radio(key=next(r.key for r in at.radio if r.key.startswith("lesson_pick_top"))).set_value("4")
    at.button(key="lesson_check_top").click().run()
    at.session_state["lesson_step"] = N_STEPS - 1
    at.run()
    assert not at.exception and caught
    data = caught[-1].decode("utf-8")
    assert data.count("<section") == N_STEPS - 1 and data.count("<h2>") == N_STEPS - 1
    assert data.count("Plotly.newPlot") == N_STEPS - 1
    assert len(re.findall(r"plotly\.js v\d", data)) == 1  # the library inlined once
    assert "1. Words become vectors" in data and "does not hold in this head" in data
    assert "Your answer: “drank (4)”. The model&#x27;s: “cat (3)”." in data
    assert "`" not in re.sub(r"<script.*?</script>", "", data, flags=re.S)  # markdown turned into HTML


def test_a_steps_link_opens_explore_on_the_lessons_sentence_head_and_pair():
    """Even after Explore showed another sentence (whose selection context would clear a pair set from
    elsewhere), the link lands on the lesson's sentence, head, pair and explanation."""
    at = AppTest.from_file(APP, default_timeout=300).run()  # Explore first, on its own sentence
    at.text_area(key="text").set_value("the cat saw the dog").run()
    at.switch_page("views/lesson.py")
    at.session_state["lesson_text"] = "The black dog drank the water"
    at.session_state["lesson_step"] = 3
    at.run()
    assert not at.exception, at.exception
    q, k = at.session_state["sel_lesson_q"], at.session_state["sel_lesson_k"]
    layer, head = at.session_state["lesson_layer"], at.session_state["lesson_head"]
    at.button(key="lesson_link_dot").click().run()
    assert not at.exception, at.exception
    assert at.session_state["text"] == "The black dog drank the water"
    assert (at.session_state["layer"], at.session_state["head"]) == (layer, head)
    assert (at.session_state["sel_q"], at.session_state["sel_k"]) == (q, k) == (6, 4)
    assert at.session_state["explore_tab"] == "dot"
    assert at.query_params["q"] == ["6"] or at.query_params["q"] == "6"


def test_the_cross_attention_steps_link_opens_translate_on_azul_reading_blue():
    at = opened("en", lesson_step=9)
    at.button(key="lesson_link_cross").click().run()
    assert not at.exception, at.exception
    assert at.session_state["tr_text"] == "The ball is blue."
    assert (at.session_state["tr_kind"], at.session_state["tr_layer"]) == ("cross", 1)
    assert (at.session_state["sel_tr_q"], at.session_state["sel_tr_k"]) == (3, 3)  # azul → blue
    detail = " ".join(panel_texts(at))  # the head view's detail panel, laid out by the browser
    assert "azul" in text(at) and "azul" in detail and "blue" in detail


LONG = " ".join(["The black cat drank the milk and the dog ate the bread"] * 40)  # past the length limit


@pytest.mark.parametrize("sentence", ["!!!", "<b>x</b> `y` **z**", "", "猫喝了牛奶。", "The cat 🐱 drank milk 🥛", LONG])
def test_hostile_sentences_give_every_step_without_a_traceback(sentence):
    at = opened("en", lesson_text=sentence, lesson_tr_text=sentence)
    for i in range(1, N_STEPS):
        at.session_state["lesson_step"] = i
        at.run()
        assert not at.exception, (i, at.exception)
    assert "<b>" not in "".join(m.value for m in at.markdown if "<b>" in m.value and "`" not in m.value)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_full_page_opened_from_a_step_offers_the_way_back_to_it(lang):
    at = opened(lang, lesson_step=3)
    at.button(key="lesson_link_dot").click().run()
    assert not at.exception, at.exception
    back = at.button(key="back_to_lesson")
    assert back.label == i18n.t("lesson.back_to", lang, step=4)
    back.click().run()
    assert not at.exception, at.exception
    assert at.session_state["lesson_step"] == 3 and title(at) == i18n.t("lesson.dot.title", lang)
    assert not any(b.key == "back_to_lesson" for b in at.button)  # back in the lesson: no way back offered
