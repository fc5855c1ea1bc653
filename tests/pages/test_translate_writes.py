"""Translate's "What each head writes" through AppTest, in both languages: the link opens it at a decoder position
with the head chosen above; the check, the two grids (masked self-attention and cross-attention), the head's
part, lists and rank are the notebook's numbers; another position is carried by the link; an encoder head is
told it writes nothing directly."""

import json
import re
from pathlib import Path

import numpy as np
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
    pattern = re.escape(i18n.t("trwrites.check_ok", lang, total="@", logit="@", check="@", tol="1e-04",
                               what=i18n.t("writes.what_logit", lang))).replace("@", "([0-9.e−+-]+)")
    total, logit, check = re.search(pattern, text).groups()
    assert float(total) == pytest.approx(a.total, abs=1e-3) and float(logit) == pytest.approx(a.logit, abs=1e-3)
    assert float(check) <= 1e-4
    kind = i18n.t("kind.cross", lang)
    part = f"{a.part(1, 3, 'cross'):+.3f}".replace("-", "−")
    assert i18n.t("trwrites.head", lang, kind=kind, layer=1, head=3, part=part, token="`leche`") in text
    rank, size = a.rank(1, 3, kind="cross")
    assert i18n.t("trwrites.rank", lang, token="`leche`", rank=f"{rank:,}", size=f"{size:,}") in text
    assert size == 732 and "Σ" not in text  # the vocabulary named; no unexplained sum sign
    charts = [c.proto.id for c in at.get("plotly_chart")]
    assert any(c.endswith("-tr_writes_decoder") for c in charts) and any(c.endswith("-tr_writes_cross") for c in charts)
    if lang == "zh":  # no chart keeps an English title or axis (the sentence's own words allowed)
        assert not english_left(page_texts(at), set("the black cat drank milk el gato negro bebió la leche".split()))
    assert "▸" in at.selectbox(key=Keys.TR_WRITES_POS).label  # the label says what ▸ joins
    at.selectbox(key=Keys.TR_WRITES_POS).set_value(2).run()  # "gato ▸ negro": another word, carried by the link
    assert not at.exception and not at.error
    assert "`negro`" in said(at) and at.query_params["wpos"] in ("2", ["2"])


def grids(at) -> dict[str, dict]:
    """The two grids' Plotly specs, by kind."""
    return {kind: json.loads(c.proto.spec) for c in at.get("plotly_chart") for kind in ("decoder", "cross")
            if c.proto.id.endswith(f"-tr_writes_{kind}")}


def trace(spec: dict, name: str | None) -> dict | None:
    return next((d for d in spec["data"] if d.get("name") == name), None)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_with_an_encoder_head_above_the_section_follows_the_standout_on_one_scale(lang):
    """The default head above is an encoder head: the section describes the grids' standout (cross-attention,
    layer 1, head 3 for "el"), outlines it in its grid, draws both grids on one scale and hovers in words."""
    at = open_translate(lang)  # no head in the link: the encoder's layer 0, head 0 above
    assert not at.exception and not at.error
    a = attention.head_writes(CAT, model="translator", position=0)
    top = a.top(1)[0]
    assert (a.token, top.head.kind, top.head.layer, top.head.head) == ("el", "cross", 1, 3)
    text = said(at)
    part = f"{top.score:+.3f}".replace("-", "−")
    assert i18n.t("trwrites.head_standout", lang, kind=i18n.t("kind.cross", lang), layer=1, head=3, part=part,
                  token="`el`") in text
    specs = grids(at)
    scale = float(np.max(np.abs(a.heads)))
    for kind, spec in specs.items():
        heat = trace(spec, None)
        assert heat["zmax"] == pytest.approx(scale) and heat["zmin"] == pytest.approx(-scale)  # one shared scale
        assert trace(spec, "key words") is None and trace(spec, "query words")["mode"] == "text"  # no bare dots
        cells = trace(spec, "cells")["text"]
        first = i18n.t("trwrites.hover", lang, layer=0, head=0, kind=i18n.t(f"trwrites.kind_{kind}", lang),
                       token="el", part=f"{a.part(0, 0, kind):+.3f}".replace("-", "−"))
        assert cells[0] == first and "→" not in cells[0]
    assert specs["cross"]["layout"].get("shapes") and not specs["decoder"]["layout"].get("shapes")  # outlined
    assert i18n.t("trwrites.grid_caption", lang, token="`el`", top=f"{scale:.2f}") in text
    if lang == "zh":
        assert "再除以同一个尺度 s" in text and re.search(r"`[^`]+` [+−][0-9.]+、`", text)
        assert not re.search(r"`[^`]+` [+−][0-9.]+, `", text)  # Chinese lists use 、


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_claim_is_said_or_refused_with_the_test_it_failed(lang):
    """"el" (position 0): +7.10 is 2.0× the next head (+3.63) but only 4.0 spreads from the others, short of 5:
    the refusal says so. "." (position 6): said, with its lead and its spreads."""
    text = said(open_translate(lang))
    refused = i18n.t("trwrites.no_claim_spread", lang, token="`el`", part="+7.098", kind=i18n.t("kind.cross", lang),
                     layer=1, head=3, ratio="2.0", n=15, away="4.0", z="5", mad="@", centre="@",
                     other=i18n.t("trwrites.other", lang, layer=1, head=1, kind=i18n.t("trwrites.kind_cross", lang),
                                  part="+3.630"))
    assert re.search(re.escape(refused).replace("@", "[0-9.+−]+"), text)
    text = said(open_translate(lang, wpos="6"))
    assert i18n.t("trwrites.claim", lang, layer=1, head=0, kind=i18n.t("kind.cross", lang), token="`.`",
                  part="+5.612", ratio="1.6", n=15, away="7.5", z="5",
                  other=i18n.t("trwrites.other", lang, layer=1, head=3, kind=i18n.t("trwrites.kind_cross", lang),
                               part="+3.475")) in text


def test_an_encoder_head_is_told_it_writes_nothing_directly():
    at = open_translate("en", kind="encoder", layer="0", head="0")
    assert not at.exception and not at.error
    text = said(at)
    assert i18n.t("trwrites.head_standout", "en", kind="@", layer=0, head=0, part="", token="")[:40] in text
    assert i18n.t("trwrites.check_ok", "en", total="", logit="", check="", tol="", what="")[:10] in text


def test_a_click_on_a_grid_cell_picks_that_head_above(monkeypatch):
    """The grid's click callback: a cell (layer row, head) of the cross-attention grid sets the pickers above to
    that cross-attention head; a click on a layer's name (head −1) changes nothing."""
    from types import SimpleNamespace

    from attention.ui.pages import translate_writes

    ss = {Keys.TR_KIND: "encoder", Keys.TR_LAYER: 0, Keys.TR_HEAD: 0,
          translate_writes.grid_key("cross"): {"selection": {"points": [{"customdata": [1, 2]}]}}}
    monkeypatch.setattr(translate_writes, "st", SimpleNamespace(session_state=ss))
    translate_writes._on_grid("cross", 2, 4)
    assert (ss[Keys.TR_KIND], ss[Keys.TR_LAYER], ss[Keys.TR_HEAD]) == ("cross", 1, 2)
    ss[translate_writes.grid_key("decoder")] = {"selection": {"points": [{"customdata": [0, -1]}]}}
    translate_writes._on_grid("decoder", 2, 4)
    assert (ss[Keys.TR_KIND], ss[Keys.TR_LAYER], ss[Keys.TR_HEAD]) == ("cross", 1, 2)
