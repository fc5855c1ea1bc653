"""Figures that take one selection apart: q·k by dimension, a row of Z as a sum, a row's weights at
a chosen temperature. Pure: anatomy objects and label strings in, go.Figure out."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from attention.analysis.anatomy import DotAnatomy, RowPipeline, SumAnatomy
from attention.analysis.qk_space import QKSpace
from attention.plots.heatmaps import EMPTY_TEMPLATE, HIGHLIGHT

POSITIVE, NEGATIVE = "#d6604d", "#4393c3"  # the S colour scale's red and blue
Q_COLOUR, K_COLOUR = "#762a83", "#1b7837"


def _base(fig: go.Figure, height: int, title: str = "") -> go.Figure:
    fig.update_layout(
        template=EMPTY_TEMPLATE, height=height, margin={"l": 50, "r": 10, "t": 40 if title else 10, "b": 40},
        title={"text": title, "x": 0, "font": {"size": 13}}, legend={"orientation": "h", "y": -0.15},
        bargap=0.15,
    )
    return fig


def dot_figure(
    anat: DotAnatomy,
    sort: bool,
    q_label: str,
    k_label: str,
    sum_text: str,
    vectors_title: str,
    terms_title: str,
    dimension_word: str,
    terms_range: tuple[float, float] | None = None,
) -> go.Figure:
    """Top: q and k side by side per dimension. Bottom: q_d·k_d, red where signs agree, blue where
    they disagree, with the sum (= the cell of S) written above."""
    order = anat.order(sort)
    x = [f"d{d}" for d in order]
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.12,
                        subplot_titles=(vectors_title, terms_title), row_heights=[0.45, 0.55])
    fig.add_trace(go.Bar(x=x, y=anat.q[order], name=f"q ({q_label})", marker_color=Q_COLOUR), row=1, col=1)
    fig.add_trace(go.Bar(x=x, y=anat.k[order], name=f"k ({k_label})", marker_color=K_COLOUR), row=1, col=1)
    terms = anat.terms[order]
    fig.add_trace(
        go.Bar(x=x, y=terms, name="q_d·k_d", marker_color=[POSITIVE if t > 0 else NEGATIVE for t in terms],
               showlegend=False, hovertemplate="%{x}: %{y:.4f}<extra></extra>"),
        row=2, col=1,
    )
    fig.add_annotation(text=sum_text, xref="paper", yref="paper", x=1, y=0.5, xanchor="right", showarrow=False,
                       font={"size": 13, "color": "black"}, bgcolor="rgba(255,255,255,0.8)")
    fig.update_xaxes(title_text=dimension_word, row=2, col=1, tickfont={"size": 9})
    if terms_range is not None:
        fig.update_yaxes(range=list(terms_range), row=2, col=1)
    fig.update_layout(barmode="group")
    fig = _base(fig, 480)
    fig.update_layout(margin={"t": 36})  # the upper subplot's title sits above the plot area
    return fig


def terms_range(*anats: DotAnatomy) -> tuple[float, float]:
    """One y range for several term charts, so a side-by-side comparison is fair."""
    lo = min(float(a.terms.min()) for a in anats)
    hi = max(float(a.terms.max()) for a in anats)
    pad = 0.05 * (hi - lo or 1.0)
    return min(lo, 0.0) - pad, max(hi, 0.0) + pad


def sum_figure(anat: SumAnatomy, key_labels: list[str], total_text: str, others_text: str, title: str,
               top_n: int = 6, dimension_word: str = "") -> go.Figure:
    """Row of Z as stacked contributions weight_j·V_j (the top_n strongest words, strongest first in
    the legend, each with its position so a repeated word is told apart; the rest summed), with the
    total — the row of Z — as a black line over them."""
    d_head = anat.total.shape[0]
    x = list(range(d_head))
    strongest = sorted((int(j) for j in anat.strongest(top_n)), key=lambda j: -float(anat.weights[j]))
    fig = go.Figure()
    for j in strongest:
        name = f"{key_labels[j]} ({j}) · w = {anat.weights[j]:.3f}"
        fig.add_trace(go.Bar(x=x, y=anat.contributions[j], name=name,
                             hovertemplate="%{x}: %{y:.4f}<extra>" + f"{key_labels[j]} ({j})" + "</extra>"))
    rest = [j for j in range(len(key_labels)) if j not in strongest]
    if rest:
        fig.add_trace(go.Bar(x=x, y=anat.contributions[rest].sum(axis=0), name=others_text,
                             marker_color="#bbbbbb"))
    fig.add_trace(go.Scatter(x=x, y=anat.total, mode="lines+markers", name=total_text,
                             line={"color": "black", "width": 2}, marker={"size": 5}))
    fig.update_layout(barmode="relative")
    fig.update_xaxes(tickfont={"size": 9}, title_text=dimension_word)
    fig = _base(fig, 440, title)
    fig.update_layout(legend={"traceorder": "normal", "y": -0.25})  # stacked bars would list them reversed
    return fig


def temperature_figure(at_t: RowPipeline, model: RowPipeline, key_labels: list[str], t_text: str,
                       model_text: str, title: str) -> go.Figure:
    """The row's weights at the chosen temperature beside the model's own (T = 1)."""
    x = list(range(len(key_labels)))
    fig = go.Figure()
    fig.add_trace(go.Bar(x=x, y=model.weights, name=model_text, marker_color="#9ecae1"))
    fig.add_trace(go.Bar(x=x, y=at_t.weights, name=t_text, marker_color="#08519c"))
    fig.update_xaxes(tickmode="array", tickvals=x, ticktext=key_labels, tickangle=-45)
    fig.update_yaxes(range=[0, max(1e-9, float(np.max([at_t.weights.max(), model.weights.max()]))) * 1.1])
    fig.update_layout(barmode="group")
    fig = _base(fig, 380, title)
    # the legend below the rotated word labels, not on them: placed from the figure's bottom edge
    fig.update_layout(legend={"orientation": "h", "yref": "container", "y": 0.0, "yanchor": "bottom"},
                      margin={"b": 120})
    return fig


def input_figure(x: np.ndarray, title: str, parts: dict[str, np.ndarray] | None = None,
                 parts_title: str = "", sum_text: str = "") -> go.Figure:
    """The word's input vector x over the d_model dimensions. In the first layer, below it on its own
    scale, the embeddings it is made of and their sum (x is that sum normalised, so drawn on x's
    scale the parts would lie flat near 0)."""
    dims = list(range(x.shape[0]))
    if not parts:
        fig = go.Figure(go.Scatter(x=dims, y=x, mode="lines", name="x", line={"color": "black", "width": 1.5}))
        return _base(fig, 260, title)
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.16, subplot_titles=(title, parts_title))
    fig.add_trace(go.Scatter(x=dims, y=x, mode="lines", name="x", line={"color": "black", "width": 1.5}), row=1, col=1)
    for name, part in parts.items():
        fig.add_trace(go.Scatter(x=dims, y=part, mode="lines", name=name, line={"width": 1}), row=2, col=1)
    total = np.sum(list(parts.values()), axis=0)
    fig.add_trace(go.Scatter(x=dims, y=total, mode="lines", name=sum_text, line={"color": "#555", "width": 1.5,
                                                                                 "dash": "dot"}), row=2, col=1)
    fig = _base(fig, 460)
    fig.update_layout(margin={"t": 40}, legend={"y": -0.12})
    return fig


def projection_figure(recomputed: dict[str, np.ndarray], from_model: dict[str, np.ndarray], ours: str,
                      model: str, title: str) -> go.Figure:
    """q, k, v of the word for this head: x·Wᵀ + b as bars, the model's values as dots on them."""
    fig = make_subplots(rows=1, cols=3, subplot_titles=("q = x·W_Q + b_Q", "k = x·W_K + b_K", "v = x·W_V + b_V"))
    for col, name in enumerate("qkv", start=1):
        dims = list(range(recomputed[name].shape[0]))
        fig.add_trace(go.Bar(x=dims, y=recomputed[name], name=ours, marker_color="#9ecae1",
                             showlegend=col == 1), row=1, col=col)
        fig.add_trace(go.Scatter(x=dims, y=from_model[name], mode="markers", name=model,
                                 marker={"color": "black", "size": 4}, showlegend=col == 1), row=1, col=col)
    fig = _base(fig, 330, title)
    # the figure's title on its own line above the three subplot titles
    fig.update_layout(margin={"t": 76}, title={"y": 0.98, "yanchor": "top", "yref": "container"})
    return fig


LABELLED_MAX = 40  # words written beside their points up to this many per side; beyond, hover only
PLOT_PX = (600.0, 380.0)  # the q/k map's plot area at its narrowest usual width (1280 px screens)
CHAR_PX, LINE_PX, GAP_PX = 6.6, 14.0, 6.0  # an 11 px label: width per character, height, gap to its point


def spread_labels(keys: np.ndarray, queries: np.ndarray, key_labels: list[str], query_labels: list[str],
                  order: list[tuple[str, int]]) -> tuple[list[str], list[str]]:
    """The labels to write beside the points so that no two overlap: taken in `order` (("k"|"q",
    index), most important first), each kept only if its box — above a key, below a query, at the
    map's equal scale — clears every box kept before it. The others are left to the hover."""
    points = np.vstack([keys, queries, np.zeros((1, 2))])
    span = np.maximum(points.max(axis=0) - points.min(axis=0), 1e-9) * 1.15  # plotly's padding, roughly
    scale = min(PLOT_PX[0] / span[0], PLOT_PX[1] / span[1])  # px per unit: one scale for both axes
    kept: list[tuple[float, float, float, float]] = []
    out = {"k": [""] * len(key_labels), "q": [""] * len(query_labels)}
    for side, i in order:
        x, y = (keys if side == "k" else queries)[i] * scale
        text = (key_labels if side == "k" else query_labels)[i]
        half = CHAR_PX * len(text) / 2
        top = -y - GAP_PX - LINE_PX if side == "k" else -y + GAP_PX  # screen y grows downwards
        box = (x - half, top, x + half, top + LINE_PX)
        if all(box[2] <= b[0] or b[2] <= box[0] or box[3] <= b[1] or b[3] <= box[1] for b in kept):
            kept.append(box)
            out[side][i] = text
    return out["k"], out["q"]


def qk_figure(space: QKSpace, query_labels: list[str], key_labels: list[str], query: int | None,
              weights_row: np.ndarray | None, names: tuple[str, str], title: str) -> go.Figure:
    """Queries (●) and keys (◆) on the two shared axes, from the origin (+), equal scale so directions
    read true. With a query chosen: a dashed arrow from the origin to it (the direction its keys are
    measured along), and lines to the keys it gives ≥ 5% of its attention, as thick as the weight."""
    fig = go.Figure()
    q_name, k_name = names
    fig.add_trace(go.Scatter(x=[0], y=[0], mode="markers", hoverinfo="skip", showlegend=False, name="origin",
                             marker={"symbol": "cross-thin", "size": 14, "color": "#555", "line": {"width": 2}}))
    if query is not None:
        x, y = space.queries[query]
        fig.add_trace(go.Scatter(x=[0, x], y=[0, y], mode="lines", hoverinfo="skip", showlegend=False,
                                 name="direction", line={"color": Q_COLOUR, "width": 1.5, "dash": "dash"}))
    if query is not None and weights_row is not None:
        strong = [j for j in np.argsort(-weights_row)[:8] if weights_row[j] >= 0.05]
        for j in strong:
            (x0, y0), (x1, y1) = space.queries[query], space.keys[j]
            fig.add_trace(go.Scatter(x=[x0, x1], y=[y0, y1], mode="lines", hoverinfo="skip", showlegend=False,
                                     line={"color": Q_COLOUR, "width": 1 + 9 * float(weights_row[j])},
                                     opacity=0.35, name=f"to {j}"))
    by_weight = [] if weights_row is None else [int(j) for j in np.argsort(-weights_row)]
    order = ([("q", query)] if query is not None else []) + [("k", j) for j in by_weight]
    order += [("k", j) for j in range(len(key_labels)) if j not in by_weight]
    order += [("q", i) for i in range(len(query_labels)) if i != query]
    written = spread_labels(space.keys, space.queries, key_labels, query_labels, order)
    for points, labels, shown, name, colour, symbol, place in (
        (space.keys, key_labels, written[0], k_name, K_COLOUR, "diamond", "top center"),
        (space.queries, query_labels, written[1], q_name, Q_COLOUR, "circle", "bottom center"),
    ):
        write = len(labels) <= LABELLED_MAX
        fig.add_trace(go.Scatter(
            x=points[:, 0].round(4).tolist(), y=points[:, 1].round(4).tolist(), name=name,
            mode="markers+text" if write else "markers", text=shown if write else None, textposition=place,
            textfont={"size": 11, "color": colour}, marker={"symbol": symbol, "size": 9, "color": colour},
            hovertext=[f"{name}: {w} ({i})" for i, w in enumerate(labels)], hoverinfo="text",
        ))
    if query is not None:
        x, y = space.queries[query]
        fig.add_trace(go.Scatter(x=[x], y=[y], mode="markers", hoverinfo="skip", showlegend=False, name="chosen",
                                 marker={"symbol": "circle-open", "size": 20, "color": HIGHLIGHT,
                                         "line": {"width": 3}}))
    fig = _base(fig, 460, title)
    fig.update_xaxes(zeroline=True, zerolinecolor="#ddd", showgrid=False, showticklabels=False)
    fig.update_yaxes(zeroline=True, zerolinecolor="#ddd", showgrid=False, showticklabels=False,
                     scaleanchor="x", scaleratio=1)
    return fig
