"""Write's Play and its fragment: a word per tick while playing, and the hand-over to the whole page's run
when a widget inside the ticking fragment changed a picker its frame draws."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import streamlit as st

from attention.ui.state import Keys
from attention.ui.pages.writing import back_to_shown, slot

if TYPE_CHECKING:
    from attention.lm.writer import Writing

PLAY_SECONDS = 1.0  # one word per tick while playing: time to see the new row before the next
_PLAY_DUE = "_wr_play_due"  # time.monotonic() from which a run of the ticking fragment writes a word


def toggle_play(on: bool) -> None:
    """▶ / Pause. The first word comes with the first tick, not with the click."""
    box = slot()
    with box.lock:
        if on and box.value is not None:  # Play from an earlier step writes from there, as Next word does
            back_to_shown(box.value)
    st.session_state[Keys.WR_PLAYING] = on
    st.session_state[_PLAY_DUE] = time.monotonic() + PLAY_SECONDS / 2


def playing(w: Writing) -> bool:
    """Play is on (and switched off once writing has ended or is full)."""
    if st.session_state.get(Keys.WR_PLAYING) and (w.ended or w.full):
        st.session_state[Keys.WR_PLAYING] = False
    return bool(st.session_state.get(Keys.WR_PLAYING))


def play_due() -> bool:
    """A run of the ticking fragment writes a word if half a tick has passed since the last one: the timer
    runs it once a tick, and a click in between (a layer picked while playing) writes none."""
    now = time.monotonic()
    if now < st.session_state.get(_PLAY_DUE, 0.0):
        return False
    st.session_state[_PLAY_DUE] = now + PLAY_SECONDS / 2
    return True


_FRAME_CHANGED = "_wr_frame_changed"  # a widget of the writing fragment changed a picker the page's frame draws


def change_frame() -> None:
    """Called by a callback of the writing fragment that sets the layer or head: the whole page must run
    (the pickers are drawn by its frame, which a fragment's run leaves as drawn)."""
    st.session_state[_FRAME_CHANGED] = True


def frame_changed() -> bool:
    """Once per change_frame(): True for the run that must hand over to the whole page's."""
    return bool(st.session_state.pop(_FRAME_CHANGED, False))
