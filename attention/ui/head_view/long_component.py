"""The long head view (headview/assets/long_*.js) as Streamlit elements: one head's A past EXACT_MAX tokens,
zoomed and panned in the browser; Python sends a pooled picture once, then an exact tile when the view asks
and the selection's exact row and column after a click. Nothing here makes a head's n × n at once.

Three elements a view, declared once here with st.components.v2 (the head view's pattern, head_component.py):
  - "attention_longview": data = the first message (the pooled picture and the words, ~0.4 MB at 8,192
    tokens), the same bytes on every rerun for the same head, so the browser gets them once; triggers
    "select": [query, key] and "tile": [r0, c0, span] come back;
  - two "attention_longview_part" elements: the last tile asked for, and the selection with its row and
    column. Each carries its bytes on the view's channel (bus.js); an unchanged part is not drawn again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import streamlit as st

from attention.analysis import long_rows
from attention.analysis.pooled import Pooled, pooled_pattern
from attention.headview import long_payload, page
from attention.trace import Site
from attention.ui.hosting import view_cache
from attention.ui.lang import t
from attention.ui.state import Keys

Pair = tuple[int, int]  # (query_pos, key_pos); -1: nothing selected on that axis
LABELS = ("reset", "zoom_in", "zoom_out", "help", "grid", "roledescription", "where", "exact", "pooled_how",
          "pooled_value", "query", "key", "weight", "masked", "sr_row", "sr_col", "sr_none",
          "strips", "strips_row", "strips_col", "strip_max")

_VIEW = st.components.v2.component(
    "attention_longview",
    css=page.asset("long_view.css"),
    js="\n".join(page.asset(n) for n in ("decode.js", "bus.js", "long_wire.js", "long_draw.js", "long_view.js",
                                         "long_paint.js", "long_input.js", "st_long.js")),
)
_PART = st.components.v2.component(
    "attention_longview_part", js="\n".join(page.asset(n) for n in ("bus.js", "long_wire.js", "st_long_part.js")))


def pooled(site: Site, site_key: tuple, head: int) -> Pooled:
    """The pooled picture and the rows' anchors (a few MB), shared by sessions; `site_key` names the site."""
    return view_cache.kept(("pooled", site_key, head), lambda: pooled_pattern(site, head))


def _first(site: Site, site_key: tuple, head: int, channel: str, labels: tuple[tuple[str, str], ...]) -> bytes:
    return view_cache.kept(("long_first", site_key, head, channel, labels), lambda: long_payload.first(
        pooled(site, site_key, head), site.query_tokens, site.key_tokens,
        info={"channel": channel, "layer": site.layer, "head": head, "kind": site.kind}, labels=dict(labels)))


def _tile(site: Site, site_key: tuple, head: int, bounds: tuple[int, int, int, int], channel: str) -> bytes:
    def make() -> bytes:
        cells, hidden = long_rows.tile(site, head, bounds)
        return long_payload.tile_message(bounds, cells, hidden, head=head, channel=channel)

    return view_cache.kept(("long_tile", site_key, head, bounds, channel), make)


def labels() -> tuple[tuple[str, str], ...]:
    """Every word the long view draws, in the chosen language."""
    return tuple((name, t(f"long.js.{name}")) for name in LABELS)


def _as_ints(value: object, n: int) -> tuple[int, ...] | None:
    try:
        out = tuple(int(x) for x in value)  # type: ignore[union-attr]
    except (TypeError, ValueError):
        return None
    return out if len(out) == n else None


def _on_select(key: str, on_select: Callable[[Pair], None]) -> None:
    pair = _as_ints((st.session_state.get(key) or {}).get("select"), 2)
    if pair is not None:
        on_select(pair)  # type: ignore[arg-type]


def _on_tile(key: str, shape: tuple[int, int]) -> None:
    ask = _as_ints((st.session_state.get(key) or {}).get("tile"), 3)
    if ask is not None:
        st.session_state[Keys.LONG_TILE + key] = long_rows.tile_bounds(*ask, shape)


def long_head(site: Site, head: int, site_key: tuple, selection: Pair, *, key: str,
              on_select: Callable[[Pair], None], goto: bool = False) -> Pooled:
    """Draw one head of a long site with `selection` highlighted, its row and column exact. A click calls
    on_select((q, k)) before the rerun. `goto`: the view moves to the selection (a position typed in).
    Returns the pooled picture (its anchors make columns exact)."""
    channel = key + ":" + hashlib.blake2b(repr(site_key).encode(), digest_size=8).hexdigest()  # a new text: a new view
    with st.container(gap=None):
        _VIEW(key=key, data=_first(site, site_key, head, channel, labels()),
              on_select_change=lambda: _on_select(key, on_select), on_tile_change=lambda: _on_tile(key, site.shape))
        asked = st.session_state.get(Keys.LONG_TILE + key)
        if asked is not None:  # kept inside this site (the text may have changed since)
            bounds = long_rows.tile_bounds(asked[0], asked[2], max(asked[1] - asked[0], asked[3] - asked[2]), site.shape)
            _PART(key=f"{key}-tile", data=_tile(site, site_key, head, bounds, channel))
        q, k = selection
        made = pooled(site, site_key, head)
        row = long_rows.row(site, head, q) if q >= 0 else None
        column = long_rows.column(site, head, k, made) if k >= 0 else None
        _PART(key=f"{key}-lines", data=long_payload.lines_message(q, k, row, column, head=head, channel=channel,
                                                                   goto=goto))
    return made
