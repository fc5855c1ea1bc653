"""Translate's "What each head writes" through AppTest, in both languages: the link opens it at a decoder position
with the head chosen above; the check, the two grids (masked self-attention and cross-attention), the head's
part, lists and rank are the notebook's numbers; another position is carried by the link; an encoder head is
told it writes nothing directly."""

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import attention
from attention import i18n
from attention.ui.state import Keys
from tests.pages.figure_words import english_left, page_texts

pytestmark = pytest.mark.model
APP = str(Path(__file__).resolve().parents[2] / "app.py")
CAT = "The black cat drank the milk."


def open_translate(lang: str, **params) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=600)
    at.switch_page("views/translate.py")
    at.query_params.update({"lang": lang, "text": CAT, "writes": "1", **params})
    return at.run()


def said(at) -> str:
    return "\n".join([*(c.value for c in at.caption), *(m.value for m in at.markdown), *(e.value for e in at.error)])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_link_opens_the_parts_at_a_position_for_the_head_chosen_above(lang):
    at = open_translate(lang, wpos="5", kind="cross", layer="1", head="3")
    assert not at.exception and not at.error
    a = attention.head_writes(CAT, model="translator", position=5)  # the notebook's numbers
    assert a.token == "leche" and a.check <= 1e-4
    text = said(at)
    # the check as the page says it (its last digits are float32 rounding, which a thread count can change)
    pattern = re.escape(i18n.t("writes.check_ok", lang, total="@", logit="@", check="@", tol="1e-04",
                               what=i18n.t("writes.what_logit", lang))).replace("@", "([0-9.e−+-]+)")
    total, logit, check = re.search(pattern, text).groups()
    assert float(total) == pytest.approx(a.total, abs=1e-3) and float(logit) == pytest.approx(a.logit, abs=1e-3)
    assert float(check) <= 1e-4
    kind = i18n.t("kind.cross", lang)
    part = f"{a.part(1, 3, 'cross'):+.3f}".replace("-", "−")
    assert i18n.t("trwrites.head", lang, kind=kind, layer=1, head=3, part=part, token="`leche`") in text
    rank, size = a.rank(1, 3, kind="cross")
    assert i18n.t("writes.rank", lang, token="`leche`", rank=f"{rank:,}", size=f"{size:,}") in text
    charts = [c.proto.id for c in at.get("plotly_chart")]
    assert any(c.endswith("-tr_writes_decoder") for c in charts) and any(c.endswith("-tr_writes_cross") for c in charts)
    if lang == "zh":  # no chart keeps an English title or axis (the sentence's own words allowed)
        assert not english_left(page_texts(at), set("the black cat drank milk el gato negro bebió la leche".split()))
    at.selectbox(key=Keys.TR_WRITES_POS).set_value(2).run()  # "gato ▸ negro": another word, carried by the link
    assert not at.exception and not at.error
    assert "`negro`" in said(at) and at.query_params["wpos"] in ("2", ["2"])


def test_an_encoder_head_is_told_it_writes_nothing_directly():
    at = open_translate("en", kind="encoder", layer="0", head="0")
    assert not at.exception and not at.error
    text = said(at)
    assert i18n.t("trwrites.encoder", "en") in text
    assert i18n.t("writes.check_ok", "en", total="", logit="", check="", tol="", what="")[:10] in text
