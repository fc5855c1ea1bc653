"""The needle page's charts: retrieval scores (layers × heads), the right/wrong grid (lengths × depths), and one
head's top key per written token with the needle's span marked. Every label escaped (plots/labels.py)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from attention.plots.heatmaps import EMPTY_TEMPLATE
from attention.plots.labels import escape

NEEDLE, TOP, SINK = "#fdd49e", "#08519c", "#d95f02"


def score_figure(scores: np.ndarray, title: str, x_title: str, y_title: str, threshold: float = 0.1) -> go.Figure:
    """(layers, heads) retrieval scores as a heatmap, layer 0 on top; cells above the threshold ringed."""
    s = np.asarray(scores, dtype=np.float64)
    layers, heads = s.shape
    fig = go.Figure(go.Heatmap(z=np.round(s, 3).tolist(), x=list(range(heads)), y=list(range(layers)), zmin=0,
                               zmax=max(0.5, float(s.max())), colorscale="Blues",
                               hovertemplate="L%{y} H%{x}: %{z:.2f}<extra></extra>"))
    ys, xs = np.nonzero(s > threshold)
    if ys.size:
        fig.add_trace(go.Scatter(x=xs.tolist(), y=ys.tolist(), mode="markers", hoverinfo="skip", showlegend=False,
                                 marker={"symbol": "square-open", "size": 12, "color": SINK, "line": {"width": 2}}))
    fig.update_layout(template=EMPTY_TEMPLATE, title={"text": escape(title), "font": {"size": 13}},
                      height=max(320, 14 * layers + 90), margin={"l": 50, "r": 10, "t": 40, "b": 40},
                      xaxis={"title": escape(x_title), "dtick": 1, "fixedrange": True},
                      yaxis={"title": escape(y_title), "autorange": "reversed", "fixedrange": True})
    return fig


def grid_figure(accuracy: np.ndarray, lengths: Sequence[int], depths: Sequence[float], title: str, x_title: str,
                y_title: str) -> go.Figure:
    """(lengths, depths) share answered right: green right, red wrong (the classic needle picture)."""
    a = np.asarray(accuracy, dtype=np.float64)
    fig = go.Figure(go.Heatmap(z=a.T.tolist(), x=[str(n) for n in lengths], y=[f"{d:.0%}" for d in depths],
                               zmin=0, zmax=1, colorscale=[[0, "#de2d26"], [0.5, "#fee08b"], [1, "#31a354"]],
                               text=[[f"{v:.0%}" for v in row] for row in a.T.tolist()], texttemplate="%{text}",
                               hovertemplate="%{x} / %{y}: %{z:.0%}<extra></extra>", showscale=False))
    fig.update_layout(template=EMPTY_TEMPLATE, title={"text": escape(title), "font": {"size": 13}}, height=300,
                      margin={"l": 60, "r": 10, "t": 40, "b": 50},
                      xaxis={"title": escape(x_title), "type": "category", "fixedrange": True},
                      yaxis={"title": escape(y_title), "type": "category", "autorange": "reversed",
                             "fixedrange": True})
    return fig


def head_steps_figure(top_keys: Sequence[int], needle_weight: Sequence[float], words: Sequence[str],
                      span: tuple[int, int], n: int, title: str, x_title: str, y_title: str, y2_title: str) -> go.Figure:
    """One head over the written tokens: where its top key lay (position, left axis; the needle's span shaded),
    and its weight on the needle (right axis)."""
    x = list(range(1, len(top_keys) + 1))
    labels = [escape(w) for w in words]
    fig = go.Figure()
    fig.add_hrect(y0=span[0] - 0.5, y1=span[1] - 0.5, fillcolor=NEEDLE, opacity=0.8, line_width=0, layer="below")
    fig.add_trace(go.Scatter(x=x, y=[int(k) for k in top_keys], mode="markers+lines", name=escape(y_title),
                             marker={"color": TOP, "size": 8}, customdata=labels,
                             hovertemplate="%{customdata}: %{y}<extra></extra>"))
    fig.add_trace(go.Scatter(x=x, y=[float(w) for w in needle_weight], mode="lines", name=escape(y2_title),
                             yaxis="y2", line={"color": SINK, "dash": "dot"},
                             hovertemplate="%{y:.2f}<extra></extra>"))
    fig.update_layout(template=EMPTY_TEMPLATE, title={"text": escape(title), "font": {"size": 13}}, height=340,
                      margin={"l": 60, "r": 60, "t": 40, "b": 90},
                      legend={"orientation": "h", "y": -0.3, "yanchor": "top", "x": 0},
                      xaxis={"title": escape(x_title), "tickvals": x, "ticktext": labels, "fixedrange": True},
                      yaxis={"title": escape(y_title), "range": [-1, n], "fixedrange": True},
                      yaxis2={"title": escape(y2_title), "overlaying": "y", "side": "right", "range": [0, 1],
                              "fixedrange": True})
    return fig


def row_figure(row: np.ndarray, span: tuple[int, int], title: str, x_title: str, y_title: str) -> go.Figure:
    """One query's exact row A[i, :] over the key positions (the needle's span shaded): where the head looked."""
    fig = go.Figure()
    fig.add_vrect(x0=span[0] - 0.5, x1=span[1] - 0.5, fillcolor=NEEDLE, opacity=0.8, line_width=0, layer="below")
    fig.add_trace(go.Scatter(x=list(range(len(row))), y=[float(w) for w in row], mode="lines",
                             line={"color": TOP, "width": 1}, hovertemplate="%{x}: %{y:.4f}<extra></extra>"))
    fig.update_layout(template=EMPTY_TEMPLATE, title={"text": escape(title), "font": {"size": 13}}, height=280,
                      margin={"l": 60, "r": 20, "t": 40, "b": 50}, showlegend=False,
                      xaxis={"title": escape(x_title)}, yaxis={"title": escape(y_title), "rangemode": "tozero"})
    return fig


def curve_figure(ks: Sequence[int], top_rate: np.ndarray, random_rates: np.ndarray, title: str, x_title: str,
                 y_title: str, top_name: str, random_name: str) -> go.Figure:
    """The proof over k: the share still right with the top k heads off, and with k random heads off (the draws'
    mean as a line, each draw a dot)."""
    x = [int(k) for k in ks]
    rates = np.asarray(random_rates, dtype=np.float64).reshape(len(x), -1)
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=[k for k in x for _ in range(rates.shape[1])], y=rates.reshape(-1).tolist(),
                             mode="markers", marker={"color": SINK, "size": 6, "opacity": 0.5}, showlegend=False,
                             hovertemplate="k=%{x}: %{y:.0%}<extra></extra>"))
    fig.add_trace(go.Scatter(x=x, y=rates.mean(axis=1).tolist(), mode="lines+markers", name=escape(random_name),
                             line={"color": SINK, "dash": "dot"}, hovertemplate="k=%{x}: %{y:.0%}<extra></extra>"))
    fig.add_trace(go.Scatter(x=x, y=[float(v) for v in top_rate], mode="lines+markers", name=escape(top_name),
                             line={"color": TOP}, marker={"size": 8}, hovertemplate="k=%{x}: %{y:.0%}<extra></extra>"))
    fig.update_layout(template=EMPTY_TEMPLATE, title={"text": escape(title), "font": {"size": 13}}, height=320,
                      margin={"l": 60, "r": 20, "t": 40, "b": 80},
                      legend={"orientation": "h", "y": -0.25, "yanchor": "top", "x": 0},
                      xaxis={"title": escape(x_title), "type": "log", "tickvals": x, "ticktext": [str(k) for k in x],
                             "fixedrange": True},
                      yaxis={"title": escape(y_title), "range": [-0.05, 1.05], "tickformat": ".0%", "fixedrange": True})
    return fig
