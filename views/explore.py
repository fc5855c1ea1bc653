"""Explore: one sentence, any layer and head of a real pretrained model, S / A / Z clickable per word."""

import streamlit as st

from attention import hf_projections
from attention.trace import TOLERANCE
from attention.ui import cached, matrices, sentence, state
from attention.ui.lang import formatter, kind_title, t


def explore_page() -> None:
    st.title(t("explore.title"))
    st.text_area(t("explore.sentence"), key="text", height=80, persist_state="session")
    tr = sentence.traced()
    if tr is None:
        return
    lm = cached.model(sentence.model_path())

    kinds = list(tr.kinds)
    c_kind, c_layer, c_head = st.columns([2, 1, 1])
    state.str_choice("kind", kinds)
    c_kind.selectbox(t("explore.kind"), kinds, key="kind", format_func=formatter("kind."), disabled=len(kinds) == 1,
                     persist_state="session")
    layers = list(tr.layers(st.session_state["kind"]))
    state.int_choice("layer", layers)
    c_layer.selectbox(t("explore.layer"), layers, key="layer", persist_state="session")
    site = tr.site(st.session_state["layer"], st.session_state["kind"])
    state.int_choice("head", list(range(site.n_heads)))
    c_head.selectbox(t("explore.head"), list(range(site.n_heads)), key="head", persist_state="session")
    c_words, c_overview = st.columns([3, 1])
    c_words.toggle(t("words.toggle"), key="merge_words", help=t("words.help"))
    with c_overview:
        sentence.overview_button(sentence.MODEL, st.session_state["kind"])
    head = st.session_state["head"]

    if not site.faithful:
        st.error(t("explore.unfaithful", diff=f"{max(site.weights_diff, site.z_diff):.2e}", tol=f"{TOLERANCE:.0e}"))
    st.caption(t("explore.caption", model=tr.model, n=len(tr.tokens),
                 site=t("site.title", layer=site.layer, kind=kind_title(site.kind)), head=head,
                 heads=site.n_heads, d_k=site.d_head, diff=f"{site.weights_diff:.1e}"))
    st.session_state["_url_view"] = {k: st.session_state.get(k) for k in state.URL_KEYS}
    matrices.show(site, head, origin_fn=lambda s, h, pos: hf_projections.origin(lm, tr, s, h, pos))


explore_page()
