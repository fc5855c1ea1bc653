"""The Lesson's step 11 through AppTest on the real SmolLM2 (whatever model the lesson reads), in both
languages: predict the next token, then the earlier token the deciding heads read, each revealed with
the model's numbers; the chart after the reveal; Write and Explore opened on the prompt and the leading
head; a blank sentence said in words; and a prompt whose heads decide nothing, where the claim is NOT
written. The page's cache keeps SmolLM2's answer per prompt, so each prompt is computed once here."""

from __future__ import annotations

import json

import pytest

from attention import i18n
from attention.analysis import deciding_heads as dh
from attention.lesson.predict_word import NONE
from attention.lesson.story import N_STEPS
from tests.pages.figure_words import english_left, page_texts
from tests.pages.test_lesson import opened, text, title

pytestmark = pytest.mark.model
STEP = N_STEPS - 2  # the last step before the summary
COUNTING = "1, 2, 3, 4, 5, 6, 7, 8"  # after "1, 2, …, 7," the likeliest token is certain (p 0.96): no head decides it


def reveal(at, pred_id: str, value: str | None = None):
    radio = next(r for r in at.radio if r.key.startswith(f"lesson_pick_{pred_id}"))
    radio.set_value(value if value is not None else "1")  # raw option values: a position, "0" the likeliest
    at.button(key=f"lesson_check_{pred_id}").click().run()
    assert not at.exception, at.exception
    return at


@pytest.mark.parametrize("lang", list(i18n.LANGUAGES))
def test_predict_the_next_word_then_the_word_the_deciding_heads_read(lang):
    at = opened(lang, lesson_step=STEP, lesson_answers={})
    assert title(at) == i18n.t("lesson.predict_word.title", lang)
    assert at.get("progress")[0].proto.text.startswith(i18n.t("lesson.progress", lang, i=11, n=11))
    assert "`The black cat drank the`" in text(at)  # the lesson's sentence cut before its last word
    assert not at.get("plotly_chart")  # nothing revealed before the prediction
    first = next(r for r in at.radio if r.key.startswith("lesson_pick_next_word"))
    assert len(first.options) == 10 and not any("Ġ" in o for o in first.options)  # readable tokens
    assert not any(r.key.startswith("lesson_pick_decider") for r in at.radio)  # asked after the first reveal
    reveal(at, "next_word", "0")  # "0": the likeliest
    said = text(at)
    assert i18n.t("lesson.right", lang) in said
    assert i18n.t("lesson.predict_word.held_ranked", lang).split("{held}")[0] in said  # milk placed among the ten
    second = next(r for r in at.radio if r.key.startswith("lesson_pick_decider"))
    assert second.options[-1] == i18n.t("lesson.predict_word.none", lang)
    reveal(at, "decider")
    said = text(at)
    decides = i18n.t("lesson.predict_word.decides", lang).split("{floor}")[1]
    assert decides in said  # on this prompt the leading heads take more than a tenth of the word's probability
    assert i18n.t("lesson.predict_word.reads", lang).split("{words}")[0].split("{name}")[0] in said
    assert "ρ = " in said  # 24 measured heads: claims.correlation gives one
    figure = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert [trace["type"] for trace in figure["data"]] == ["bar", "heatmap"]
    assert len(figure["data"][0]["y"]) == 10 and len(figure["data"][1]["z"]) == dh.SHOWN
    if lang == "zh":  # titles and axes in Chinese
        assert not english_left(page_texts(at), set()), english_left(page_texts(at), set())
    assert i18n.t("lesson.predict_word.caption", lang) in [c.value for c in at.caption]
    assert len(at.session_state["lesson_answers"]) == 2  # both predictions count in the score


def test_the_step_opens_write_on_the_prompt_and_explore_on_the_leading_head():
    at = opened("en", lesson_step=STEP, lesson_answers={})
    reveal(reveal(at, "next_word"), "decider")
    at.button(key="lesson_explore_head").click().run()
    assert not at.exception, at.exception
    assert at.session_state["text"] == "The black cat drank the" and at.session_state["model_path"] == "smollm2"
    assert at.session_state["kind"] == "decoder" and at.session_state["sel_q"] == 4
    layer, head = at.session_state["layer"], at.session_state["head"]
    at.button(key="back_to_lesson").click().run()  # the way back to the step
    assert not at.exception, at.exception
    at.session_state["model_path"] = ""  # the lesson's own model again (the link chose SmolLM2 for Explore)
    at.run()
    assert title(at) == i18n.t("lesson.predict_word.title")  # both answers kept: the step stays revealed
    at.button(key="lesson_write_prompt").click().run()
    assert not at.exception, at.exception
    assert at.session_state["wr_prompt"] == "The black cat drank the"
    assert (at.session_state["wr_layer"], at.session_state["wr_head"]) == (layer, head)
    at.session_state["wr_prompt"] = ""
    at.switch_page("views/lesson.py")
    at.run()
    at.button(key="lesson_link_predict_word").click().run()  # the step's full page is Write, on the same prompt
    assert not at.exception, at.exception
    assert at.session_state["wr_prompt"] == "The black cat drank the"


@pytest.mark.parametrize("lang", list(i18n.LANGUAGES))
def test_a_hosted_server_without_the_expanded_model_says_so(lang, monkeypatch):
    from attention.ui.pages import lesson_lm

    monkeypatch.setattr(lesson_lm.settings, "hosted", lambda: True)
    monkeypatch.setattr(lesson_lm.smollm2, "is_expanded", lambda: False)
    at = opened(lang, lesson_step=STEP)
    assert i18n.t("lesson.predict_word.not_expanded", lang) in text(at) and not at.get("plotly_chart")


@pytest.mark.parametrize("lang", list(i18n.LANGUAGES))
def test_a_blank_sentence_is_said_in_words(lang):
    at = opened(lang, lesson_step=STEP, lesson_text="   ")
    assert i18n.t("text.blank", lang) in text(at)
    assert not at.get("plotly_chart") and not at.error


@pytest.mark.parametrize("lang", list(i18n.LANGUAGES))
def test_heads_that_decide_nothing_are_not_said_to_decide_the_word(lang):
    at = opened(lang, lesson_step=STEP, lesson_text=COUNTING, lesson_answers={})
    reveal(reveal(at, "next_word", "0"), "decider", NONE)
    said = text(at)
    assert i18n.t("lesson.predict_word.decides", lang).split("{floor}")[1] not in said
    assert i18n.t("lesson.predict_word.no_decider", lang).split("{most}")[0] in said
    assert i18n.t("lesson.predict_word.answer_none", lang) in said
    assert i18n.t("lesson.right", lang) in said  # "none clearly" was the model's answer


def test_a_chinese_sentence_is_cut_before_its_last_character_and_said_in_chinese():
    """#46 item 8: no space to cut at, so the last character is held; the options are characters or bytes
    named as bytes (never Latin-1 mojibake such as å or ç); lists use Chinese separators."""
    at = opened("zh", lesson_step=STEP, lesson_answers={}, lesson_text="猫喝了牛奶。", lesson_tr_text="猫喝了牛奶。")
    said = text(at)
    assert "`猫喝了牛`" in said and i18n.t("lesson.predict_word.body_character", "zh").split("：")[0] in said
    notes = said + "".join(c.value for c in at.caption)
    assert i18n.t("write.bytes_note", "zh")[:20] in notes  # what the byte pieces are, said plainly
    first = next(r for r in at.radio if r.key.startswith("lesson_pick_next_word"))
    assert not any(ch in "".join(first.options) for ch in "åäçæèéÃÂ")  # mojibake of UTF-8 bytes read as Latin-1
    reveal(at, "next_word", "0")
    reveal(at, "decider")
    said = text(at)
    assert "；" in said and "; " not in said  # the heads listed with Chinese separators
    chosen = [c.value for c in at.caption if c.value.startswith("你的答案")]
    assert chosen and all("「" in c for c in chosen)  # an answer such as 。 quoted, never "你的答案：。。"


def test_prompt_of_cuts_a_script_without_spaces_before_its_last_character():
    from attention.lesson.predict_word import prompt_of as cut

    def prompt_of(sentence: str):
        p = cut(sentence)
        return p.text, p.held, p.by_character

    assert prompt_of("猫喝了牛奶。") == ("猫喝了牛", "奶。", True)
    assert prompt_of("The cat drank milk.") == ("The cat drank", "milk.", False)
    assert prompt_of("I like 牛奶") == ("I like 牛", "奶", True)
    assert prompt_of("Hello 猫") == ("Hello", "猫", False)
    assert prompt_of("猫") == ("猫", "", False)  # one character: continued whole


@pytest.mark.parametrize("lang", list(i18n.LANGUAGES))
def test_the_deciding_chart_reads_a_chinese_prompt_as_characters(lang, smollm2):
    """#46 item 7: the chart after the reveals labels the prompt's byte pieces as the options do (one
    function, token_text): 猫's three pieces "猫…", "…猫…", "…猫"; candidates read after the prompt; no
    Latin-1 mojibake, no "\ufffd", "·" for no byte (the prompt has no space)."""
    from attention.analysis.token_text import readable_tokens

    at = opened(lang, lesson_step=STEP, lesson_answers={}, lesson_text="猫喝了牛奶。", lesson_tr_text="猫喝了牛奶。")
    first = next(r for r in at.radio if r.key.startswith("lesson_pick_next_word"))
    options = list(first.options)
    reveal(at, "next_word", "0")
    reveal(at, "decider")
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    tok = smollm2.tokenizer
    raw = tok.convert_ids_to_tokens(tok("猫喝了牛", add_special_tokens=False)["input_ids"])
    columns = list(spec["layout"]["xaxis2"]["ticktext"])
    assert columns == readable_tokens(raw) and columns[:3] == ["猫…", "…猫…", "…猫"], columns
    bars = [x.strip() for x in spec["layout"]["yaxis"]["ticktext"]]
    assert sorted(bars) == sorted(options)  # the chart names the candidates as the question did
    for x in (*columns, *bars):
        assert not any(0x80 <= ord(c) <= 0xFF or c in "·\ufffd" for c in x), x
    d = next(iter(v for v in (spec["data"][0].get("customdata") or [])), None)
    assert d is not None and not any(0x80 <= ord(c) <= 0xFF for c in d)  # the hover too
