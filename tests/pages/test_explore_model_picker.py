"""Explore's own model picker (issue 52): SmolLM2 is one choice away on the page (not only by typing its name
into the sidebar), in both languages and on a hosted demo, and the sidebar's model follows the choice."""

import pytest
from streamlit.testing.v1 import AppTest

from attention import i18n
from attention.ui.pages.explore_model import PICKER
from attention.ui.state import Keys
from tests.pages.explore_app import APP, TIMEOUT

pytestmark = pytest.mark.model


@pytest.mark.parametrize(("lang", "hosted"), [("en", False), ("zh", True)])
def test_explore_offers_smollm2_on_the_page(lang, hosted, monkeypatch, smollm2):
    if hosted:
        monkeypatch.setenv("ATTENTION_HOSTED", "1")
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.switch_page("views/explore.py")
    at.query_params["lang"] = lang
    at.session_state[Keys.TEXT] = "The cat sat on the mat."
    at.run()
    box = at.selectbox(key=PICKER)
    assert box.label == i18n.t("explore.model", lang) and box.options == ["all-MiniLM-L6-v2", "SmolLM2-135M-Instruct"]
    assert box.value == "minilm"
    box.set_value("smollm2").run()
    assert not at.exception and at.session_state[Keys.MODEL_PATH] == "smollm2"
    assert any("SmolLM2" in c.value for c in at.caption)  # the trace is SmolLM2's
    at.selectbox(key=PICKER).set_value("minilm").run()
    assert at.session_state[Keys.MODEL_PATH] == ""
