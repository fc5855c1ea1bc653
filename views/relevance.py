"""Find heads: pick a query word and a key word, see every layer × head ranked by how strongly they link."""

import streamlit as st

from attention.relevance import rank_heads
from attention.selection import Selection
from attention.ui import sentence, state
from attention.ui.lang import formatter, t


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
    sel = state.get_selection().clamp(len(site.query_tokens), len(site.key_tokens))
    q_opts, k_opts = list(range(len(site.query_tokens))), list(range(len(site.key_tokens)))
    query = c_q.selectbox(t("relevance.query"), q_opts, index=sel.query if sel.query is not None else 0,
                          format_func=lambda i: f"{site.query_tokens[i]} ({i})", key="rel_query")
    key = c_k.selectbox(t("relevance.key"), k_opts, index=sel.key if sel.key is not None else 0,
                        format_func=lambda j: f"{site.key_tokens[j]} ({j})", key="rel_key")
    by = c_by.radio(t("relevance.rank_by"), ["weight", "score"], key="rel_by",
                    format_func=formatter("relevance.by_"))
    state.set_selection(Selection(query, key))
    links = rank_heads(tr, st.session_state["kind"], query, key, by)
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
