"""Translate: the built-in English→Spanish model, with encoder, masked decoder and cross-attention."""

from dataclasses import replace

import streamlit as st

from attention.trace import TOLERANCE, Site
from attention.translator import load_model
from attention.translator.origin import origin as translator_origin
from attention.ui import matrices, sentence, state
from attention.ui.lang import formatter, t


def labelled(site: Site) -> Site:
    """Decoder and cross rows named by the word produced, with the word fed in after an arrow."""
    if site.input_tokens is None:
        return site
    rows = tuple(f"{out} ← {inp}" for out, inp in zip(site.query_tokens, site.input_tokens, strict=True))
    return replace(site, query_tokens=rows)


def kind_section(tr, kind: str) -> None:
    layers = list(tr.layers(kind))
    c_layer, c_head = st.columns(2)
    state.int_choice(f"tr_{kind}_layer", layers)
    c_layer.selectbox(t("explore.layer"), layers, key=f"tr_{kind}_layer")
    site = tr.site(st.session_state[f"tr_{kind}_layer"], kind)
    state.int_choice(f"tr_{kind}_head", list(range(site.n_heads)))
    c_head.selectbox(t("explore.head"), list(range(site.n_heads)), key=f"tr_{kind}_head")
    if not site.faithful:
        st.error(t("explore.unfaithful", diff=f"{max(site.weights_diff, site.z_diff):.2e}", tol=f"{TOLERANCE:.0e}"))
    if kind != "encoder":
        st.caption(t("translate.rows"))
    model = load_model()
    matrices.show(labelled(site), st.session_state[f"tr_{kind}_head"], prefix=f"tr_{kind}", scope=f"_tr_{kind}",
                  write_url=False, origin_fn=lambda s, h, pos: translator_origin(model, s, h, pos))


def translate_page() -> None:
    st.title(t("translate.title"))
    st.markdown(t("translate.explain"))
    out = sentence.translated(sentence.english_box("tr_text"))
    if out is None:
        return
    sentence.show_translation(out)
    for note in out.trace.notes[1 if out.unknown_words else 0 :]:
        st.caption(note)
    kinds = list(out.trace.kinds)
    state.str_choice("tr_kind", kinds)
    c_kind, c_overview = st.columns([3, 1])
    c_kind.radio(t("explore.kind"), kinds, key="tr_kind", format_func=formatter("kind."), horizontal=True)
    with c_overview:
        sentence.overview_button(sentence.TRANSLATOR, st.session_state["tr_kind"])
    kind_section(out.trace, st.session_state["tr_kind"])
    vocab_browser()


def vocab_browser() -> None:
    words = [w for w in load_model().src_vocab.tokens if not w.startswith("<")]
    with st.expander(t("translate.vocab", n=len(words))):
        query = st.text_input(t("translate.search"), key="tr_vocab_search").strip().lower()
        shown = [w for w in words if query in w] if query else words
        st.dataframe({"word": shown}, hide_index=True, height=240, width="stretch")


translate_page()
