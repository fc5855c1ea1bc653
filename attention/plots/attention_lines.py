"""One head's weights A as lines (the picture bertviz's head view made familiar): query words on the
left, key words on the right, a line from each query to the keys it attends to, as thick and as dark
as the weight. Pure: weights and labels in, go.Figure out.

Only what can be seen is sent: per query at most LINES_PER_QUERY lines, none under MIN_WEIGHT, and
lines are grouped into a few traces by weight (plotly sets opacity per trace, not per segment).
Words carry customdata [query_idx, -1] (left) and [-1, key_idx] (right), so clicking one selects it
exactly as clicking a word beside the heatmaps does.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from attention.analysis.selection import NO_SELECTION, Selection
from attention.plots.heatmaps import EMPTY_TEMPLATE, HIGHLIGHT

LINES_MAX_WORDS = 64  # past this many words a side the columns of words cannot be read: heatmaps only
LINES_PER_QUERY = 8
MIN_WEIGHT = 0.02
# (lowest weight, highest weight, line width in px, opacity) of each group of lines
BINS = ((MIN_WEIGHT, 0.1, 1.0, 0.25), (0.1, 0.3, 2.0, 0.4), (0.3, 0.6, 3.5, 0.6), (0.6, 1.01, 5.0, 0.85))
LINE_COLOUR = "#2166ac"
ROW_PX = 22


def drawn_lines(weights: np.ndarray) -> list[tuple[int, int, float]]:
    """(query, key, weight) of every line drawn: each query's strongest keys, at most LINES_PER_QUERY,
    none weaker than MIN_WEIGHT. weights (query_pos, key_pos)."""
    out = []
    for i, row in enumerate(np.asarray(weights)):
        for j in np.argsort(-row, kind="stable")[:LINES_PER_QUERY]:
            if row[j] >= MIN_WEIGHT:
                out.append((i, int(j), float(row[j])))
    return out


def _segments(lines: list[tuple[int, int, float]]) -> tuple[list, list]:
    xs: list = []
    ys: list = []
    for i, j, _ in lines:
        xs += [0, 1, None]
        ys += [i, j, None]
    return xs, ys


def lines_figure(weights: np.ndarray, query_labels: list[str], key_labels: list[str],
                 sel: Selection = NO_SELECTION, title: str = "") -> go.Figure:
    """weights (query_pos, key_pos) of one head. A selected query (or key) keeps its lines in the
    highlight colour and fades the others."""
    lines = drawn_lines(weights)
    chosen = [ln for ln in lines if ln[0] == sel.query or ln[1] == sel.key]
    fade = 0.35 if chosen else 1.0
    fig = go.Figure()
    for low, high, width, opacity in BINS:
        xs, ys = _segments([ln for ln in lines if low <= ln[2] < high])
        if xs:
            fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", hoverinfo="skip", opacity=opacity * fade,
                                     line={"color": LINE_COLOUR, "width": width}, name=f"weights ≥ {low:g}"))
    for i, j, w in chosen:  # one trace per line: each needs its own width
        fig.add_trace(go.Scatter(x=[0, 1], y=[i, j], mode="lines", hoverinfo="skip", name="chosen",
                                 line={"color": HIGHLIGHT, "width": 1 + 5 * w}, opacity=0.9))
    n_q, n_k = len(query_labels), len(key_labels)
    for side, labels, x, place, data in (
        ("query words", query_labels, 0, "middle left", [[i, -1] for i in range(n_q)]),
        ("key words", key_labels, 1, "middle right", [[-1, j] for j in range(n_k)]),
    ):
        picked = sel.query if x == 0 else sel.key
        fig.add_trace(go.Scatter(
            x=[x] * len(labels), y=list(range(len(labels))), mode="markers+text", text=labels, textposition=place,
            textfont={"size": 12, "color": [HIGHLIGHT if k == picked else "#333" for k in range(len(labels))]},
            marker={"size": 8, "color": "#888"}, customdata=data, name=side, hoverinfo="text",
            hovertext=[f"{w} ({k})" for k, w in enumerate(labels)],
        ))
    rows = max(n_q, n_k)
    fig.update_layout(
        template=EMPTY_TEMPLATE, title={"text": title, "x": 0, "font": {"size": 14}}, showlegend=False,
        height=90 + ROW_PX * rows, margin={"l": 10, "r": 10, "t": 50, "b": 10}, hovermode="closest",
        clickmode="event+select", dragmode=False, plot_bgcolor="rgba(0,0,0,0)",
    )
    fig.update_xaxes(range=[-0.8, 1.8], visible=False, fixedrange=True)
    fig.update_yaxes(range=[rows - 0.5, -0.5], visible=False, fixedrange=True)
    return fig
