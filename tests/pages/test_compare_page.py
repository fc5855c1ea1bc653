"""Change one word (the Compare page): both languages, each kind of model's output, patching and the
sentence it may write, the links in and out, and bad input. Real models (MiniLM, the translator, SmolLM2)
and a tiny GPT-2 folder built so that one head carries the whole difference."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import numpy as np
import pytest
import torch
from streamlit.testing.v1 import AppTest

from attention import i18n
from attention.ui import state
from tests.pages.page_text import page_text

pytestmark = pytest.mark.model  # every test here reads a model (tests/lanes.py)

APP = str(Path(__file__).resolve().parents[2] / "app.py")
A = "The cat drank the milk because it was thirsty"
B = "The cat drank the milk because it was sour"


def opened(lang: str = "en", **params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=600)
    at.query_params.update({"lang": lang, **params})
    at.switch_page(state.PAGES["compare"].path)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def patched(at: AppTest) -> AppTest:
    at.button(key="cmp_patch_button").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def charts(at: AppTest) -> list[dict]:
    return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]


def chart(at: AppTest, key: str) -> dict:
    return next(json.loads(c.proto.spec) for c in at.get("plotly_chart") if c.proto.id.endswith(f"-{key}"))


def z_of(trace: dict) -> np.ndarray:
    """A heatmap's values as plotly.py sends them (typed: base64 bytes and a shape)."""
    z = trace["z"]
    shape = tuple(int(n) for n in z["shape"].split(","))
    return np.frombuffer(base64.b64decode(z["bdata"]), dtype=np.dtype(z["dtype"])).reshape(shape)


@pytest.fixture(scope="module")
def one_head_folder(tmp_path_factory) -> str:
    """A causal LM of one layer and four heads whose W_O reads head 0 only (random weights, the tiny
    families' tokenizer): heads 1–3 never reach the output, so head 0 carries the whole change."""
    from transformers import GPT2Config, GPT2LMHeadModel

    from harness import tiny_families

    tok = tiny_families.tokenizer()
    folder = tmp_path_factory.mktemp("compare") / "one-head-gpt2"
    torch.manual_seed(0)
    model = GPT2LMHeadModel(GPT2Config(vocab_size=len(tok), n_embd=32, n_layer=1, n_head=4, n_positions=64,
                                       initializer_range=0.3))
    with torch.no_grad():
        model.transformer.h[0].attn.c_proj.weight[8:] = 0.0  # rows 8: are heads 1–3's z (d_head 8)
    model.save_pretrained(folder)
    tok.save_pretrained(folder)
    return str(folder)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_default_pair_shows_alignment_grid_head_and_output_in_both_languages(lang):
    at = opened(lang)
    assert not at.error, [e.value for e in at.error]
    text = page_text(at)
    assert i18n.t("compare.title", lang) in text
    assert i18n.t("compare.aligned_one", lang, shared=10, n_a=11, n_b=11) in text and "place(s)" not in text
    where = at.dataframe[0].value.iloc[0, 2]
    assert where == "9 / 9", where  # one token changed at position 9 (of 0–10) in both
    assert ":red-background[thirsty]" in text and ":green-background[sour]" in text
    assert i18n.t("tokens.marks", lang) not in text  # MiniLM's WordPiece tokens carry no such marks
    grid = z_of(chart(at, "cmp_grid")["data"][0])
    assert grid.shape == (6, 12) and (grid >= 0).all() and grid.max() > 0  # MiniLM: 6 layers × 12 heads
    diff = z_of(chart(at, "cmp_diff")["data"][0])  # A_B − A_A of the head shown: every row sums to 0
    assert np.allclose(np.nansum(diff, axis=1), 0, atol=1e-5) and np.nanmax(np.abs(diff)) > 0
    assert at.metric[0].label == i18n.t("compare.cosine", lang) and 0 < float(at.metric[0].value) < 1
    link = {k: v for k, v in at.query_params.items()}
    assert (link["a"], link["b"], link["model"], link["measure"]) == (A, B, "minilm", "js")
    assert "layer" in link and "head" in link  # the head shown first: the one that changed most


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_minilm_patching_ranks_heads_and_writes_no_carrier_sentence_the_numbers_do_not_show(lang):
    at = patched(opened(lang))
    text = page_text(at)
    rows = at.dataframe[-1].value
    assert len(rows) == 10
    shares = [float(s.rstrip("%")) for s in rows.iloc[:, 2]]
    assert shares == sorted(shares, reverse=True) and shares[0] < 50  # no head restores most of it alone
    top, share = rows.iloc[0, 1], f"{shares[0] / 100:.0%}"
    assert i18n.t("compare.claim.carrier", lang, head=top, share=share) not in text
    second = f"{shares[1] / 100:.0%}"
    assert i18n.t("compare.claim.largest", lang, head=top, share=share, second=second) in text
    if shares[0] + shares[1] <= 100:  # MiniLM's two largest shares stay under the whole change: no overlap said
        assert i18n.t("compare.shares_overlap", lang, first="|", second="", sum="").split("|")[0] not in text
    assert i18n.t("compare.together", lang, share="100.0%") in text  # every head at once: all of it
    full = f"{1 - float(at.metric[0].value):.4f}"  # the page's 1 − cosine over every token, said beside the measure
    assert any(full in m.value and i18n.t("compare.measure_emb", lang, d="|", full="").split("|")[0] in m.value
               for m in at.markdown)
    assert at.query_params["patch"] == "1"


def test_the_carrier_sentence_names_the_one_head_that_carries_the_change(one_head_folder):
    at = patched(opened(model=one_head_folder, a="the cat is", b="the dog is"))
    assert not at.error, [e.value for e in at.error]
    head = i18n.t("compare.head_name", kind=i18n.t("kind.decoder"), layer=0, head=0)
    assert i18n.t("compare.claim.carrier", head=head, share="100%") in page_text(at)
    assert [b.label for b in at.button if b.key == "cmp_patch_0"] == [i18n.t("compare.open_head", n=1, head=head,
                                                                            value="100.0%")]


def test_the_translator_shows_both_translations_and_patches_its_24_heads():
    at = patched(opened(model="translator", a="the black cat drank the milk .", b="the black dog drank the milk ."))
    assert not at.error, [e.value for e in at.error]
    codes = [c.value for c in at.code]
    assert any("gato" in c for c in codes) and any("perro" in c for c in codes)
    assert i18n.t("compare.translation_changed") in page_text(at)
    assert "perro" in page_text(at) and len(at.dataframe[-1].value) == 10


def test_the_language_model_shows_both_next_token_distributions_and_patches():
    at = opened(model="smollm2", a="The cat sat on the", b="The dog sat on the")
    assert not at.error, [e.value for e in at.error]
    titles = [c["layout"]["title"]["text"] for c in charts(at) if c["data"][0]["type"] == "bar"]
    assert titles == [i18n.t("compare.next_title", which="A"), i18n.t("compare.next_title", which="B")]
    at = patched(at)
    assert len(at.dataframe[-1].value) == 10 and "logit difference" in page_text(at)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_causal_model_with_the_change_last_says_nothing_shared_can_see_it_and_ranks_no_head(lang):
    at = opened(lang, model="smollm2", a=A, b=B)  # "thirsty" → "sour", the last token
    assert not at.error, [e.value for e in at.error]
    infos = [i.value for i in at.info]
    assert len(infos) == 1 and i18n.t("compare.unseen", lang, js="JS")[:60] in infos[0]
    head, tail = i18n.t("compare.next_js", lang, js="|").split("|")
    js = [c.value[len(head):-len(tail)] for c in at.caption if c.value.startswith(head) and c.value.endswith(tail)]
    assert len(js) == 1 and 0 < float(js[0]) < 1  # the output row did change: the next token moved
    assert f"{float(js[0]):.3f}" in infos[0]
    assert not any(c["data"][0]["type"] == "heatmap" for c in charts(at))  # no grid of zeros
    assert i18n.t("tokens.marks", lang) in [c.value for c in at.caption]  # SmolLM2's tokens carry "·" and "⏎"
    text = page_text(at)
    for key in ("compare.grid", "compare.patching"):
        assert i18n.t(key, lang) not in text
    assert not [b for b in at.button if b.key in ("cmp_patch_button", "cmp_top_0")]
    at.button(key="cmp_causal_pair").click().run()  # the offered pair: the change early, heads ranked
    assert (at.session_state["cmp_a"], at.session_state["cmp_b"]) == ("The capital of France is",
                                                                      "The capital of Italy is")
    assert not at.info and i18n.t("compare.grid", lang) in page_text(at)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_patching_names_the_likeliest_tokens_the_charts_show(lang):
    a = "The cat drank the milk because it was thirsty"
    at = patched(opened(lang, model="smollm2", a=a, b=a.replace("cat", "dog")))
    assert not at.error, [e.value for e in at.error]
    tops = [c["layout"]["yaxis"]["ticktext"][0].strip() for c in charts(at) if c["data"][0]["type"] == "bar"]
    assert tops == [".", "."]  # both runs put "." first: B's likeliest is not the token the measure follows
    text = page_text(at)
    said = next(m.value for m in at.markdown if "LD = logit(" in m.value)
    head = i18n.t("compare.measure_lm_rose", lang, a="`.`", b="|", p_a="", p_b="", ld_a="", ld_b="").split("|")[0]
    assert said.startswith(head) and "`⏎`" in said, said  # the followed token as the chart would write it
    assert i18n.t("compare.measure_lm", lang, a="`.`", b="`⏎`", ld_a="|", ld_b="").split("|")[0] not in text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_single_head_shares_over_100_percent_together_are_said_not_to_add_up(lang):
    at = patched(opened(lang, model="smollm2", a="The capital of France is", b="The capital of Italy is"))
    rows = at.dataframe[-1].value
    first, second = (float(s.rstrip("%")) for s in rows.iloc[:2, 2])
    assert first + second > 100  # SmolLM2: about 96 % and 24 %
    head = i18n.t("compare.shares_overlap", lang, first=f"{first:.1f}%", second=f"{second:.1f}%", sum="|")
    said = [c.value for c in at.caption if c.value.startswith(head.split("|")[0])]
    assert len(said) == 1 and abs(float(said[0][len(head.split("|")[0]):].split("%")[0]) - first - second) < 0.2


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_identical_sentences_say_every_change_is_exactly_zero(lang):
    at = opened(lang, a=A, b=A)
    assert [i.value for i in at.info] == [i18n.t("compare.identical", lang, max="0", js="0")]
    assert not at.button  # nothing to patch, no head to open


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_refused_alignment_says_why(lang):
    at = opened(lang, a="Hi", b="The cat drank the milk because it was thirsty and the dog barked all night")
    warnings = [w.value for w in at.warning]
    assert len(warnings) == 1 and i18n.t("compare.refused.lengths", lang, n_a=3, n_b=17, shared=2)[:40] in warnings[0]
    assert not charts(at)


def test_an_empty_sentence_b_is_asked_for():
    at = opened(b="  ")
    assert [i.value for i in at.info] == [i18n.t("compare.blank_b")]
    assert not charts(at)


@pytest.mark.parametrize("b", ['<script>alert("x")</script> cat drank 🥛', "黑猫 <b>drank</b> the milk 🐱"])
def test_hostile_text_is_compared_and_never_read_as_markup(b):
    a = b.replace("cat", "dog").replace("黑猫", "白猫")
    at = opened(a=a, b=b)
    assert not at.error, [e.value for e in at.error]
    for md in at.markdown:
        assert "<script>" not in md.value and "<b>" not in md.value
    for chart in charts(at):
        for axis in ("xaxis", "yaxis"):
            assert not any("<" in str(x) for x in chart["layout"].get(axis, {}).get("ticktext", []))


def test_a_top_head_opens_explore_on_that_head_with_sentence_a():
    at = opened()
    first = at.button(key="cmp_top_0")
    layer, head = at.session_state["cmp_layer"], at.session_state["cmp_head"]  # the head shown: the top one
    first.click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state["text"] == A
    assert (at.session_state["kind"], at.session_state["layer"], at.session_state["head"]) == ("encoder", layer, head)
    assert at.title[0].value == i18n.t("explore.title")


def test_change_one_word_on_explore_opens_compare_with_the_text_as_a_and_b():
    at = AppTest.from_file(APP, default_timeout=600)
    at.query_params.update({"text": "The ball is blue"})
    at.run()
    at.button(key="to_compare_explore").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state["cmp_a"] == at.session_state["cmp_b"] == "The ball is blue"
    assert at.title[0].value == i18n.t("compare.title")
    assert [i.value for i in at.info] == [i18n.t("compare.identical", max="0", js="0")]
