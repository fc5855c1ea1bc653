"""What sessions hold between clicks (the Write page's Writing: every layer's rows, the KV cache, the
logits), within one byte budget per replica (settings: ATTENTION_SESSIONS_MB).

A session keeps its object in a Slot in its own session state; every slot is also listed here, least
recently used first. When a slot is filled or used and the total passes the budget, the least recently
used slots of OTHER sessions are emptied. Nothing is lost: the link holds what the object was made from
(for a Writing the prompt, the settings and the written token ids), and the page reads it again, bit for
bit, when that person comes back (ui/pages/writing.py). The asking session's own object is always kept, so
one larger than the whole budget still works. A session that ends takes its slot with it (the list
holds weak references only).

Each slot has a lock: a page run, a fragment run and a button's callback of one session hold it while
they read or change the object. Streamlit can run two scripts of one session at once (runner.fastReruns
starts the new run while the stopped one is still computing), and a run that read "the text has 12
words" must not see another cut it back to 3 before it reads word 12's distribution (the IndexError
in Writing.distribution that took the first shared budget back: tests/hosting/test_held.py).
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from typing import Any, Protocol

from attention.ui.hosting import settings


class Sized(Protocol):
    def nbytes(self) -> int: ...


class Slot:
    """One session's object and what it was made from (`key`); `value` is None once the budget emptied it."""

    def __init__(self) -> None:
        self.key: Any = None
        self.value: Sized | None = None
        self.size = 0  # bytes the value held when last counted
        self.lock = threading.RLock()
        self.emptied = 0  # times the budget emptied it (the page says nothing: it is read again)

    def __reduce__(self):  # session state may be pickled by a debug tool: a slot comes back empty
        return (Slot, ())


class Held:
    """Every session's slot, least recently used first, within `budget` bytes (0: no limit)."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self._slots: OrderedDict[int, weakref.ref[Slot]] = OrderedDict()
        self._lock = threading.Lock()

    def keep(self, slot: Slot, key: Any, value: Sized) -> None:
        """Fill the slot (or count its value again after it grew) and empty others' past the budget."""
        slot.key, slot.value = key, value
        self.used(slot)

    def used(self, slot: Slot) -> None:
        """The slot was just used: most recent now, its size counted again, others emptied if over budget."""
        if slot.value is None:
            return
        slot.size = slot.value.nbytes()
        with self._lock:
            self._slots[id(slot)] = weakref.ref(slot, self._forget(id(slot)))
            self._slots.move_to_end(id(slot))
            total = self._total()
            for other in self._live():
                if not self.budget or total <= self.budget:
                    break
                if other is not slot and other.value is not None:
                    size = other.size
                    if self._empty(other):
                        total -= size

    def _empty(self, other: Slot) -> bool:
        """Empty another session's slot, but never while one of its runs holds it (it would read a half-
        dropped object); a slot in use is passed over and the next least recent is taken instead."""
        if other.lock.acquire(blocking=False):
            try:
                other.value, other.size = None, 0
                other.emptied += 1
            finally:
                other.lock.release()
            return True
        return False

    def _forget(self, key: int):
        def gone(_ref: weakref.ref) -> None:
            with self._lock:
                self._slots.pop(key, None)
        return gone

    def _live(self) -> list[Slot]:
        return [s for s in (r() for r in self._slots.values()) if s is not None]

    def _total(self) -> int:
        return sum(s.size for s in self._live() if s.value is not None)

    def empty_idle(self) -> int:
        """Empty every slot no run holds now (memory over its budget: ui/hosting/admission.py); how many."""
        with self._lock:
            return sum(self._empty(s) for s in self._live() if s.value is not None)

    def nbytes(self) -> int:
        """Bytes held by every session's slot, as last counted."""
        with self._lock:
            return self._total()

    def __len__(self) -> int:
        with self._lock:
            return sum(s.value is not None for s in self._live())


SESSIONS = Held(settings.sessions_bytes())  # every session's Writing, within one budget per replica
