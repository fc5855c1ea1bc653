"""The shelf the app's one cache (ui/hosting/cache.py) keeps everything on: least recently used, by bytes (a
ByteLRU, the class every cache of results uses), shared by every session; each entry counts at least
1/MAX_ENTRIES of the budget; models stay when it sheds; a computation waits its turn in the admission queue, a
kept result does not. What a person sees while a value is made (a spinner) is the caller's, given as `busy`."""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Hashable
from contextlib import AbstractContextManager
from typing import Any, TypeVar

import numpy as np

from attention.byte_lru import ByteLRU
from attention.trace import Trace
from attention.ui.hosting import admission, memory

MAX_ENTRIES = 64
MAX_MODELS = 4  # models kept outside the byte budget when they do not fit in it
# Loaded once per process and shared read-only (the alignment is a few bytes, costly to make again).
KEPT_WHEN_SHEDDING = ("model", "lm_model", "snapshots", "alignment")
T = TypeVar("T")
log = logging.getLogger(__name__)


def nbytes(value: Any) -> int:
    """Bytes a kept value holds: arrays, traces (once recomputed), models' parameters, and what
    dataclasses, tuples and dicts of them hold."""
    if isinstance(value, np.ndarray):
        return value.nbytes
    if isinstance(value, Trace):
        return value.nbytes()
    if hasattr(value, "parameters"):  # a torch module
        return sum(p.numel() * p.element_size() for p in value.parameters())
    if hasattr(value, "model") and hasattr(value.model, "parameters"):  # capture's LoadedModel
        return nbytes(value.model)
    if isinstance(value, dict):
        return sum(nbytes(v) for v in value.values())
    if isinstance(value, (tuple, list)):
        return sum(nbytes(v) for v in value)
    if hasattr(value, "__dataclass_fields__"):
        return sum(nbytes(getattr(value, name)) for name in value.__dataclass_fields__)
    return 0


class Shelf:
    """A least-recently-used cache by bytes, shared by every session (sessions run in threads, so it
    locks). One make per key at a time: two sessions asking for the same model load it once.
    What is missing is made inside busy(what) (the page's spinner in the chosen language); a hit draws
    nothing and starts nothing (st.spinner starts a timer thread on every call)."""

    def __init__(self, budget: int, max_entries: int = MAX_ENTRIES, rss_budget: int = 0,
                 busy: Callable[[str], AbstractContextManager] = lambda what: contextlib.nullcontext()) -> None:
        self.floor = budget // max_entries if max_entries else 0
        self.rss_budget = rss_budget  # 0: never shed
        self.sheds = 0
        self.busy = busy
        self._cache: ByteLRU[Hashable, Any] = ByteLRU(budget, size=self.cost)
        # A model larger than the whole budget (SmolLM2's 538 MB against a hosted replica's 256 MB) is
        # still kept, here, by count (each counts 1): loading it again on every rerun would cost far more.
        self._models: ByteLRU[Hashable, Any] = ByteLRU(MAX_MODELS, size=lambda value: 1)
        # With no RSS budget (locally), the last result larger than the whole budget is kept too, alone: an
        # 8,192-token trace (about 1.8 GB) against the default 1,024 MB was traced again on every page run.
        # The next one replaces it; a replica with an RSS budget keeps none (its inputs are capped anyway).
        self._oversized: tuple[Hashable, Any] | None = None
        self._lock = threading.Lock()
        self._making: dict[Hashable, threading.Lock] = {}

    def cost(self, value: Any) -> int:
        return max(nbytes(value), self.floor)

    def get(self, key: Hashable, make: Callable[[], T], spinner: str | None, queued: bool = False) -> T:
        """The value kept under key, or make() it (queued: wait for a turn first, admission.py; spinner None: make()
        draws its own progress).
        The turn is taken before the key's lock: a run holding a turn may wait for a key's lock (its
        holder has a turn and is computing), never the other way round, so the two cannot deadlock."""
        with self._lock:
            kept = self._lookup(key)
            if kept is not None:
                return kept
        with admission.turn() if queued else contextlib.nullcontext():
            with self._lock:
                making = self._making.setdefault(key, threading.Lock())
            with making:
                with self._lock:  # made by another session while this one waited
                    kept = self._lookup(key)
                if kept is None:
                    self.shed_if_over_budget()
                    self._drop_oversized_like(key)
                    with self.busy(spinner) if spinner else contextlib.nullcontext():
                        kept = make()
                    if queued:  # a computation's temporaries are freed now: hand their pages back
                        memory.trim()
                    with self._lock:
                        if not self._cache.put(key, kept):  # larger than the whole budget: served, not kept
                            if isinstance(key, tuple) and key and key[0] in KEPT_WHEN_SHEDDING:
                                self._models.put(key, kept)  # … unless it is a model
                            elif not self.rss_budget:
                                self._oversized = None  # the previous one goes before the next is kept
                                self._oversized = (key, kept)
            with self._lock:
                self._making.pop(key, None)
        return kept

    def shed_if_over_budget(self) -> bool:
        """Over the memory budget, drop every kept result but the models (they are shared and would
        only be loaded again) and hand the memory back, so the process sheds instead of being killed."""
        if not self.rss_budget or memory.rss_bytes() <= self.rss_budget:
            return False
        with self._lock:
            dropped = self._cache.drop(keep=lambda k: isinstance(k, tuple) and bool(k) and k[0] in KEPT_WHEN_SHEDDING)
            if self._oversized is not None:
                dropped.append(self._oversized[0])
                self._oversized = None
        if not dropped:
            return False
        self.sheds += 1
        memory.release()
        log.warning("resident memory over %d MB: shed %d cached results, now %d MB", self.rss_budget >> 20,
                    len(dropped), memory.rss_bytes() >> 20)
        return True

    def _drop_oversized_like(self, key: Hashable) -> None:
        """Before a result of the same kind is made, the oversized one kept goes: the next may be as large, and
        two 8,192-token traces side by side (old kept, new being made) would double the peak."""
        with self._lock:
            old = self._oversized
            if old is not None and isinstance(key, tuple) and isinstance(old[0], tuple) and key[:1] == old[0][:1]:
                self._oversized = None

    def _lookup(self, key: Hashable) -> Any:
        kept = self._cache.get(key)
        if kept is None and self._oversized is not None and self._oversized[0] == key:
            return self._oversized[1]
        return self._models.get(key) if kept is None else kept

    def __len__(self) -> int:
        with self._lock:
            return len(self._cache) + len(self._models) + (self._oversized is not None)

    def keys(self) -> list[Hashable]:
        with self._lock:
            return [*self._cache.keys(), *self._models.keys(), *([self._oversized[0]] if self._oversized else [])]

    def usage(self) -> tuple[int, int]:
        """(bytes kept, the budget)."""
        with self._lock:
            return self._cache.held, self._cache.budget
