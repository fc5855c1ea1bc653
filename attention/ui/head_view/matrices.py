"""The matrices of one head (the head view: S, A, Z and lines, drawn and highlighted in the browser),
the detail panel and the open explanation.

Two fragments. The head view sits in a small one of its own (_head): a click reruns that alone, which
stores the selection, writes the link and sends the detail panel's and the q·k chart's blocks for the
new selection (ui/head_view/detail_blocks.py, formatted by Python) to the browser, which lays them out in place
(ui/head_view/panel_view.py). The rest (the legend, toggles, columns, the explanation's controls) is not sent
again. The outer fragment reruns when one of its own widgets changes, and on a click only when it
shows something Streamlit draws from the selection (the ‖α·v‖ chart, a Plotly explanation).
"""

from __future__ import annotations

import streamlit as st

from attention.analysis import word_merge
from attention.params.selection import Selection, selection_from_event
from attention.headview.payload import LABELS
from attention.plots import effect_figures, heatmaps
from attention.trace import Site
from attention.ui import charts, state
from attention.ui.head_view import (detail_blocks, explanations, head_component, head_legend, panel_data,
                                    panel_view)
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
    channel = f"{page}-head"
    _head(site, head, page, scope, tab_key)
    sel = state.get_selection(scope)  # what this run's own elements show
    head_legend.show(site, head)  # under the matrices: above them, its late layout moved the view under a click
    if st.toggle(t("vw.toggle"), key=Keys.VALUE_WEIGHTED, help=t("vw.help")):  # ‖α·v‖ beside A, clickable like A
        _chart(effect_figures.value_weighted_figure(site, head, sel, title=t("vw.title"), masked_text=t("masked"),
                                                    axis_names=axis_names()), f"{page}_vw", scope)
    left, right = st.columns(2)
    with left:
        st.subheader(t("detail.title"))
        panel_view.panel(channel, "detail", _pair(sel),
                         on_find_heads=(lambda: state.go_later("find_heads")) if page == "explore" else None)
    with right:
        if st.session_state.get(Keys.MERGE_WORDS):
            whole_words(site, head)
    explanations.show(site, head, origin_fn, page, scope, tab_key, channel)
    if state.switching():  # the detail panel's Find heads button: app.py's follow() moves there
        st.rerun(scope="app")
    state.write_url(page)  # a fragment rerun does not reach the end of app.py


@st.fragment
def _head(site: Site, head: int, page: str, scope: Scope, tab_key: str) -> None:
    """The head view and the blocks of the panels below it for its selection: all a click reruns."""
    channel = f"{page}-head"
    head_component.head_view(site, head, _pair(state.get_selection(scope)), key=channel, labels=head_labels(),
                             on_select=lambda pair: state.set_selection(_selection(pair), scope))
    sel = state.get_selection(scope)  # a click's callback has set it before this run
    parts = {"detail": detail_blocks.detail(site, head, sel, page)}
    tab = st.session_state.get(tab_key, explanations.TABS[0])
    # the q·k chart's options are widgets of the outer fragment, read from session state
    options = {"tab": tab, "sort": bool(st.session_state.get(explanations.sort_key(page))),
               "other": st.session_state.get(explanations.other_key(page))}
    if tab == "dot":
        parts |= detail_blocks.dot_parts(site, head, sel, options["sort"], options["other"])
    # something below is drawn by Streamlit from the selection: the outer fragment reruns after a click
    refresh = tab != "dot" or bool(st.session_state.get(Keys.VALUE_WEIGHTED))
    panel_view.carrier(channel, _pair(sel), parts, refresh, options)
    panel_view.head_numbers(channel, panel_data.head_text(site, head, page, channel,
                                                          head_component.fingerprint(site, head)))
    state.write_url(page)


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
    """The detail panel drawn by Streamlit (a site without a head view)."""
    st.subheader(t("detail.title"))
    detail_blocks.render(detail_blocks.detail(site, head, state.get_selection(scope), page))


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
