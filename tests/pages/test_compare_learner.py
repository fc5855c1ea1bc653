"""Change one word, read as a learner reads it (issue 46, cosmetic), in both languages: the aligned
sentences print no markdown backslash, the grid's row words fit their margin, and no empty progress
stripe is left above the patching results."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from attention import i18n
from attention.plots.heatmaps import text_units
from tests.pages.test_compare_page import opened  # noqa: F401 - the page opened from a link

pytestmark = pytest.mark.model


def grid_spec(at: AppTest) -> dict:
    charts = [json.loads(el.proto.spec) for el in at.get("plotly_chart")]
    return next(c for c in charts if any(d.get("type") == "heatmap" for d in c["data"]))


PAIR = {"model": "smollm2", "a": "The doctor said that she was tired", "b": "The nurse said that she was tired"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_aligned_sentences_print_no_markdown_backslash(smollm2, lang):
    at = opened(lang, **PAIR)
    said = [m.value for m in at.markdown if m.value.startswith("**A**")]
    assert len(said) == 1 and "·doctor" in said[0] and "\\·" not in said[0], said


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_grid_rows_words_fit_their_margin(smollm2, lang):
    spec = grid_spec(opened(lang, **PAIR))
    rows = next(d["text"] for d in spec["data"] if d.get("type") == "scatter" and d.get("text")
                and len(d["text"]) == 30)  # SmolLM2's 30 layers, a word beside each row
    widest = max(text_units(r) for r in rows)
    assert 20 + 7 * widest <= spec["layout"]["margin"]["l"], (rows, spec["layout"]["margin"])


def test_no_empty_progress_stripe_is_left_above_the_patching_results():
    at = opened()  # MiniLM's 72 heads: three progress reports
    at.button(key="cmp_patch_button").click().run()
    assert not at.exception
    assert not at.get("progress"), [el.proto for el in at.get("progress")]


ZH_PAIR = {"model": "smollm2", "a": "猫很可爱。", "b": "狗很可爱。"}  # 猫 and 狗: three byte pieces each


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_chinese_on_the_language_model_reads_as_characters_in_the_sentences_and_the_next_token_bars(smollm2, lang):
    """#46 item 7: the same function as Write (token_text) reads every piece: the aligned sentences write
    猫's pieces "猫…", "…猫…", "…猫"; each run's next-token bars read its candidates after its own text,
    never "\ufffd" (one piece decoded alone) nor Latin-1 mojibake, and "·" marks no byte."""
    from attention.analysis.token_text import candidate_labels, readable_tokens

    at = opened(lang, **ZH_PAIR)
    assert not at.error, [e.value for e in at.error]
    said = next(m.value for m in at.markdown if m.value.startswith("**A**"))
    assert "猫…" in said and "…猫" in said and "狗…" in said, said
    assert "·" not in said  # no space in these sentences: no leading-space mark (nor "A ·" before them)
    assert any(i.value == i18n.t("write.bytes_note", lang) for i in at.info)  # what the pieces are, as on Write
    tok = smollm2.tokenizer
    for text, key in ((ZH_PAIR["a"], "cmp_next_A"), (ZH_PAIR["b"], "cmp_next_B")):
        raw = tok.convert_ids_to_tokens(tok(text, add_special_tokens=False)["input_ids"])
        assert "".join(readable_tokens(raw)).replace("…", "").startswith(text[0])
        spec = next(json.loads(c.proto.spec) for c in at.get("plotly_chart") if c.proto.id.endswith(f"-{key}"))
        ticks = [x.strip() for x in spec["layout"]["yaxis"]["ticktext"]]
        assert not any(0x80 <= ord(c) <= 0xFF or c in "·\ufffd" for x in ticks for c in x), ticks
        hovers = spec["data"][0]["customdata"]
        assert not any(0x80 <= ord(c) <= 0xFF or c == "\ufffd" for x in hovers for c in x), hovers
        top = [t for t, _ in tok_top(smollm2, text)]
        assert ticks == candidate_labels(top, raw), (ticks, top)


def tok_top(lm, text: str) -> list[tuple[str, float]]:
    """The five likeliest next tokens after `text`, raw (what the page's chart must label)."""
    import torch

    ids = lm.tokenizer(text, add_special_tokens=False, return_tensors="pt")["input_ids"]
    with torch.inference_mode():
        p = torch.softmax(lm.model(input_ids=ids).logits[0, -1].double(), -1)
    top = torch.topk(p, 5)
    return list(zip(lm.tokenizer.convert_ids_to_tokens(top.indices.tolist()), top.values.tolist(), strict=True))
