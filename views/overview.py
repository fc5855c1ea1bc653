"""Overview: every layer × head at once, what kind of head each one is, the rollout, and the numbers."""

import pandas as pd
import streamlit as st

from attention import export, head_stats, overview, plots_overview, word_merge
from attention.overview import Overview
from attention.selection import Selection, selection_from_event
from attention.ui import cached, charts, sentence, state
from attention.ui.lang import formatter, t

EXPLORE_KEYS = ("text", "kind", "layer", "head")  # Explore's widgets: their values kept while this page is shown
MODEL_ORDER = "model"
JSON_MAX_NUMBERS = 5_000_000  # ≈ 50 MB of JSON text; past that, offer the .npz only


@st.cache_resource(max_entries=8, show_spinner=False)  # the spinner is drawn by the caller, in the chosen language
def overview_of(model_path: str | None, text: str, kind: str, merge: bool) -> Overview:
    """Shared by every session (read-only): a 512-token overview is not recomputed on each click."""
    return overview.build(cached.trace(model_path, text), kind, merge)


def keep_explore_state() -> None:
    """Streamlit drops a widget's value on a page that does not draw it; hand Explore's back."""
    for key in EXPLORE_KEYS:
        if key in st.session_state:
            st.session_state[key] = st.session_state[key]


def on_text() -> None:
    st.session_state["text"] = st.session_state["overview_text"]


def on_grid_click(kind: str) -> None:
    picked = plots_overview.head_from_event(st.session_state.get("overview_grid"))
    if picked is not None:
        st.session_state.update(kind=kind, layer=picked[0], head=picked[1], _overview_open=True)


def on_rollout_click(v: Overview) -> None:
    """A row, a column or a cell of the rollout names a word: outline that word's row in the grid."""
    sel = selection_from_event(Selection(), st.session_state.get("overview_rollout"))
    shown = sel.query if sel.query is not None else sel.key
    if shown is not None:
        state.set_selection(Selection(v.to_token(shown), state.get_selection().key))


def on_word_pick(v: Overview) -> None:
    shown = st.session_state.get("overview_word")
    state.set_selection(Selection(None if shown is None else v.to_token(shown), state.get_selection().key))


def stat_titles() -> dict[str, str]:
    """The statistics' column names in the chosen language (head_stats keeps the English ones)."""
    return {column: t(f"overview.stat.{column}") for column in head_stats.STAT_COLUMNS}


def grid_section(v: Overview, kind: str) -> None:
    c_order, c_low, c_word = st.columns([2, 1, 2])
    columns = [MODEL_ORDER, *head_stats.STAT_COLUMNS]
    stat_names = stat_titles()
    names = {MODEL_ORDER: t("overview.order.model"), **stat_names}  # bound now: AppTest calls format_func later
    order_by = c_order.selectbox(t("overview.order_by"), columns, key="overview_order", format_func=names.get)
    ascending = c_low.toggle(t("overview.ascending"), key="overview_ascending", disabled=order_by == MODEL_ORDER)
    st.session_state["overview_word"] = v.to_shown(state.get_selection().query)  # None, or a row drawn
    none = t("overview.word_none")
    c_word.selectbox(t("overview.word"), [None, *range(v.n_query)], key="overview_word",
                     format_func=lambda i: none if i is None else f"{v.query_labels[i]} ({i})", placeholder=none,
                     on_change=on_word_pick, args=(v,))
    order = head_stats.order_by(v.stats, None if order_by == MODEL_ORDER else order_by, ascending)
    same_kind = st.session_state.get("kind") in (kind, None)
    selected = (st.session_state.get("layer"), st.session_state.get("head")) if same_kind else None
    fig = plots_overview.grid_figure(v.thumbs, order=order, n_cols=v.heads_per_layer, n_query=v.n_query,
                                     highlight_query=st.session_state["overview_word"], selected=selected,
                                     hover=v.hover)
    st.caption(t("overview.grid_caption", cells=plots_overview.THUMB_MAX))
    st.plotly_chart(fig, key="overview_grid", on_select=lambda: on_grid_click(kind), selection_mode="points",
                    config=charts.config(), width="stretch")
    table = pd.DataFrame(head_stats.as_records(v.stats)).drop(columns="kind").set_index(["layer", "head"])
    table = table.loc[order].reset_index().rename(
        columns={"layer": t("overview.col.layer"), "head": t("overview.col.head"), **stat_names})
    st.dataframe(table.round(3), hide_index=True, width="stretch", key="overview_table")
    st.caption(t("overview.table_caption_merged" if v.merged else "overview.table_caption",
                 order_by=t("overview.order_by")))


def rollout_section(v: Overview) -> None:
    st.subheader(t("overview.rollout"))
    if v.rollout is None:
        st.info(t("overview.rollout_encoder_only"))
        return
    st.caption(t("overview.rollout_caption"))
    fig = plots_overview.rollout_figure(v.rollout, v.query_labels, Selection(v.to_shown(state.get_selection().query)))
    st.plotly_chart(fig, key="overview_rollout", on_select=lambda: on_rollout_click(v), selection_mode="points",
                    config=charts.config(modeBarButtonsToRemove=["select2d", "lasso2d"]), width="stretch")


def export_section(tr, kind: str, merge: bool) -> None:
    st.subheader(t("overview.export"))
    layers = list(tr.layers(kind))
    layer = st.session_state.get("layer") if st.session_state.get("layer") in layers else layers[0]
    site = tr.site(layer, kind)
    head = st.session_state.get("head") if st.session_state.get("head") in range(site.n_heads) else 0

    def csv_text() -> str:
        weights, rows, cols = word_merge.site_weights(site, merge)
        return export.matrix_csv(weights[head], rows, cols)

    n_numbers = export.json_numbers(tr)
    c_csv, c_npz, c_json = st.columns(3)
    c_csv.download_button(t("overview.csv", layer=layer, head=head), csv_text, key="overview_csv",
                          file_name=f"attention_{kind}_layer{layer}_head{head}{'_words' if merge else ''}.csv",
                          mime="text/csv", on_click="ignore")
    c_npz.download_button(t("overview.npz", size=f"{4 * n_numbers / 1e6:.1f}"), lambda: export.trace_npz(tr),
                          key="overview_npz", file_name="attention_trace.npz", mime="application/octet-stream",
                          on_click="ignore")
    if n_numbers <= JSON_MAX_NUMBERS:
        c_json.download_button(t("overview.json"), lambda: export.trace_json(tr),
                               key="overview_json", file_name="attention_trace.json", mime="application/json",
                               on_click="ignore")
    else:
        c_json.caption(t("overview.json_too_big", max=f"{JSON_MAX_NUMBERS:,}", n=f"{n_numbers:,}"))
    st.caption(t("overview.export_caption_words" if merge else "overview.export_caption"))


def overview_page() -> None:
    keep_explore_state()  # first: values set in this very run survive the page switch below
    if st.session_state.pop("_overview_open", False):
        st.switch_page("views/explore.py", query_params={k: str(st.session_state[k]) for k in EXPLORE_KEYS
                                                         if st.session_state.get(k) is not None})
    st.title(t("overview.title"))
    # The sentence is Explore's: this box has its own key and copies into "text", which stays a plain value
    # (a widget keyed "text" here would take the value away from Explore's box when the page changes).
    st.session_state["overview_text"] = st.session_state.get("text", "")
    st.text_area(t("explore.sentence"), key="overview_text", height=80, on_change=on_text)
    tr = sentence.traced()
    if tr is None:
        return
    model_path = sentence.model_path()

    kinds = list(tr.kinds)
    c_kind, c_merge = st.columns([2, 2])
    if st.session_state.get("overview_kind") not in kinds:  # start on the kind Explore shows
        explored = st.session_state.get("kind")
        st.session_state["overview_kind"] = explored if explored in kinds else kinds[0]
    kind = c_kind.selectbox(t("explore.kind"), kinds, key="overview_kind", format_func=formatter("kind."),
                            disabled=len(kinds) == 1)
    merge = c_merge.toggle(t("overview.merge"), key="merge_words", help=t("overview.merge_help"))
    if merge:
        st.caption(t("overview.merge_caption"))
    with st.spinner(t("overview.measuring")):
        v = overview_of(model_path, tr.text, kind, merge)
    grid_section(v, kind)
    rollout_section(v)
    export_section(tr, kind, merge)


overview_page()
