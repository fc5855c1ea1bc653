"""Find heads: pick a query word and a key word, see every layer × head ranked by how strongly they link."""

import streamlit as st

from attention.analysis.token_text import readable_tokens
from attention.analysis import claims
from attention.analysis.head_links import default_pair, other_word, rank_heads
from attention.params.markdown import code
from attention.params.selection import Selection
from attention.analysis.word_merge import Rows
from attention.ui import pickers, sentence, state
from attention.ui.lang import formatter, t
from attention.ui.state import EXPLORE_SCOPE, Keys


def _open_in_explore(links: list, table_key: str) -> None:
    """on_select callback: a clicked row opens that head in Explore with the pair selected."""
    rows = st.session_state.get(table_key, {}).get("selection", {}).get("rows", [])
    if rows:
        link = links[rows[0]]
        state.go_later("explore", **{Keys.KIND: link.kind, Keys.LAYER: link.layer, Keys.HEAD: link.head})


def relevance_page() -> None:
    st.title(t("relevance.title"))
    st.markdown(t("relevance.explain"))
    st.text_area(t("explore.sentence"), key=Keys.TEXT, height=68)
    sentence.state_cap()
    tr = sentence.traced()
    if tr is None:
        return
    st.caption(t("relevance.sentence", model=tr.model_name, text=" ".join(readable_tokens(tr.tokens))))
    if not all(s.has_qkv for s in tr.sites):  # weights-only sites: the model's weights, no q·k
        st.info(t("relevance.no_scores"))
    c_kind, c_q, c_k, c_by = st.columns([2, 2, 2, 1])
    kind = pickers.kind_picker(list(tr.kinds), Keys.KIND, c_kind)
    site = tr.site(tr.layers(kind)[0], kind)
    merge = st.toggle(t("words.toggle"), key=Keys.MERGE_WORDS, help=t("words.help"))
    # The pickers list whole words when merging; the selection Explore shares stays in token positions.
    q_rows, k_rows = Rows.of(site.query_tokens, merge), Rows.of(site.key_tokens, merge)
    sel = state.get_selection(EXPLORE_SCOPE, (tr.text, sentence.model_path(), kind)).clamp(
        len(site.query_tokens), len(site.key_tokens))
    if sel.query is None and Keys.REL_QUERY not in st.session_state:  # nothing chosen yet: a meaningful pair
        from attention.translator.grammar import verb_forms  # the translator (torch) only when a pair is chosen

        st.session_state[Keys.REL_QUERY], st.session_state[Keys.REL_KEY] = default_pair(q_rows.labels, verb_forms())
    for key, rows, position in ((Keys.REL_QUERY, q_rows, sel.query), (Keys.REL_KEY, k_rows, sel.key)):
        state.int_choice(key, list(range(len(rows.labels))))
        if position is not None:  # Explore's selection (or the link) names the word
            st.session_state[key] = rows.row_of(position) or 0
    q_shown, k_shown = readable_tokens(q_rows.labels), readable_tokens(k_rows.labels)  # Ġcat -> ·cat
    query = c_q.selectbox(t("relevance.query"), range(len(q_rows.labels)), key=Keys.REL_QUERY,
                          format_func=lambda i: f"{q_shown[i]} ({i})")
    key = c_k.selectbox(t("relevance.key"), range(len(k_rows.labels)), key=Keys.REL_KEY,
                        format_func=lambda j: f"{k_shown[j]} ({j})")
    state.str_choice(Keys.REL_BY, ["weight", "score"])
    by = c_by.radio(t("relevance.rank_by"), ["weight", "score"], key=Keys.REL_BY,
                    format_func=formatter("relevance.by_"))
    state.set_selection(Selection(q_rows.first_token(query), k_rows.first_token(key)), EXPLORE_SCOPE)
    st.markdown(t("relevance.pair", q=f"`{q_shown[query]}`", k=f"`{k_shown[key]}`",
                  text=" ".join(readable_tokens(tr.tokens)).replace("`", "ˋ")))
    if merge:
        st.caption(t("relevance.words_note"))
    links = rank_heads(tr, kind, query, key, by, merge_words=merge)
    # the article's question is a comparison: the key against a third word, each judged against 1/n
    other = other_word(k_rows.labels, query, key)
    to_other = {(o.layer, o.head): o.weight for o in rank_heads(tr, kind, query, other, by, merge_words=merge)}
    n_keys = len(k_rows.labels)
    ahead = sum(claims.lead(link.weight, to_other[(link.layer, link.head)], n_keys) == "related" for link in links)
    q_md, k_md, o_md = code(q_shown[query]), code(k_shown[key]), code(k_shown[other])
    st.markdown(t("relevance.compare", n=ahead, heads=len(links), q=q_md, k=k_md, o=o_md,
                  even=f"{claims.even(n_keys):.3f}", n_keys=n_keys))
    table = [
        {t("relevance.col_layer"): link.layer, t("relevance.col_head"): link.head,
         t("relevance.col_weight"): round(link.weight, 4),
         t("relevance.col_other", o=k_shown[other]): round(to_other[(link.layer, link.head)], 4),
         t("relevance.col_score"): round(link.score, 3), t("relevance.col_rank"): link.rank,
         t("relevance.col_top"): k_shown[link.top]}
        for link in links
    ]
    st.dataframe(table, hide_index=True, width="stretch", key="rel_table", on_select=lambda: _open_in_explore(
        links, "rel_table"), selection_mode="single-row")


relevance_page()
