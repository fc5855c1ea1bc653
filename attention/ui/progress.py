"""A progress bar drawn on the first report of a long computation, moved by each later one, and removed
when the work is done. One element whatever the number of reports: a bar made on every report left a grey
empty stripe for each report but the first above the results."""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator


class Bar:
    """Call it with (share done 0..1, text); done() removes it (nothing is drawn if it was never called)."""

    def __init__(self) -> None:
        self._bar: DeltaGenerator | None = None

    def __call__(self, share: float, text: str) -> None:
        if self._bar is None:
            self._bar = st.progress(0.0)
        self._bar.progress(min(max(share, 0.0), 1.0), text=text)

    @property
    def shown(self) -> bool:
        return self._bar is not None

    def done(self) -> None:
        if self._bar is not None:
            self._bar.empty()
