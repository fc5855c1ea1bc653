"""Head roles over training: per role the best head's score against the step, its bar dashed in the same
colour and a star where it appears. Pure: numbers and words in, go.Figure out."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import plotly.graph_objects as go

from attention.plots.heatmaps import EMPTY_TEMPLATE

# Okabe–Ito: told apart with colour-vision deficiency too (one colour per role, the same in every figure)
ROLE_COLOURS = {"previous": "#0072B2", "duplicate": "#E69F00", "induction": "#009E73", "sink": "#CC79A7"}


def timeline_figure(steps: list[int], best: Mapping[str, np.ndarray], bars: Mapping[str, float],
                    appears: Mapping[str, int | None], names: Mapping[str, str], title: str, y_title: str,
                    x_title: str, bar_name: str) -> go.Figure:
    """best: role -> (n_steps,) best head's score; bars: role -> the level it must reach; appears: role ->
    the step it appears at (None: never). `names` the roles as shown; `bar_name` formats "{role}" for a bar's
    legend. Step 0 is drawn at 1 (x on a log scale: most change is early)."""
    x = [max(s, 1) for s in steps]
    fig = go.Figure()
    for role, values in best.items():
        colour = ROLE_COLOURS.get(role, "#555555")
        fig.add_trace(go.Scatter(x=x, y=np.asarray(values, dtype=float), mode="lines+markers", name=names[role],
                                 line={"color": colour}, legendgroup=role))
        fig.add_trace(go.Scatter(x=[x[0], x[-1]], y=[bars[role]] * 2, mode="lines", legendgroup=role,
                                 name=bar_name.format(role=names[role]), line={"color": colour, "dash": "dash",
                                                                                 "width": 1}))
        step = appears.get(role)
        if step is not None:
            at = list(steps).index(step)
            fig.add_trace(go.Scatter(x=[x[at]], y=[float(values[at])], mode="markers", legendgroup=role,
                                     showlegend=False, marker={"symbol": "star", "size": 14, "color": colour},
                                     hovertext=[f"{names[role]}: {step}"], hoverinfo="text"))
    fig.update_xaxes(type="log", title_text=x_title)
    fig.update_yaxes(title_text=y_title, rangemode="tozero")
    fig.update_layout(template=EMPTY_TEMPLATE, height=320, title={"text": title, "x": 0, "font": {"size": 13}},
                      margin={"l": 50, "r": 10, "t": 40, "b": 40}, legend={"orientation": "h", "y": -0.3})
    return fig
