"""The Translate page through AppTest: three kinds of attention, masked decoder, unknown words."""

import json
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attention import i18n
from tests.pages.clicks import click_head_view
from tests.pages.head_views import head_views, panel_table, panel_texts

pytestmark = pytest.mark.model  # every test here reads a model (tests/lanes.py)

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def open_translate(lang: str = "en") -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.switch_page("views/translate.py")
    at.query_params["lang"] = lang
    return at.run()


def specs(at: AppTest) -> list[dict]:
    return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]


def weights_matrix(spec: dict) -> np.ndarray:
    z = spec["data"][0]["z"]
    if isinstance(z, dict):  # a typed array
        import base64

        arr = np.frombuffer(base64.b64decode(z["bdata"]), dtype=z["dtype"])
        return arr.reshape([int(d) for d in str(z["shape"]).split(",")])
    return np.array(z, dtype=float)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_translates_the_example_and_draws_each_kind(lang):
    at = open_translate(lang)
    assert not at.exception
    assert at.code[0].value == "el gato negro bebió la leche ."
    for kind in ("encoder", "decoder", "cross"):
        at.radio(key="tr_kind").set_value(kind).run()
        assert not at.exception
        view = head_views(at)[0]
        a = view["numbers"]["A"]
        if kind == "decoder":  # the future is sent masked, never as zeros
            upper = np.triu(np.ones(a.shape, dtype=bool), k=1)
            assert view["numbers"]["masked"][upper].all() and not view["numbers"]["masked"][~upper].any()
            assert np.isnan(a[upper]).all()
        if kind == "cross":
            assert view["query_tokens"][1] == "el ▸ gato"  # the word fed in ▸ the word produced
            assert view["labels"]["A"] == i18n.t("headview.A", lang)


def test_cross_attention_selection_names_the_english_word():
    from attention.translator import translate

    tr = translate("The black cat drank the milk.").trace
    # the cross head that looks hardest from "leche" (row 5) to "milk" (column 5)
    layer, head = max(((s.layer, h) for s in tr.sites if s.kind == "cross" for h in range(s.n_heads)),
                      key=lambda lh: tr.site(lh[0], "cross").weights[lh[1], 5, 5])
    at = open_translate()
    at.radio(key="tr_kind").set_value("cross").run()
    at.selectbox(key="tr_layer").set_value(layer).run()
    at.selectbox(key="tr_head").set_value(head).run()
    assert not any(t.startswith("**Query word:**") for t in panel_texts(at))  # nothing selected yet
    click_head_view(at, "translate-head", 5, -1)  # the row word "la ▸ leche", through the view's callback
    assert not at.exception
    assert (at.session_state["sel_tr_q"], at.session_state["sel_tr_k"]) == (5, None)
    assert "**Query word:** `la ▸ leche` (position 5)" in panel_texts(at)
    site = tr.site(layer, "cross")  # the row's weights by hand: softmax(q·k/√d_k), no mask
    q, k = site.q[head].astype(np.float64), site.k[head].astype(np.float64)
    row = k @ q[5] / np.sqrt(q.shape[-1])
    weights = np.exp(row - row.max()) / np.exp(row - row.max()).sum()
    _, top = panel_table(at)
    assert top[0][0] == "milk" == site.key_tokens[int(weights.argmax())]  # the strongest English word
    assert float(top[0][2]) == pytest.approx(round(float(weights.max()), 4), abs=1e-4)


def test_unknown_words_are_listed_and_the_page_recovers():
    at = open_translate()
    at.text_input(key="tr_text").set_value("The zorblax drank the milk.").run()
    assert not at.exception
    assert any("zorblax" in w.value for w in at.warning)
    at.text_input(key="tr_text").set_value("   ").run()
    assert not at.exception and at.info
    at.text_input(key="tr_text").set_value("The ball is blue.").run()
    assert at.code[0].value == "la bola es azul ."


def test_where_q_k_v_come_from_in_the_translator():
    at = open_translate()
    at.radio(key="tr_kind").set_value("encoder").run()
    click_head_view(at, "translate-head", 5, -1)  # "milk"
    at.radio(key="tr_tab").set_value("origin").run()
    assert not at.exception
    charts = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    qkv = [c for c in charts if any(t.get("name") == "x·W + b" for t in c["data"])]
    assert len(qkv) == 1  # the projection chart, drawn because x·W + b matched the model's q, k, v


def test_every_head_at_once_opens_the_overview_on_the_translator_and_kind():
    at = open_translate()
    at.radio(key="tr_kind").set_value("cross").run()
    at.button(key="to_overview_translator").click().run()
    assert not at.exception
    assert at.radio(key="overview_source").value == "translator"
    assert at.selectbox(key="overview_kind").value == "cross"
    assert at.text_input(key="tr_text").value == at.session_state["tr_text"]


def test_notes_on_the_trace_are_said_in_the_chosen_language():
    at = open_translate("zh")
    captions = [c.value for c in at.caption]
    assert i18n.t("capture.recorder", "zh") in captions
    long = " ".join(["the cat drank the milk ."] * 12)  # 72 words: the translator reads its first 64
    at.text_input(key="tr_text").set_value("zorblax " + long).run()
    assert not at.exception
    captions = [c.value for c in at.caption]
    assert i18n.t("explore.truncated", "zh", max=64, dropped=9) in captions
    assert any(i18n.t("translate.unknown", "zh", words="zorblax") in w.value for w in at.warning)
    assert not any("zorblax" in c for c in captions)  # the unknown words are warned of once, not repeated
    assert not any("dropped" in c or "vocabulary" in c for c in captions)  # no English left in the notes


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_guess_is_said_to_be_one(lang):
    """Out of the grammar: the notice, each word's probability, low ones marked; the comma is left
    out and never named as an unknown word."""
    at = open_translate(lang)
    assert not at.warning  # the running example: in distribution, nothing to warn of
    at.text_input(key="tr_text").set_value("My grandmother bakes bread, every Sunday.").run()
    assert not at.exception
    warning = " ".join(w.value for w in at.warning)
    assert i18n.t("translate.outside", lang) in warning and i18n.t("translate.off_pattern", lang) in warning
    assert i18n.t("translate.unknown", lang, words="bakes, every, sunday") in warning  # the comma is no word
    assert i18n.t("translate.skipped", lang, marks=",") in [c.value for c in at.caption]
    probs = [m.value for m in at.markdown if m.value.startswith(i18n.t("translate.probs", lang))]
    assert len(probs) == 1 and "⚠" in probs[0]
    at.text_input(key="tr_text").set_value("The dogs did not sleep").run()  # no period: still a pattern
    assert not at.warning
