"""Back and Forward, as the server sees them: on Streamlit's rerun for a history move (the run's context
says is_history_navigation; set here as the browser's Back sets it) the page shows the view the address
names (state.returned_to); on any other run an address that differs from the session's view is not read
(it can lag a tick behind a fragment's write, as Learning's Play showed). The browser's half (one history
entry per action) is tests/e2e/test_back_browser.py."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from attention.ui import state
from attention.ui.state import Keys

pytestmark = pytest.mark.model  # Explore reads MiniLM (tests/lanes.py)

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def link(at: AppTest) -> dict[str, str]:
    return {k: v[0] if isinstance(v, list) else v for k, v in at.query_params.items()}


def back_to(at: AppTest, params: dict[str, str], monkeypatch) -> None:
    """A run as Streamlit makes it after the browser's Back landed on ?params."""
    at.query_params.clear()
    at.query_params.update(params)
    with monkeypatch.context() as m:
        m.setattr(state, "history_navigation", lambda: True)
        at.run()


def test_back_shows_the_view_the_address_names_and_another_run_does_not_read_it(monkeypatch):
    at = AppTest.from_file(APP, default_timeout=240)
    at.query_params.update({"text": "the cat saw the dog", "layer": "1", "head": "2", "q": "3", "k": "1"})
    at.switch_page(state.PAGES["explore"].path)
    at.run()
    assert not at.exception
    selected = link(at)
    assert (at.session_state[Keys.SEL_Q], at.session_state[Keys.SEL_K]) == (3, 1)

    at.selectbox(key=Keys.LAYER).set_value(4).run()  # a choice made on the page: the address follows it
    assert at.session_state[Keys.LAYER] == 4 and link(at)["layer"] == "4"

    at.query_params.update(selected)  # an address one write behind, on a run that is no history move
    at.run()
    assert at.session_state[Keys.LAYER] == 4 and link(at)["layer"] == "4"

    back_to(at, selected, monkeypatch)  # Back: the address before the change
    assert at.session_state[Keys.LAYER] == 1 and link(at)["layer"] == "1"
    assert (at.session_state[Keys.SEL_Q], at.session_state[Keys.SEL_K]) == (3, 1)

    back_to(at, {k: v for k, v in selected.items() if k not in ("q", "k")}, monkeypatch)  # before the click
    assert (at.session_state[Keys.SEL_Q], at.session_state[Keys.SEL_K]) == (None, None)
    assert "q" not in link(at) and at.session_state[Keys.TEXT] == "the cat saw the dog"
    assert not at.exception


def test_back_to_the_prompt_alone_drops_the_words_written(monkeypatch, smollm2):
    at = AppTest.from_file(APP, default_timeout=240)
    at.query_params.update({"prompt": "The cat sat on the"})
    at.switch_page(state.PAGES["write"].path)
    at.run()
    landing = link(at)  # no word written: the link names no ids
    assert "ids" not in landing
    at.button(key="wr_next").click().run()
    at.button(key="wr_next").click().run()
    assert len(link(at)["ids"].split(",")) == 2
    one_word = {**link(at), "ids": link(at)["ids"].split(",")[0], "step": "1"}
    back_to(at, one_word, monkeypatch)
    assert at.session_state[Keys.WR_STEP] == 1 and link(at)["ids"] == one_word["ids"]
    back_to(at, landing, monkeypatch)  # the address the page was opened with
    assert not at.exception and "ids" not in link(at) and at.session_state[Keys.WR_STEP] == 0
    assert at.code[0].value == "The cat sat on the"  # the text so far: the prompt alone
