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


def row_hover(row: np.ndarray, kept: np.ndarray, tokens: list[str], kept_fmt: str, evicted_fmt: str) -> list[list[str]]:
    """(heads, n) one hover line per cell: the key, its position and head, kept or evicted and the weight this
    cache's newest query put there (an evicted key's is 0: the query cannot see it). kept_fmt / evicted_fmt:
    translated, with {weight}."""
    heads, n = row.shape
    keys = token_labels(tokens[:n])
    return [[f"{keys[j]} ({j}), h{h}: " + (kept_fmt.format(weight=f"{row[h, j]:.3f}") if kept[h, j] else
                                           evicted_fmt.format(weight="0"))
             for j in range(n)] for h in range(heads)]


def newest_row_figure(row: np.ndarray, kept: np.ndarray, tokens: list[str], title: str, x_title: str,
                      y_title: str, kept_fmt: str, evicted_fmt: str, marked_name: str = "") -> go.Figure:
    """row (heads, n): the evicted cache's newest row per query head; kept (heads, n) bool, each head's keys
    (its key/value head's). Kept cells coloured by weight, evicted ones grey; each cell's hover says which
    (hoverongaps off: the grey layer would otherwise answer for the kept cells under it). Kept keys that stand
    among evicted ones (streaming's sinks, h2o's heavy hitters: a pixel or two wide on a long text) are marked
    with a triangle above the heads (marked_name: its legend and hover word)."""
    heads, n = row.shape
    shown = np.where(kept, row, np.nan)
    grey = np.where(kept, np.nan, 1.0)
    hover = [[escape(c) for c in line] for line in row_hover(row, kept, tokens, kept_fmt, evicted_fmt)]
    fig = go.Figure([
        go.Heatmap(z=shown, x=list(range(n)), y=list(range(heads)), colorscale="Blues", zmin=0.0,
                   zmax=float(np.nanmax(shown)) if np.isfinite(shown).any() else 1.0, customdata=hover,
                   hoverongaps=False, hovertemplate="%{customdata}<extra></extra>", colorbar={"thickness": 10}),
        go.Heatmap(z=grey, x=list(range(n)), y=list(range(heads)), colorscale=[[0, GREY], [1, GREY]], showscale=False,
                   hoverongaps=False, customdata=hover, hovertemplate="%{customdata}<extra></extra>"),
    ])
    islands = kept_islands(kept)
    if islands.size:
        keys = token_labels(tokens[:n])
        fig.add_trace(go.Scatter(x=islands.tolist(), y=[-1.0] * islands.size, mode="markers", name=escape(marked_name),
                                 marker={"symbol": "triangle-down", "size": 11, "color": POLICY}, showlegend=False,
                                 hovertext=[escape(f"{keys[j]} ({j}): {marked_name}") for j in islands],
                                 hovertemplate="%{hovertext}<extra></extra>"))
    fig.update_layout(template=EMPTY_TEMPLATE, title={"text": escape(title), "font": {"size": 13}},
                      height=100 + 22 * heads, margin={"l": 50, "r": 10, "t": 50, "b": 40},
                      xaxis={"title": escape(x_title), "fixedrange": True, "range": [-0.5, n - 0.5]},
                      yaxis={"title": escape(y_title), "autorange": False, "range": [heads - 0.5, -1.5],
                             "tickmode": "array", "tickvals": list(range(heads)), "fixedrange": True})
    return fig


def kept_islands(kept: np.ndarray) -> np.ndarray:
    """Key positions kept by some head before the last evicted key of every head: the kept keys that stand
    among evicted ones rather than in the recent run at the end. kept (heads, n) bool → (m,) int."""
    evicted_any = np.flatnonzero(~kept.all(axis=0))
    if evicted_any.size == 0:
        return np.zeros(0, int)
    last = int(evicted_any.max())
    return np.flatnonzero(kept[:, :last].any(axis=0))


def lost_figure(heads: list[tuple[int, int, float]], x_title: str) -> go.Figure:
    """[(layer, head, weight), …] largest first, as horizontal bars named L{layer}.H{head}; each bar's customdata
    is (layer, head) (plots/head_grid.head_from_event reads a click). The axis ends at 1 at most: a share."""
    names = [f"L{layer}.H{head} " for layer, head, _ in heads]
    values = [w for _, _, w in heads]
    fig = go.Figure(go.Bar(x=values, y=list(range(len(heads))), orientation="h", marker={"color": LOST},
                           text=[f"{w:.3f}" for w in values], textposition="outside", cliponaxis=False,
                           customdata=[[layer, head] for layer, head, _ in heads],  # a click opens its layer
                           hovertemplate="%{x:.4f}<extra></extra>"))
    fig.update_layout(template=EMPTY_TEMPLATE, height=60 + 24 * len(heads), margin={"l": 70, "r": 40, "t": 10, "b": 40},
                      showlegend=False, xaxis={"title": escape(x_title), "range": [0, min(1.0, max([*values, 0.01]) * 1.25)],
                                               "fixedrange": True},
                      yaxis={"tickmode": "array", "tickvals": list(range(len(heads))), "ticktext": names,
                             "autorange": "reversed", "fixedrange": True})
    return fig
