"""The detail panel and the q·k explanation drawn by the browser from blocks Python formatted
(ui/head_view/detail_blocks.py), so that a click in the head view reruns only the head view's small fragment.

Two elements, declared once here with st.components.v2:
  - "attention_panel_carrier", in the head view's fragment: data = {channel, selection, parts, refresh},
    the blocks of every part for the current selection (a few kB). On a click that fragment reruns,
    this element's data changes, and it hands the parts to the panels over the page's bus (bus.js).
  - "attention_panel_head", beside it: the head's numbers and words (ui/head_view/panel_data.py), sent once per
    head, from which the browser makes the blocks of a click at once (assets/panel_predict.js), before
    the rerun's; Python's, arriving after, are the same and change nothing.
  - "attention_panel", one per part where it belongs on the page (data = {channel, part, drawn}): it lays
    out its part's blocks as they arrive. A rerun that sends the same blocks changes nothing on the page.
Parts drawn by Streamlit from the selection (the ‖α·v‖ chart, a Plotly explanation) are outside that
fragment: with one of them on the page, "refresh" asks the detail panel to rerun its own fragment once
per new selection (trigger "refresh"). Its button sends the trigger "find_heads".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from attention.headview import page

Pair = tuple[int, int]  # (query_pos, key_pos); -1 on an axis means nothing is selected there

_CARRIER = st.components.v2.component(
    "attention_panel_carrier",
    js="\n".join([page.asset("bus.js"), page.asset("panel_carrier.js")]),
)
_HEAD = st.components.v2.component(
    "attention_panel_head",
    js="\n".join([page.asset("bus.js"), page.asset("decode.js"), page.asset("panel_predict.js"),
                   page.asset("panel_head.js")]),
)
_PANEL = st.components.v2.component(
    "attention_panel",
    css=page.asset("panel.css"),
    js="\n".join([page.asset("bus.js"), page.asset("dot.js"), page.asset("panel.js")]),
)


def carrier(channel: str, selection: Pair, parts: dict[str, list[dict[str, Any]]], refresh: bool,
            options: dict[str, Any]) -> None:
    """Send the parts for `selection` to the panels of `channel` (inside the head view's fragment);
    `options`: the open explanation ("tab") and the q·k chart's "sort" and "other" key, which the
    browser's own blocks for the next click follow."""
    _CARRIER(key=f"{channel}-panel-carrier", data={"channel": channel, "selection": list(selection), "parts": parts,
                                                    "refresh": refresh, "options": options})


def head_numbers(channel: str, text: str) -> None:
    """The head's numbers (ui/head_view/panel_data.py's text) for the blocks the browser makes on a click."""
    _HEAD(key=f"{channel}-panel-head", data=text)


def _noop() -> None:
    """A trigger's callback with nothing to do: the rerun it causes is the point."""


def panel(channel: str, part: str, drawn: Pair, on_find_heads: Callable[[], None] | None = None) -> None:
    """The panel showing `part` of `channel`; `drawn`: the selection this fragment's own elements show."""
    callbacks: dict[str, Callable[[], None]] = {"on_refresh_change": _noop}
    if on_find_heads is not None:
        callbacks["on_find_heads_change"] = on_find_heads
    _PANEL(key=f"{channel}-panel-{part}", data={"channel": channel, "part": part, "drawn": list(drawn)}, **callbacks)
