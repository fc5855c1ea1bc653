"""Session state <-> URL: the link carries sentence, model view and selection, so it reopens the view."""

from __future__ import annotations

import streamlit as st

from attention.selection import Selection, from_params, to_params

URL_KEYS = ("lang", "text", "kind", "layer", "head")  # widget keys mirrored in the URL, besides q and k


def init_from_url(defaults: dict[str, object]) -> None:
    """Once per session, seed the widget keys from the URL (or the defaults)."""
    if st.session_state.get("_url_loaded"):
        return
    params = st.query_params.to_dict()
    for key in URL_KEYS:
        if key in params:
            st.session_state[key] = params[key]
        elif key in defaults:
            st.session_state[key] = defaults[key]
    set_selection(from_params(params))
    st.session_state["_url_loaded"] = True


def get_selection(scope: str = "") -> Selection:
    """The selection of one group of charts; scope "" is the one the URL carries (Explore's)."""
    return Selection(st.session_state.get(f"sel{scope}_q"), st.session_state.get(f"sel{scope}_k"))


def set_selection(sel: Selection, scope: str = "") -> None:
    st.session_state[f"sel{scope}_q"] = sel.query
    st.session_state[f"sel{scope}_k"] = sel.key


def write_url(values: dict[str, object]) -> None:
    """Mirror the current view into the URL (only what changed, to avoid needless history)."""
    wanted = {k: str(v) for k, v in values.items() if v is not None}
    wanted.update(to_params(get_selection()))
    current = st.query_params.to_dict()
    if current != wanted:
        st.query_params.from_dict(wanted)


def int_choice(key: str, options: list[int]) -> None:
    """Coerce a URL-seeded widget value into one of the options before the widget is drawn."""
    raw = st.session_state.get(key)
    try:
        value = int(raw)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        value = options[0]
    st.session_state[key] = value if value in options else options[0]


def str_choice(key: str, options: list[str]) -> None:
    """Keep a choice valid; when it is missing, take it from the URL first (the link is the memory)."""
    if st.session_state.get(key) not in options:
        from_url = st.query_params.get(key)
        st.session_state[key] = from_url if from_url in options else options[0]
