"""The lesson's last step as data, on made-up numbers (no model): the prompt cut before the last word, the
two predictions and their answers, and the sentences the numbers earn — "these heads decide the word"
only for drops ≥ 0.1 nats that are not tied, a head "reads" a word only clearly above 1/n, ρ only where
claims.correlation gives one. Both languages."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest

from attention import i18n
from attention.analysis import deciding_heads as dh
from attention.params.selection import Selection
from attention.keys import Keys
from attention.lesson import predict_word as pw
from attention.lesson.steps import Context, Unavailable

TOKENS = ("The", "Ġblack", "Ġcat", "Ġdrank", "Ġthe")
TOP = tuple(f"Ġw{i}" for i in range(9, -1, -1))  # likeliest first, "Ġw9" … "Ġw0": sorted text puts it last


@dataclass(frozen=True)
class Fake:
    """What the step reads of attention.lm.deciding.Deciding, with chosen numbers."""

    drops: np.ndarray
    rows_by_rank: tuple[np.ndarray, ...]
    estimates: np.ndarray = field(default_factory=lambda: np.linspace(1.0, 0.1, 6))
    tokens: tuple[str, ...] = TOKENS
    top_tokens: tuple[str, ...] = TOP
    top_probs: np.ndarray = field(default_factory=lambda: np.linspace(0.3, 0.01, 10))
    log_p: float = float(np.log(0.3))

    @property
    def picked(self) -> np.ndarray:
        return np.arange(len(self.drops))

    @property
    def heads(self) -> tuple:
        return tuple(("decoder", i, i % 3) for i in range(len(self.drops)))

    @property
    def shown(self) -> list:
        return dh.confirmed(self.heads, self.picked, self.drops)[: dh.SHOWN]

    @property
    def rows(self) -> dict:
        return {h: r for (h, _), r in zip(self.shown, self.rows_by_rank, strict=False)}


READS_CAT = np.array([0.1, 0.05, 0.7, 0.1, 0.05])  # clearly above 1/5 at "cat" (2)
EVEN = np.full(5, 0.2)  # reads nothing clearly


def step(fake: Fake, lang: str = "en", text: str = "The black cat drank the milk"):
    asked = []
    c = Context(lang, text, None, 0, 0, Selection(), 0, lambda *a: None,
                deciding=lambda p: (asked.append(p), fake)[1], writer="the-writer")
    return pw.predict_word(c), asked


def said(s) -> str:
    return "\n".join((*s.text, *s.notes, s.prediction.explain, *(p.explain for p in s.more)))


def test_the_prompt_is_the_sentence_cut_before_its_last_word():
    assert pw.prompt_of("The black cat drank the milk.") == pw.Prompt("The black cat drank the", "milk.", 0)
    assert pw.prompt_of("  Hello  ") == pw.Prompt("Hello", "", 0)  # one word: continued whole
    assert pw.prompt_of("") == pw.Prompt("", "", 0)
    long = pw.prompt_of(" ".join(str(i) for i in range(100)), max_words=10)
    assert long == pw.Prompt("89 90 91 92 93 94 95 96 97 98", "99", 89)


@pytest.mark.parametrize("lang", list(i18n.LANGUAGES))
def test_heads_that_decide_are_said_with_their_drop_and_the_word_they_read(lang):
    fake = Fake(np.array([0.6, 0.3, 0.05, 0.02, 0.01, 0.0]), (READS_CAT, EVEN, EVEN))
    s, asked = step(fake, lang)
    assert asked == ["The black cat drank the"]
    first, second = s.prediction, s.more[0]
    assert first.answer == "0" and first.options[-1] == "0"  # the choices do not start with the answer
    assert set(first.labels.values()) == {f"·w{i}" for i in range(10)}  # readable: no "Ġ"
    assert second.answer == "2" and "0" not in second.options and pw.NONE in second.options
    text = said(s)
    lead, other = (i18n.t("lesson.predict_word.head", lang, layer=h[1], head=h[2]) for h in fake.heads[:2])
    decides = i18n.t("lesson.predict_word.decides", lang, heads=lead + i18n.t("lesson.and", lang) + other,
                     floor=dh.DECIDES)
    assert decides in text
    assert i18n.t("lesson.predict_word.reads", lang, name=lead, words="`·cat` (0.70)", n_keys=5, even="0.200") in text
    assert i18n.t("lesson.predict_word.reads_none", lang, name=other, n_keys=5, even="0.200") in text
    rho = dh.estimate_agreement(fake.estimates, fake.drops).rho
    assert i18n.t("lesson.predict_word.agree", lang, rho=f"{rho:+.2f}", n=6) in text
    assert s.link == ("write", {Keys.WR_PROMPT: "The black cat drank the", Keys.WR_IDS: "", Keys.WR_STEP: 0,
                                Keys.WR_LAYER: 0, Keys.WR_HEAD: 0})
    page, view = s.extra["head_link"]
    assert page == "explore" and view[Keys.MODEL_PATH] == "the-writer" and (view[Keys.SEL_Q], view[Keys.SEL_K]) == (4, 2)
    assert s.figure is not None and len(s.figure.data) == 2


@pytest.mark.parametrize("lang", list(i18n.LANGUAGES))
def test_drops_under_a_tenth_of_the_probability_never_say_the_heads_decide(lang):
    fake = Fake(np.array([0.09, 0.05, 0.04, 0.02, 0.01, 0.0]), (READS_CAT, EVEN, EVEN))
    s, _ = step(fake, lang)
    text = said(s)
    claim = i18n.t("lesson.predict_word.decides", lang).split("{heads}")[1][:12]
    assert claim not in text
    assert i18n.t("lesson.predict_word.no_decider", lang, most="0.090", floor=dh.DECIDES) in text
    assert s.more[0].answer == pw.NONE  # the head that reads cat decides nothing: no word singled out
    assert i18n.t("lesson.predict_word.answer_none", lang) in text


@pytest.mark.parametrize("lang", list(i18n.LANGUAGES))
def test_the_query_s_own_position_is_never_an_option_nor_the_answer_and_the_chart_is_not_promised_early(lang):
    own = np.array([0.05, 0.05, 0.1, 0.1, 0.7])  # the leading head reads the last token ("·the", 4) itself
    s, _ = step(Fake(np.array([0.6, 0.3, 0.05, 0.02, 0.01, 0.0]), (own, READS_CAT, EVEN)), lang)
    second = s.more[0]
    assert "4" not in second.options and second.options == ("1", "2", "3", pw.NONE)
    assert second.answer == pw.NONE  # it reads no earlier word: "the" is where its query stands
    assert "`·the` (0.70)" not in said(s)
    assert i18n.t("lesson.predict_word.next_explain_later", lang, w="`·w9`", p="0.300") in s.prediction.explain
    assert i18n.t("lesson.predict_word.next_explain", lang, w="`·w9`", p="0.300") not in s.prediction.explain
    assert "`·the`" in second.question and "`The`" in second.question


def test_tied_drops_and_too_few_heads_say_neither_the_claim_nor_rho():
    fake = Fake(np.full(4, 0.5), (READS_CAT, READS_CAT, READS_CAT), estimates=np.linspace(1, 0.1, 4))
    s, _ = step(fake)
    text = said(s)
    assert "decide the word" not in text and i18n.t("lesson.predict_word.tied", most="0.500") in text
    assert "ρ =" not in text and i18n.t("lesson.predict_word.no_agree") in text
    assert s.more[0].answer == pw.NONE


def test_a_leading_head_that_reads_no_word_clearly_gives_none_and_the_sink_is_named():
    sink = np.array([0.6, 0.1, 0.1, 0.1, 0.1])
    s, _ = step(Fake(np.array([0.6, 0.3, 0.05, 0.02, 0.01, 0.0]), (sink, READS_CAT, EVEN)))
    text = said(s)
    assert s.more[0].answer == pw.NONE
    assert i18n.t("lesson.predict_word.sink", first="`The`", w="0.60") in text
    assert "reads `·cat`" in text  # the second head's reading is still said


def test_the_sentences_own_last_word_is_placed_among_the_ten_only_when_it_is_one():
    s, _ = step(Fake(np.array([0.6, 0.3, 0.05, 0.02, 0.01, 0.0]), (READS_CAT, EVEN, EVEN)), text="The cat w7.")
    assert i18n.t("lesson.predict_word.held_ranked", held="`w7.`", rank=3, p="0.236") in s.prediction.explain
    s, _ = step(Fake(np.array([0.6, 0.3, 0.05, 0.02, 0.01, 0.0]), (READS_CAT, EVEN, EVEN)), text="The cat milk")
    assert i18n.t("lesson.predict_word.held_absent", held="`milk`") in s.prediction.explain


@pytest.mark.parametrize("lang", list(i18n.LANGUAGES))
def test_nothing_to_continue_is_said_not_raised_as_a_traceback(lang):
    with pytest.raises(Unavailable, match=i18n.t("lesson.predict_word.empty", lang)[:10]):
        step(Fake(np.zeros(6), ()), lang, text="   ")
