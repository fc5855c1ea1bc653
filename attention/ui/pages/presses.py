"""Write's presses of "Next word" and "Write 10": a press is never lost, and never left unsaid (issue #55).

A press only asks for its words (`press`, the buttons' callback): a callback draws nothing, so a press that
waited its turn inside one was a press nobody was told of. The writing fragment's run that follows says so
FIRST (`tell`), before it takes the session's lock, reads the Writing or asks for a turn of the admission
queue: the words are being written, or they wait behind N people for about S s. Then it writes them
(`write_pending`), the notice kept up to date while they wait and saying "being written" once their turn
comes, and the notice goes only when the fragment has drawn the word (`Notice.clear`): between the turn and
the drawn word (the model's step, then every panel computed and sent) the page is never silent. Writing that
fails is said, with why and a button that tries again (`press_failed`).

The count lives in one plain object in session state (`Presses`): changing it is not a Streamlit yield
point, so a rerun cannot fall between a word written and its count, and pressing twice writes at most the
words pressed for. A rerun that stops a run while it waits leaves the words asked for: the next run writes them."""

from __future__ import annotations

import logging

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from attention.blas import one_torch_thread
from attention.ui.hosting import admission
from attention.ui.hosting.held import SESSIONS as held
from attention.ui.lang import t
from attention.ui.pages import writing

_PRESSES = "_wr_presses"  # this session's Presses
log = logging.getLogger(__name__)


class Presses:
    """This session's presses: words asked for and not yet written, and the last failure said on the page."""

    def __init__(self) -> None:
        self.pending = 0  # words pressed for, not yet written
        self.failed: str | None = None  # why the last words could not be written (shown with "Try again")
        self.failed_words = 0  # how many words "Try again" asks for

    def __reduce__(self):  # session state may be pickled by a debug tool: presses come back empty
        return (Presses, ())


class Notice:
    """Where pressed words say they wait or are being written: one placeholder at the top of the fragment."""

    def __init__(self, box: DeltaGenerator) -> None:
        self.box = box
        self.shown = False

    def waiting(self, n: int, ahead: int) -> None:
        """n words wait behind `ahead` people (their place, a rough wait, whether memory is what they wait for)."""
        self.box.info(t("write.press_waiting_one" if n == 1 else "write.press_waiting", n=n) + " "
                      + admission.waiting_text(ahead), icon=":material/hourglass_top:")
        self.shown = True

    def writing(self, n: int) -> None:
        """n words are being written now (the model's step, then the panels drawn)."""
        self.box.info(t("write.press_writing_one" if n == 1 else "write.press_writing", n=n),
                      icon=":material/edit_note:")
        self.shown = True

    def clear(self) -> None:
        """The words are drawn (or failed, said below): the notice goes."""
        if self.shown:
            self.box.empty()
            self.shown = False


def presses() -> Presses:
    """This session's presses (made on first use)."""
    p = st.session_state.get(_PRESSES)
    if not isinstance(p, Presses):
        p = st.session_state[_PRESSES] = Presses()
    return p


def press(n: int) -> None:
    """Button callback of Next word (1) and Write 10 (10): the words are asked for, not written here."""
    p = presses()
    p.pending += n
    p.failed, p.failed_words = None, 0


def retry() -> None:
    """"Try again": the words that failed are asked for again."""
    p = presses()
    p.pending += p.failed_words
    p.failed, p.failed_words = None, 0


def tell(notice: Notice) -> None:
    """The words pressed for, said before anything waits: being written (a turn is free), or waiting behind
    the people now running and queued. Nothing when no words are asked for."""
    p = presses()
    if not p.pending:
        return
    ahead = admission.gate.ahead_now()
    if ahead:
        notice.waiting(p.pending, ahead)
    else:
        notice.writing(p.pending)


def press_failed() -> None:
    """Why the last words could not be written, with a button that asks for them again (nothing when none)."""
    p = presses()
    if p.failed is None:
        return
    st.error(t("write.press_failed", n=p.failed_words, why=p.failed), icon=":material/error:")
    st.button(t("write.retry"), key="wr_retry", on_click=retry, icon=":material/refresh:")


def write(n: int, notice: Notice | None = None) -> None:
    """Write n words now after the step shown (the steps after it are replaced): Play's tick, and tests."""
    presses().pending += n
    write_pending(notice)


def write_pending(notice: Notice | None = None) -> None:
    """The words pressed for and not yet written, written now after the step shown, in a turn of the
    admission queue; while they wait, `notice` says so (how many words, the people ahead, a rough wait), and
    once a notice was shown it says they are being written until the caller clears it (the word drawn)."""
    p = presses()
    if not p.pending:
        return
    notice = notice if notice is not None else Notice(st.empty())
    box = writing.slot()
    with box.lock:
        w = box.value
        if w is None:  # emptied for other sessions' room: the page's next read of it writes them
            return
        writing.back_to_shown(w)
        drawn_with = writing.seed()
        try:
            with admission.gate.turn(lambda ahead: notice.waiting(p.pending, ahead)), one_torch_thread():
                if notice.shown:  # their turn: the page says so until the word is drawn
                    notice.writing(p.pending)
                while p.pending > 0:
                    if w.step(seed=drawn_with) is None:  # ended, or the text is full: nothing more to write
                        p.pending = 0
                        break
                    p.pending -= 1
        except Exception as exc:  # noqa: BLE001 - a press ends in a word or in words on the page, never a traceback
            log.exception("writing %d pressed words failed", p.pending)
            p.failed, p.failed_words, p.pending = f"{type(exc).__name__}: {exc}", p.failed_words + p.pending, 0
            notice.clear()
        held.used(box)
        writing.remember(w, newest=True)
