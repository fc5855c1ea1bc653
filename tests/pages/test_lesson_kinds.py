"""The Lesson on a model folder of every kind (harness.tiny_families.SOURCE_KINDS): every step opens;
a model without an encoder is followed in its decoder's masked self-attention; a step a weights-only
model cannot show says so in words and offers the default model."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from attention import i18n
from attention.capture.hf_model import DEFAULT_MODEL_NAME
from attention.lesson.story import N_STEPS
from harness.tiny_families import SOURCE_KINDS
from tests.pages.page_text import page_text

APP = str(Path(__file__).resolve().parents[2] / "app.py")
MODEL_STEPS = range(7)  # the steps on the model's own sentence (8–10 are the translator's, 11 SmolLM2's)


def lesson(folder: str, lang: str = "en", step: int = 0) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=240)
    at.query_params["lang"] = lang
    at.query_params["model"] = folder
    at.query_params["step"] = str(step)
    at.switch_page("views/lesson.py")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.mark.model
@pytest.mark.parametrize("kind", list(SOURCE_KINDS))
def test_every_step_opens_on_every_kind_of_model(kind, tiny_folders):
    folder = tiny_folders(kind)
    name = Path(folder).name
    at = lesson(folder)
    for i in range(N_STEPS):
        assert at.session_state["lesson_step"] == i
        assert not at.error, (i, [e.value for e in at.error])
        assert at.subheader, i  # the step's title, or the title saying it cannot be shown here
        if i in MODEL_STEPS:
            assert name in page_text(at), (i, "the step does not name the model it shows")
        if i < N_STEPS - 1:
            at.button(key="lesson_next_bottom").click().run()
            assert not at.exception, (i, [e.value for e in at.exception])
    assert at.get("download_button"), "the summary holds what this model can show"


@pytest.mark.model
def test_a_model_without_an_encoder_is_followed_in_its_decoder(tiny_folders):
    folder = tiny_folders("decoder-only")
    at = lesson(folder, step=2)  # the factor matrix
    said = page_text(at)
    assert i18n.t("lesson.kind.decoder", model=Path(folder).name) in said
    assert i18n.t("kind.decoder") in said  # the head caption names the kind of attention shown
    at.button(key="lesson_link_factor").click().run()  # its full page shows the same attention
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state["kind"] == "decoder"


@pytest.mark.model
@pytest.mark.parametrize("lang", list(i18n.LANGUAGES))
def test_a_step_a_weights_only_model_cannot_show_says_so_and_offers_the_default_model(lang, tiny_folders):
    folder = tiny_folders("weights-only")
    name = Path(folder).name
    at = lesson(folder, lang, step=3)  # the dot product: q and k, which DeBERTa does not hand over
    assert at.subheader[0].value == i18n.t("lesson.kind.blocked_title", lang, i=4, model=name)
    assert i18n.t("lesson.kind.no_qkv", lang, model=name) in page_text(at)
    assert not at.get("plotly_chart") and not at.error
    at.button(key="lesson_default_model").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.session_state["model_path"]
    assert at.subheader[0].value == i18n.t("lesson.dot.title", lang)  # the step itself, on the default model
    assert DEFAULT_MODEL_NAME in page_text(at)
