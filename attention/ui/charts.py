"""The plotly toolbar every chart shares: its camera button downloads PNG or SVG, as chosen in the sidebar."""

from __future__ import annotations

import streamlit as st

from attention.ui.state import Keys

IMAGE_FORMATS = ("png", "svg")


def config(**extra: object) -> dict:
    fmt = st.session_state.get(Keys.IMAGE_FORMAT)
    return {
        "displaylogo": False,
        "toImageButtonOptions": {"format": fmt if fmt in IMAGE_FORMATS else "png", "scale": 2},
        **extra,
    }
