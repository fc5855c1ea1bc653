"""The whole model at once: every layer × head as a small attention picture in one figure, and the
attention rollout as a clickable heatmap. Pure functions: data in, go.Figure out, no st.* calls.

The grid is one plotly figure on ONE pair of numeric axes: each thumbnail is a small heatmap placed
at its own offset (tiles laid out row-major, by default rows = layers and columns = heads), all
sharing one colour axis (0..1). Clicks work as in heatmaps.py: an invisible square marker over each
thumbnail carries customdata [layer, head] as a plain list. To keep the page small on long inputs
each thumbnail is at most THUMB_MAX × THUMB_MAX cells, float32: keys are block-SUMMED and queries
block-AVERAGED, so every thumbnail row is still a distribution that sums to 1.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import plotly.graph_objects as go

from attention.analysis.overview_data import THUMB_MAX, downsample, query_block
from attention.params.selection import NO_SELECTION, Selection
from attention.plots import heatmaps
from attention.plots.figure_build import figure

ROW_PX = 96  # height of one row of thumbnails (title included)
TITLE_SHARE = 0.25  # of a thumbnail's height, the gap above it that holds "L3 H7"
GAP_SHARE = 0.12  # of a thumbnail's width, the gap to its right
COLOURS = "Blues"

Head = tuple[int, int]  # (layer, head)


def _closed_rects(rects: list[tuple[float, float, float, float]]) -> tuple[list, list]:
    """Outlines of rectangles (x0, x1, y0, y1) as one line trace, broken by None between them."""
    xs: list = []
    ys: list = []
    for x0, x1, y0, y1 in rects:
        xs += [x0, x1, x1, x0, x0, None]
        ys += [y0, y0, y1, y1, y0, None]
    return xs, ys


def grid_figure(
    heads: Mapping[Head, np.ndarray],  # (layer, head) -> (query_pos, key_pos) weights
    *,
    order: list[Head] | None = None,
    n_cols: int | None = None,
    highlight_query: int | None = None,
    n_query: int | None = None,  # query positions before downsampling, when `heads` are thumbnails already
    selected: Head | None = None,
    hover: Mapping[Head, str] | None = None,
    title: str = "",
    tile_title: str = "L{layer} H{head}",  # above each thumbnail, formatted with layer and head
) -> go.Figure:
    """Every head as a thumbnail, laid out row-major in `order` (default: model order) with n_cols
    per row (default: the number of heads per layer, so rows are layers). Clicking a thumbnail
    reports customdata [layer, head]; highlight_query outlines that query's row in every thumbnail.
    `hover` (one text per head) and `tile_title` carry the words: the app passes translated ones."""
    order = list(heads) if order is None else [h for h in order if h in heads]
    if not order:
        raise ValueError("no heads to draw")
    n_cols = n_cols or len({h for _, h in heads})
    n_q, n_k = next(iter(heads.values())).shape
    qd, kd = min(n_q, THUMB_MAX), min(n_k, THUMB_MAX)  # thumbnail cells
    gy, gx = max(1, round(qd * TITLE_SHARE)), max(1, round(kd * GAP_SHARE))
    pitch_x, pitch_y = kd + gx, qd + gy
    n_rows = -(-len(order) // n_cols)

    lefts = [(i % n_cols) * pitch_x for i in range(len(order))]  # centre of each thumbnail's first cell
    tops = [(i // n_cols) * pitch_y + gy for i in range(len(order))]
    traces: list[dict] = [
        {"type": "heatmap", "z": downsample(heads[key]), "x0": left, "dx": 1, "y0": top, "dy": 1,
         "coloraxis": "coloraxis", "hoverinfo": "skip", "name": f"L{key[0]} H{key[1]}"}
        for key, left, top in zip(order, lefts, tops, strict=True)
    ]
    centres_x = [x + (kd - 1) / 2 for x in lefts]
    centres_y = [y + (qd - 1) / 2 for y in tops]
    traces.append({
        "type": "scatter", "x": centres_x, "y": [y - gy / 2 - 0.5 for y in tops], "mode": "text",
        "text": [tile_title.format(layer=layer, head=h) for layer, h in order],
        # many columns: smaller titles, so "L24 H0" beside "L24 H1" stays apart on a phone's 390 px
        "textfont": {"size": 10 if n_cols <= 6 else 7, "color": "#333"}, "hoverinfo": "skip", "name": "titles",
    })
    px_per_unit = ROW_PX / pitch_y
    traces.append({
        "type": "scatter", "x": centres_x, "y": centres_y, "mode": "markers", "name": "heads",
        "marker": {"symbol": "square", "size": max(8, int(qd * px_per_unit * 0.9)), "opacity": 0},
        "customdata": [[int(layer), int(h)] for layer, h in order],
        "hovertext": [(hover or {}).get(k, f"layer {k[0]} · head {k[1]}") for k in order],
        "hovertemplate": "%{hovertext}<extra></extra>",
    })
    n_query = n_q if n_query is None else n_query
    if highlight_query is not None and 0 <= highlight_query < n_query:
        r = query_block(n_query, highlight_query)
        xs, ys = _closed_rects([(x - 0.5, x + kd - 0.5, y + r - 0.5, y + r + 0.5) for x, y in zip(lefts, tops, strict=True)])
        traces.append({"type": "scatter", "x": xs, "y": ys, "mode": "lines",
                       "line": {"color": heatmaps.HIGHLIGHT, "width": 1.5}, "hoverinfo": "skip", "name": "highlight"})
    if selected in order:
        i = order.index(selected)
        xs, ys = _closed_rects([(lefts[i] - 0.5, lefts[i] + kd - 0.5, tops[i] - 0.5, tops[i] + qd - 0.5)])
        traces.append({"type": "scatter", "x": xs, "y": ys, "mode": "lines", "line": {"color": "black", "width": 2.5},
                       "hoverinfo": "skip", "name": "selected"})
    return figure(traces, {  # keys in the order the page has always sent them (figure_build.figure)
        "title": {"font": {"size": 14}, "text": title, "x": 0},
        "margin": {"l": 10, "r": 10, "t": 20 + (40 if title else 0), "b": 10},
        "coloraxis": {"colorbar": {"thickness": 10, "len": 0.6}, "colorscale": COLOURS, "cmin": 0.0, "cmax": 1.0},
        "height": 60 + (40 if title else 0) + ROW_PX * n_rows,
        "showlegend": False,
        "hovermode": "closest",
        "hoverdistance": ROW_PX // 2,
        "clickmode": "event+select",
        "dragmode": False,
        "plot_bgcolor": "rgba(0,0,0,0)",
        "xaxis": {"range": [-0.5, n_cols * pitch_x - gx - 0.5], "visible": False, "fixedrange": True},
        "yaxis": {"range": [n_rows * pitch_y - 0.5, -0.5], "autorange": False, "visible": False, "fixedrange": True},
    })


def head_from_event(event: object) -> Head | None:
    """(layer, head) of the thumbnail a Streamlit plotly selection event clicked (the last point wins)."""
    try:
        points = event["selection"]["points"]  # type: ignore[index]
    except (KeyError, TypeError):
        return None
    for point in reversed(points or []):
        data = point.get("customdata") if isinstance(point, dict) else None
        try:
            layer, head = (int(x) for x in data[:2])  # type: ignore[index]
        except (TypeError, ValueError, IndexError):
            continue
        return layer, head
    return None


ROLLOUT_TITLE = "Attention rollout R = Â_L ··· Â_1  (rows sum to 1)"


def rollout_figure(values: np.ndarray, labels: list[str], sel: Selection = NO_SELECTION, title: str = ROLLOUT_TITLE,
                   axis_names: tuple[str, str] = ("position", "input word")) -> go.Figure:
    """The rollout R (pos, pos) drawn and clicked exactly like the attention matrices of heatmaps.py:
    row i is a position, column j how much of input word j reaches it."""
    words = heatmaps.token_labels(labels)
    return heatmaps.matrix_figure(
        np.asarray(values, dtype=np.float32), words, words, title=title, colorscale=COLOURS, zmin=0.0, fmt=".4f",
        sel=sel, axis_names=axis_names,
    )
