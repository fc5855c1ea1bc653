"""The head view (attention/headview) as a Streamlit element: hover and highlight in the browser, only
a click comes back to Python.

Two elements per view, declared once here with st.components.v2:
  - "attention_headview": data = the head's JSON text (about 1 MB at 512 tokens). It is the same
    string on every rerun for the same head, and Streamlit sends an element the browser already has
    as a reference to it (its ForwardMsg cache, keyed on the message's hash), and the browser does
    not call the component again for equal data. So the matrices travel once per head.
  - "attention_headview_selection": data = {channel, selection}, a few bytes. A selection made in
    Python (a link, another widget) reaches the view through it without resending the matrices.
A click arrives as the trigger "select": [query, key], -1 for "none".
"""

from __future__ import annotations

import hashlib
import html
import json
import weakref
from collections.abc import Callable, Mapping

import numpy as np
import streamlit as st

from attention.headview import blocks, page
from attention.headview.payload import SINGLE_HEAD, Decimals, head_payload
from attention.trace import Site
from attention.ui.state import Keys
from attention.ui.hosting import view_cache

Pair = tuple[int, int]  # (query_pos, key_pos); -1 on an axis means nothing is selected there
NO_SELECTION: Pair = (-1, -1)

_VIEW = st.components.v2.component(
    "attention_headview",
    css=page.asset("headview.css"),
    js="\n".join([page.core_js(), page.asset("bus.js"), page.asset("st_view.js")]),
)
_SELECTION = st.components.v2.component(
    "attention_headview_selection",
    js="\n".join([page.asset("bus.js"), page.asset("st_selection.js")]),
)

# A view sent in blocks (the Write page) is an element and a carrier: the element holds the code and the
# place (the same on every rerun, so sent once); the head with its new blocks and the selection (a few kB
# per word) come in a hidden st.html element that st_blocks.js reads as React commits it (carrier()).
_BLOCKS = st.components.v2.component(
    "attention_headview_blocks",
    css=page.asset("headview.css"),
    js="\n".join([page.core_js(), page.asset("bus.js"), page.asset("blocks.js"), page.asset("st_blocks.js")]),
)



def _fingerprint(site: Site, head: int, labels: Mapping[str, str] | None, decimals: Decimals) -> str:
    """What the payload depends on. Cached traces come back as new objects on each rerun
    (st.cache_data copies), so the key is the content, not the object: a hash of q, k, v, the mask
    and bias of this head (~1 ms at 512 tokens) against ~100 ms to build the payload."""
    h = hashlib.blake2b(digest_size=20)
    for a in (site.q[head], site.head_k(head), site.head_v(head), site.mask_rows(), None if site.bias is None else site.bias[head]):
        h.update(b"-" if a is None else np.ascontiguousarray(a).tobytes())
    h.update(json.dumps([site.kind, site.layer, head, site.scale, site.softcap, site.query_tokens,
                         site.key_tokens, dict(labels or {}), decimals.__dict__]).encode())
    return h.hexdigest()


def fingerprint(site: Site, head: int) -> str:
    """The content a head view of `site` and `head` shows (for what is built once per head beside it)."""
    return _fingerprint(site, head, None, SINGLE_HEAD)


def payload_text(site: Site, head: int, labels: Mapping[str, str] | None = None,
                 decimals: Decimals = SINGLE_HEAD) -> str:
    """The head's payload as JSON text, built once per content (a small LRU shared by sessions)."""
    key = ("payload", _fingerprint(site, head, labels, decimals))
    return view_cache.kept(key, lambda: json.dumps(head_payload(site, head, dict(labels or {}), decimals),
                                                   separators=(",", ":")))


def _as_pair(value: object) -> Pair | None:
    try:
        q, k = (int(x) for x in value)  # type: ignore[union-attr]
    except (TypeError, ValueError):
        return None
    return (q, k)


def _on_click(key: str, on_select: Callable[[Pair], None] | None) -> None:
    # Runs before the rerun; the component's entry in session state carries the trigger's value.
    if on_select is None:
        return
    state = st.session_state.get(key)
    pair = _as_pair(state.get("select")) if state is not None else None
    if pair is not None:
        on_select(pair)


def head_view(site: Site, head: int, selection: Pair = NO_SELECTION, *, key: str,
              labels: Mapping[str, str] | None = None, on_select: Callable[[Pair], None] | None = None,
              decimals: Decimals = SINGLE_HEAD) -> Pair:
    """Draw one head's S, A, Z and lines, highlighting `selection`. A click calls `on_select((q, k))`
    before the rerun and is returned on that run; otherwise `selection` is returned. `key` must be
    unique on the page and contain no "__"."""
    channel = key
    palette = "cvd" if st.session_state.get(Keys.CVD_COLOURS) else "standard"  # the sidebar's choice
    data = ('{"channel":' + json.dumps(channel) + ',"palette":"' + palette + '","payload":'
            + payload_text(site, head, labels, decimals) + "}")
    with st.container(gap=None):
        result = _VIEW(key=key, data=data, on_select_change=lambda: _on_click(key, on_select))
        clicked = _as_pair(result.select) if result is not None else None
        current = clicked if clicked is not None else (int(selection[0]), int(selection[1]))
        _SELECTION(key=f"{key}-selection", data={"channel": channel, "selection": list(current)})
    return current


def _sent_key(key: str) -> str:
    return Keys.HV_SENT + key  # {"ids": blocks this session's browser was sent for `key`, "bands": the last head's}


def _on_missing(key: str) -> None:
    st.session_state.pop(_sent_key(key), None)  # the browser lost some: send them all on this rerun


def _made_key(key: str) -> str:
    return Keys.HV_SENT + "made:" + key  # (site, its arguments, head_blocks' result): the last made for `key`


def made_blocks(site: Site, head: int, *, key: str, labels: Mapping[str, str] | None = None,
                decimals: Decimals = SINGLE_HEAD, grown_from: int | None = None) -> tuple[dict, dict[str, str]]:
    """blocks.head_blocks for this site, kept for the session's next call with the same site object: a
    callback can make them before the page's run (10 ms at 1,024 tokens), so the run sends the head view
    at once, with the first elements it sends."""
    args = (head, dict(labels or {}), decimals, grown_from)
    made = st.session_state.get(_made_key(key))
    if made is not None and made[0]() is site and made[1] == args:
        return made[2]
    result = blocks.head_blocks(site, *args)
    # the site by weak reference: a Writing the sessions' budget empties (ui/hosting/held.py) is freed with its sites
    st.session_state[_made_key(key)] = (weakref.ref(site), args, result)
    return result


def blocks_view(site: Site, head: int, selection: Pair = NO_SELECTION, *, key: str,
                labels: Mapping[str, str] | None = None, on_select: Callable[[Pair], None] | None = None,
                decimals: Decimals = SINGLE_HEAD, grown_from: int | None = None) -> Pair:
    """head_view for a view that grows a row at a time (the Write page; `grown_from`: the prompt's length):
    the head travels in blocks (headview/blocks.py), and a block this browser was sent before is named,
    not sent again."""
    palette = "cvd" if st.session_state.get(Keys.CVD_COLOURS) else "standard"
    desc, texts = made_blocks(site, head, key=key, labels=labels, decimals=decimals, grown_from=grown_from)
    sent = st.session_state.get(_sent_key(key)) or {"ids": set(), "bands": None}
    data = blocks.message(desc, texts, sent["ids"], {"channel": key, "palette": palette}, sent["bands"])
    ids = (sent["ids"] | set(texts)) if len(sent["ids"]) < 20_000 else set(texts)
    st.session_state[_sent_key(key)] = {"ids": ids, "bands": desc["bands"]}
    with st.container(gap=None):
        result = _BLOCKS(key=key, data={"channel": key, "palette": palette},
                         on_select_change=lambda: _on_click(key, on_select), on_missing_change=lambda: _on_missing(key))
        clicked = _as_pair(result.select) if result is not None else None
        current = clicked if clicked is not None else (int(selection[0]), int(selection[1]))
        st.html(carrier(data, current))
    return current


def carrier(message: str, selection: Pair) -> str:
    """The hidden element that brings a blocks view its head, new blocks and selection. st.html puts it
    into the page during React's commit, where st_blocks.js's observer reads it before the frame; a
    component's data would reach its code a task and a frame later (about 15-25 ms a word at 9 tokens,
    `python -m bench write_latency`). Escaped: the message is only ever an attribute's text."""
    return (f'<div hidden class="hv-msg" data-sel="{list(selection)}" '
            f'data-msg="{html.escape(message, quote=True)}"></div>')
