"""Translate: the built-in English→Spanish model, with encoder, masked decoder and cross-attention."""

from dataclasses import replace

import streamlit as st

from attention import sources
from attention.trace import TOLERANCE, Site
from attention.ui.hosting import cache
from attention.ui.pages import compare_run, lesson_page, translate_writes
from attention.ui.head_view import matrices
from attention.ui import pickers, sentence, state
from attention.ui.lang import t, trace_notes
from attention.ui.state import TRANSLATE_SCOPE, Keys


def labelled(site: Site) -> Site:
    """Decoder and cross rows named by the word produced, with the word fed in after an arrow."""
    if site.input_tokens is None:
        return site
    rows = tuple(f"{inp} ▸ {out}" for out, inp in zip(site.query_tokens, site.input_tokens, strict=True))
    return replace(site, query_tokens=rows)


def translate_page() -> None:
    st.title(t("translate.title"))
    lesson_page.back_button()
    st.markdown(t("translate.explain"))
    sentence.name_model()
    out = sentence.translated(sentence.english_box(Keys.TR_TEXT))
    if out is None:
        return
    sentence.show_translation(out)
    for note in trace_notes(out.trace, skip=("unknown_words",)):  # show_translation warned of those
        st.caption(note)
    tr = out.trace
    c_kind, c_overview = st.columns([3, 1])
    kind = pickers.kind_picker(list(tr.kinds), Keys.TR_KIND, c_kind, radio=True)
    with c_overview:
        sentence.overview_button(sentence.TRANSLATOR, kind)
    site, head = pickers.site_picker(tr, Keys.TR_KIND, Keys.TR_LAYER, Keys.TR_HEAD, show_kind=False)
    sentence.matter_button(sentence.TRANSLATOR, site.kind, site.layer, head)
    compare_run.open_button(sources.TRANSLATOR, tr.text, key="to_compare_translate")
    if not site.faithful:
        st.error(t("explore.unfaithful", diff=f"{site.check_diff:.2e}", tol=f"{TOLERANCE:.0e}"))
    if kind != "encoder":
        st.caption(t("translate.rows"))
    sel = state.get_selection(TRANSLATE_SCOPE, (tr.text, kind))  # a new sentence or kind clears the selection
    matrices.show(labelled(site), head, page="translate", scope=TRANSLATE_SCOPE,
                  tab_key=Keys.TR_EXPLAIN_TAB, origin_fn=lambda s, h, pos: cache.origin(sources.TRANSLATOR, tr, s, h, pos))
    translate_writes.writes_section(out, site.kind, site.layer, head, sel.query if kind != "encoder" else None)
    vocab_browser()


def vocab_browser() -> None:
    words = [w for w in cache.translator().src_vocab.tokens if not w.startswith("<")]
    with st.expander(t("translate.vocab", n=len(words))):
        query = st.text_input(t("translate.search"), key="tr_vocab_search").strip().lower()
        shown = [w for w in words if query in w] if query else words
        st.dataframe({"word": shown}, hide_index=True, height=240, width="stretch")


translate_page()
