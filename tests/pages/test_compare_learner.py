"""Change one word, read as a learner reads it (issue 46, cosmetic), in both languages: the aligned
sentences print no markdown backslash, the grid's row words fit their margin, and no empty progress
stripe is left above the patching results."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

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
