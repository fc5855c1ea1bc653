"""The language the person chose (sidebar, remembered in the URL) and the translated strings."""

from __future__ import annotations

import streamlit as st

from attention import i18n
from attention.ui.state import Keys


def lang() -> str:
    value = st.session_state.get(Keys.LANG, i18n.DEFAULT_LANGUAGE)
    return value if value in i18n.LANGUAGES else i18n.DEFAULT_LANGUAGE


def t(key: str, **values: object) -> str:
    return i18n.t(key, lang(), **values)


def kind_title(kind: str) -> str:
    return t(f"kind.{kind}")


def formatter(prefix: str):
    """A widget format_func for option values named `prefix + value`, bound to the language now in
    force (so it gives the same labels when called outside the script run, as AppTest does)."""
    current = lang()
    return lambda value: i18n.t(f"{prefix}{value}", current)
