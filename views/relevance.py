"""Find heads: pick a query word and a key word, see every layer × head ranked by how strongly they link."""

import streamlit as st

from attention.relevance import rank_heads
from attention.selection import Selection
from attention.ui import sentence, state
from attention.ui.lang import formatter, t
from attention.word_merge import Rows


def _open_in_explore(links: list, table_key: str) -> None:
    """on_select callback: a clicked row opens that head in Explore with the pair selected."""
    rows = st.session_state.get(table_key, {}).get("selection", {}).get("rows", [])
    if rows:
        link = links[rows[0]]
        st.session_state.update(kind=link.kind, layer=link.layer, head=link.head, _go_explore=True)


def relevance_page() -> None:
    st.title(t("relevance.title"))
    st.markdown(t("relevance.explain"))
    tr = sentence.traced()
    if tr is None:
        return
    kinds = list(tr.kinds)
    state.str_choice("kind", kinds)
    c_kind, c_q, c_k, c_by = st.columns([2, 2, 2, 1])
    c_kind.selectbox(t("explore.kind"), kinds, key="kind", format_func=formatter("kind."), disabled=len(kinds) == 1)
    site = tr.sites[[s.kind for s in tr.sites].index(st.session_state["kind"])]
    merge = st.toggle(t("words.toggle"), key="merge_words", help=t("words.help"))
    sel = state.get_selection().clamp(len(site.query_tokens), len(site.key_tokens))
    # The pickers list whole words when merging; the selection Explore shares stays in token positions.
    q_rows, k_rows = Rows.of(site.query_tokens, merge), Rows.of(site.key_tokens, merge)
    suffix = "_words" if merge else ""
    query = c_q.selectbox(t("relevance.query"), range(len(q_rows.labels)), index=q_rows.row_of(sel.query) or 0,
                          format_func=lambda i: f"{q_rows.labels[i]} ({i})", key=f"rel_query{suffix}")
    key = c_k.selectbox(t("relevance.key"), range(len(k_rows.labels)), index=k_rows.row_of(sel.key) or 0,
                        format_func=lambda j: f"{k_rows.labels[j]} ({j})", key=f"rel_key{suffix}")
    by = c_by.radio(t("relevance.rank_by"), ["weight", "score"], key="rel_by",
                    format_func=formatter("relevance.by_"))
    state.set_selection(Selection(q_rows.first_token(query), k_rows.first_token(key)))
    if merge:
        st.caption(t("relevance.words_note"))
    links = rank_heads(tr, st.session_state["kind"], query, key, by, merge_words=merge)
    table = [
        {t("relevance.col_layer"): link.layer, t("relevance.col_head"): link.head,
         t("relevance.col_weight"): round(link.weight, 4), t("relevance.col_score"): round(link.score, 3),
         t("relevance.col_rank"): link.rank}
        for link in links
    ]
    st.dataframe(table, hide_index=True, width="stretch", key="rel_table", on_select=lambda: _open_in_explore(
        links, "rel_table"), selection_mode="single-row")
    if st.session_state.pop("_go_explore", False):
        st.switch_page("views/explore.py")


relevance_page()
