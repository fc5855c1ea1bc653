"""The clickable S / A / Z heatmaps of one head and the detail panel for the selection.

Drawn inside a fragment, so a click reruns only this part of the page. A click is copied into
session state by the chart's on_select callback (the returned selection is empty on the rerun
where the highlight redraws the chart), and the highlight is drawn from session state.
"""

from __future__ import annotations

import streamlit as st

from attention import details, plots
from attention.selection import selection_from_event
from attention.trace import Site
from attention.ui import state


def code(token: str) -> str:
    """A token as inline code in markdown, whatever backticks it holds."""
    fence = "``" if "`" in token else "`"
    return f"{fence} {token} {fence}" if fence == "``" else f"`{token}`"

CHARTS = ("S", "A", "Z")


def _on_click(chart_key: str) -> None:
    event = st.session_state.get(chart_key)
    state.set_selection(selection_from_event(state.get_selection(), event))


def _chart(fig, chart_key: str) -> None:
    st.plotly_chart(
        fig,
        key=chart_key,
        on_select=lambda: _on_click(chart_key),
        selection_mode="points",
        config={"displaylogo": False, "modeBarButtonsToRemove": ["select2d", "lasso2d"]},
        width="stretch",
    )


@st.fragment
def show(site: Site, head: int, prefix: str = "explore") -> None:
    """S and A side by side, Z and the detail panel below, all for the same selection."""
    n_q, n_k = len(site.query_tokens), len(site.key_tokens)
    sel = state.get_selection().clamp(n_q, n_k)
    state.set_selection(sel)
    if n_q * n_k > plots.CELL_CLICK_MAX:
        st.caption("The cells are too small to click at this length: click the words (dots) beside the rows and "
                   "above the columns instead.")
    else:
        st.caption("Click a cell to select a (query, key) pair, or a word beside a row or a dot above a column.")
    left, right = st.columns(2)
    with left:
        _chart(plots.scores_figure(site, head, sel), f"{prefix}_S")
    with right:
        _chart(plots.weights_figure(site, head, sel), f"{prefix}_A")
    left, right = st.columns(2)
    with left:
        _chart(plots.z_figure(site, head, sel), f"{prefix}_Z")
    with right:
        detail_panel(site, head)
    state.write_url(st.session_state.get("_url_view", {}))


def detail_panel(site: Site, head: int) -> None:
    sel = state.get_selection()
    st.subheader("Selection")
    if sel.query is None:
        st.info("Nothing selected yet: click a cell or a word.")
        return
    q_tok = site.query_tokens[sel.query]
    st.markdown(f"**Query word:** {code(q_tok)} (position {sel.query})")
    rows = [
        {"key word": f"{kw.token}", "position": kw.key, "weight": round(kw.weight, 4)}
        for kw in details.top_keys(site, head, sel.query)
    ]
    st.caption(f"Where {code(q_tok)} looks most, in this head:")
    st.dataframe(rows, hide_index=True, width="stretch")
    if sel.key is None:
        st.caption("Click a cell or a column dot to see one pair in detail.")
        return
    cell = details.cell_detail(site, head, sel.query, sel.key)
    st.markdown(f"**Pair:** {code(cell.query_token)} → {code(cell.key_token)} (query {cell.query}, key {cell.key})")
    c1, c2, c3 = st.columns(3)
    c1.metric("q·k (raw S)", f"{cell.dot:.4f}")
    c2.metric("scaled score", "masked" if cell.masked else f"{cell.scaled:.4f}")
    c3.metric("weight (A)", f"{cell.weight:.4f}")
    if cell.masked:
        st.caption("This key comes after the query word: the decoder's mask hides it, so its weight is exactly 0.")
    else:
        st.caption(f"scaled = q·k × {cell.scale:.4f} (that is 1/√d_k with d_k = {site.d_head}); the weight is the "
                   "softmax of the scaled scores of this row.")
