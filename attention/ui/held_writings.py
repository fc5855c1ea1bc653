"""Every session's Writing (the Write page's text and every layer's rows), within one memory budget.

A Writing at the hosted cap (256 prompt tokens + 64 written) holds about 185 MiB: 30 sessions writing
that much would need 5.5 GB, and a session's state is out of reach of the cache's budget. Here they
share one least-recently-used budget (ATTENTION_WRITINGS_MB): when it is passed, the writings of the
sessions that wrote least recently are dropped. Nothing is lost: the link holds the prompt and the
written tokens (ids=), and writing.writing() reads them again when that session comes back.
The session asking is never dropped, so one writing larger than the whole budget is still kept; the
writings of sessions that have ended (a closed tab) are dropped first.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Protocol


class Sized(Protocol):
    def nbytes(self) -> int: ...


class HeldWritings:
    """session id -> (what the writing was made from, the writing), least recently used first."""

    def __init__(self, budget: int, alive: Callable[[str], bool] = lambda session: True) -> None:
        self.budget, self.alive = budget, alive
        self._items: OrderedDict[str, tuple[Any, Sized]] = OrderedDict()
        self._lock = threading.Lock()  # sessions run in several threads

    def get(self, session: str) -> tuple[Any, Sized] | None:
        with self._lock:
            item = self._items.get(session)
            if item is not None:
                self._items.move_to_end(session)
            return item

    def put(self, session: str, key: Any, writing: Sized) -> list[str]:
        """Keep (or touch) this session's writing; returns the sessions whose writings were dropped."""
        with self._lock:
            self._items[session] = (key, writing)
            self._items.move_to_end(session)
            dropped = [s for s in self._items if s != session and not self.alive(s)]
            for s in dropped:
                del self._items[s]
            sizes = {s: w.nbytes() for s, (_, w) in self._items.items()}
            total = sum(sizes.values())
            for other in list(self._items):
                if total <= self.budget:
                    break
                if other != session:
                    total -= sizes[other]
                    del self._items[other]
                    dropped.append(other)
            return dropped

    def nbytes(self) -> int:
        with self._lock:
            return sum(w.nbytes() for _, w in self._items.values())

    def __len__(self) -> int:
        return len(self._items)
