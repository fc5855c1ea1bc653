"""Explore: one sentence, any layer and head of a real pretrained model, S / A / Z clickable per word."""

import streamlit as st

from attention import ModelLoadError
from attention.text_input import check_text
from attention.trace import KIND_TITLES, TOLERANCE
from attention.ui import cached, matrices, state

DEFAULT_TEXT = "The black cat drank the milk"


def explore_page() -> None:
    st.title("Explore attention")
    state.init_from_url({"text": DEFAULT_TEXT, "layer": 0, "head": 0})
    st.text_area("Sentence", key="text", height=80, max_chars=None)
    checked = check_text(st.session_state.get("text"))
    if checked.message and not checked.text:
        st.info(checked.message)
        return
    if checked.message:
        st.warning(checked.message)
    model_path = st.session_state.get("model_path") or None
    try:
        tr = cached.trace(model_path, checked.text)
    except ModelLoadError as exc:
        st.error(str(exc))
        return
    if tr.dropped_tokens:
        st.warning(f"The text is longer than the model's maximum of {len(tr.tokens)} tokens: "
                   f"the last {tr.dropped_tokens} tokens were dropped.")
    kinds = list(tr.kinds)
    c_kind, c_layer, c_head = st.columns([2, 1, 1])
    state.str_choice("kind", kinds)
    c_kind.selectbox("Attention", kinds, key="kind", format_func=lambda k: KIND_TITLES[k],
                     disabled=len(kinds) == 1)
    layers = list(tr.layers(st.session_state["kind"]))
    state.int_choice("layer", layers)
    c_layer.selectbox("Layer", layers, key="layer")
    site = tr.site(st.session_state["layer"], st.session_state["kind"])
    heads = list(range(site.n_heads))
    state.int_choice("head", heads)
    c_head.selectbox("Head", heads, key="head")

    if not site.faithful:
        st.error(f"Our recomputed attention differs from the model's own by up to "
                 f"{max(site.weights_diff, site.z_diff):.2e} (tolerance {TOLERANCE:.0e}): "
                 "treat these pictures with care.")
    st.caption(f"{tr.model} · {len(tr.tokens)} tokens · {site.title} · head {st.session_state['head']} of "
               f"{site.n_heads} · d_k = {site.d_head} · max difference from the model's own weights "
               f"{site.weights_diff:.1e}")
    st.session_state["_url_view"] = {k: st.session_state.get(k) for k in state.URL_KEYS}
    matrices.show(site, st.session_state["head"])


explore_page()
