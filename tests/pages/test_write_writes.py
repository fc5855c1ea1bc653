"""Write's "What each head writes" through AppTest, in both languages: the switch opens the grid of every head's
direct share of the word's logit with the check that the parts add up; the head chosen (the head view's) shows
the tokens it pushes up and down and what it read; the link carries the switch, the word, the word set against
it and the head; after "Explain" the cost of switching the head off stands beside what it writes. A word set
against another splits the logit difference, and the page says when no head stands out."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from attention import i18n
from attention.ui.state import Keys
from tests.pages.why_once import why_once

pytestmark = pytest.mark.model
APP = str(Path(__file__).resolve().parents[2] / "app.py")
VIOLIN = "Anna gave the violin to her brother, and her brother gave the violin back to"


_memo: dict = {}


@pytest.fixture(autouse=True)
def quick_why(monkeypatch):
    """The heads' drops are what this page reads: 4 integration steps, and one "Why" per (prompt, word) for
    the file, so the second language reads the first's 270 heads switched off (the numbers do not depend on
    the language; lm/test_why.py checks them)."""
    why_once(monkeypatch, _memo, 4)


def open_write(lang: str, prompt: str, **params) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=600)
    at.switch_page("views/write.py")
    at.query_params.update({"lang": lang, "prompt": prompt, **params})
    return at.run()


def said(at) -> str:
    return "\n".join([*(c.value for c in at.caption), *(m.value for m in at.markdown), *(e.value for e in at.error)])


def link(at) -> dict:
    return {k: v[0] if isinstance(v, list) else v for k, v in at.query_params.items()}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_switch_opens_the_grid_the_check_and_the_chosen_head(smollm2, lang):
    at = open_write(lang, VIOLIN)
    assert not at.exception and not at.error
    at.toggle(key=Keys.WR_WRITES).set_value(True).run()
    assert not at.exception and not at.error
    answer = at.session_state[Keys.WR_WRITES_ANSWER][1]
    assert answer.check <= 1e-4 and answer.token == "Ġher"
    text = said(at)
    assert i18n.t("writes.check_ok", lang, total="", logit="", check="", tol="", what="")[:10] in text
    assert any(c.proto.id.endswith("-" + Keys.WR_WRITES_GRID) for c in at.get("plotly_chart"))
    top = answer.top(1)[0].head  # layer 26: +9.3 of 8.7, far beyond the others: earned
    assert i18n.t("writes.claim", lang, layer=top.layer, head=top.head, token="`·her`", part="", n="", mad="",
                  centre="", o_layer="", o_head="", other="")[:20] in text
    at.session_state[Keys.WR_LAYER], at.session_state[Keys.WR_HEAD] = top.layer, top.head  # as a click on its cell
    at.run()
    assert not at.exception and not at.error
    text = said(at)
    assert i18n.t("writes.head", lang, layer=top.layer, head=top.head, part="+9.316", token="`·her`") in text
    assert "`·her` +9.32" in text  # the first token it pushes up, with its direct contribution
    assert i18n.t("writes.no_cost", lang) in text
    assert any(c.proto.id.endswith("-wr_writes_read") for c in at.get("plotly_chart"))  # what it read
    got = link(at)
    assert got["writes"] == "1" and got["word"] == str(answer.token_id)
    assert (got["layer"], got["head"]) == (str(top.layer), str(top.head))
    at.button(key="wr_why_go").click().run()  # switching every head off: the cost beside the direct part
    assert not at.exception and not at.error
    text = said(at)
    assert i18n.t("writes.cost", lang, change="", part="")[:12] in text
    assert i18n.t("writes.beside", lang)[:12] in text  # the heads side by side, both numbers
    table = next(m.value for m in at.markdown if m.value.startswith("| "))
    assert f"| {i18n.t('writes.head_short', lang, layer=top.layer, head=top.head)} | +9.316 |" in table
    drop = float(at.session_state[Keys.WR_WHY][1].drops[9 * top.layer + top.head])
    assert f"| {f'{-drop:+.3f}'.replace('-', '−')} |" in table


def test_a_link_reopens_the_parts_says_when_no_head_stands_out_and_splits_a_difference(smollm2):
    from attention.analysis import writes_claims
    from attention.lm import head_writes

    prompt = "Once upon a time there was a"  # its largest head part (about +0.33) is no writing of the word
    base = head_writes.writes(smollm2, smollm2.tokenizer(prompt)["input_ids"])
    at = open_write("en", prompt, writes="1", word=str(base.token_id))
    assert not at.exception and not at.error
    answer = at.session_state[Keys.WR_WRITES_ANSWER][1]
    assert answer.vs is None and answer.heads == pytest.approx(base.heads, abs=1e-5)
    flat = answer.heads.reshape(-1)
    assert not writes_claims.writes(flat, int(abs(flat).argmax()))
    text = said(at)
    assert "is not far beyond the others" in text and "Half of the other" not in text
    other = int(base.readout.logits.topk(2).indices[1])  # the second likeliest: among the words offered
    at.selectbox(key=Keys.WR_WRITES_VS).set_value(other).run()
    assert not at.exception and not at.error
    answer = at.session_state[Keys.WR_WRITES_ANSWER][1]
    assert answer.vs == other and answer.check <= 1e-4
    assert answer.heads == pytest.approx(base.difference(base.token_id, other).heads, abs=1e-5)
    assert "logit(" in " ".join(str(c.proto.spec) for c in at.get("plotly_chart"))
    text = said(at)  # every sentence says the difference, the check names it
    assert "rather than" in text and "the model's own logit difference" in text
    assert link(at)["vs"] == str(other)
