"""Process-wide caches for Streamlit: one model for every session, traces within a memory budget.

Traces are shared, not copied per rerun: every array in a trace is read-only and the dataclasses are
frozen, so sharing them between sessions is safe, and a 512-token trace is not pickled and copied on
every click. They are kept by bytes, not only by count (st.cache_resource counts entries): a fully
recomputed 512-token trace is about 255 MB and a short sentence's about 1 MB.
"""

from __future__ import annotations

import contextlib
import threading
from typing import TYPE_CHECKING

import streamlit as st
from cachetools import LRUCache

from attention import hf_backend, settings
from attention.hf_backend import LoadedModel
from attention.overview import Overview
from attention.overview import build as build_overview
from attention.trace import Trace
from attention.ui.lang import t

if TYPE_CHECKING:  # the translator's modules load only when a translator page asks
    from attention.learning import SnapshotTraces

MAX_TRACES = 64  # and at most this many, however short: each counts as at least 1/64 of the budget


class Shelf:
    """A least-recently-used cache shared by every session (sessions run in threads, so it locks).

    What is missing is made under a spinner in the chosen language; a hit draws nothing and starts
    nothing (st.spinner starts a timer thread on every call). `exclusive`: one make at a time, for
    what must not be made twice at once (a model: two first visitors would load it twice).
    """

    def __init__(self, maxsize: int, getsizeof=None, exclusive: bool = False) -> None:
        self._cache = LRUCache(maxsize=maxsize, getsizeof=getsizeof)
        self._lock = threading.Lock()
        self._making = threading.Lock() if exclusive else None

    def get(self, key, make, spinner: str):
        with self._lock:
            kept = self._cache.get(key)
        if kept is not None:
            return kept
        with self._making or contextlib.nullcontext():
            with self._lock:  # made by another session while this one waited
                kept = self._cache.get(key)
            if kept is not None:
                return kept
            with st.spinner(t(spinner)):
                made = make()
        with self._lock:
            try:
                self._cache[key] = made
            except ValueError:  # larger than the whole budget: served to this click, not kept
                pass
        return made

    def __len__(self) -> int:
        with self._lock:
            return len(self._cache)

    def usage(self) -> tuple[int, int]:
        """(what is kept, the most that may be), in the units of getsizeof."""
        with self._lock:
            return int(self._cache.currsize), int(self._cache.maxsize)


def _cost(tr: Trace, budget: int = settings.trace_cache_bytes()) -> int:
    return max(tr.nbytes(), budget // MAX_TRACES)


_models = Shelf(maxsize=4, exclusive=True)
_traces = Shelf(maxsize=settings.trace_cache_bytes(), getsizeof=_cost)  # two sessions may trace at once: same result
_translations = Shelf(maxsize=64)


def model(path: str | None) -> LoadedModel:
    return _models.get(path, lambda: hf_backend.load(path), "app.loading_model")


def trace(path: str | None, text: str) -> Trace:
    """The trace of text by the model at path, from the cache when another click or session made it."""
    lm = model(path)
    return _traces.get((path, text), lambda: hf_backend.trace_batch(lm, [text])[0], "app.tracing")


def cached_trace_bytes() -> tuple[int, int]:
    """(bytes the kept traces will hold once recomputed, the budget)."""
    return _traces.usage()


def translation(text: str):
    """The built-in translator's output and trace (the model itself is cached by the package)."""
    from attention.translator import translate

    return _translations.get(text, lambda: translate(text), "app.translating")


_overviews = Shelf(maxsize=8)
_snapshots = Shelf(maxsize=8)
_alignment = Shelf(maxsize=1)


def overview(source: str, model_path: str | None, text: str, kind: str, merge: bool) -> Overview:
    """What the Overview draws for one sentence of one model (source: "model" or "translator")."""
    def make() -> Overview:
        tr = translation(text).trace if source == "translator" else trace(model_path, text)
        return build_overview(tr, kind, merge)

    return _overviews.get((source, model_path, text, kind, merge), make, "overview.measuring")


def snapshot_traces(text: str) -> SnapshotTraces:
    """The sentence through every training snapshot of the translator (the Learning page)."""
    from attention import learning

    return _snapshots.get(text, lambda: learning.snapshot_traces(text), "learning.tracing")


def alignment_over_training() -> tuple:
    """Per snapshot and cross-attention head, the share of words aligned to their source word."""
    from attention import learning

    return _alignment.get("all", learning.alignment_over_training, "learning.measuring")
