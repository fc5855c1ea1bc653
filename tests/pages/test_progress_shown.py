"""Waits with a sign of progress (issue 52): Forget's words, a head picked on the atlas and Explore's layers
each move a progress bar with words saying what is being done (the bar itself is removed when done, so its
calls are recorded here)."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from attention import i18n
from attention.ui import progress
from attention.ui.state import Keys

pytestmark = pytest.mark.model
APP = str(Path(__file__).resolve().parents[2] / "app.py")


@pytest.fixture
def said(monkeypatch) -> list[tuple[float, str]]:
    calls: list[tuple[float, str]] = []
    shown = progress.Bar.__call__

    def record(self, share: float, text: str) -> None:
        calls.append((share, text))
        shown(self, share, text)

    monkeypatch.setattr(progress.Bar, "__call__", record)
    return calls


def test_forget_counts_its_words(said, smollm2):
    at = AppTest.from_file(APP, default_timeout=300)
    at.switch_page("views/forget.py")
    at.query_params.update({"lang": "zh", "prompt": "Once upon a time a small cat lived by the sea", "budget": "8",
                            "words": "0"})
    at.run()
    at.button(key="fg_six").click().run()
    assert not at.exception
    words = [text for _, text in said if text.startswith(i18n.t("fg.progress", "zh").split("{")[0])]
    assert words[-1] == i18n.t("fg.progress", "zh", done=18, total=18)  # 6 words × 3 runs


def test_a_head_picked_on_the_atlas_names_its_stages(said, smollm2):
    at = AppTest.from_file(APP, default_timeout=300)
    at.switch_page("views/overview.py")
    at.query_params["lang"] = "en"
    at.run()
    at.radio(key=Keys.OV_ATLAS_CORPUS).set_value("own")
    at.toggle(key=Keys.OV_ATLAS).set_value(True).run()
    at.text_area(key=Keys.OV_ATLAS_TEXT).set_value("The cat sat on the mat. The cat sat on the mat again.").run()
    stages = [text for _, text in said if text.startswith("Head ")]
    assert [s.split(": ")[1] for s in stages] == [i18n.t(f"atlas.stage.{s}", "en") for s in ("probe", "examples", "map")]


def test_explore_counts_the_layers_it_reads(said):
    at = AppTest.from_file(APP, default_timeout=300)
    at.switch_page("views/explore.py")
    at.session_state[Keys.TEXT] = "A sentence no other test reads, about seven quiet owls."
    at.run()
    assert not at.exception
    layers = [text for _, text in said if text.startswith("Reading the text")]
    assert i18n.t("explore.layers_read", "en", done=6, total=6, passes=1) in layers
