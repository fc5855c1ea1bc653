"""Explore: one sentence, any layer and head of a real pretrained model, S / A / Z clickable per word."""

import streamlit as st

from attention.trace import TOLERANCE
from attention.ui.hosting import cache
from attention.ui.pages import compare_run, explore_model, lesson_page
from attention.ui.head_view import long_view, matrices
from attention.ui import layer_progress, pickers, sentence, state
from attention.ui.progress import Bar
from attention.ui.lang import kind_title, t, trace_notes
from attention.ui.state import EXPLORE_SCOPE, Keys


def reading(bar: Bar, done: int, total: int) -> None:
    """The bar after `done` attention layers of a model with `total`: the model reads the text more than once
    (the weights, then the checks), each pass counted on its own."""
    passes, layer = divmod(done - 1, total)
    bar((layer + 1) / total, t("explore.layers_read", done=layer + 1, total=total, passes=passes + 1))


def explore_page() -> None:
    st.title(t("explore.title"))
    lesson_page.back_button()
    explore_model.picker()
    st.text_area(t("explore.sentence"), key=Keys.TEXT, height=80)
    sentence.state_cap()
    bar = Bar()  # a long text takes tens of seconds: its layers counted as they are read
    with layer_progress.counting(lambda done, total: reading(bar, done, total)):
        tr = sentence.traced()
    bar.done()
    if tr is None:
        return
    name = sentence.model_path()
    site, head = pickers.site_picker(tr, Keys.KIND, Keys.LAYER, Keys.HEAD)
    c_words, c_overview, c_matter = st.columns([2, 1, 1])
    c_words.toggle(t("words.toggle"), key=Keys.MERGE_WORDS, help=t("words.help"))
    with c_overview:
        sentence.overview_button(sentence.MODEL, site.kind)
    with c_matter:
        sentence.matter_button(sentence.MODEL, site.kind, site.layer, head)
    compare_run.open_button(cache.source(name).name, tr.text, key="to_compare_explore")

    if not site.faithful:
        st.error(t("explore.unfaithful", diff=f"{site.check_diff:.2e}", tol=f"{TOLERANCE:.0e}"))
    st.caption(t("explore.caption" if site.weights_compared else "explore.caption_long", model=tr.model_name, n=len(tr.tokens),
                 site=t("site.title", layer=site.layer, kind=kind_title(site.kind)), head=head,
                 heads=site.n_heads, d_k=site.d_head if site.has_qkv else "—", diff=f"{site.check_diff:.1e}"))
    for note in trace_notes(tr, skip=("dropped_tokens",)):  # sentence.traced() warned of the cut
        st.caption(note)
    context = (tr.text, sentence.model_path(), site.kind)  # a new sentence, model or kind clears the selection
    state.get_selection(EXPLORE_SCOPE, context)
    if max(site.shape) > long_view.EXACT_MAX:  # every cell would be megabytes: pooled, a window, a row
        long_view.show_long(site, head, EXPLORE_SCOPE, (tr.text, tr.model_name, site.kind, site.layer),
                            query=state.get_selection(EXPLORE_SCOPE).query)  # the window opens on a selected row
        return
    matrices.show(site, head, page="explore", scope=EXPLORE_SCOPE,
                  tab_key=Keys.EXPLAIN_TAB,
                  origin_fn=lambda s, h, pos: cache.origin(name, tr, s, h, pos))


explore_page()
