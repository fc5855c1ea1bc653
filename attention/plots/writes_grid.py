"""What each head writes: a layer × head grid of every head's direct share of one logit (red up, blue down,
centred on 0), clickable as every heatmap of the app (customdata [row, head]). Pure: data in, go.Figure out."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from attention.params.selection import NO_SELECTION, Selection
from attention.plots import heatmaps

ROW_PX = 18  # px per layer row: 30 layers in about 600 px


def writes_figure(parts: np.ndarray, row_labels: list[str], col_labels: list[str], title: str,
                  axis_names: tuple[str, str], sel: Selection = NO_SELECTION, top: float | None = None,
                  hover: list[str] | None = None) -> go.Figure:
    """A clickable grid of what each head writes.

    Args:
        parts: (L, H) in logits; the colour scale is symmetric around 0, so a head's sign reads at a glance.
        row_labels, col_labels: L layer names and H head names.
        sel: the chosen cell (layer row, head), outlined.
        top: the scale's end ±top (shared by grids drawn side by side); None: this grid's largest |part|.
        hover: L·H texts, row by row, shown over the cells (None: "row → column: value").
    Returns:
        The figure; the word dots of the app's matrices (select a query or key word) are left out: a layer or a
        head alone selects nothing here."""
    if top is None:
        top = float(np.max(np.abs(parts))) if parts.size else 0.0
    fig = heatmaps.matrix_figure(parts, row_labels, col_labels, title=title, colorscale="RdBu_r", zmid=0.0,
                                 zmin=-max(top, 1e-9), zmax=max(top, 1e-9), fmt=".3f", sel=sel,
                                 axis_names=axis_names)
    fig.data = tuple(tr for tr in fig.data if tr.name != "key words")
    fig.update_traces(mode="text", hoverinfo="skip", customdata=None, selector={"name": "query words"})
    if hover is not None:
        fig.update_traces(text=hover, selector={"name": "cells"})
    fig.update_layout(height=max(260, 120 + ROW_PX * parts.shape[0]))
    return fig
