"""Admission under overload: at most a few traces computed at once in this process (settings:
ATTENTION_MAX_TRACES); the others wait their turn, first come first served, and their page says how
many people are ahead. On 2 cores, ten traces at once take as long as ten in a row, only everyone
waits for the last; in a queue the first person gets a result at once.

Memory too: above the replica's RSS budget (settings: ATTENTION_RSS_BUDGET_MB) no new turn starts
while another runs (its temporaries are freed when it ends); the waiting page says so, with its place
and a rough wait (the recent turns' mean length). With nothing running and still over, the caches and
the idle sessions' Writings are dropped and freed pages handed back to the system (`relieve`), and the
figure is read again. A turn then starts whatever it reads: a replica with nothing running has nothing
left to wait for, and refusing there refused every later visitor too (issue #55: a class's writers were
refused by an idle replica whose resident size never came back under the budget).

Only computing waits: a result already kept in the cache is served without a turn (cache.Shelf asks
for a turn only when it has to make something). A turn is held per thread (one session's script
run), so what a turn computes may ask for more (an overview asks for its trace) without waiting
behind itself.
"""

from __future__ import annotations

import contextlib
import logging
import math
import threading
import time
from collections.abc import Callable, Iterator

import streamlit as st

from attention.ui.hosting import memory, settings
from attention.ui.lang import t

log = logging.getLogger(__name__)
NOTICE_EVERY_S = 1.0  # how often a waiting run wakes to check its place (a finished turn wakes it at once)
MEAN_WEIGHT = 0.2  # each finished turn's share of the mean turn length


class Gate:
    """A first-come-first-served queue in front of `limit` concurrent turns (0: no limit). `over()`: the
    replica is above its memory budget; the relievers drop what can be made again (caches, idle sessions)."""

    def __init__(self, limit: int, over: Callable[[], bool] = lambda: False) -> None:
        self.limit, self.over = limit, over
        self.relievers: list[Callable[[], object]] = []  # registered by what keeps memory (cache, sessions)
        self.mean_s = 0.0  # recent turns' mean length (0: none yet)
        self.memory_waits = 0  # turns held back because memory was over its budget
        self.over_alone = 0  # turns started over the budget with nothing running and nothing left to drop
        self._cond = threading.Condition()
        self._tickets = 0
        self._waiting: list[int] = []  # tickets in arrival order
        self._running = 0
        self._held = threading.local()

    def wait_s(self, ahead: int) -> float:
        """A rough wait for `ahead` people: their turns, `limit` at a time, at the recent mean length."""
        return math.ceil(ahead / max(self.limit, 1)) * self.mean_s

    @property
    def queued(self) -> int:
        """Runs waiting for a turn now (the autoscaler's second signal, on /metrics: ui/hosting/serve.py)."""
        with self._cond:
            return len(self._waiting)

    def ahead_now(self) -> int:
        """People a turn asked for now would wait behind (0: it would start at once): every turn running and
        every ticket waiting, or none when a turn is free (or this thread holds one)."""
        with self._cond:
            if self.limit <= 0 or getattr(self._held, "depth", 0) or (not self._waiting and self._running < self.limit):
                return 0
            return self._running + len(self._waiting)

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
        admitted, shown, started = False, None, 0.0
        try:
            while True:
                with self._cond:
                    free = self._waiting[0] == ticket and self._running < self.limit
                    if free and self._running and self.over():  # others' temporaries go when they end
                        free = False
                        self.memory_waits += 1
                    if free:
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
            if self.over():  # over with nothing running: drop what can be made again, hand the pages back
                self.relieve()
            self._held.depth = 1
            started = time.monotonic()
            yield
        finally:
            self._held.depth = 0
            with self._cond:
                if admitted:
                    self._running -= 1
                    if started:
                        took = time.monotonic() - started
                        self.mean_s = took if not self.mean_s else (1 - MEAN_WEIGHT) * self.mean_s + MEAN_WEIGHT * took
                else:  # left the queue without a turn (a rerun, the tab closed)
                    self._waiting.remove(ticket)
                self._cond.notify_all()
            if admitted and self.over():  # freed pages go back now: the next in line, and /metrics, read a figure
                memory.trim()  # that comes back down after a wave (glibc keeps them otherwise)

    def relieve(self) -> None:
        """Over the budget with nothing running: first the freed heap handed back (malloc_trim: often all it
        takes after a wave), then each reliever in turn until under it (cached results, then the idle sessions'
        Writings, which their people must wait to have read again). Still over: the turn starts all the same
        (the models alone are what is left; a replica that refused here would refuse while idle, for good)."""
        memory.release()
        for relieve in self.relievers:
            if self.over():
                relieve()
        if self.over():
            self.over_alone += 1
            log.warning("over the memory budget with nothing running and nothing left to drop: started anyway")

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


def _over() -> bool:
    budget = settings.rss_budget_bytes()
    return bool(budget) and memory.rss_bytes() > budget


gate = Gate(settings.max_traces(), _over)  # cache.py and writing.py register what they can drop


def waiting_text(ahead: int) -> str:
    """What a waiting page says: the people ahead, a rough wait, and whether memory is what it waits for."""
    text = t("queue.ahead_one") if ahead == 1 else t("queue.ahead", n=ahead)
    wait = gate.wait_s(ahead)
    if wait:
        text += " " + t("queue.wait", s=max(1, round(wait)))
    if _over():
        text += " " + t("queue.memory")
    return text


@contextlib.contextmanager
def turn() -> Iterator[None]:
    """Wait for a turn to compute, with a notice on the page while others are ahead (its place, a rough
    wait, and whether memory is what it waits for)."""
    box = None

    def show(ahead: int) -> None:
        nonlocal box
        if box is None:
            box = st.empty()
        box.info(waiting_text(ahead), icon=":material/hourglass_top:")

    with gate.turn(show):
        if box is not None:
            box.empty()
        yield
