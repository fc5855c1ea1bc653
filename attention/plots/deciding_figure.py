"""The lesson's last step in one figure: the ten likeliest next tokens as bars (the likeliest on top,
marked), and below them the leading heads' attention rows from the last position over the prompt's
tokens (one row per head, its weights written in the cells)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from attention.plots.heatmaps import EMPTY_TEMPLATE, text_units
from attention.plots.labels import candidate_token_labels, escape, hover, token_labels
from attention.plots.next_word import BAR, CHOSEN
from attention.plots.title_wrap import wrap_title

WRITTEN_UP_TO = 24  # tokens: up to this many, each cell's weight is written in it


def deciding_figure(top_tokens: Sequence[str], top_probs: Sequence[float], tokens: Sequence[str],
                    head_names: Sequence[str], rows: np.ndarray, titles: tuple[str, str],
                    axis_titles: tuple[str, str]) -> go.Figure:
    """top_tokens: raw, likeliest first; tokens: the prompt's raw tokens; rows: (heads, len(tokens))
    attention from the last position, one row per name in head_names (may be empty)."""
    n, t = len(top_tokens), len(tokens)
    # the prompt read together, each candidate read after it: a Chinese character's pieces as that character
    words, options = token_labels(tokens), candidate_token_labels(top_tokens, tokens)  # (T,), (n,)
    has_rows = len(head_names) > 0
    # one above the other: side by side, at 390 px the heads' names lay on the bars and the titles on each other
    bars_px, rows_px, gap_px, top_px, bottom_px = 26 * n, 44 * len(head_names), 110, 50, 110 if has_rows else 50
    height = top_px + bars_px + (gap_px + rows_px if has_rows else 0) + bottom_px
    fig = make_subplots(rows=2 if has_rows else 1, cols=1, row_heights=[bars_px, rows_px] if has_rows else None,
                        vertical_spacing=gap_px / (height - top_px - bottom_px) if has_rows else 0.0,
                        subplot_titles=[wrap_title(escape(x)) for x in (titles if has_rows else titles[:1])])
    names = [*options, *(escape(h) for h in head_names)]
    left = 20 + int(6.5 * max((text_units(x) for x in names), default=4))  # the widest word or head name
    for a in fig.layout.annotations:  # the subplots' titles from the figure's left edge, wrapped for a phone
        a.update(x=0, xanchor="left", xref="paper", xshift=10 - left, align="left", font={"size": 13})
    probs = [float(p) for p in top_probs]
    fig.add_trace(go.Bar(
        x=probs, y=list(range(n)), orientation="h", marker={"color": [CHOSEN if i == 0 else BAR for i in range(n)]},
        text=[f"{p:.3f}" for p in probs], textposition="outside", cliponaxis=False,
        customdata=[hover(tok, x) for tok, x in zip(top_tokens, options, strict=True)],
        hovertemplate="%{customdata}: %{x:.4f}<extra></extra>", showlegend=False), row=1, col=1)
    fig.update_xaxes(title_text=escape(axis_titles[0]), range=[0, max([*probs, 0.01]) * 1.3], fixedrange=True,
                     row=1, col=1)
    fig.update_yaxes(tickmode="array", tickvals=list(range(n)), ticktext=[f"{x} " for x in options],
                     autorange="reversed", fixedrange=True, row=1, col=1)
    if has_rows:
        z = np.asarray(rows, dtype=np.float64).reshape(len(head_names), t)  # (heads, T)
        fig.add_trace(go.Heatmap(
            z=z.tolist(), x=list(range(t)), y=list(range(len(head_names))), colorscale="Blues", zmin=0, zmax=1,
            text=[[f"{w:.2f}" for w in row] for row in z], showscale=False,
            texttemplate="%{text}" if t <= WRITTEN_UP_TO else None,  # more columns: too narrow for numbers
            customdata=[[[escape(name), x] for x in words] for name in head_names],
            hovertemplate="%{customdata[0]} → %{customdata[1]}: %{z:.3f}<extra></extra>"), row=2, col=1)
        # numeric axes with tick text: a word written twice stays two columns
        fig.update_xaxes(tickmode="array", tickvals=list(range(t)), ticktext=words,
                         title_text=escape(axis_titles[1]), fixedrange=True, row=2, col=1)
        fig.update_yaxes(tickmode="array", tickvals=list(range(len(head_names))),
                         ticktext=[escape(h) for h in head_names], autorange="reversed", fixedrange=True, row=2, col=1)
    fig.update_layout(template=EMPTY_TEMPLATE, height=height,
                      margin={"l": left, "r": 40, "t": top_px, "b": bottom_px})
    return fig
