"""Explore's model picker: the built-in models Explore shows (MiniLM, SmolLM2) and, off a hosted demo, the
folder named in the sidebar or the link. It writes the sidebar's model (Keys.MODEL_PATH), so every page that
reads the sidebar's model follows, and the link keeps it."""

from __future__ import annotations

import streamlit as st

from attention import sources
from attention.ui.hosting import cache, settings
from attention.ui.lang import t
from attention.ui.state import Keys

PICKER = "explore_model"  # the selectbox (mirrors Keys.MODEL_PATH)
DEFAULT = "minilm"  # what an empty sidebar field stands for


def options() -> list[str]:
    """Built-in sources whose home is Explore, then a folder named in the sidebar (not on a hosted demo)."""
    names = [n for n in sources.names() if sources.get(n).home == "explore"]
    folder = str(st.session_state.get(Keys.MODEL_PATH) or "").strip()
    if folder and folder.lower() not in names and not settings.hosted():
        names.append(folder)
    return names


def current() -> str:
    folder = str(st.session_state.get(Keys.MODEL_PATH) or "").strip()
    return folder.lower() if folder.lower() in sources.names() else folder or DEFAULT


def picked() -> None:
    """The picker's callback: the sidebar's model follows (an empty field for the default model)."""
    value = st.session_state.get(PICKER, DEFAULT)
    st.session_state[Keys.MODEL_PATH] = "" if cache.source(value) == cache.source(None) else value


def picker() -> None:
    names = options()
    now = current()
    st.session_state[PICKER] = now if now in names else DEFAULT
    labels = {name: cache.source(name).label() for name in names}
    st.selectbox(t("explore.model"), names, key=PICKER, format_func=labels.get, on_change=picked,
                 help=t("explore.model_help"))
