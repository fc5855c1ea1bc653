"""The matrices of one head (the head view: S, A, Z and lines, drawn and highlighted in the browser),
the detail panel and the open explanation.

Drawn inside a fragment. Hover and highlight happen in the browser; a click sends back only the
selection (two integers), which the component's callback copies into session state; this fragment
then redraws the detail panel and the one open explanation. The matrices are not sent again.
"""

from __future__ import annotations

import streamlit as st

from attention.analysis import details, word_merge
from attention.analysis.markdown import code, literal
from attention.analysis.value_weighted import row_value_weighted
from attention.analysis.selection import Selection, selection_from_event
from attention.headview.payload import LABELS
from attention.plots import effect_figures, heatmaps
from attention.trace import Site
from attention.ui import charts, explanations, head_component, head_legend, state
from attention.ui.state import Keys, Scope
from attention.ui.lang import site_notes, t


def select_from_chart(chart_key: str, scope: Scope) -> None:
    """A plotly chart's on_select: its clicked point becomes the scope's selection."""
    event = st.session_state.get(chart_key)
    state.set_selection(selection_from_event(state.get_selection(scope), event), scope)


def _chart(fig, chart_key: str, scope: Scope) -> None:
    charts.show(
        fig,
        key=chart_key,
        on_select=lambda: select_from_chart(chart_key, scope),
        selection_mode="points",
        config=charts.config(modeBarButtonsToRemove=["select2d", "lasso2d"]),
        width="stretch",
    )


def _pair(sel: Selection) -> tuple[int, int]:
    return (-1 if sel.query is None else sel.query, -1 if sel.key is None else sel.key)


def _selection(pair: tuple[int, int]) -> Selection:
    q, k = pair
    return Selection(q if q >= 0 else None, k if k >= 0 else None)


def axis_names() -> tuple[str, str]:
    """What a row and a column of an attention matrix are, in the chosen language (chart hover)."""
    return t("chart.query"), t("chart.key")


def head_labels() -> dict[str, str]:
    """Every word the head view draws, in the chosen language."""
    return {name: t(f"headview.{name}") for name in LABELS}


@st.fragment
def show(site: Site, head: int, page: str, scope: Scope, tab_key: str,
         origin_fn: explanations.OriginFn | None = None) -> None:
    """The head view, the detail panel and the open explanation, all for the same selection (kept in
    session state under `scope`); the page's link follows each click."""
    sel = state.get_selection(scope).clamp(len(site.query_tokens), len(site.key_tokens))
    state.set_selection(sel, scope)
    if not site.has_qkv:  # the model's weights only: A is drawn, S and Z are said to be unavailable
        weights_only(site, head, sel, page, scope)
        state.write_url(page)
        return
    for note in site_notes(site, head):  # e.g. the share of weight an attention sink takes
        st.info(note)
    head_component.head_view(site, head, _pair(sel), key=f"{page}-head", labels=head_labels(),
                             on_select=lambda pair: state.set_selection(_selection(pair), scope))
    head_legend.show(site, head)  # under the matrices: above them, its late layout moved the view under a click
    if st.toggle(t("vw.toggle"), key=Keys.VALUE_WEIGHTED, help=t("vw.help")):  # ‖α·v‖ beside A, clickable like A
        _chart(effect_figures.value_weighted_figure(site, head, sel, title=t("vw.title"), masked_text=t("masked"),
                                                    axis_names=axis_names()), f"{page}_vw", scope)
    left, right = st.columns(2)
    with left:
        detail_panel(site, head, scope, page)
    with right:
        if st.session_state.get(Keys.MERGE_WORDS):
            whole_words(site, head)
    explanations.show(site, head, origin_fn, page, scope, tab_key)
    state.write_url(page)  # a fragment rerun does not reach the end of app.py


def weights_only(site: Site, head: int, sel: Selection, page: str, scope: Scope) -> None:
    """A site that holds the model's weights but no q, k, v: say so and why, draw A only (never S or Z
    recomputed from a guess), and the detail panel's weights."""
    st.warning("\n\n".join(site_notes(site, head)))
    fig = heatmaps.weights_figure(site, head, sel, title=t("title.A"), masked_text=t("masked"),
                                  axis_names=axis_names())
    _chart(fig, f"{page}_weights_only", scope)
    detail_panel(site, head, scope)
    st.info(t("missing_qkv.explain"))


def whole_words(site: Site, head: int) -> None:
    """The same head's weights between whole words, beside the per-token charts above."""
    weights, query_words, key_words = word_merge.merged_weights(site)
    st.caption(t("words.note"))
    fig = heatmaps.merged_weights_figure(weights[head], query_words, key_words, t("words.title"), axis_names())
    charts.show(fig, width="stretch", key=f"words_{site.kind}_{site.layer}")


def detail_panel(site: Site, head: int, scope: Scope, page: str = "") -> None:
    sel = state.get_selection(scope)
    st.subheader(t("detail.title"))
    if sel.query is None:
        st.info(t("detail.nothing"))
        return
    q_tok = site.query_tokens[sel.query]
    st.markdown(t("detail.query_word", word=code(q_tok), pos=sel.query))
    top = details.top_keys(site, head, sel.query)
    rows = [
        {t("detail.col_key"): kw.token, t("detail.col_pos"): kw.key, t("detail.col_weight"): round(kw.weight, 4),
         t("detail.col_moved"): round(kw.moved, 3)}
        for kw in top
    ]
    st.caption(t("detail.where", word=code(q_tok)))
    st.dataframe(rows, hide_index=True, width="stretch")
    specials = [kw for kw in top if kw.special]
    if specials:  # weight parked on [CLS] / [SEP]: say where they come from and what they carry
        sink = max(specials, key=lambda kw: kw.weight)
        words = [kw for kw in top if not kw.special]
        st.caption(t("detail.special", tok=code(sink.token), w=f"{sink.weight:.3f}", m=f"{sink.moved:.3f}",
                     word=code(words[0].token) if words else "—",
                     ww=f"{words[0].weight:.3f}" if words else "—", m_word=f"{words[0].moved:.3f}" if words else "—"))
    if sel.key is None:
        st.caption(t("detail.pick_pair"))
        return
    if not site.has_qkv:  # no q·k to show: the weight alone, which is the model's own
        st.markdown(t("detail.pair", q=code(q_tok), k=code(site.key_tokens[sel.key]), qi=sel.query, ki=sel.key))
        weight = t("masked") if site.masked[sel.query, sel.key] else f"{site.weights[head, sel.query, sel.key]:.4f}"
        st.metric(t("detail.weight"), weight)
        return
    cell = details.cell_detail(site, head, sel.query, sel.key)
    st.markdown(t("detail.pair", q=code(cell.query_token), k=code(cell.key_token), qi=cell.query, ki=cell.key))
    # two by two: four across, half a 1280 px page cut the numbers ("21.… 3.7…")
    (c1, c2), (c3, c4) = st.columns(2), st.columns(2)
    c1.metric(t("detail.dot"), f"{cell.dot:.4f}")
    c2.metric(t("detail.scaled"), t("masked") if cell.masked else f"{cell.scaled:.4f}")
    c3.metric(t("detail.weight"), f"{cell.weight:.4f}")
    c4.metric(t("vw.metric"), f"{row_value_weighted(site, head, cell.query)[cell.key]:.4f}", help=t("vw.help"))
    if cell.masked:
        st.caption(t("detail.masked_note"))
    else:
        st.caption(t("detail.scaled_note", scale=f"{cell.scale:.4f}", d_k=site.d_head))
    if page == "explore":  # Find heads ranks Explore's sentence on Explore's selection
        label = t("relevance.explore_link", q=literal(cell.query_token), k=literal(cell.key_token))
        if st.button(label, key="to_find_heads", icon=":material/travel_explore:"):
            state.go("find_heads")  # the kind, sentence and pair are shared with Explore already


def show_scores_and_weights(site: Site, head: int, prefix: str, scope: Scope, note: str = "",
                            interactive: bool = True) -> None:
    """Only S and A, side by side, with the same click behaviour (interactive=False while animating:
    the same chart drawn several times in one run cannot carry a widget key)."""
    sel = state.get_selection(scope).clamp(len(site.query_tokens), len(site.key_tokens))
    state.set_selection(sel, scope)
    words = {"masked_text": t("masked"), "axis_names": axis_names()}
    # the note (e.g. the training step) on a line of its own: half a 1280 px page holds one line only
    figures = (heatmaps.scores_figure(site, head, sel, title=f"{t('title.S')}<br>{note}", **words),
               heatmaps.weights_figure(site, head, sel, title=f"{t('title.A')}<br>{note}", **words))
    for col, fig, name in zip(st.columns(2), figures, ("S", "A"), strict=True):
        with col:
            if interactive:
                _chart(fig, f"{prefix}_{name}", scope)
            else:
                charts.show(fig, width="stretch")
    st.caption(t("matrices.dots"))
