"""Every plotly chart of the app goes through show(): the toolbar (its camera button downloads PNG or SVG,
as chosen in the sidebar) and a band at the top of the figure kept free for that toolbar.

Plotly draws its toolbar over the figure's top right corner when the pointer is on the chart, over the
title or a subplot's title (at 390 px a title spans the whole width). Plotly has no setting to put it
elsewhere, so every figure is made MODEBAR_BAND px taller at the top and everything in it moves down
by that much: the plot area with the top margin, a title measured from the top edge by the same amount."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go
import streamlit as st

from attention.plots.title_wrap import wrap_title
from attention.ui.state import Keys

IMAGE_FORMATS = ("png", "svg")
MODEBAR_BAND = 30  # px: plotly's toolbar sits 2 px from the top, its buttons 22 px high; a few px to spare
PLOTLY_HEIGHT = 450  # px: plotly's height when a figure sets none


def config(**extra: object) -> dict:
    fmt = st.session_state.get(Keys.IMAGE_FORMAT)
    return {
        "displaylogo": False,
        "toImageButtonOptions": {"format": fmt if fmt in IMAGE_FORMATS else "png", "scale": 2},
        **extra,
    }


def toolbar_band(fig: go.Figure) -> go.Figure:
    """`fig` with MODEBAR_BAND px more at the top, and a long title wrapped (wrap_title) with a line's
    room more for each added line; a title measured from the top edge moves down with the rest. Once
    per figure (a figure shown twice is not moved twice). Returns fig."""
    if getattr(fig, "_toolbar_band", False):
        return fig
    layout = fig.layout
    height = layout.height or PLOTLY_HEIGHT
    top = layout.margin.t if layout.margin.t is not None else 100  # plotly's default top margin
    title, grow = layout.title, MODEBAR_BAND
    if title.text and title.yref != "paper":  # a title in the paper's frame moves with the plot area
        line = round(1.3 * (title.font.size or 17))  # px: one line of the title
        text = wrap_title(title.text)
        grow += line * (text.count("<br>") - title.text.count("<br>"))
        if title.y is None:  # plotly's "auto": the middle of the top margin
            first = top / 2 - line / 2
        elif title.yanchor == "top" or (title.yanchor in (None, "auto") and title.y > 2 / 3):
            first = (1 - title.y) * height
        else:
            first = (1 - title.y) * height - line / 2
        # its first line's top where it was, below the band; added lines take room from the plot area's top
        title.text, title.yref, title.yanchor = text, "container", "top"
        title.y = 1 - (max(first, 0) + MODEBAR_BAND) / (height + grow)
    # set one by one, not by update_layout (whose batch costs ~2 ms a chart): the same keys in the same order
    layout.margin.t = top + grow
    layout.height = height + grow
    fig._toolbar_band = True
    return fig


def show(fig: go.Figure, where: Any = None, **kwargs: Any) -> Any:
    """st.plotly_chart(fig, **kwargs) in `where` (a column or container; None: the page), with the
    toolbar's band (toolbar_band) and config() unless the call brings its own."""
    kwargs.setdefault("config", config())
    return (st if where is None else where).plotly_chart(toolbar_band(fig), **kwargs)
