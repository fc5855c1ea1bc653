"""What the pages say about how a model was captured and what they cannot show, in both languages:
a family whose S and Z cannot be read (DeBERTa's disentangled attention), a family loaded through the
fallback (Falcon), and a trace missing a site."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attention import i18n
from attention.capture import hf_model
from attention.ui.lang import site_notes, trace_notes, trace_problems
from harness import tiny_families as families
from tests.pages.head_views import head_views

pytestmark = pytest.mark.model  # every test here reads a model (tests/lanes.py)

APP = str(Path(__file__).resolve().parents[2] / "app.py")


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    tok, built = families.tokenizer(), {}

    def build(name: str) -> str:
        if name not in built:
            built[name] = tmp_path_factory.mktemp(name)
            families.build(name, tok, built[name])
        return str(built[name])

    return build


def explore(model_folder: str, lang: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["lang"] = lang
    at.run()
    at.sidebar.text_input(key="model_path").set_value(model_folder).run()
    assert not at.exception
    return at


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_family_that_cannot_be_captured_fully_shows_its_reason(lang, folder):
    at = explore(folder("deberta-v2"), lang)
    warnings = "\n".join(w.value for w in at.warning)
    assert i18n.t("missing_qkv.title", lang) in warnings
    assert i18n.t("missing_qkv.disentangled", lang) in warnings
    captions = [c.value for c in at.caption]
    assert i18n.t("capture.weights", lang) in captions and i18n.t("fallback.bypasses_registry", lang) in captions
    assert i18n.t("missing_qkv.explain", lang) in [i.value for i in at.info]  # the explanations say so too
    assert not head_views(at)  # no S or Z drawn: A alone, from the model
    assert len(at.get("plotly_chart")) == 1


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_family_loaded_through_the_fallback_names_its_path(lang, folder):
    at = explore(folder("falcon"), lang)
    captions = [c.value for c in at.caption]
    assert i18n.t("capture.recomputed", lang) in captions and i18n.t("fallback.rejects_name", lang) in captions
    assert not at.warning and not at.error
    assert len(head_views(at)) == 1  # S, A, Z recomputed and checked: the head view draws them


def test_a_missing_site_is_said_in_both_languages(folder):
    tr = hf_model.trace_batch(hf_model.read_model(folder("bert")), ["the black cat"])[0]
    assert trace_problems(tr, "en") == []
    cut = dataclasses.replace(tr, sites=tr.sites[:1])
    en, zh = trace_problems(cut, "en"), trace_problems(cut, "zh")
    kind_en, kind_zh = i18n.t("kind.encoder", "en"), i18n.t("kind.encoder", "zh")
    assert en == [i18n.t("problem.missing", "en", kind=kind_en, layers="1")]
    assert zh == [i18n.t("problem.missing", "zh", kind=kind_zh, layers="1")] and en != zh
    assert not cut.faithful


def test_site_notes_give_the_sink_share(folder):
    tr = hf_model.trace_batch(hf_model.read_model(folder("gpt-oss")), ["the black cat"])[0]
    site = tr.sites[0]
    share = site.sink_share[0]
    note = site_notes(site, 0, "en")
    assert note == [i18n.t("sink.note", "en", share=f"{float(share.mean()):.1%}", most=f"{float(share.max()):.1%}")]
    assert np.all(share > 0) and trace_notes(tr, language="en") == [i18n.t("capture.registry", "en")]


def test_every_typed_reason_has_words_in_both_languages():
    from attention.trace import FALLBACKS, MISSING_QKV, SITE_PROBLEMS

    keys = [f"missing_qkv.{m}" for m in MISSING_QKV] + [f"fallback.{f}" for f in FALLBACKS] + [
        f"problem.{p}" for p in SITE_PROBLEMS]
    for key in keys:
        assert key in i18n.STRINGS and set(i18n.STRINGS[key]) == {"en", "zh"}, key


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_site_that_was_not_captured_is_an_error_on_the_page(lang, folder, monkeypatch):
    real = hf_model.sites_for
    monkeypatch.setattr(hf_model, "sites_for", lambda *args: real(*args)[1:])  # layer 0 goes missing
    at = explore(folder("bert"), lang)
    kind = i18n.t("kind.encoder", lang)
    assert [e.value for e in at.error] == [i18n.t("problem.missing", lang, kind=kind, layers="0")]


@pytest.mark.parametrize(("name", "reason", "layers"), [("squeezebert", "refused_negative", "0, 1"),
                                                         ("fnet", "no_attention", "")])
def test_a_model_with_nothing_to_draw_says_why_and_draws_nothing(name, reason, layers, folder, tmp_path):
    """SqueezeBERT's "attentions" are scores before the softmax (every site refused); FNet has no attention."""
    if name == "fnet":
        families.build_small("fnet", tmp_path)
    for lang in ("en", "zh"):
        at = explore(folder(name) if name != "fnet" else str(tmp_path), lang)
        kind = i18n.t("kind.encoder", lang)
        assert [e.value for e in at.error] == [i18n.t(f"problem.{reason}", lang, kind=kind, layers=layers)]
        assert not at.get("plotly_chart") and not head_views(at)
