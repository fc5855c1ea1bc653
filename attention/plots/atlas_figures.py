"""The atlas drawn: every head coloured by its largest role on the corpus (brightness: that role's share),
one head's shares on the probe and on the corpus, and its queries and keys on one map. Pure: data in,
go.Figure out; every word arrives translated and is escaped here."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from attention.plots.labels import escape

# one hue per role, in ROLES order (analysis/atlas.py), distinguishable in the colour-blind palettes (Okabe–Ito)
ROLE_COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9")
REST_COLOUR = "#BBBBBB"


def _mix(colour: str, share: float) -> str:
    """The role's colour mixed with white: share 0 white, share 1 the full colour."""
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    s = float(np.clip(share, 0.0, 1.0)) if np.isfinite(share) else 0.0
    return "rgb({},{},{})".format(*(round(255 - (255 - c) * s) for c in rgb))


def grid_figure(role_index: np.ndarray, share: np.ndarray, called: np.ndarray, role_names: Sequence[str],
                layer_name: str, head_name: str, hover_role: str, selected: tuple[int, int] | None = None,
                layers: Sequence[int] | None = None) -> go.Figure:
    """role_index, share (layers, heads): each head's largest role and its share; called (layers, heads) bool:
    claims allow the role's name (the cell is labelled with the role's first letter; else "·", greyer)."""
    n_layers, n_heads = share.shape
    layers = list(range(n_layers)) if layers is None else list(layers)
    cells = [(i, h) for i in range(n_layers) for h in range(n_heads)]
    colours = [_mix(ROLE_COLOURS[role_index[i, h]] if called[i, h] else REST_COLOUR, share[i, h]) for i, h in cells]
    labels = [escape(role_names[role_index[i, h]][:1].upper()) if called[i, h] else "·" for i, h in cells]
    hover = [escape(hover_role.format(layer=layers[i], head=h, role=role_names[role_index[i, h]],
                                      share=f"{share[i, h]:.0%}")) for i, h in cells]
    fig = go.Figure(go.Scatter(
        x=[h for _, h in cells], y=[i for i, _ in cells], mode="markers+text", text=labels,
        textfont={"size": 10, "color": "#111111"}, customdata=[[layers[i], h] for i, h in cells],
        marker={"symbol": "square", "size": 17, "color": colours, "line": {"width": 0}},
        hovertext=hover, hovertemplate="%{hovertext}<extra></extra>", showlegend=False,
    ))
    for k, (name, colour) in enumerate(zip(role_names, ROLE_COLOURS, strict=False)):  # a legend entry per role
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name=escape(name),
                                 marker={"symbol": "square", "size": 12, "color": colour}, legendrank=k))
    if selected is not None and selected[0] in layers:
        i = layers.index(selected[0])
        fig.add_shape(type="rect", x0=selected[1] - 0.5, x1=selected[1] + 0.5, y0=i - 0.5, y1=i + 0.5,
                      line={"color": "#000000", "width": 2})
    fig.update_layout(hovermode="closest", height=170 + 19 * n_layers, margin={"l": 50, "r": 10, "t": 60, "b": 40},
                      # the legend in the lower half of a taller top margin: the toolbar, shown on hover at
                      # the top right, covered its last entries (seen at 1,280 px)
                      legend={"orientation": "h", "y": 1.005, "yanchor": "bottom", "x": 0, "xanchor": "left"}, plot_bgcolor="#ffffff",
                      xaxis={"title": head_name, "dtick": 1, "range": [-0.5, n_heads - 0.5], "showgrid": False},
                      yaxis={"title": layer_name, "range": [n_layers - 0.5, -0.5], "showgrid": False,
                             "tickvals": list(range(n_layers)), "ticktext": [str(x) for x in layers]})
    return fig


def shares_figure(corpus: Mapping[str, float], even: Mapping[str, float], probe: Mapping[str, float | None],
                  names: Mapping[str, str], series: tuple[str, str, str], title: str = "") -> go.Figure:
    """Grouped bars per role: the share on the corpus, what an even spread gives, and the probe's score
    (None: the probe has no such measure). series: the three bars' names. Each role's share stands alone
    (they overlap: one weight can count for several roles), so nothing that reads as a remainder of one whole
    ("not one of these") belongs among them: the page says it in words."""
    roles = list(corpus)
    x = [escape(names[r]) for r in roles]
    fig = go.Figure()
    fig.add_bar(x=x, y=[corpus[r] for r in roles], name=escape(series[0]), marker_color="#0072B2")
    fig.add_bar(x=x, y=[even.get(r) for r in roles], name=escape(series[1]), marker_color="#BBBBBB")
    fig.add_bar(x=x, y=[probe.get(r) for r in roles], name=escape(series[2]), marker_color="#E69F00")
    fig.update_layout(barmode="group", height=320, margin={"l": 40, "r": 10, "t": 60 if title else 30, "b": 40},
                      title={"text": escape(title), "font": {"size": 13}} if title else None,
                      yaxis={"range": [0, 1], "tickformat": ".0%"}, legend={"orientation": "h", "y": 1.0,
                                                                             "yanchor": "bottom"})
    return fig


def map_figure(queries: np.ndarray, keys: np.ndarray, query_labels: Sequence[str], key_labels: Sequence[str],
               series: tuple[str, str]) -> go.Figure:
    """Queries (N, 2) and keys (N, 2) on one map; hover: the token and its text."""
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=queries[:, 0], y=queries[:, 1], mode="markers", name=escape(series[0]),
                             marker={"size": 6, "color": "#0072B2", "opacity": 0.7},
                             hovertext=[escape(s) for s in query_labels], hovertemplate="%{hovertext}<extra></extra>"))
    fig.add_trace(go.Scatter(x=keys[:, 0], y=keys[:, 1], mode="markers", name=escape(series[1]),
                             marker={"size": 6, "color": "#E69F00", "symbol": "diamond", "opacity": 0.7},
                             hovertext=[escape(s) for s in key_labels], hovertemplate="%{hovertext}<extra></extra>"))
    fig.update_layout(height=420, margin={"l": 40, "r": 10, "t": 30, "b": 40}, hovermode="closest",
                      yaxis={"scaleanchor": "x"}, legend={"orientation": "h", "y": 1.08})
    return fig
