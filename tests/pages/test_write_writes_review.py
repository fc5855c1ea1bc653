"""Write's "What each head writes", after the learners' review, through AppTest: the "rather than" box shows a
label in the new language after a language switch (it once drew an empty box); a chosen head's lists say the
studied word's own rank among that head's pushes, exactly; the head chosen at first is the grid's standout
head, unless the link carries a head."""

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attention import i18n
from attention.ui.state import Keys

pytestmark = pytest.mark.model
APP = str(Path(__file__).resolve().parents[2] / "app.py")
VIOLIN = "Anna gave the violin to her brother, and her brother gave the violin back to"
ONCE = "Once upon a time there was a"


def open_write(lang: str, prompt: str, **params) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=600)
    at.switch_page("views/write.py")
    at.query_params.update({"lang": lang, "prompt": prompt, "writes": "1", **params})
    return at.run()


def said(at) -> str:
    return "\n".join([*(c.value for c in at.caption), *(m.value for m in at.markdown)])


def shown(at, key: str) -> str | None:
    """What a select box shows: the label the script set, or its default option's; None: drawn empty."""
    p = at.selectbox(key=key).proto
    if p.set_value:
        return p.raw_value if p.HasField("raw_value") and p.raw_value in p.options else None
    return p.options[p.default] if p.HasField("default") else None


def test_the_rather_than_box_keeps_a_visible_label_when_the_language_changes(smollm2):
    at = open_write("en", ONCE)
    assert not at.exception and not at.error
    answer = at.session_state[Keys.WR_WRITES_ANSWER][1]
    other = int(answer.readout.logits.topk(2).indices[1])
    at.selectbox(key=Keys.WR_WRITES_VS).set_value(other).run()  # the box used: a word set against
    label = shown(at, Keys.WR_WRITES_VS)
    assert at.session_state[Keys.WR_WRITES_ANSWER][1].vs == other and label and label.startswith("·")
    # the word is kept across a switch: the browser sends the box's label with the new language
    at.selectbox(key=Keys.WR_WRITES_VS).set_value(label)
    at.radio(key=Keys.LANG).set_value("zh").run()
    assert not at.exception and shown(at, Keys.WR_WRITES_VS) == label
    assert at.session_state[Keys.WR_WRITES_ANSWER][1].vs == other
    # back to "its logit alone" in Chinese, then to English: the browser sends the Chinese label, which the
    # English options do not have; the box is reset to "none" and says so in English (it was drawn empty)
    none_zh = i18n.t("writes.vs_none", "zh")
    at.selectbox(key=Keys.WR_WRITES_VS).set_value(none_zh).run()
    assert shown(at, Keys.WR_WRITES_VS) == none_zh and at.session_state[Keys.WR_WRITES_ANSWER][1].vs is None
    at.selectbox(key=Keys.WR_WRITES_VS).set_value(none_zh)
    at.radio(key=Keys.LANG).set_value("en").run()
    assert not at.exception and not at.error
    assert shown(at, Keys.WR_WRITES_VS) == i18n.t("writes.vs_none", "en")
    assert at.session_state[Keys.WR_WRITES_ANSWER][1].vs is None


def exact_rank(answer, layer: int, head: int) -> int:
    """Where the word stands among the head's pushes, counted here by sorting every token's value."""
    values = answer.readout.read(answer.vectors.heads[answer.layers.index(layer), head]).numpy()
    order = np.argsort(-values, kind="stable")
    return int(np.nonzero(values[order] == values[answer.token_id])[0][0]) + 1


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_standout_head_is_chosen_first_and_its_lists_give_the_words_exact_rank(smollm2, lang):
    at = open_write(lang, VIOLIN)  # no head in the link
    assert not at.exception and not at.error
    answer = at.session_state[Keys.WR_WRITES_ANSWER][1]
    top = answer.top(1)[0].head  # layer 26: +9.3 of a logit of 8.7
    assert (at.session_state[Keys.WR_LAYER], at.session_state[Keys.WR_HEAD]) == (top.layer, top.head)
    text = said(at)
    assert i18n.t("writes.head", lang, layer=top.layer, head=top.head, part="+9.316", token="`·her`") in text
    assert i18n.t("writes.rank", lang, token="`·her`", rank="1", size="49,152") in text
    got = {k: v[0] if isinstance(v, list) else v for k, v in at.query_params.items()}
    assert (got["layer"], got["head"]) == (str(top.layer), str(top.head))  # the link carries it
    at.session_state[Keys.WR_LAYER], at.session_state[Keys.WR_HEAD] = 18, 6  # another head chosen: it stays
    at.run()
    rank = exact_rank(at.session_state[Keys.WR_WRITES_ANSWER][1], 18, 6)
    assert rank > 1 and (at.session_state[Keys.WR_LAYER], at.session_state[Keys.WR_HEAD]) == (18, 6)
    assert i18n.t("writes.rank", lang, token="`·her`", rank=f"{rank:,}", size="49,152") in said(at)


def test_a_head_the_link_carries_is_kept(smollm2):
    at = open_write("en", VIOLIN, layer="18", head="6")
    assert not at.exception and not at.error
    assert (at.session_state[Keys.WR_LAYER], at.session_state[Keys.WR_HEAD]) == (18, 6)
    assert i18n.t("writes.head", "en", layer=18, head=6, part="", token="")[:18] in said(at)
    rank = exact_rank(at.session_state[Keys.WR_WRITES_ANSWER][1], 18, 6)  # and its lists say where ·her stands
    assert i18n.t("writes.rank", "en", token="`·her`", rank=f"{rank:,}", size="49,152") in said(at)
