"""A click in a fragment the session does not hold is run as the whole page, not dropped (hosting/fragment_rescue):
checked against Streamlit's own AppSession.request_rerun, which drops it, on a stand-in session that records the
run it would start."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from streamlit.proto.ClientState_pb2 import ClientState
from streamlit.runtime.app_session import AppSession, AppSessionState

from attention.ui.hosting import fragment_rescue


def session(holds: set[str]) -> SimpleNamespace:
    """What request_rerun reads of a session with no script running: the runs it would start are recorded."""
    started: list = []
    return SimpleNamespace(_state=AppSessionState.APP_NOT_RUNNING, _client_state=ClientState(), _scriptrunner=None,
                           has_fragment=lambda fid: fid in holds, _create_scriptrunner=started.append, started=started)


def press(fragment_id: str) -> ClientState:
    cs = ClientState(fragment_id=fragment_id, page_script_hash="write", query_string="prompt=a")
    cs.widget_states.widgets.add(id="$$ID-next-wr_next", trigger_value=True)
    return cs


@pytest.fixture
def rescued(monkeypatch):
    streamlits = getattr(AppSession.request_rerun, "__wrapped__", AppSession.request_rerun)  # the app may have run
    monkeypatch.setattr(AppSession, "request_rerun", streamlits)  # undone after the test
    assert fragment_rescue.install() and not fragment_rescue.install()  # once per process
    return AppSession.request_rerun


def test_streamlit_alone_drops_a_click_in_a_fragment_the_session_does_not_hold():
    original = getattr(AppSession.request_rerun, "__wrapped__", AppSession.request_rerun)
    s = session(holds=set())
    original(s, press("f1"))
    assert s.started == []  # the press is gone: what the rescue is for (if Streamlit changes, this says so)


def test_the_rescue_runs_the_whole_page_with_the_same_click(rescued):
    s, cs = session(holds=set()), press("f1")
    rescued(s, cs)
    (run,) = s.started
    assert run.fragment_id is None and run.page_script_hash == "write" and run.query_string == "prompt=a"
    (widget,) = run.widget_states.widgets
    assert widget.id == "$$ID-next-wr_next" and widget.trigger_value
    assert cs.fragment_id == "f1"  # the caller's message is left as it was


def test_a_click_in_a_fragment_the_session_holds_stays_a_fragment_run(rescued):
    s = session(holds={"f1"})
    rescued(s, press("f1"))
    (run,) = s.started
    assert run.fragment_id == "f1"
    s = session(holds=set())
    rescued(s, None)  # a rerun with no client state (a file changed) is untouched
    assert len(s.started) == 1 and s.started[0].fragment_id is None


@pytest.mark.model
def test_the_app_installs_it(monkeypatch):
    from pathlib import Path

    from streamlit.testing.v1 import AppTest

    monkeypatch.setattr(AppSession, "request_rerun", getattr(AppSession.request_rerun, "__wrapped__",
                                                             AppSession.request_rerun))
    at = AppTest.from_file(str(Path(__file__).resolve().parents[2] / "app.py"), default_timeout=300).run()
    assert not at.exception
    assert getattr(AppSession.request_rerun, fragment_rescue.RESCUED, False)
