"""Find heads: pick a query word and a key word, see every layer × head ranked by how strongly they link."""

import streamlit as st

from attention import word_merge
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


class Units:
    """The tokens of one side, or their whole words: what the pickers list, and back to a token position."""

    def __init__(self, tokens: tuple[str, ...], merge: bool) -> None:
        self.groups = word_merge.word_groups(tokens) if merge else [[i] for i in range(len(tokens))]
        self.labels = word_merge.word_labels(tokens, self.groups) if merge else list(tokens)

    def label(self, i: int) -> str:
        return f"{self.labels[i]} ({i})"

    def shown(self, position: int | None) -> int:
        return 0 if position is None else word_merge.word_of_token(self.groups)[position]

    def token(self, shown: int) -> int:
        return self.groups[shown][0]


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
    q_units, k_units = Units(site.query_tokens, merge), Units(site.key_tokens, merge)
    q_shown, k_shown = q_units.shown(sel.query), k_units.shown(sel.key)
    query = c_q.selectbox(t("relevance.query"), range(len(q_units.labels)), index=q_shown,
                          format_func=q_units.label, key=f"rel_query{'_words' if merge else ''}")
    key = c_k.selectbox(t("relevance.key"), range(len(k_units.labels)), index=k_shown,
                        format_func=k_units.label, key=f"rel_key{'_words' if merge else ''}")
    by = c_by.radio(t("relevance.rank_by"), ["weight", "score"], key="rel_by",
                    format_func=formatter("relevance.by_"))
    state.set_selection(Selection(q_units.token(query), k_units.token(key)))
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
