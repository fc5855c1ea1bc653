"""The proof's curve: the loss on the probe's repeated half against k, with the role's top-k heads off and
with k random heads off (each draw a dot, their mean a line). Pure: numbers in, go.Figure out."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go


def proof_figure(ks: tuple[int, ...], base: float, top: np.ndarray, random: np.ndarray, names: dict[str, str],
                 height: int = 340) -> go.Figure:
    """ks (n,); top (n,); random (n, draws). names: "top", "random", "draws", "base", "k", "loss" (the page's words)."""
    mean = random.mean(axis=1)
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=list(ks), y=np.round(top, 3).tolist(), mode="lines+markers", name=names["top"],
                             line={"color": "#c0392b", "width": 3}))
    fig.add_trace(go.Scatter(x=list(ks), y=np.round(mean, 3).tolist(), mode="lines+markers", name=names["random"],
                             line={"color": "#1f77b4", "width": 2, "dash": "dash"}))
    xs = [k for k in ks for _ in range(random.shape[1])]
    fig.add_trace(go.Scatter(x=xs, y=np.round(random.ravel(), 3).tolist(), mode="markers", name=names["draws"],
                             marker={"color": "#1f77b4", "size": 5, "opacity": 0.45}))
    fig.add_hline(y=base, line={"color": "#555", "dash": "dot"}, annotation_text=names["base"],
                  annotation_position="bottom right")
    fig.update_layout(height=height, margin={"l": 50, "r": 10, "t": 20, "b": 40},
                      xaxis={"title": names["k"], "dtick": 1}, yaxis={"title": names["loss"]},
                      legend={"orientation": "h", "y": -0.25})
    return fig
