"""Process-wide caches for Streamlit: one model for every session, a bounded set of traces.

Traces are cached as resources (shared, not copied per rerun): every array in a trace is
read-only and the dataclasses are frozen, so sharing them between sessions is safe, and a 512-token
trace is not pickled and copied on every click.
"""

from __future__ import annotations

import streamlit as st

from attention import hf_backend
from attention.hf_backend import LoadedModel
from attention.trace import Trace


@st.cache_resource(show_spinner="Loading the model (first visit only)…")
def model(path: str | None) -> LoadedModel:
    return hf_backend.load(path)


@st.cache_resource(max_entries=32, show_spinner="Tracing attention…")
def trace(path: str | None, text: str) -> Trace:
    return hf_backend.trace_batch(model(path), [text])[0]


@st.cache_resource(max_entries=64, show_spinner="Translating…")
def translation(text: str):
    """The built-in translator's output and trace (the model itself is cached by the package)."""
    from attention.translator import translate

    return translate(text)
