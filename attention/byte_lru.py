"""One least-recently-used cache by bytes, the class every cache of results uses: the app's shelf (models,
traces, overviews), the long sites' heads (head_cache), the head view's payloads. Thread-safe (Streamlit serves
sessions from several threads); numpy only, so the contract can use it.

A value larger than the whole budget is handed back, not kept; the budget may be a number or a function read
at each insertion (a test or a replica sets it from the environment).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from typing import Generic, TypeVar

import numpy as np

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def array_bytes(value: object) -> int:
    """Bytes of an array, a str (its length) or bytes; 0 for anything else."""
    if isinstance(value, np.ndarray):
        return value.nbytes
    if isinstance(value, (str, bytes, bytearray)):
        return len(value)
    return 0


class ByteLRU(Generic[K, V]):
    """Values by key within `budget` bytes (each counted by `size`), the least recently used dropped first."""

    def __init__(self, budget: int | Callable[[], int], size: Callable[[V], int] = array_bytes) -> None:
        self._budget = budget
        self._size = size
        self._entries: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._held = 0
        self._lock = threading.Lock()

    @property
    def budget(self) -> int:
        return int(self._budget() if callable(self._budget) else self._budget)

    @property
    def held(self) -> int:
        """Bytes held now."""
        with self._lock:
            return self._held

    def get(self, key: K, default: V | None = None) -> V | None:
        """The value kept under key (now the most recently used), else default."""
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                return default
            self._entries.move_to_end(key)
            return found[0]

    def put(self, key: K, value: V) -> bool:
        """Keep value under key, dropping the least recently used past the budget; False when the value
        alone is larger than the budget (then it is not kept)."""
        cost, limit = self._size(value), self.budget
        if cost > limit:
            return False
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._held -= old[1]
            self._entries[key] = (value, cost)
            self._held += cost
            while self._held > limit and self._entries:
                self._held -= self._entries.popitem(last=False)[1][1]
        return True

    def get_or_make(self, key: K, make: Callable[[], V]) -> V:
        """The value kept under key, else make() kept (when it fits) and returned. Two threads asking at
        once may both make it: they make the same value, one is kept."""
        found = self.get(key)
        if found is not None:
            return found
        value = make()
        self.put(key, value)
        return value

    def pop(self, key: K) -> V | None:
        with self._lock:
            found = self._entries.pop(key, None)
            if found is None:
                return None
            self._held -= found[1]
            return found[0]

    def drop(self, keep: Callable[[K], bool] = lambda key: False) -> list[K]:
        """Drop every entry whose key `keep` does not keep; the keys dropped."""
        with self._lock:
            gone = [k for k in self._entries if not keep(k)]
            for k in gone:
                self._held -= self._entries.pop(k)[1]
        return gone

    def clear(self) -> None:
        self.drop()

    def keys(self) -> list[K]:
        with self._lock:
            return list(self._entries)

    def __contains__(self, key: object) -> bool:
        with self._lock:
            return key in self._entries

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)

    def __iter__(self) -> Iterator[K]:
        return iter(self.keys())
