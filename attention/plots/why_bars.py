"""Why this word: each prompt token's attribution (integrated gradients and gradient × input) to the
next token's log-probability, as grouped horizontal bars, the prompt read top to bottom."""

from __future__ import annotations

import plotly.graph_objects as go

from attention.plots.heatmaps import EMPTY_TEMPLATE
from attention.plots.labels import escape, hover, token_labels

IG, GXI = "#08519c", "#fd8d3c"


def attribution_figure(tokens: list[str], series: dict[str, list[float]], title: str, x_title: str,
                       labels: list[str] | None = None) -> go.Figure:
    """tokens: the prompt's raw tokens; series: a translated name -> (T,) values, one bar colour each;
    labels: the tokens as the page reads them (not escaped yet), None: read together here (token_labels:
    a Chinese character's byte pieces written as that character, never each piece alone)."""
    n = len(tokens)
    names = token_labels(tokens) if labels is None else [escape(x) for x in labels]  # (T,)
    shown = [f"{x} " for x in names]
    fig = go.Figure()
    for (name, values), colour in zip(series.items(), (IG, GXI), strict=False):
        fig.add_trace(go.Bar(x=[float(v) for v in values], y=list(range(n)), orientation="h", name=escape(name),
                             marker={"color": colour}, customdata=[hover(tok, x) for tok, x in zip(tokens, names, strict=True)],
                             hovertemplate="%{customdata}: %{x:.3f}<extra>" + escape(name) + "</extra>"))
    fig.update_layout(
        template=EMPTY_TEMPLATE, title={"text": escape(title), "font": {"size": 13}}, height=110 + 30 * n,
        barmode="group", margin={"l": 110, "r": 30, "t": 36, "b": 72},
        # the legend under the axis title, placed from the figure's bottom edge: at 390 px a legend placed
        # relative to the plot lands on the axis title
        legend={"orientation": "h", "yref": "container", "y": 0.0, "yanchor": "bottom"},
        xaxis={"title": escape(x_title), "fixedrange": True, "zeroline": True},
        yaxis={"tickmode": "array", "tickvals": list(range(n)), "ticktext": shown, "autorange": "reversed",
               "fixedrange": True},
    )
    return fig
