"""Deployment settings, read from the environment (or Streamlit secrets on a hosted demo).

ATTENTION_HOSTED=1            hosted mode: no model folders from arbitrary paths, shorter inputs.
ATTENTION_TRACE_CACHE_MB=1024 memory for the traces kept between clicks, shared by every session
                              (128 when hosted; at most 64 traces in any case).
"""

from __future__ import annotations

import os

from attention.text_input import MAX_CHARS

HOSTED_MAX_CHARS = 2_000
TRACE_CACHE_MB = 1_024  # a fully recomputed 512-token MiniLM trace is about 255 MB
HOSTED_TRACE_CACHE_MB = 128  # a hosted demo may have 690 MB in all, and the process with the model ~560 MB


def hosted() -> bool:
    value = os.environ.get("ATTENTION_HOSTED", "") or _secret("ATTENTION_HOSTED")  # a Cloud secret works too
    return value.strip().lower() in ("1", "true", "yes", "on")


def _secret(name: str) -> str:
    """A Streamlit secret, or "" when there is no secrets file (or one that does not parse)."""
    import streamlit as st
    from streamlit.errors import StreamlitAPIException

    try:
        return str(st.secrets.get(name, ""))
    except (FileNotFoundError, StreamlitAPIException):  # StreamlitSecretNotFoundError is both
        return ""


def max_chars() -> int:
    return HOSTED_MAX_CHARS if hosted() else MAX_CHARS


def trace_cache_bytes() -> int:
    """How much memory the process-wide cache of traces may hold (ATTENTION_TRACE_CACHE_MB)."""
    default = HOSTED_TRACE_CACHE_MB if hosted() else TRACE_CACHE_MB
    try:
        mb = int(os.environ.get("ATTENTION_TRACE_CACHE_MB", default))
    except ValueError:
        mb = default
    return max(mb, 0) * 2**20
