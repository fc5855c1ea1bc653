"""Figures of "Does it matter?": value-weighted attention as a clickable matrix, the log-probability
each word lost, a per-position cosine, and source words under four measures. Data in, go.Figure out;
every word shown is a parameter (the app passes translated ones)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from attention.params.selection import NO_SELECTION, Selection
from attention.analysis.value_weighted import head_value_weighted
from attention.plots.heatmaps import EMPTY_TEMPLATE, label, matrix_figure, token_labels
from attention.trace import Site


def value_weighted_figure(site: Site, head: int, sel: Selection = NO_SELECTION, title: str = "‖α·v‖ (share)",
                          masked_text: str = "masked", axis_names: tuple[str, str] = ("query", "key")) -> go.Figure:
    """Each key's share of the query's output, ‖α_ij·v_j‖ normalised per row; clickable like A."""
    vw = np.where(site.masked, np.nan, head_value_weighted(site, head))
    return matrix_figure(
        vw, token_labels(site.query_tokens), token_labels(site.key_tokens), title=title,
        colorscale="Purples", zmin=0.0, zmax=1.0, fmt=".4f", sel=sel, masked=site.masked, masked_text=masked_text,
        weights_emphasis=True, axis_names=axis_names)


def _bars(words: list[str], title: str, y_title: str) -> go.Figure:
    fig = go.Figure()
    fig.update_layout(template=EMPTY_TEMPLATE, title={"text": title, "font": {"size": 13}}, height=300,
                      margin={"l": 50, "r": 10, "t": 40, "b": 60}, yaxis_title=y_title, bargap=0.25,
                      xaxis={"tickmode": "array", "tickvals": list(range(len(words))),
                             "ticktext": [label(w) for w in words]})
    return fig


def drop_figure(words: list[str], drops: np.ndarray, title: str, y_title: str) -> go.Figure:
    """Per original word, the log-probability it lost with the heads off (red: lost, blue: gained)."""
    fig = _bars(words, title, y_title)
    colours = ["#d62728" if d > 0 else "#1f77b4" for d in drops]
    fig.add_trace(go.Bar(x=list(range(len(words))), y=[float(d) for d in drops], marker_color=colours,
                         hovertemplate="%{y:.2e}<extra></extra>"))
    fig.update_yaxes(exponentformat="e")  # 4e-05 nats, as the caption writes it, never "40μ" (micro-nats)
    return fig


def cosine_figure(tokens: list[str], cosines: np.ndarray, title: str, y_title: str) -> go.Figure:
    """Per position, the cosine between the final hidden states with and without the heads."""
    fig = _bars(tokens, title, y_title)
    fig.add_trace(go.Bar(x=list(range(len(tokens))), y=[float(c) for c in cosines], marker_color="#2ca02c",
                         hovertemplate="%{y:.5f}<extra></extra>"))
    low = float(min(np.min(cosines), 0.99))
    fig.update_yaxes(range=[max(-1.0, low - 0.01), 1.0005])
    return fig


def measures_figure(source_words: list[str], measures: dict[str, np.ndarray], names: dict[str, str], title: str,
                    y_title: str) -> go.Figure:
    """Source words under several measures side by side, each scaled so its largest |value| is 1
    (attention sums to 1, attributions are in log-probability: only the shapes compare)."""
    fig = _bars(source_words, title, y_title)
    x = list(range(len(source_words)))
    for key, values in measures.items():
        v = np.asarray(values, dtype=np.float64)
        peak = float(np.max(np.abs(v))) or 1.0
        fig.add_trace(go.Bar(x=x, y=(v / peak).tolist(), name=names.get(key, key),
                             customdata=v.tolist(), hovertemplate="%{customdata:.4f}<extra>%{fullData.name}</extra>"))
    fig.update_layout(barmode="group", legend={"orientation": "h", "y": -0.25})
    return fig
