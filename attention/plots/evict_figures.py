"""The Forget page's charts: KL per written word (a policy against window), the newest attention row of one
layer with the evicted keys in grey, and the heads that lost most. Every label escaped (plots/labels.py)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from attention.plots.heatmaps import EMPTY_TEMPLATE
from attention.plots.labels import escape, token_labels

POLICY, WINDOW, GREY, LOST = "#08519c", "#d95f02", "#bdbdbd", "#e6550d"


def kl_figure(kl: list[float], name: str, window_kl: list[float] | None, window_name: str, title: str,
              x_title: str, y_title: str) -> go.Figure:
    """One line per policy: KL(full ‖ evicted) after each written word (1, 2, …)."""
    fig = go.Figure()
    lines = [(kl, name, POLICY, "solid")] + ([(window_kl, window_name, WINDOW, "dash")] if window_kl is not None else [])
    for values, label_, colour, dash in lines:
        fig.add_trace(go.Scatter(x=list(range(1, len(values) + 1)), y=[float(v) for v in values], name=escape(label_),
                                 mode="lines+markers", line={"color": colour, "dash": dash},
                                 hovertemplate="%{x}: %{y:.3f}<extra>" + escape(label_) + "</extra>"))
    fig.update_layout(template=EMPTY_TEMPLATE, title={"text": escape(title), "font": {"size": 13}}, height=320,
                      # the legend in its own band under the axis title (at y −0.25 it covered the title at 390 px)
                      margin={"l": 50, "r": 10, "t": 40, "b": 90},
                      legend={"orientation": "h", "y": -0.32, "yanchor": "top", "x": 0},
                      xaxis={"title": escape(x_title), "dtick": 1, "fixedrange": True},
                      yaxis={"title": escape(y_title), "rangemode": "tozero", "fixedrange": True})
    return fig


def newest_row_figure(row: np.ndarray, kept: np.ndarray, tokens: list[str], title: str, x_title: str,
                      y_title: str, evicted_word: str) -> go.Figure:
    """row (heads, n): the evicted cache's newest row per query head; kept (heads, n) bool, each head's keys
    (its key/value head's). Kept cells coloured by weight, evicted ones grey."""
    heads, n = row.shape
    shown = np.where(kept, row, np.nan)
    grey = np.where(kept, np.nan, 1.0)
    keys = token_labels(tokens[:n])
    hover = [[keys[j] for j in range(n)] for _ in range(heads)]
    fig = go.Figure([
        go.Heatmap(z=shown, x=list(range(n)), y=list(range(heads)), colorscale="Blues", zmin=0.0,
                   zmax=float(np.nanmax(shown)) if np.isfinite(shown).any() else 1.0, customdata=hover,
                   hovertemplate="%{customdata} (%{x}), h%{y}: %{z:.3f}<extra></extra>", colorbar={"thickness": 10}),
        go.Heatmap(z=grey, x=list(range(n)), y=list(range(heads)), colorscale=[[0, GREY], [1, GREY]], showscale=False,
                   customdata=hover, hovertemplate="%{customdata} (%{x}), h%{y}: " + escape(evicted_word) + "<extra></extra>"),
    ])
    fig.update_layout(template=EMPTY_TEMPLATE, title={"text": escape(title), "font": {"size": 13}},
                      height=90 + 22 * heads, margin={"l": 50, "r": 10, "t": 40, "b": 40},
                      xaxis={"title": escape(x_title), "fixedrange": True},
                      yaxis={"title": escape(y_title), "autorange": "reversed", "tickmode": "array",
                             "tickvals": list(range(heads)), "fixedrange": True})
    return fig


def lost_figure(heads: list[tuple[int, int, float]], x_title: str) -> go.Figure:
    """[(layer, head, weight), …] largest first, as horizontal bars named L{layer}.H{head}."""
    names = [f"L{layer}.H{head} " for layer, head, _ in heads]
    values = [w for _, _, w in heads]
    fig = go.Figure(go.Bar(x=values, y=list(range(len(heads))), orientation="h", marker={"color": LOST},
                           text=[f"{w:.3f}" for w in values], textposition="outside", cliponaxis=False,
                           hovertemplate="%{x:.4f}<extra></extra>"))
    fig.update_layout(template=EMPTY_TEMPLATE, height=60 + 24 * len(heads), margin={"l": 70, "r": 40, "t": 10, "b": 40},
                      showlegend=False, xaxis={"title": escape(x_title), "range": [0, max([*values, 0.01]) * 1.25],
                                               "fixedrange": True},
                      yaxis={"tickmode": "array", "tickvals": list(range(len(heads))), "ticktext": names,
                             "autorange": "reversed", "fixedrange": True})
    return fig
