"""Compare: change one word. Two sentences through one model; what changed in every head, in the output,
and (patching, on a button) which heads carry the change. Logic in attention/ui/pages/compare_run.py, drawing
in attention/ui/pages/compare_view.py."""

import streamlit as st

from attention.ui.pages import compare_run, compare_view
from attention.ui import pickers, sentence, state
from attention.ui.lang import t
from attention.ui.state import Keys


def head_links(src_name: str, text: str, heads: list, prefix: str) -> None:
    """One button per head: it opens the head's home page on sentence A."""
    for i, ((kind, layer, head), value) in enumerate(heads):
        st.button(t("compare.open_head", n=i + 1, head=compare_view.head_name(kind, layer, head), value=value),
                  key=f"{prefix}_{i}", on_click=compare_run.open_head, args=(src_name, text, kind, layer, head))


def compare_page() -> None:
    st.title(t("compare.title"))
    st.markdown(t("compare.explain"))
    compare_run.defaults()
    src = compare_run.model_picker()
    sentence.name_model(src.label())
    left, right = st.columns(2)
    left.text_area(t("compare.sentence_a"), key=Keys.CMP_A, height=80)
    right.text_area(t("compare.sentence_b"), key=Keys.CMP_B, height=80)
    right.caption(t("compare.sentence_b_help"))  # a caption, not a help button: the box keeps one accessible name
    sentence.state_cap()
    texts = compare_run.texts()
    if texts is None:
        return
    c = compare_run.comparison(src, *texts)
    if c is None:
        return
    unread = compare_run.unread(c)
    if unread is not None:  # characters the model has no piece for: all one [UNK] to it
        compare_view.unreadable(src, unread, compare_run.use_smollm2)
        if c.identical:  # not "change one word": the change is there, the model cannot see it
            return
    compare_view.alignment(c)
    if c.identical:
        compare_view.identical(c)
        return
    compare_view.output(c)
    if c.change_unseen:
        compare_view.unseen(c, compare_run.CAUSAL_PAIR, compare_run.use_causal_pair)
        return

    st.subheader(t("compare.grid"))
    state.str_choice(Keys.CMP_MEASURE, list(compare_run.MEASURES))
    names = {"js": t("compare.measure.js"), "max_abs": t("compare.measure.max_abs")}  # bound now: AppTest formats later
    st.radio(t("compare.measure"), list(compare_run.MEASURES), key=Keys.CMP_MEASURE, horizontal=True,
             format_func=names.get, help=t("compare.measure_help"))
    measure = st.session_state[Keys.CMP_MEASURE]
    compare_run.pick_head(c, measure)
    compare_view.grid(c, measure, lambda: compare_run.on_grid_click(c))
    st.markdown(t("compare.top_changed"))
    top = [(h, f"{v:.3f}") for h, v in c.ranked(measure)[:compare_view.TOP_LINKS]]
    head_links(src.name, c.text_a, top, "cmp_top")

    st.subheader(t("compare.head"))
    site, head = pickers.site_picker(c.trace_a, Keys.CMP_KIND, Keys.CMP_LAYER, Keys.CMP_HEAD)
    compare_view.head(c, site.kind, site.layer, head)

    st.subheader(t("compare.patching"))
    st.markdown(t("compare.patching_explain"))
    if not c.can_patch:
        st.info(t(compare_run.MISSING.get(c.patch_missing, "compare.no_patch.switch")))
        return
    if not st.session_state.get(Keys.CMP_PATCH):
        st.button(t("compare.patch_button"), key="cmp_patch_button", type="primary", on_click=compare_run.ask_patching,
                  icon=":material/swap_horiz:")
        return
    p, together = compare_run.patching(src, c)
    ranked = compare_view.patching(c, p, together)
    head_links(src.name, c.text_a, [(h, f"{s:.1%}") for h, s in ranked], "cmp_patch")


compare_page()
