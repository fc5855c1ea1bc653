"""The next-word panel: the ten likeliest tokens and their probabilities as horizontal bars, the
likeliest on top; the token that was chosen (when one was) drawn in another colour."""

from __future__ import annotations

import plotly.graph_objects as go

from attention.plots.heatmaps import EMPTY_TEMPLATE
from attention.plots.labels import candidate_token_labels, escape, hover

BAR, CHOSEN = "#9ecae1", "#08519c"


def top_figure(tokens: list[str], probs: list[float], title: str, x_title: str,
               chosen: int | None = None, context: tuple[str, ...] | list[str] = ()) -> go.Figure:
    """tokens: raw tokens, likeliest first, each read after `context` (the text's raw tokens: a byte piece
    completing a character begun there is that character); chosen: the index among them of the token
    that was written, None when none was yet."""
    n = len(tokens)
    names = candidate_token_labels(tokens, context)
    shown = [f"{x} " for x in names]  # a trailing space keeps a "·" mark off the axis line
    colours = [CHOSEN if i == chosen else BAR for i in range(n)]
    fig = go.Figure(go.Bar(
        x=[float(p) for p in probs], y=list(range(n)), orientation="h", marker={"color": colours},
        text=[f"{p:.3f}" for p in probs], textposition="outside", cliponaxis=False,
        customdata=[hover(tok, x) for tok, x in zip(tokens, names, strict=True)],
        hovertemplate="%{customdata}: %{x:.4f}<extra></extra>",
    ))
    fig.update_layout(
        template=EMPTY_TEMPLATE, title={"text": escape(title), "font": {"size": 13}}, height=60 + 26 * n,
        margin={"l": 110, "r": 50, "t": 36, "b": 36}, showlegend=False,
        xaxis={"title": escape(x_title), "range": [0, max([*probs, 0.01]) * 1.2], "fixedrange": True},
        yaxis={"tickmode": "array", "tickvals": list(range(n)), "ticktext": shown, "autorange": "reversed",
               "fixedrange": True},
    )
    return fig
