"""The one picker for kind, layer and head that every page uses (values kept under the page's keys)."""

from __future__ import annotations

import streamlit as st

from attention.trace import Site, Trace
from attention.ui import state
from attention.ui.lang import formatter, t


def kind_picker(kinds: list[str], key: str, container=st, radio: bool = False, default: str | None = None) -> str:
    """Which kind of attention (encoder, decoder, cross). With only one it is still an enabled list of
    one: a disabled widget is skipped by the keyboard and screen readers, and its label drawn at 2.3:1."""
    state.str_choice(key, kinds, default)
    if radio:
        container.radio(t("explore.kind"), kinds, key=key, format_func=formatter("kind."), horizontal=True)
    else:
        only = len(kinds) == 1  # e.g. MiniLM, an encoder: it has no decoder and no cross-attention
        container.selectbox(t("explore.kind"), kinds, key=key, format_func=formatter("kind."),
                            help=t("explore.kind_only", kind=t(f"kind.{kinds[0]}")) if only else None)
    return st.session_state[key]


def site_picker(tr: Trace, kind_key: str, layer_key: str, head_key: str, radio: bool = False,
                default_kind: str | None = None, show_kind: bool = True) -> tuple[Site, int]:
    """Kind, layer and head in one row; returns the chosen site and head."""
    kinds = list(tr.kinds)
    if show_kind:
        c_kind, c_layer, c_head = st.columns([2, 1, 1])
        kind = kind_picker(kinds, kind_key, c_kind, radio, default_kind)
    else:
        c_layer, c_head = st.columns(2)
        state.str_choice(kind_key, kinds, default_kind)
        kind = st.session_state[kind_key]
    layers = list(tr.layers(kind))
    state.int_choice(layer_key, layers)
    c_layer.selectbox(t("explore.layer"), layers, key=layer_key)
    site = tr.site(st.session_state[layer_key], kind)
    heads = list(range(site.n_heads))
    state.int_choice(head_key, heads)
    c_head.selectbox(t("explore.head"), heads, key=head_key)
    return site, st.session_state[head_key]
