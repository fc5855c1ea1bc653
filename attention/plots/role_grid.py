"""Every layer × head coloured by one role's score (head_roles.py). Pure: data in, go.Figure out."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go


def role_figure(scores: np.ndarray, title: str, layer_name: str, head_name: str, low_is_role: bool = False,
                height_per_layer: int = 18) -> go.Figure:
    """scores (layers, heads) as a heatmap, layer 0 on top; `low_is_role` reverses the colours (a distance:
    the most local heads darkest). NaN cells (a role that does not apply) stay blank."""
    layers, heads = scores.shape
    z = np.round(np.asarray(scores, dtype=np.float64), 3)
    fig = go.Figure(go.Heatmap(
        z=z, x=list(range(heads)), y=list(range(layers)), colorscale="Blues", reversescale=low_is_role,
        hoverinfo="skip", colorbar={"thickness": 12},
    ))
    # Clicks: plotly returns no point for a heatmap cell, so an invisible marker sits on each cell with its
    # (layer, head) as plain-list customdata (head_grid.head_from_event reads it). The markers carry the
    # hover too: a trace with hoverinfo "skip" fires no click in the browser.
    cells = [(layer, head) for layer in range(layers) for head in range(heads)]
    fig.add_trace(go.Scatter(
        x=[h for _, h in cells], y=[lay for lay, _ in cells], customdata=[[lay, h] for lay, h in cells],
        mode="markers", marker={"symbol": "square", "size": 14, "opacity": 0}, showlegend=False,
        hovertext=[f"{layer_name} {lay} · {head_name} {h}: " + ("–" if np.isnan(z[lay, h]) else f"{z[lay, h]:.3f}")
                   for lay, h in cells],
        hovertemplate="%{hovertext}<extra></extra>",
    ))
    fig.update_layout(hovermode="closest", title=title, height=120 + height_per_layer * layers, margin={"l": 50, "r": 10, "t": 40, "b": 40},
                      # the ranges fixed to the cells: autorange pads for the click markers (layers −2 … 31 of 30)
                      xaxis={"title": head_name, "dtick": 1, "range": [-0.5, heads - 0.5]},
                      yaxis={"title": layer_name, "dtick": 1, "range": [layers - 0.5, -0.5]})  # layer 0 on top
    return fig
