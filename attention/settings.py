"""Deployment settings, read from the environment (or Streamlit secrets on a hosted demo).

ATTENTION_HOSTED=1  hosted mode: no model folders from arbitrary paths, shorter inputs.
"""

from __future__ import annotations

import os

from attention.text_input import MAX_CHARS

HOSTED_MAX_CHARS = 2_000


def hosted() -> bool:
    value = os.environ.get("ATTENTION_HOSTED", "")
    if not value:
        try:  # a Streamlit Community Cloud secret works too
            import streamlit as st

            value = str(st.secrets.get("ATTENTION_HOSTED", ""))
        except Exception:  # no secrets file: not hosted
            value = ""
    return value.strip().lower() in ("1", "true", "yes", "on")


def max_chars() -> int:
    return HOSTED_MAX_CHARS if hosted() else MAX_CHARS
