"""model=smollm2 in a link opens the built-in language model on the pages that read a model (the source
registry), with its byte-level tokens shown as the text they stand for."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from attention import sources
from tests.pages.page_text import page_text

pytestmark = pytest.mark.model
APP = str(Path(__file__).resolve().parents[2] / "app.py")
TEXT = "The black cat drank the milk because it was"


@pytest.mark.parametrize("path", ["views/explore.py", "views/find_heads.py", "views/overview.py"])
def test_a_link_naming_smollm2_opens_it_with_readable_words(path, smollm2):
    at = AppTest.from_file(APP, default_timeout=300)
    at.query_params.update({"model": sources.SMOLLM2, "source": "model", "text": TEXT, "lang": "en"})
    at.switch_page(path)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    text = page_text(at)
    assert sources.get(sources.SMOLLM2).label() in text
    assert "Ġ" not in text  # "Ġblack" is shown as the word it stands for
