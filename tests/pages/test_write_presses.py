"""A press whose word cannot be written is said on the Write page, in both languages, with why and a button
that asks for it again; pressed again, the word comes and the message goes (ui/pages/presses.py, issue #55).
AppTest, the real SmolLM2; the failure is made by a step that raises once."""

from __future__ import annotations

import pytest

from attention import i18n
from attention.lm import writer
from attention.ui.state import Keys
from tests.pages.test_write_page import PROMPT, open_write

pytestmark = pytest.mark.model


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_failed_press_is_said_with_why_and_try_again_writes_it(smollm2, monkeypatch, lang):
    at = open_write(lang, ids="", prompt=PROMPT)
    step, failures = writer.Writing.step, []

    def failing_once(self, *args, **kwargs):
        if not failures:
            failures.append(1)
            raise RuntimeError("the model was busy")
        return step(self, *args, **kwargs)

    monkeypatch.setattr(writer.Writing, "step", failing_once)
    at.button(key="wr_next").click().run()
    assert not at.exception
    said = i18n.t("write.press_failed", lang, n=1, why="RuntimeError: the model was busy")
    assert [e.value for e in at.error] == [said]
    assert at.button(key="wr_retry").label == i18n.t("write.retry", lang)
    assert at.session_state[Keys.WR_IDS] == ""  # nothing written, nothing lost
    at.button(key="wr_retry").click().run()
    assert not at.exception and not at.error
    assert at.code[0].value == PROMPT + " the"
