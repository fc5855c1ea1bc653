"""A press of "Next word" is said before anything waits (ui/pages/presses.py, issue #55): being written when a
turn is free, waiting with its place when others hold the turns, in both languages; at its turn a press that
was told it waits is told it is being written; a failed write is counted for "Try again" and its notice goes.
Bare mode (no script run): one session state, a stand-in Writing, no model."""

from __future__ import annotations

import threading

import pytest
import streamlit as st

from attention import i18n
from attention.ui.hosting import admission
from attention.ui.pages import presses, writing
from attention.ui.state import Keys


class Box:
    """Stands in for the notice's st.empty(): what it was told, in order."""

    def __init__(self) -> None:
        self.said: list[str] = []

    def info(self, text: str, icon: str | None = None) -> None:
        self.said.append(text)

    def empty(self) -> None:
        self.said.append("")


class Stand:
    """A Writing as write_pending reads it: its steps, and a step that writes or fails."""

    def __init__(self, fail: bool = False) -> None:
        self.steps: list[object] = []
        self.fail = fail

    def step(self, seed=None):
        if self.fail:
            raise RuntimeError("the model could not read")
        self.steps.append(type("Step", (), {"token_id": 7})())
        return self.steps[-1]

    def back(self, steps: int) -> None:
        del self.steps[steps:]

    def nbytes(self) -> int:
        return 0


@pytest.fixture
def session(monkeypatch):
    st.session_state.clear()
    gate = admission.Gate(1)
    monkeypatch.setattr(admission, "gate", gate)
    yield gate
    st.session_state.clear()


def hold_turn(gate: admission.Gate) -> tuple[threading.Event, threading.Thread]:
    """Another person's turn, held until the event is set."""
    taken, done = threading.Event(), threading.Event()

    def run() -> None:
        with gate.turn():
            taken.set()
            done.wait(30)

    th = threading.Thread(target=run, daemon=True)
    th.start()
    assert taken.wait(30)
    return done, th


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_press_is_said_being_written_when_a_turn_is_free(session, lang):
    st.session_state[Keys.LANG] = lang
    presses.press(1)
    box = Box()
    presses.tell(presses.Notice(box))
    assert box.said == [i18n.t("write.press_writing_one", lang)]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_press_is_said_waiting_with_its_place_when_the_turns_are_taken(session, lang):
    st.session_state[Keys.LANG] = lang
    done, th = hold_turn(session)
    try:
        presses.press(10)
        box = Box()
        presses.tell(presses.Notice(box))
    finally:
        done.set()
        th.join(30)
    assert len(box.said) == 1
    assert box.said[0].startswith(i18n.t("write.press_waiting", lang, n=10))
    assert i18n.t("queue.ahead_one", lang) in box.said[0]


def test_no_press_nothing_said(session):
    box = Box()
    notice = presses.Notice(box)
    presses.tell(notice)
    notice.clear()
    assert box.said == [] and not notice.shown


def test_a_press_told_it_waits_is_told_it_is_being_written_at_its_turn_and_counted_once(session):
    st.session_state.update({Keys.WR_IDS: "", Keys.WR_STEP: 0, Keys.WR_SAMPLED: False})
    writing.slot().value = w = Stand()
    done, th = hold_turn(session)
    presses.press(1)
    presses.press(1)  # pressed twice while waiting: two words, no more
    box = Box()
    notice = presses.Notice(box)
    presses.tell(notice)
    threading.Timer(0.2, done.set).start()  # the other person's turn ends while this one waits
    presses.write_pending(notice)
    th.join(30)
    assert box.said[0].startswith(i18n.t("write.press_waiting", "en", n=2))
    assert box.said[-1] == i18n.t("write.press_writing", "en", n=2)  # shown until the caller clears it
    assert len(w.steps) == 2 and presses.presses().pending == 0
    assert st.session_state[Keys.WR_IDS] == "7,7"
    notice.clear()
    assert box.said[-1] == "" and not notice.shown


def test_a_failed_write_is_counted_for_try_again_and_its_notice_goes(session):
    st.session_state.update({Keys.WR_IDS: "", Keys.WR_STEP: 0, Keys.WR_SAMPLED: False})
    writing.slot().value = w = Stand(fail=True)
    presses.press(10)
    box = Box()
    notice = presses.Notice(box)
    presses.tell(notice)
    presses.write_pending(notice)
    p = presses.presses()
    assert p.pending == 0 and p.failed_words == 10 and "could not read" in p.failed
    assert box.said[-1] == "" and not notice.shown  # the failure is said by press_failed, not as "being written"
    w.fail = False
    presses.retry()
    presses.write_pending()
    assert len(w.steps) == 10 and p.failed is None and p.pending == 0
