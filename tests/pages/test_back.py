"""Back and Forward, as the server sees them: a run on an address this session did not write shows the
view that address names (state.returned_to); a run on the address it wrote keeps what the person just
changed. The browser's half (one history entry per action) is tests/e2e/test_back_browser.py."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from attention.ui import state
from attention.ui.state import Keys

pytestmark = pytest.mark.model  # Explore reads MiniLM (tests/lanes.py)

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def link(at: AppTest) -> dict[str, str]:
    return {k: v[0] if isinstance(v, list) else v for k, v in at.query_params.items()}


def test_an_address_the_session_did_not_write_is_read_and_one_it_wrote_is_not():
    at = AppTest.from_file(APP, default_timeout=240)
    at.query_params.update({"text": "the cat saw the dog", "layer": "1", "head": "2", "q": "3", "k": "1"})
    at.switch_page(state.PAGES["explore"].path)
    at.run()
    assert not at.exception
    selected = link(at)
    assert (at.session_state[Keys.SEL_Q], at.session_state[Keys.SEL_K]) == (3, 1)

    at.selectbox(key=Keys.LAYER).set_value(4).run()  # a choice made on the page: the address follows it
    assert at.session_state[Keys.LAYER] == 4 and link(at)["layer"] == "4"

    at.query_params.clear()
    at.query_params.update(selected)  # Back: the address before the change
    at.run()
    assert at.session_state[Keys.LAYER] == 1 and link(at)["layer"] == "1"
    assert (at.session_state[Keys.SEL_Q], at.session_state[Keys.SEL_K]) == (3, 1)

    at.query_params.clear()
    at.query_params.update({k: v for k, v in selected.items() if k not in ("q", "k")})  # Back before the click
    at.run()
    assert (at.session_state[Keys.SEL_Q], at.session_state[Keys.SEL_K]) == (None, None)
    assert "q" not in link(at) and at.session_state[Keys.TEXT] == "the cat saw the dog"
    assert not at.exception
