"""Every page × one tiny model folder of each kind (encoder-only, decoder-only, encoder–decoder,
weights-only) × both languages, opened by link as a new visitor would: no exception, no error box,
and the page names the model it shows.

The pages come from state.PAGES and the kinds from harness.tiny_families.SOURCE_KINDS: a new page or a
new kind is covered here without editing this file. A page whose link carries `model` reads the folder
(a page that offers both sources is opened on the folder); the others show their built-in source
(PageSpec.shows: the translator, SmolLM2) and must open all the same, naming it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from attention import i18n, sources
from attention.i18n import LANGUAGES
from attention.ui import sentence, state
from harness.tiny_families import SOURCE_KINDS
from tests.pages.page_text import page_text

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def opened_by_link(page: str, folder: str, lang: str) -> AppTest:
    spec = state.PAGES[page]
    at = AppTest.from_file(APP, default_timeout=240)
    at.query_params["lang"] = lang
    at.query_params["model"] = folder  # a page that does not read the folder ignores it
    if "source" in spec.params:
        at.query_params["source"] = sentence.MODEL
    at.switch_page(spec.path)
    return at.run()


def built_in_name(shows: str, lang: str) -> str:
    """How a page names the built-in source it shows: in the page's words where it has some, else the
    source's own label."""
    key = f"shown.{shows}"
    return i18n.t(key, lang) if key in i18n.STRINGS else sources.get(shows).label()


@pytest.mark.model
@pytest.mark.parametrize("lang", list(LANGUAGES))
@pytest.mark.parametrize("kind", list(SOURCE_KINDS))
@pytest.mark.parametrize("page", list(state.PAGES))
def test_every_page_opens_on_every_kind_of_model(page, kind, lang, tiny_folders):
    folder = tiny_folders(kind)
    at = opened_by_link(page, folder, lang)
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    reads_folder = "model" in state.PAGES[page].params
    name = Path(folder).name if reads_folder else built_in_name(state.PAGES[page].shows, lang)
    assert name in page_text(at), f"{page} does not name {name!r}"
