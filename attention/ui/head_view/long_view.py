"""One head at a length where every cell cannot be sent (more than EXACT_MAX tokens): the long head view
(ui/head_view/long_component.py) — A max-pooled to at most 1,024 pixels a side, zoomed in the browser, exact tiles
fetched as it zooms in, the selected query's row and key's column exact at any zoom — then two boxes that go
to a position by keyboard or screen reader, and the selected query's largest weights as a table.
Nothing here makes a head's n × n at once."""

from __future__ import annotations

import streamlit as st

from attention.analysis import details
from attention.analysis.pooled import cell_for
from attention.params.selection import Selection
from attention.analysis.token_text import readable_tokens
from attention.trace import Site
from attention.ui.head_view import long_component
from attention.ui import state
from attention.ui.lang import t
from attention.ui.state import Keys, Scope

EXACT_MAX = 512  # tokens up to which the head view draws every cell (about 1 MB sent at 512)


def _selection(scope: Scope | None, key: str, default: Selection) -> Selection:
    if scope is not None:
        return state.get_selection(scope)
    q, k = st.session_state.get(Keys.LONG_SEL + key, (default.query, default.key))
    return Selection(q, k)


def _select(sel: Selection, scope: Scope | None, key: str) -> None:
    if scope is not None:
        state.set_selection(sel, scope)
    else:
        st.session_state[Keys.LONG_SEL + key] = (sel.query, sel.key)


def _typed(scope: Scope | None, key: str) -> None:
    """A position typed into a box: it becomes the selection, and the view goes there."""
    _select(Selection(st.session_state.get(Keys.LONG_ROWS), st.session_state.get(Keys.LONG_KEYS)), scope, key)
    st.session_state[Keys.LONG_GOTO] = True


def _view(site: Site, head: int, scope: Scope | None, site_key: tuple, query: int | None, key: str) -> None:
    n_query, n_key = site.shape
    sel = _selection(scope, key, Selection(query, None)).clamp(n_query, n_key)
    st.session_state[Keys.LONG_ROWS], st.session_state[Keys.LONG_KEYS] = sel.query, sel.key  # the boxes follow
    with st.container(horizontal=True):
        st.number_input(t("long.go_query"), min_value=0, max_value=n_query - 1, step=1, key=Keys.LONG_ROWS,
                        on_change=_typed, args=(scope, key), help=t("long.go_help"))
        st.number_input(t("long.go_key"), min_value=0, max_value=n_key - 1, step=1, key=Keys.LONG_KEYS,
                        on_change=_typed, args=(scope, key), help=t("long.go_help"))
    pair = (-1 if sel.query is None else sel.query, -1 if sel.key is None else sel.key)
    long_component.long_head(
        site, head, site_key, pair, key=key, goto=bool(st.session_state.pop(Keys.LONG_GOTO, False)),
        on_select=lambda p: _select(Selection(p[0] if p[0] >= 0 else None, p[1] if p[1] >= 0 else None), scope, key))
    if sel.query is None:
        st.caption(t("long.pick"))
    else:
        _top_keys(site, head, sel.query)
    if scope is not None:
        state.write_url("explore")  # a fragment's rerun does not reach the end of app.py


_fragment_view = st.fragment(_view)  # Explore: a click or a tile reruns the view alone, not the page


def show_long(site: Site, head: int, scope: Scope | None, site_key: tuple, query: int | None = None,
              key: str | None = None) -> None:
    """The long view of one head (Explore, Write past EXACT_MAX tokens, Find the needle's written rows). `scope`:
    where a click selects (None: the view keeps its own selection, starting on the row `query`, e.g. Write's
    newest). `key`: the view's own key (default: Explore's or Write's)."""
    n = max(site.shape)
    cell = cell_for(n)
    st.caption(t("long.caption", n=f"{n:,}", side=-(-n // cell), cell=cell))
    key = key or ("explore-long" if scope is not None else "write-long")
    (_fragment_view if scope is not None else _view)(site, head, scope, site_key, query, key)


def _top_keys(site: Site, head: int, query: int) -> None:
    top = details.top_keys(site, head, query, n=10)
    words = readable_tokens(site.key_tokens)  # "·sat", not the tokenizer's "Ġsat"
    seen = int((~site.masked_rows(slice(query, query + 1))[0]).sum())
    token, offset = readable_tokens(site.query_tokens)[query].replace("`", "'"), site.causal_offset or 0
    st.markdown(t("long.row_title_at", i=query, position=query + offset, token=token) if offset > 0 else
                t("long.row_title", i=query, token=token))  # rows of later queries: their text position too
    st.dataframe({t("long.col_key"): [k.key for k in top], t("long.col_token"): [words[k.key] for k in top],
                  t("long.col_weight"): [round(k.weight, 5) for k in top],
                  t("long.col_uniform"): [round(1.0 / max(1, seen), 5)] * len(top)}, hide_index=True)
