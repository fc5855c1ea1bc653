"""Find the needle: a fact hidden once in a long text, asked back at the end. The answer, every head's retrieval
score (Wu et al. 2024) with the sentence claims.py allows, one head's top key per written token, and on demand
the grid over lengths × depths, the proof (the best heads off against random ones) and the forgetting comparison."""

import numpy as np
import pandas as pd
import streamlit as st

from attention.analysis import claims, retrieval
from attention.plots import needle_figures
from attention.ui import charts, progress
from attention.ui.lang import t
from attention.ui.pages import needle_page, writing
from attention.ui.state import Keys


def controls() -> None:
    st.text_input(t("nd.needle"), key=Keys.ND_NEEDLE)
    row = st.container(horizontal=True)
    row.text_input(t("nd.question"), key=Keys.ND_QUESTION)
    row.text_input(t("nd.answer"), key=Keys.ND_ANSWER)
    with st.expander(t("nd.haystack")):
        st.text_area(t("nd.haystack"), key=Keys.ND_HAYSTACK, height=120, label_visibility="collapsed")
    row = st.container(horizontal=True)
    row.number_input(t("nd.length"), *needle_page.LENGTH, step=256, key=Keys.ND_LENGTH, help=t("nd.length_help"))
    row.slider(t("nd.depth"), *needle_page.DEPTH, step=0.05, key=Keys.ND_DEPTH)
    st.button(t("nd.go"), key="nd_go_button", on_click=needle_page.go, type="primary")


def claim(r, layer: int, head: int) -> None:
    key, fields = claims.retrieval_head(float(r.retrieval_scores[layer, head]), r.copyable, int(r.found))
    st.markdown(t(key, layer=layer, head=head, **fields))


def head_view(r) -> None:
    """The chosen head over the written tokens: its top key (the needle shaded) and its weight on the needle."""
    heads = [f"{h.layer}.{h.head}" for h in needle_page.top_heads(r, 9)] or ["0.0"]
    if st.session_state[Keys.ND_HEAD] not in heads:
        st.session_state[Keys.ND_HEAD] = heads[0]
    st.selectbox(t("nd.head"), heads, key=Keys.ND_HEAD, format_func=lambda h: "L{} H{}".format(*h.split(".")))
    layer, head = (int(x) for x in st.session_state[Keys.ND_HEAD].split("."))
    claim(r, layer, head)
    words = [s.token for s in r.steps]
    charts.show(needle_figures.head_steps_figure(
        [s.top_key[layer, head] for s in r.steps], [s.needle_weight[layer, head] for s in r.steps],
        [w.replace("Ġ", " ").replace("Ċ", "\\n") for w in words], r.needle_span, len(r.ids) + len(r.steps),
        t("nd.head_title", layer=layer, head=head), t("nd.head_steps_x"), t("nd.head_steps_y"),
        t("nd.head_steps_y2")), width="stretch", key="nd_head_chart")


def grid_section(lm) -> None:
    st.subheader(t("nd.grid_title"))
    st.caption(t("nd.grid_explain"))
    g = needle_page.kept_grid()
    if st.button(t("nd.grid_run"), key="nd_grid_run"):
        bar = progress.Bar()
        g = needle_page.grid(lm, lambda done, total: bar(done / total, t("nd.grid_progress", done=done, total=total)))
        bar.done()
    if g is None:
        return
    charts.show(needle_figures.grid_figure(g.accuracy, g.lengths, g.depths, t("nd.grid_chart"), t("nd.grid_x"),
                                           t("nd.grid_y")), width="stretch", key="nd_grid_chart")
    charts.show(needle_figures.score_figure(g.mean_scores, t("nd.grid_scores", runs=g.right_runs, n=g.copied_tokens),
                                            t("nd.head_x"), t("nd.layer_y")), width="stretch", key="nd_grid_scores")
    best = g.top(1)[0]
    key, fields = claims.retrieval_head(best.score, g.copied_tokens, g.right_runs)
    st.markdown(t(key, layer=best.head.layer, head=best.head.head, **fields))


def proof_section(lm, r) -> None:
    st.subheader(t("nd.proof_title"))
    heads = needle_page.top_heads(r)
    if not heads:
        st.info(t("nd.proof_none"))
        return
    st.caption(t("nd.proof_explain", k=len(heads), draws=needle_page.PROOF_DRAWS))
    p = needle_page.kept_proof(r)
    if st.button(t("nd.proof_run"), key="nd_proof_run"):
        bar = progress.Bar()
        p = needle_page.proof(lm, r, lambda done, total: bar(done / total, t("nd.grid_progress", done=done,
                                                                              total=total)))
        bar.done()
    if p is None:
        return

    def said(ok) -> str:
        return t("nd.right" if bool(ok) else "nd.wrong")

    st.markdown(t("nd.proof_result", base=said(p.base_right[0]), k=len(p.top), top=said(p.top_right[0]),
                  answer=p.answers_top[0], random=int(p.random_right[:, 0].sum()), draws=len(p.random)))
    if p.top_sink is not None:
        st.markdown(t("nd.proof_sink", share=f"{p.top_sink:.0%}"))


def forget_section(lm, r) -> None:
    st.subheader(t("nd.forget_title"))
    st.number_input(t("nd.forget_budget"), *needle_page.BUDGET, step=32, key=Keys.ND_BUDGET)
    st.caption(t("nd.forget_explain", budget=st.session_state[Keys.ND_BUDGET]))
    runs = needle_page.kept_forgetting(r)
    if st.button(t("nd.forget_run"), key="nd_forget_run"):
        bar = progress.Bar()
        runs = needle_page.forgetting(lm, r, lambda done, total: bar(done / total, t("nd.grid_progress", done=done,
                                                                                      total=total)))
        bar.done()
    if runs is None:
        return
    table = pd.DataFrame({t("nd.col_cache"): [x.label for x in runs],
                          t("nd.col_right"): [t("nd.right" if x.found else "nd.wrong") for x in runs],
                          t("nd.col_answer"): [x.answer for x in runs],
                          t("nd.col_kept"): [round(x.kv_bytes_kept / 1e6, 2) for x in runs],
                          t("nd.col_share"): [f"{x.kv_bytes_kept / max(1, x.kv_bytes_full):.0%}" for x in runs]})
    st.dataframe(table, hide_index=True, key="nd_forget_table")


def page() -> None:
    st.title(t("nd.title"))
    st.caption(t("nd.explain"))
    st.caption(t("nd.definition", threshold=retrieval.THRESHOLD))
    st.caption(t("write.identity"))
    st.caption(t("nd.haystack_note"))
    needle_page.defaults()
    controls()
    if not st.session_state[Keys.ND_GO]:
        st.info(t("nd.press"))
        return
    lm = writing.load_model()
    if lm is None:
        return
    with st.spinner(t("nd.working")):
        r = needle_page.run(lm)
    if r is None:
        return
    st.markdown(f"**{t('nd.answer_title')}**")
    st.code(r.answer, language=None, wrap_lines=True)
    (st.success if r.found else st.warning)(t("nd.found" if r.found else "nd.not_found"))
    st.caption(t("nd.prompt_info", n=len(r.ids), start=r.needle_span[0], end=r.needle_span[1] - 1, depth=r.depth,
                 copyable=r.copyable))
    scores = r.retrieval_scores
    charts.show(needle_figures.score_figure(scores, t("nd.scores_title"), t("nd.head_x"), t("nd.layer_y")),
                width="stretch", key="nd_scores")
    above = retrieval.above(scores)
    if above:
        st.markdown(t("nd.heads_above", threshold=retrieval.THRESHOLD,
                      heads=", ".join(f"L{L} H{h} ({s:.2f})" for L, h, s in above[:12])))
    else:
        st.info(t("nd.heads_none", threshold=retrieval.THRESHOLD))
    if np.any(scores > 0):
        head_view(r)
    proof_section(lm, r)
    forget_section(lm, r)
    grid_section(lm)


page()
