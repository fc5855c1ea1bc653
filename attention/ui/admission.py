"""Admission under overload: at most a few traces computed at once in this process (settings:
ATTENTION_MAX_TRACES); the others wait their turn, first come first served, and their page says how
many people are ahead. On 2 cores, ten traces at once take as long as ten in a row, only everyone
waits for the last; in a queue the first person gets a result at once.

Only computing waits: a result already kept in the cache is served without a turn (cache.Shelf asks
for a turn only when it has to make something). A turn is held per thread (one session's script
run), so what a turn computes may ask for more (an overview asks for its trace) without waiting
behind itself.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator

import streamlit as st

from attention.ui import settings
from attention.ui.lang import t

NOTICE_EVERY_S = 1.0  # how often a waiting run wakes to check its place (a finished turn wakes it at once)


class Gate:
    """A first-come-first-served queue in front of `limit` concurrent turns (0: no limit)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._cond = threading.Condition()
        self._tickets = 0
        self._waiting: list[int] = []  # tickets in arrival order
        self._running = 0
        self._held = threading.local()

    def ahead(self, ticket: int) -> int:
        """People before this ticket: every turn running and every ticket waiting before it."""
        with self._cond:
            return self._running + sum(1 for w in self._waiting if w < ticket)

    @contextlib.contextmanager
    def turn(self, on_wait: Callable[[int], None] = lambda n: None) -> Iterator[None]:
        """Hold a turn for the body; while waiting, on_wait(people ahead) is called whenever that
        number changes (outside the lock, so it may draw on the page or raise a Streamlit rerun)."""
        if self.limit <= 0 or getattr(self._held, "depth", 0):
            self._held.depth = getattr(self._held, "depth", 0) + 1
            try:
                yield
            finally:
                self._held.depth -= 1
            return
        with self._cond:
            ticket = self._tickets
            self._tickets += 1
            self._waiting.append(ticket)
        admitted, shown = False, None
        try:
            while True:
                with self._cond:
                    if self._waiting[0] == ticket and self._running < self.limit:
                        self._waiting.pop(0)
                        self._running += 1
                        admitted = True
                        break
                    ahead = self._running + self._waiting.index(ticket)
                    if ahead == shown:
                        self._cond.wait(NOTICE_EVERY_S)
                        continue
                on_wait(ahead)
                shown = ahead
            self._held.depth = 1
            yield
        finally:
            self._held.depth = 0
            with self._cond:
                if admitted:
                    self._running -= 1
                else:  # left the queue without a turn (a rerun, the tab closed)
                    self._waiting.remove(ticket)
                self._cond.notify_all()

    @contextlib.contextmanager
    def free_turn(self) -> Iterator[bool]:
        """A turn only if one is free now and nobody waits (True), else none (False) without waiting: for
        work done ahead of a request, which must never queue in front of one."""
        if self.limit <= 0 or getattr(self._held, "depth", 0):  # no limit, or this thread holds a turn
            yield True
            return
        with self._cond:
            admitted = not self._waiting and self._running < self.limit
            self._running += admitted
        try:
            if admitted:
                self._held.depth = 1
            yield admitted
        finally:
            if admitted:
                self._held.depth = 0
                with self._cond:
                    self._running -= 1
                    self._cond.notify_all()


gate = Gate(settings.max_traces())


@contextlib.contextmanager
def turn() -> Iterator[None]:
    """Wait for a turn to compute, with a notice on the page while others are ahead."""
    box = None

    def show(ahead: int) -> None:
        nonlocal box
        if box is None:
            box = st.empty()
        text = t("queue.ahead_one") if ahead == 1 else t("queue.ahead", n=ahead)
        box.info(text, icon=":material/hourglass_top:")

    with gate.turn(show):
        if box is not None:
            box.empty()
        yield
