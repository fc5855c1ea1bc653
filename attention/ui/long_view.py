"""One head at a length where every cell cannot be drawn (more than EXACT_MAX tokens): A max-pooled to a
picture of at most 1,024 pixels a side, an exact window of A chosen by position (clickable, as the head
view's cells), and the selected query's exact row. Nothing here makes a head's n × n at once: the picture
is pooled tile by tile, the window and the row are computed for themselves (Site.pattern)."""

from __future__ import annotations

import numpy as np
import streamlit as st

from attention.analysis import details
from attention.analysis.pooled import pooled_pattern
from attention.analysis.token_text import readable_tokens
from attention.analysis.selection import Selection, selection_from_event
from attention.plots import heatmaps, pooled_image
from attention.plots.labels import token_labels
from attention.trace import Site
from attention.ui import charts, state
from attention.ui.lang import t
from attention.ui.state import Keys, Scope

EXACT_MAX = 512  # tokens up to which the head view draws every cell (about 1 MB sent at 512)
SPANS = (32, 64, 128)


@st.cache_data(max_entries=8, show_spinner=False)
def _picture(_site: Site, key: tuple, head: int) -> tuple[bytes, int, tuple[int, int]]:
    """The pooled picture as PNG bytes, its cell and its shape; `key` names the site (cache_data cannot hash it)."""
    pooled = pooled_pattern(_site, head)
    return pooled_image.png(pooled.image), pooled.cell, pooled.image.shape


def _window(n_query: int, n_key: int) -> tuple[int, int, int]:
    """(first row, first key, span) from the widgets, clamped."""
    span = st.session_state.get(Keys.LONG_SPAN, SPANS[1])
    r0 = int(min(max(0, st.session_state.get(Keys.LONG_ROWS, 0) or 0), max(0, n_query - 1)))
    c0 = int(min(max(0, st.session_state.get(Keys.LONG_KEYS, 0) or 0), max(0, n_key - 1)))
    return r0, c0, int(span)


def _on_click(chart_key: str, r0: int, c0: int, scope: Scope) -> None:
    """A click on the window: its cell or word (local indices in customdata) becomes the selection, in positions."""
    local = selection_from_event(Selection(), st.session_state.get(chart_key))
    if local != Selection():
        state.set_selection(Selection(None if local.query is None else r0 + local.query,
                                      None if local.key is None else c0 + local.key), scope)


def show_long(site: Site, head: int, scope: Scope | None, site_key: tuple, query: int | None = None) -> None:
    """The long view of one head (Explore, Write past EXACT_MAX tokens). `scope`: where a click in the window
    selects (None: clicks select nothing, the row shown is `query`, e.g. Write's newest)."""
    n_query, n_key = site.shape
    if Keys.LONG_ROWS not in st.session_state and query is not None:  # open the window on the row shown
        st.session_state[Keys.LONG_ROWS] = max(0, query - SPANS[1] + 1)
        st.session_state[Keys.LONG_KEYS] = max(0, query - SPANS[1] + 1)
    png, cell, shape = _picture(site, site_key, head)
    st.caption(t("long.caption", n=f"{max(n_query, n_key):,}", rows=shape[0], cols=shape[1], cell=cell,
                 kb=f"{len(png) / 1024:,.0f}"))
    st.image(png, caption=t("long.picture", layer=site.layer, head=head), width="content",
             output_format="PNG")  # never JPEG: it would blur one strong pixel into its neighbours

    st.subheader(t("long.window_heading"), anchor=False)
    with st.container(horizontal=True):
        st.number_input(t("long.rows_from"), min_value=0, max_value=max(0, n_query - 1), step=16, key=Keys.LONG_ROWS)
        st.number_input(t("long.keys_from"), min_value=0, max_value=max(0, n_key - 1), step=16, key=Keys.LONG_KEYS)
        st.selectbox(t("long.span"), SPANS, index=1, key=Keys.LONG_SPAN)
    r0, c0, span = _window(n_query, n_key)
    r1, c1 = min(n_query, r0 + span), min(n_key, c0 + span)
    rows = site.pattern(head, slice(r0, r1))[:, c0:c1]  # exact rows, cut to the window's keys
    hidden = site.masked_rows(slice(r0, r1))[:, c0:c1]
    sel = (state.get_selection(scope) if scope is not None else Selection(query, None)).clamp(n_query, n_key)
    local = Selection(None if sel.query is None or not r0 <= sel.query < r1 else sel.query - r0,
                      None if sel.key is None or not c0 <= sel.key < c1 else sel.key - c0)
    labels_q = [f"{i} {w}" for i, w in zip(range(r0, r1), token_labels(site.query_tokens[r0:r1]), strict=True)]
    labels_k = [f"{j} {w}" for j, w in zip(range(c0, c1), token_labels(site.key_tokens[c0:c1]), strict=True)]
    fig = heatmaps.matrix_figure(np.where(hidden, np.nan, rows), labels_q, labels_k,
                                 title=t("long.window_title", r0=r0, r1=r1 - 1, c0=c0, c1=c1 - 1),
                                 colorscale="Blues", zmin=0.0, zmax=1.0, fmt=".4f", sel=local, masked=hidden,
                                 masked_text=t("masked"), weights_emphasis=True,
                                 axis_names=(t("chart.query"), t("chart.key")))
    chart_key = f"long_window_{site.layer}_{head}_{r0}_{c0}_{span}"
    charts.show(fig, key=chart_key,
                on_select="ignore" if scope is None else (lambda: _on_click(chart_key, r0, c0, scope)),
                selection_mode="points", config=charts.config(modeBarButtonsToRemove=["select2d", "lasso2d"]),
                width="stretch")

    query = sel.query if sel.query is not None else (query if query is not None else r0)
    top = details.top_keys(site, head, query, n=10)
    words = readable_tokens(site.key_tokens)  # "·sat", not the tokenizer's "Ġsat"
    st.markdown(t("long.row_title", i=query, token=readable_tokens(site.query_tokens)[query].replace("`", "'")))
    st.dataframe({t("long.col_key"): [k.key for k in top], t("long.col_token"): [words[k.key] for k in top],
                  t("long.col_weight"): [round(k.weight, 5) for k in top],
                  t("long.col_uniform"): [round(1.0 / max(1, int((~site.masked_rows(slice(query, query + 1))[0]).sum())), 5)]
                  * len(top)}, hide_index=True)
