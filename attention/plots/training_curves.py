"""Figures of training: curves over snapshot steps. Pure: numbers in, go.Figure out."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from attention.plots.heatmaps import EMPTY_TEMPLATE


def curves_figure(steps: list[int], curves: dict[str, np.ndarray], title: str, y_title: str,
                  marker_step: int | None = None, x_title: str = "step") -> go.Figure:
    """One line per named curve over training steps (x on a log scale: most change is early). The
    curves' names are their legend; every word is a parameter (the app passes translated ones)."""
    x = [max(s, 1) for s in steps]  # step 0 drawn at 1 on the log axis
    fig = go.Figure()
    for name, values in curves.items():
        fig.add_trace(go.Scatter(x=x, y=np.asarray(values, dtype=float), mode="lines+markers", name=name))
    if marker_step is not None:
        fig.add_vline(x=max(marker_step, 1), line={"color": "#ff7f0e", "dash": "dot"})
    fig.update_xaxes(type="log", title_text=x_title)
    fig.update_yaxes(title_text=None if y_title == title else y_title)  # said once: the title names the axis
    fig.update_layout(template=EMPTY_TEMPLATE, height=280, title={"text": title, "x": 0, "font": {"size": 13}},
                      margin={"l": 50, "r": 10, "t": 40, "b": 40}, legend={"orientation": "h", "y": -0.3})
    return fig


def loss_figure(loss: list[float], title: str, marker_step: int | None = None, y_title: str = "cross-entropy",
                x_title: str = "step", name: str = "loss") -> go.Figure:
    steps = list(range(1, len(loss) + 1))
    return curves_figure(steps, {name: np.asarray(loss)}, title, y_title, marker_step, x_title)
