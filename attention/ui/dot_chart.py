"""q·k by dimension drawn by the page itself (attention/headview/assets/dot.js) under a key that does not
change with the selection: a click sends a few hundred numbers and the same bars move. st.plotly_chart
could not do that: its element's identity includes the figure, so every new pair was a new chart
(thousands of SVG nodes replaced), and building the Plotly figure was the slowest part of the rerun."""

from __future__ import annotations

from typing import Any

import streamlit as st

from attention.headview import page

_DOT = st.components.v2.component("attention_dot", js=page.asset("dot.js"))


def dot_chart(data: dict[str, Any], key: str) -> None:
    """Draw (or move) the chart under `key`; data from attention.headview.dot.dot_data."""
    _DOT(key=key, data=data)
