"""Change one word, read as a learner reads it (issue 46, cosmetic), in both languages: the aligned
sentences print no markdown backslash, and no empty progress stripe is left above the patching results."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from attention.ui import state

pytestmark = pytest.mark.model

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def opened(lang: str = "en", **params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=600)
    at.query_params.update({"lang": lang, **params})
    at.switch_page(state.PAGES["compare"].path)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


PAIR = {"model": "smollm2", "a": "The doctor said that she was tired", "b": "The nurse said that she was tired"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_aligned_sentences_print_no_markdown_backslash(smollm2, lang):
    at = opened(lang, **PAIR)
    said = [m.value for m in at.markdown if m.value.startswith("**A**")]
    assert len(said) == 1 and "·doctor" in said[0] and "\\·" not in said[0], said


def test_no_empty_progress_stripe_is_left_above_the_patching_results():
    at = opened()  # MiniLM's 72 heads: three progress reports
    at.button(key="cmp_patch_button").click().run()
    assert not at.exception
    assert not at.get("progress"), [el.proto for el in at.get("progress")]
