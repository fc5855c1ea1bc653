"""A tiny app for the browser tests: one random head in the Streamlit head view.

    ?n=8&kind=decoder   tokens on each side and the kind of attention (cross: 5 fewer keys)

The selection lives in session state; a click arrives through on_select. "Select 1,2" changes it
from Python, as a link or another widget would.
"""

import streamlit as st

from attention.ui.head_view.head_component import head_view
from harness.random_sites import random_site

n = int(st.query_params.get("n", 8))
kind = st.query_params.get("kind", "decoder")
site = random_site(n, n - 5 if kind == "cross" else n, kind=kind, d_head=16)
st.session_state.setdefault("sel", (-1, -1))
st.session_state.setdefault("clicks", 0)


def remember(pair: tuple[int, int]) -> None:
    st.session_state.sel = pair
    st.session_state.clicks += 1


def select_from_python() -> None:
    st.session_state.sel = (1, 2)


st.button("Select 1,2", on_click=select_from_python)
sel = head_view(site, 0, st.session_state.sel, key="hv", on_select=remember)
st.text(f"selected={sel[0]},{sel[1]} clicks={st.session_state.clicks}")
