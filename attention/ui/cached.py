"""Process-wide caches for Streamlit: one model for every session, traces within a memory budget.

Traces are shared, not copied per rerun: every array in a trace is read-only and the dataclasses are
frozen, so sharing them between sessions is safe, and a 512-token trace is not pickled and copied on
every click. They are kept by bytes, not only by count (st.cache_resource counts entries): a fully
recomputed 512-token trace is about 255 MB and a short sentence's about 1 MB.
"""

from __future__ import annotations

import threading

import streamlit as st
from cachetools import LRUCache

from attention import hf_backend, settings
from attention.hf_backend import LoadedModel
from attention.trace import Trace
from attention.ui.lang import t

MAX_TRACES = 64  # and at most this many, however short: each counts as at least 1/64 of the budget


def _cost(tr: Trace, budget: int = settings.trace_cache_bytes()) -> int:
    return max(tr.nbytes(), budget // MAX_TRACES)


_traces: LRUCache = LRUCache(maxsize=settings.trace_cache_bytes(), getsizeof=_cost)
_traces_lock = threading.Lock()  # LRUCache is not thread-safe; sessions run in threads


# Spinners are drawn by the callers, in the chosen language (a cache decorator's text is fixed at
# import); st.spinner shows only after half a second, so a cache hit draws nothing.
@st.cache_resource(show_spinner=False)
def _model(path: str | None) -> LoadedModel:
    return hf_backend.load(path)


def model(path: str | None) -> LoadedModel:
    with st.spinner(t("app.loading_model")):
        return _model(path)


def trace(path: str | None, text: str) -> Trace:
    """The trace of text by the model at path, from the cache when another click or session made it."""
    key = (path, text)
    with _traces_lock:
        kept = _traces.get(key)
    if kept is not None:
        return kept
    lm = model(path)
    with st.spinner(t("app.tracing")):
        made = hf_backend.trace_batch(lm, [text])[0]  # two sessions asking at once both trace: same result
    with _traces_lock:
        try:
            _traces[key] = made
        except ValueError:  # larger than the whole budget: served to this click, not kept
            pass
    return made


def cached_trace_bytes() -> tuple[int, int]:
    """(bytes the kept traces will hold once recomputed, the budget)."""
    with _traces_lock:
        return int(_traces.currsize), int(_traces.maxsize)


@st.cache_resource(max_entries=64, show_spinner=False)
def _translation(text: str):
    from attention.translator import translate

    return translate(text)


def translation(text: str):
    """The built-in translator's output and trace (the model itself is cached by the package)."""
    with st.spinner(t("app.translating")):
        return _translation(text)
