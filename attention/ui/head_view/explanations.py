"""The "why" views under the matrices: q·k by dimension, Z as a weighted sum, the formula step by
step with a temperature, and where q, k, v come from. Each reads the current selection."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import streamlit as st

from attention import core
from attention.analysis import anatomy, qk_space
from attention.analysis.token_text import readable_tokens
from attention.params.markdown import code
from attention.analysis.qkv_origin import Origin
from attention.plots import explain_figures, heatmaps
from attention.trace import Site
from attention.ui import charts, state
from attention.ui.head_view import panel_view
from attention.ui.state import Scope
from attention.ui.lang import t

OriginFn = Callable[[Site, int, int], Origin | None]


TABS = ("dot", "sum", "steps", "space", "origin")  # i18n keys tab.<name>


def sort_key(prefix: str) -> str:
    return f"{prefix}_dot_sort"


def other_key(prefix: str) -> str:
    return f"{prefix}_dot_other"


def show(site: Site, head: int, origin_fn: OriginFn | None, prefix: str, scope: Scope, tab_key: str,
         channel: str) -> None:
    """The explanation the person has open, and only that one: a click recomputes one view, not five.
    `channel`: the head view whose fragment sends the q·k chart's blocks (ui/head_view/panel_view.py)."""
    state.str_choice(tab_key, list(TABS))
    names = {name: t(f"tab.{name}") for name in TABS}  # bound now: format_func may be called after this run
    which = st.radio(t("explain.which"), TABS, key=tab_key, format_func=names.get,
                     horizontal=True, label_visibility="collapsed")
    if which == "dot":
        dot_product(site, prefix, scope, channel)
    elif which == "sum":
        weighted_sum(site, head, prefix, scope)
    elif which == "steps":
        step_by_step(site, head, prefix, scope)
    elif which == "space":
        query_key_space(site, head, prefix, scope)
    else:
        where_from(site, head, origin_fn, prefix, scope)


def chosen_query(scope: Scope) -> int | None:
    """The selected query word, or None after asking for one (the tabs below need a row)."""
    query = state.get_selection(scope).query
    if query is None:
        st.info(t("explain.need_query"))
    return query


def dot_product(site: Site, prefix: str, scope: Scope, channel: str) -> None:
    """q·k by dimension. The text and the charts are panels the head view's fragment fills for each
    selection (ui/detail_blocks.dot_parts); here only their places and the two controls, which do not
    change with the pair (the compared key may be any word: the pair's own key is compared with nothing)."""
    drawn = state.get_selection(scope)
    pair = (-1 if drawn.query is None else drawn.query, -1 if drawn.key is None else drawn.key)
    panel_view.panel(channel, "explain", pair)
    c1, c2 = st.columns(2)
    c1.toggle(t("dot.sort"), key=sort_key(prefix))
    k_shown = readable_tokens(site.key_tokens)  # Ġcat -> ·cat
    none_text = t("dot.none")
    other = c2.selectbox(t("dot.compare"), [None, *range(len(site.key_tokens))], key=other_key(prefix),
                         format_func=lambda j: none_text if j is None else f"{k_shown[j]} ({j})")
    for i, col in enumerate(st.columns(2 if other is not None else 1)):
        with col:  # the key names the place, not the pair: a new pair moves the same bars (assets/dot.js)
            panel_view.panel(channel, f"dot-{i}", pair)


def weighted_sum(site: Site, head: int, prefix: str, scope: Scope) -> None:
    query = chosen_query(scope)
    if query is None:
        return
    st.markdown(t("sum.explain", q=code(readable_tokens(site.query_tokens)[query])))
    an = anatomy.sum_anatomy(site, head, query)
    fig = explain_figures.sum_figure(an, heatmaps.token_labels(site.key_tokens), t("sum.total"),
                                   t("sum.others"), t("sum.title", q=heatmaps.token_labels(site.query_tokens)[query]),
                                   dimension_word=t("dot.dimension"))
    charts.show(fig, width="stretch", key=f"{prefix}_sum_chart")


def step_by_step(site: Site, head: int, prefix: str, scope: Scope) -> None:
    query = chosen_query(scope)
    if query is None:
        return
    st.markdown(t("steps.explain"))
    temperature = st.slider(t("steps.temperature"), 0.1, 5.0, 1.0, 0.1, key=f"{prefix}_temperature")
    row = anatomy.row_pipeline(site, head, query, temperature)
    model_row = anatomy.row_pipeline(site, head, query, 1.0)
    table = [
        {
            t("steps.col_key"): f"{w} ({j})",
            t("steps.col_raw"): round(float(row.raw[j]), 4),
            t("steps.col_scaled"): round(float(row.scaled[j]), 4),
            t("steps.col_masked"): t("steps.hidden") if row.masked[j] else t("steps.open"),
            t("steps.col_weight"): round(float(row.weights[j]), 5),
            t("steps.col_model"): round(float(site.weights[head, query, j]), 5),
        }
        for j, w in enumerate(site.key_tokens)
    ]
    st.dataframe(table, hide_index=True, width="stretch")
    n_open = int((~row.masked).sum())
    st.caption(t("steps.entropy", h=f"{core.entropy(row.weights):.3f}", hmax=f"{np.log(max(n_open, 1)):.3f}"))
    fig = explain_figures.temperature_figure(row, model_row, heatmaps.token_labels(site.key_tokens),
                                           t("steps.at_t", t=temperature), t("steps.model"),
                                           t("steps.weights_chart"))
    charts.show(fig, width="stretch", key=f"{prefix}_temperature_chart")
    st.markdown(f"**{t('steps.z')}**")
    st.dataframe([{f"d{i}": round(float(v), 4) for i, v in enumerate(row.z)}], hide_index=True)


def query_key_space(site: Site, head: int, prefix: str, scope: Scope) -> None:
    """Every query and key of the head on one map: a query's strongest keys lie in its direction."""
    query = chosen_query(scope)
    if query is None:
        return
    st.markdown(t("space.explain"))
    space = qk_space.qk_space(site.q[head], site.head_k(head), site.masked, site.weights[head])
    fig = explain_figures.qk_figure(space, heatmaps.token_labels(site.query_tokens),
                                  heatmaps.token_labels(site.key_tokens), query,
                                  site.weights[head, query], (t("space.query"), t("space.key")),
                                  t("space.title", head=head))
    charts.show(fig, width="stretch", key=f"{prefix}_space_chart")
    st.caption(t("space.lines"))
    st.caption(t("space.kept", kept=f"{space.kept:.0%}", agree=space.top_agree, n=space.n_queries))


def where_from(site: Site, head: int, origin_fn: OriginFn | None, prefix: str, scope: Scope) -> None:
    query = chosen_query(scope)
    if query is None:
        return
    st.markdown(t("origin.explain"))
    st.caption(t("origin.first") if site.layer == 0 else t("origin.later", prev=site.layer - 1))
    found = None if origin_fn is None else origin_fn(site, head, query)
    if found is None:
        st.info(t("origin.unavailable"))
        return
    word = heatmaps.token_labels(site.query_tokens)[query]
    parts = None
    if found.embedding is not None and site.layer == 0:  # the embeddings make x only in the first layer
        parts = {t("origin.token"): found.embedding.token, t("origin.position"): found.embedding.position}
        if found.embedding.segment is not None:
            parts[t("origin.segment")] = found.embedding.segment
        st.caption(t("origin.embedding"))
    fig = explain_figures.input_figure(found.x, t("origin.input", w=word, layer=site.layer), parts,
                                       t("origin.parts"), t("origin.sum"))
    charts.show(fig, width="stretch", key=f"{prefix}_origin_x")
    charts.show(explain_figures.projection_figure(found.recomputed, found.from_model, t("origin.recomputed"),
                                                    t("origin.from_model"), t("origin.projected")),
                width="stretch", key=f"{prefix}_origin_qkv")
    st.caption(t("origin.check", diff=f"{found.max_diff:.1e}"))
