"""Why this word: each prompt token's attribution (integrated gradients and gradient × input) to the
next token's log-probability, as grouped horizontal bars, the prompt read top to bottom."""

from __future__ import annotations

import plotly.graph_objects as go

from attention.plots.heatmaps import EMPTY_TEMPLATE
from attention.plots.labels import escape, label

IG, GXI = "#08519c", "#fd8d3c"


def attribution_figure(tokens: list[str], series: dict[str, list[float]], title: str, x_title: str) -> go.Figure:
    """tokens: the prompt's raw tokens; series: a translated name -> (T,) values, one bar colour each."""
    n = len(tokens)
    shown = [f"{label(tok)} " for tok in tokens]
    fig = go.Figure()
    for (name, values), colour in zip(series.items(), (IG, GXI), strict=False):
        fig.add_trace(go.Bar(x=[float(v) for v in values], y=list(range(n)), orientation="h", name=escape(name),
                             marker={"color": colour}, customdata=[escape(tok) for tok in tokens],
                             hovertemplate="%{customdata}: %{x:.3f}<extra>" + escape(name) + "</extra>"))
    fig.update_layout(
        template=EMPTY_TEMPLATE, title={"text": escape(title), "font": {"size": 13}}, height=80 + 30 * n,
        barmode="group", margin={"l": 110, "r": 30, "t": 36, "b": 36},
        legend={"orientation": "h", "y": -0.12},
        xaxis={"title": escape(x_title), "fixedrange": True, "zeroline": True},
        yaxis={"tickmode": "array", "tickvals": list(range(n)), "ticktext": shown, "autorange": "reversed",
               "fixedrange": True},
    )
    return fig
