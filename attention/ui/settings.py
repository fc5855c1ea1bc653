"""Deployment settings, read from the environment (or Streamlit secrets on a hosted demo).

ATTENTION_HOSTED=1            hosted mode: no model folders from arbitrary paths, shorter inputs.
ATTENTION_CACHE_MB=1024       memory for what the app keeps between clicks (models, traces, translations,
                              overviews), shared by every session (256 when hosted; at most 64 entries).
"""

from __future__ import annotations

import os

from attention.analysis.text_input import MAX_CHARS

HOSTED_MAX_CHARS = 2_000
CACHE_MB = 1_024  # a fully recomputed 512-token MiniLM trace is about 255 MB, the model 91 MB
HOSTED_CACHE_MB = 256  # a hosted demo may have 690 MB in all: 91 MB of model + the old 128 MB for traces + room


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


def cache_bytes() -> int:
    """How much memory the app's one cache may hold (ATTENTION_CACHE_MB)."""
    default = HOSTED_CACHE_MB if hosted() else CACHE_MB
    try:
        mb = int(os.environ.get("ATTENTION_CACHE_MB", default))
    except ValueError:
        mb = default
    return max(mb, 0) * 2**20
