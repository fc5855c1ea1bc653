"""Overview: every layer × head at once, what kind of head each one is, the rollout, and the numbers."""

from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

from attention.analysis import export, head_stats, word_merge
from attention.analysis.overview_data import Overview
from attention.params.selection import Selection, selection_from_event
from attention.plots import head_grid
from attention.trace import Trace
from attention.ui.hosting import cache
from attention.ui import charts, pickers, sentence, state
from attention.ui.pages.atlas_section import atlas_section
from attention.ui.pages.roles_section import roles_section
from attention.ui.state import Keys
from attention.ui.lang import t
from attention.ui.sentence import MODEL, TRANSLATOR

MODEL_ORDER = "model"
JSON_MAX_NUMBERS = 5_000_000  # ≈ 50 MB of JSON text; past that, offer the .npz only


@dataclass(frozen=True)
class Target:
    """The page a clicked head opens in, and the session keys that page reads its view from."""

    page: str  # a name in state.PAGES
    kind_key: str
    layer_key: str
    head_key: str
    scope: state.Scope  # whose word selection the grid outlines

    @property
    def page_name(self) -> str:  # i18n key of the page's name
        return state.PAGES[self.page].title_key


TARGETS = {  # by the page that shows a source's head in full (Source.home)
    "translate": Target("translate", Keys.TR_KIND, Keys.TR_LAYER, Keys.TR_HEAD, state.TRANSLATE_SCOPE),
    "explore": Target("explore", Keys.KIND, Keys.LAYER, Keys.HEAD, state.EXPLORE_SCOPE),
}


def on_grid_click(to: Target, kind: str) -> None:
    picked = head_grid.head_from_event(st.session_state.get(Keys.OV_GRID))
    if picked is not None:
        state.go_later(to.page, **{to.kind_key: kind, to.layer_key: picked[0], to.head_key: picked[1]})


def on_rollout_click(v: Overview, scope: state.Scope) -> None:
    """A row, a column or a cell of the rollout names a word: outline that word's row in the grid."""
    sel = selection_from_event(Selection(), st.session_state.get(Keys.OV_ROLLOUT))
    shown = sel.query if sel.query is not None else sel.key
    if shown is not None:
        state.set_selection(Selection(v.to_token(shown), state.get_selection(scope).key), scope)


def on_word_pick(v: Overview, scope: state.Scope) -> None:
    shown = st.session_state.get(Keys.OV_WORD)
    state.set_selection(Selection(None if shown is None else v.to_token(shown), state.get_selection(scope).key),
                        scope)


def stat_titles() -> dict[str, str]:
    """The statistics' column names in the chosen language (head_stats keeps the English ones)."""
    return {column: t(f"overview.stat.{column}") for column in head_stats.STAT_COLUMNS}


def hover_texts(v: Overview, to: Target) -> dict[tuple[int, int], str]:
    """A thumbnail's hover: its statistics, in the chosen language (the overview itself is shared by all)."""
    names = stat_titles()
    texts = {}
    for s in v.stats:
        parts = [f"{names['entropy']} {s.entropy:.2f}"]
        if not np.isnan(s.distance):  # cross-attention has no distance, previous token or self
            parts += [f"{names['distance']} {s.distance:.1f}", f"{names['previous_share']} {s.previous_share:.2f}"]
        parts.append(f"{names['special_share']} {s.special_share:.2f}")
        parts.append(t("overview.hover_click", page=t(to.page_name)))
        texts[(s.layer, s.head)] = t("overview.hover_title", layer=s.layer, head=s.head) + "<br>" + "<br>".join(parts)
    return texts


def grid_section(v: Overview, kind: str, to: Target, choice: str) -> None:
    c_order, c_low, c_word = st.columns([2, 1, 2])
    # Cross-attention has no distance, previous token or self (its queries and keys are two sentences)
    applies = [c for c in head_stats.STAT_COLUMNS if not all(np.isnan(getattr(s, c)) for s in v.stats)]
    columns = [MODEL_ORDER, *applies]
    state.str_choice(Keys.OV_ORDER, columns)
    stat_names = stat_titles()
    names = {MODEL_ORDER: t("overview.order.model"), **stat_names}  # bound now: AppTest calls format_func later
    order_by = c_order.selectbox(t("overview.order_by"), columns, key=Keys.OV_ORDER, format_func=names.get)
    ascending = c_low.toggle(t("overview.ascending"), key=Keys.OV_ASCENDING, disabled=order_by == MODEL_ORDER)
    st.session_state[Keys.OV_WORD] = v.to_shown(state.get_selection(to.scope).query)  # None, or a row drawn
    none = t("overview.word_none")
    c_word.selectbox(t("overview.word"), [None, *range(v.n_query)], key=Keys.OV_WORD,
                     format_func=lambda i: none if i is None else f"{v.query_labels[i]} ({i})", placeholder=none,
                     on_change=on_word_pick, args=(v, to.scope))
    order = head_stats.order_by(v.stats, None if order_by == MODEL_ORDER else order_by, ascending)
    same_kind = st.session_state.get(to.kind_key) in (kind, None)
    selected = (st.session_state.get(to.layer_key), st.session_state.get(to.head_key)) if same_kind else None
    fig = head_grid.grid_figure(v.thumbs, order=order, n_cols=v.heads_per_layer, n_query=v.n_query,
                                     highlight_query=st.session_state[Keys.OV_WORD], selected=selected,
                                     hover=hover_texts(v, to), tile_title=t("chart.head"))
    st.caption(t("overview.grid_caption", cells=head_grid.THUMB_MAX, page=t(to.page_name)))
    charts.show(fig, key=Keys.OV_GRID, on_select=lambda: on_grid_click(to, kind), selection_mode="points",
                width="stretch")
    if selected is not None and None not in selected:  # the head last opened: does it matter?
        sentence.matter_button(choice, kind, *selected)
    not_applicable = [c for c in head_stats.STAT_COLUMNS if c not in applies]
    table = pd.DataFrame(head_stats.as_records(v.stats)).drop(columns=["kind", *not_applicable])
    table = table.set_index(["layer", "head"]).loc[order].reset_index().rename(
        columns={"layer": t("overview.col.layer"), "head": t("overview.col.head"), **stat_names})
    st.dataframe(table.round(3), hide_index=True, width="stretch", key="overview_table")
    st.caption(t("overview.table_caption_merged" if v.merged else "overview.table_caption",
                 order_by=t("overview.order_by")))
    if not_applicable:
        st.caption(t("overview.cross_stats"))


def rollout_section(v: Overview, scope: state.Scope) -> None:
    st.subheader(t("overview.rollout"))
    if v.long:
        st.info(t("overview.rollout_long", n=f"{v.n_query:,}"))
        return
    if v.rollout is None:
        st.info(t("overview.rollout_cross" if v.kind == "cross" else "overview.rollout_encoder_only"))
        return
    st.caption(t("overview.rollout_caption"))
    fig = head_grid.rollout_figure(v.rollout, v.query_labels, Selection(v.to_shown(state.get_selection(scope).query)),
                                   title=t("overview.rollout_title"),
                                   axis_names=(t("overview.rollout_row"), t("overview.rollout_column")))
    charts.show(fig, key=Keys.OV_ROLLOUT, on_select=lambda: on_rollout_click(v, scope), selection_mode="points",
                config=charts.config(modeBarButtonsToRemove=["select2d", "lasso2d"]), width="stretch")


def export_section(tr: Trace, kind: str, merge: bool, to: Target) -> None:
    st.subheader(t("overview.export"))
    layers = list(tr.layers(kind))
    layer = st.session_state.get(to.layer_key) if st.session_state.get(to.layer_key) in layers else layers[0]
    site = tr.site(layer, kind)
    head = st.session_state.get(to.head_key) if st.session_state.get(to.head_key) in range(site.n_heads) else 0

    long = any(s.is_long for s in tr.sites)
    merge = merge and not long  # a long trace is drawn per token (overview_data._build_long)

    def csv_text() -> str:
        if not merge:  # one head's matrix, not every head's (a long site computes it for this head alone)
            return export.matrix_csv(site.pattern(head), list(site.query_tokens), list(site.key_tokens))
        weights, rows, cols = word_merge.site_weights(site, merge)
        return export.matrix_csv(weights[head], rows, cols)

    c_csv, c_npz, c_json = st.columns(3)
    c_csv.download_button(t("overview.csv", layer=layer, head=head), csv_text, key="overview_csv",
                          file_name=f"attention_{kind}_layer{layer}_head{head}{'_words' if merge else ''}.csv",
                          mime="text/csv", on_click="ignore")
    if long:  # every head's n × n of every layer: gigabytes, never made for a download
        size = sum(s.n_heads * s.shape[0] * s.shape[1] for s in tr.sites) * 4 * 3 / 1e9
        c_npz.caption(t("overview.export_long", gb=f"{size:,.1f}"))
        return
    n_numbers = export.json_numbers(tr)
    c_npz.download_button(t("overview.npz", size=f"{4 * n_numbers / 1e6:.1f}"), lambda: export.trace_npz(tr),
                          key="overview_npz", file_name="attention_trace.npz", mime="application/octet-stream",
                          on_click="ignore")
    if n_numbers <= JSON_MAX_NUMBERS:
        c_json.download_button(t("overview.json"), lambda: export.trace_json(tr),
                               key="overview_json", file_name="attention_trace.json", mime="application/json",
                               on_click="ignore")
    else:
        c_json.caption(t("overview.json_too_big", max=f"{JSON_MAX_NUMBERS:,}", n=f"{n_numbers:,}"))
    st.caption(t("overview.export_caption_words" if merge else "overview.export_caption", page=t(to.page_name)))


def overview_page() -> None:
    st.title(t("overview.title"))
    names = {MODEL: t("overview.source.model"), TRANSLATOR: t("overview.source.translator")}
    state.str_choice(Keys.OV_SOURCE, [MODEL, TRANSLATOR])
    choice = st.radio(t("overview.source"), [MODEL, TRANSLATOR], key=Keys.OV_SOURCE, format_func=names.get,
                      horizontal=True)
    src = sentence.chosen(choice)
    out = sentence.source_output(src)
    if out is None:
        return
    tr = out.trace
    sentence.name_model(None if src.predicts == "translation" else tr.model_name)

    to = TARGETS[src.home]
    c_kind, c_merge = st.columns([2, 2])
    # start on the kind the other page shows
    kind = pickers.kind_picker(list(tr.kinds), Keys.OV_KIND, c_kind, default=st.session_state.get(to.kind_key))
    merge = False
    if src.whole_words:  # nothing to merge
        c_merge.caption(t("overview.words_already"))
    else:
        merge = c_merge.toggle(t("overview.merge"), key=Keys.MERGE_WORDS, help=t("overview.merge_help"))
    if merge:
        st.caption(t("overview.merge_caption"))
    v = cache.overview(src.name, tr.text, kind, merge)
    if v.long:
        st.caption(t("overview.long_caption", n=f"{v.n_query:,}"))
    grid_section(v, kind, to, choice)
    rollout_section(v, to.scope)
    export_section(tr, kind, merge, to)
    atlas_section(src, sentence.model_path())
    roles_section(src, sentence.model_path())  # last: its tests read the page's last chart


overview_page()
