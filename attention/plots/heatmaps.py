"""Plotly figures of one head of one site. Pure functions: data in, go.Figure out, no st.* calls.

Each matrix is a heatmap on numeric axes (so a repeated word keeps its own row), row 0 at the top.
Clicks work through invisible scatter markers laid over the cells and through clickable labels
beside the rows and above the columns, each carrying customdata [query_idx, key_idx] as plain lists
(a heatmap cell itself reports no click to Streamlit). Only the one head on screen is sent, as
float32, so the page stays small on long inputs.
"""

from __future__ import annotations

import unicodedata

import numpy as np
import plotly.graph_objects as go

from attention.params.selection import NO_SELECTION, Selection
from attention.plots.figure_build import EMPTY_TEMPLATE, figure  # noqa: F401  (EMPTY_TEMPLATE: the other figures import it from here)
from attention.plots.labels import escape, label, token_labels
from attention.trace import Site

CELL_CLICK_MAX = 64 * 64  # above this many cells, cells are too small to click: use the labels
HIGHLIGHT = "#ff7f0e"
MASKED_COLOUR = "#d9d9d9"


def _cell_px(n: int) -> int:
    return int(np.clip(560 / max(n, 1), 3, 30))


LABEL_UNITS_MAX = 16  # the row words' margin grows up to this many character widths


def text_units(text: str) -> int:
    """Width in Latin character widths (about 7 px at 11 px): a Chinese character counts two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def left_margin(row_labels: list[str]) -> int:
    """Room left of the matrix for the row words (clipped beyond LABEL_UNITS_MAX widths)."""
    return 20 + 7 * min(max((text_units(s) for s in row_labels), default=1), LABEL_UNITS_MAX)


def _title(title: str) -> dict:
    # from the top edge down (a second line, e.g. a training step, must not reach the column words above the matrix)
    return {"font": {"size": 14}, "pad": {"t": 20}, "text": title, "x": 0, "y": 1.0, "yref": "container",
            "yanchor": "top"}


ROW_TEXT_MAX = 80  # past this many rows, the row words move from clickable text to axis ticks
TICKS_MAX = 40  # at most this many tick labels on an axis: every step-th word past that


def _ticks(labels: list[str]) -> dict:
    step = max(1, int(np.ceil(len(labels) / TICKS_MAX)))
    vals = list(range(0, len(labels), step))
    return {"tickfont": {"size": 11}, "tickmode": "array", "tickvals": vals, "ticktext": [labels[i] for i in vals]}


def _right_margin(col_ticks: dict, n_rows: int) -> int:
    """The last column word, turned 60°, reaches right of its column by half its length ("(changed words)"
    was cut at 390 px)."""
    if not col_ticks["ticktext"]:
        return 10
    reach = 0.5 * 6.5 * text_units(col_ticks["ticktext"][-1]) - _cell_px(max(n_rows, 1)) / 2  # px at 11 px
    return max(10, int(np.ceil(reach)))


def _layout(n_rows: int, n_cols: int, row_labels: list[str], col_labels: list[str], title: str,
            shapes: list[dict]) -> dict:
    """The matrix's layout, keys in the order the page has always sent them (figure_build.figure)."""
    lines = title.count("<br>")
    col_ticks = _ticks(col_labels)
    # ticks="": the row words are drawn as text; a theme's tick marks left a stray "–" at every other row
    yaxis = {"autorange": False, "range": [n_rows - 0.5, -1.5], "showticklabels": False, "showgrid": False,
             "zeroline": False, "ticks": ""}
    if len(row_labels) > ROW_TEXT_MAX:
        yaxis |= {"showticklabels": True, **_ticks(row_labels)}
    return {
        "title": _title(title),
        "margin": {"l": left_margin(row_labels), "r": _right_margin(col_ticks, n_rows), "t": 110 + 18 * lines,
                   "b": 10},
        "height": 140 + 18 * lines + _cell_px(max(n_rows, 1)) * n_rows,
        "showlegend": False,
        "hovermode": "closest",
        "hoverdistance": 12,
        "clickmode": "event+select",
        "dragmode": False,
        "plot_bgcolor": "rgba(0,0,0,0)",
        "yaxis": yaxis,
        "xaxis": {"range": [-1.5, n_cols - 0.5], "side": "top", "showgrid": False, "zeroline": False,
                  "tickangle": -60, **col_ticks},
        "shapes": shapes,  # none: no shapes key (figure_build.figure)
    }


def _row_label_trace(row_labels: list[str], sel_row: int | None, clickable: bool) -> dict:
    """Words beside the rows, left of the matrix; clicking one selects that query word."""
    n = len(row_labels)
    show_text = n <= ROW_TEXT_MAX
    return {
        "type": "scatter",
        "x": [-1.0] * n,
        "y": list(range(n)),
        "mode": "markers+text" if show_text else "markers",
        "text": row_labels if show_text else None,
        "textposition": "middle left",
        "textfont": {"color": [HIGHLIGHT if i == sel_row else "#333" for i in range(n)], "size": 11},
        "marker": {"size": 9, "color": [HIGHLIGHT if i == sel_row else "#9aa" for i in range(n)], "symbol": "circle"},
        "customdata": [[i, -1] for i in range(n)] if clickable else None,
        "hovertext": row_labels,
        "hovertemplate": "%{hovertext}<extra></extra>",
        "cliponaxis": False,
        "name": "query words",
    }


def _col_label_trace(col_labels: list[str], sel_col: int | None, role: str, emphasis: np.ndarray | None = None) -> dict:
    """Dots above the columns, under the rotated words; clicking one selects that key word.
    `emphasis` (key_pos,) in 0..1, e.g. the selected query's weights, grows and colours the dots of
    the words it attends to."""
    n = len(col_labels)
    if emphasis is None:
        sizes: list[float] | int = 9
        colours = [HIGHLIGHT if j == sel_col else "#9aa" for j in range(n)]
    else:
        e = np.clip(np.nan_to_num(emphasis), 0.0, 1.0)
        sizes = (7 + 13 * np.sqrt(e)).round(1).tolist()
        colours = [HIGHLIGHT if (j == sel_col or e[j] >= 0.1) else "#9aa" for j in range(n)]
    return {
        "type": "scatter",
        "x": list(range(n)),
        "y": [-1.0] * n,
        "mode": "markers",
        "marker": {"size": sizes, "color": colours, "symbol": "circle"},
        "customdata": [[-1, j] for j in range(n)],
        "hovertext": col_labels,
        "hovertemplate": "%{hovertext}<extra></extra>",
        "cliponaxis": False,
        "name": f"{role} words",
    }


def _cell_overlay(values: np.ndarray, row_labels: list[str], col_labels: list[str], fmt: str, masked_text: str) -> dict:
    """One invisible square marker per cell, carrying [row, col]: the click target and hover."""
    n_r, n_c = values.shape
    rows, cols = np.divmod(np.arange(n_r * n_c), n_c)
    flat = values.ravel()
    text = [
        f"{row_labels[r]} → {col_labels[c]}: " + (masked_text if np.isnan(v) else format(float(v), fmt))
        for r, c, v in zip(rows.tolist(), cols.tolist(), flat.tolist(), strict=True)
    ]
    return {
        "type": "scatter",
        "x": cols.astype(np.int16),
        "y": rows.astype(np.int16),
        "mode": "markers",
        "marker": {"symbol": "square", "size": _cell_px(n_r), "opacity": 0},
        "customdata": np.stack([rows, cols], axis=1).tolist(),
        "text": text,
        "hovertemplate": "%{text}<extra></extra>",
        "name": "cells",
    }


def _highlight_shapes(sel: Selection, n_rows: int, n_cols: int, columns_are_keys: bool) -> list[dict]:
    line = {"color": HIGHLIGHT, "width": 2}
    shapes = []
    if sel.query is not None and sel.query < n_rows:
        shapes.append({"type": "rect", "x0": -0.5, "x1": n_cols - 0.5, "y0": sel.query - 0.5, "y1": sel.query + 0.5,
                       "line": line})
    if columns_are_keys and sel.key is not None and sel.key < n_cols:
        shapes.append({"type": "rect", "x0": sel.key - 0.5, "x1": sel.key + 0.5, "y0": -0.5, "y1": n_rows - 0.5,
                       "line": line})
        if sel.query is not None and sel.query < n_rows:
            shapes.append({"type": "rect", "x0": sel.key - 0.5, "x1": sel.key + 0.5, "y0": sel.query - 0.5,
                           "y1": sel.query + 0.5, "line": {"color": "black", "width": 3}})
    return shapes


def _heatmaps(values: np.ndarray, masked: np.ndarray | None, colorscale: str, zmid: float | None, zmin: float | None,
              zmax: float | None, hovertemplate: str | None) -> list[dict]:
    """The values, and the masked cells in grey over them when there are any."""
    n_r, n_c = values.shape
    xs, ys = np.arange(n_c, dtype=np.int16), np.arange(n_r, dtype=np.int16)
    drawn = {"type": "heatmap", "z": values.astype(np.float32), "x": xs, "y": ys, "colorscale": colorscale,
             "zmid": zmid, "zmin": zmin, "zmax": zmax, "colorbar": {"thickness": 10, "len": 0.8},
             "hoverinfo": "skip" if hovertemplate is None else None, "hovertemplate": hovertemplate,
             "xgap": 0, "ygap": 0}
    if masked is None or not masked.any():
        return [drawn]
    grey = {"type": "heatmap", "z": np.where(masked, 1, np.nan).astype(np.float32), "x": xs, "y": ys,
            "colorscale": [[0, MASKED_COLOUR], [1, MASKED_COLOUR]], "showscale": False, "hoverinfo": "skip",
            "name": "masked"}
    return [drawn, grey]


def matrix_figure(
    values: np.ndarray,  # (rows, cols); NaN where masked
    row_labels: list[str],
    col_labels: list[str],
    *,
    title: str,
    colorscale: str,
    zmid: float | None = None,
    zmin: float | None = None,
    zmax: float | None = None,
    fmt: str = ".3f",
    sel: Selection = NO_SELECTION,
    columns_are_keys: bool = True,
    masked: np.ndarray | None = None,  # (rows, cols) bools: drawn as grey "masked" cells
    masked_text: str = "masked",
    weights_emphasis: bool = False,  # the values are weights: size the key dots by the selected row
    axis_names: tuple[str, str] = ("query", "key"),  # what a row and a column are, in hover on large matrices
) -> go.Figure:
    """A clickable heatmap: rows are query words top to bottom, columns key words (or dimensions).
    Every word shown (title, masked_text, axis_names) is a parameter: the app passes translated ones.
    Built in one step (figure_build.figure): the same JSON, byte for byte, as adding each part in turn."""
    row_name, col_name = (escape(name) for name in axis_names)
    n_r, n_c = values.shape
    small = values.size <= CELL_CLICK_MAX
    hover = None if small else f"{row_name} %{{y}} · {col_name} %{{x}}: %{{z:{fmt}}}<extra></extra>"
    traces = _heatmaps(values, masked, colorscale, zmid, zmin, zmax, hover)
    if small:
        traces.append(_cell_overlay(values, row_labels, col_labels, fmt, masked_text))
    traces.append(_row_label_trace(row_labels, sel.query, clickable=True))
    if columns_are_keys:
        emphasis = values[sel.query] if (weights_emphasis and sel.query is not None and sel.query < n_r) else None
        traces.append(_col_label_trace(col_labels, sel.key, "key", emphasis))
    shapes = _highlight_shapes(sel, n_r, n_c, columns_are_keys)
    return figure(traces, _layout(n_r, n_c, row_labels, col_labels, title, shapes))


def _labels(site: Site) -> tuple[list[str], list[str]]:
    return token_labels(site.query_tokens), token_labels(site.key_tokens)


TITLES = {
    "S": "S = Q·Kᵀ  (raw scores, the factor matrix)",
    "A": "A = softmax(S / √d_k + mask)  (weights; rows sum to 1)",
    "Z": "Z = A·V  (each row: a weighted sum of value vectors)",
}


def scores_figure(
    site: Site, head: int, sel: Selection = NO_SELECTION, title: str = TITLES["S"], masked_text: str = "masked",
    axis_names: tuple[str, str] = ("query", "key"),
) -> go.Figure:
    """S = Q·Kᵀ for one head, raw (before scaling), diverging colours centred on 0; masked cells grey."""
    rows, cols = _labels(site)
    s = np.where(site.masked, np.nan, site.scores[head])
    return matrix_figure(
        s, rows, cols, title=title, colorscale="RdBu_r", zmid=0.0, fmt=".3f", sel=sel, masked=site.masked,
        masked_text=masked_text, axis_names=axis_names,
    )


def weights_figure(
    site: Site, head: int, sel: Selection = NO_SELECTION, title: str = TITLES["A"], masked_text: str = "masked",
    axis_names: tuple[str, str] = ("query", "key"),
) -> go.Figure:
    """A = softmax(S·scale + mask) for one head, 0..1; masked cells grey, not merely zero."""
    rows, cols = _labels(site)
    a = np.where(site.masked, np.nan, site.weights[head])
    return matrix_figure(
        a, rows, cols, title=title, colorscale="Blues", zmin=0.0, zmax=1.0, fmt=".4f", sel=sel,
        masked=site.masked, masked_text=masked_text, weights_emphasis=True, axis_names=axis_names,
    )


def merged_weights_figure(weights: np.ndarray, query_words: list[str], key_words: list[str], title: str,
                          axis_names: tuple[str, str] = ("query", "key")) -> go.Figure:
    """One head's weights between whole words (keys summed, query rows averaged), 0..1."""
    return matrix_figure(weights, [label(w) for w in query_words], [label(w) for w in key_words], title=title,
                         colorscale="Blues", zmin=0.0, zmax=1.0, fmt=".4f", axis_names=axis_names)
