"""Find the needle: a fact hidden once in a long text, asked back at the end. The answer, every head's retrieval
score (Wu et al. 2024) with the sentence claims.py allows, one head's top key per written token, and on demand
the grid over lengths × depths, the proof (the best heads off against random ones) and the forgetting comparison."""

import numpy as np
import pandas as pd
import streamlit as st

from attention.analysis import claims, long_rows, needle_claims, retrieval
from attention.analysis.token_text import readable_tokens
from attention.plots import needle_figures
from attention.ui import charts, progress
from attention.ui.head_view import long_view
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
    key, fields = needle_claims.one_head(float(r.retrieval_scores[layer, head]), r.needle_span[1] - r.needle_span[0],
                                         r.copyable, int(r.found))
    st.markdown(t(key, layer=layer, head=head, **fields))


def exact_rows(lm, r, layer: int, head: int) -> None:
    """The chosen head's exact row for a written token (the needle shaded), and its rows on the long head view."""
    site = needle_page.head_rows(lm, r, layer)
    if site is None:
        return
    st.markdown(f"**{t('nd.rows_title')}**")
    st.caption(t("nd.rows_explain"))
    words = readable_tokens([s.token for s in r.steps])
    labels = [t("nd.row_option", i=j + 1, word=w, position=s.position) for j, (w, s) in enumerate(zip(words, r.steps))]
    i = st.select_slider(t("nd.row_pick"), options=list(range(len(r.steps))), key="nd_row",
                         format_func=lambda j: labels[j],  # worded now, in the page's language
                         on_change=lambda: st.session_state.pop(Keys.LONG_SEL + "needle-long", None))  # view follows
    row = long_rows.row(site, head, i)
    charts.show(needle_figures.row_figure(row, r.needle_span, t("nd.row_title", i=i + 1, word=words[i],
                                                                   position=r.steps[i].position),
                                          t("nd.row_x"), t("nd.row_y")), width="stretch", key="nd_row_chart")
    st.caption(t("nd.long_rows", last=len(r.steps) - 1, first=r.steps[0].position, end=r.steps[-1].position,
                 row=i, position=r.steps[i].position, i=i + 1, word=words[i]))  # the view's rows count from 0
    long_view.show_long(site, head, None, (r.ids, tuple(r.written), layer), query=i, key="needle-long")


def head_view(lm, r) -> None:
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
    st.caption(t("nd.needle_weight_means"))
    exact_rows(lm, r, layer, head)


def made_on_click(button_key: str, label: str, make) -> object:
    """A button that makes something with a progress bar: what `make(progress)` made, None when not pressed."""
    if not st.button(label, key=button_key):
        return None
    bar = progress.Bar()
    made = make(lambda done, total: bar(done / total, t("nd.grid_progress", done=done, total=total)))
    bar.done()
    return made


def grid_section(lm) -> None:
    st.subheader(t("nd.grid_title"))
    st.caption(t("nd.grid_explain"))
    g = made_on_click("nd_grid_run", t("nd.grid_run"), lambda bar: needle_page.grid(lm, bar)) or needle_page.kept_grid()
    if g is None:
        return
    charts.show(needle_figures.grid_figure(g.accuracy, g.lengths, g.depths, t("nd.grid_chart"), t("nd.grid_x"),
                                           t("nd.grid_y")), width="stretch", key="nd_grid_chart")
    charts.show(needle_figures.score_figure(g.mean_scores, t("nd.grid_scores", runs=g.right_runs, n=g.copied_tokens),
                                            t("nd.head_x"), t("nd.layer_y")), width="stretch", key="nd_grid_scores")
    best = g.top(1)[0]
    key, fields = claims.retrieval_head(best.score, g.copied_tokens, g.right_runs)
    key = {"nd.claim.retrieval": "nd.claim.retrieval_mean", "nd.claim.not": "nd.claim.not_mean"}.get(key, key)
    st.markdown(t(key, layer=best.head.layer, head=best.head.head, **fields))


def proof_section(lm, r) -> None:
    st.subheader(t("nd.proof_title"))
    if not r.steps:
        st.info(t("nd.proof_none"))
        return
    st.caption(t("nd.proof_explain", ks=", ".join(map(str, needle_page.PROOF_KS)), draws=needle_page.PROOF_DRAWS))
    c = made_on_click("nd_proof_run", t("nd.proof_run"), lambda bar: needle_page.proof(lm, r, bar)) \
        or needle_page.kept_proof(r)
    if c is None:
        return
    charts.show(needle_figures.curve_figure(c.ks, c.top_rate, c.random_rates, t("nd.curve_title", n=c.counted),
                                            t("nd.curve_x"), t("nd.curve_y"), t("nd.curve_top"), t("nd.curve_random")),
                width="stretch", key="nd_curve")
    key, fields = needle_claims.heads_matter(c.ks, c.top_rate, c.random_rates, c.counted)
    st.markdown(t(key, **fields))
    broke = [(k, s) for k, s in zip(c.ks, c.top_sink) if np.isfinite(s)]
    if broke:
        st.markdown(t("nd.proof_sink", k=broke[0][0], share=f"{broke[0][1]:.0%}"))


def forget_section(lm, r) -> None:
    st.subheader(t("nd.forget_title"))
    st.number_input(t("nd.forget_budget"), *needle_page.BUDGET, step=32, key=Keys.ND_BUDGET)
    st.caption(t("nd.forget_explain", budget=st.session_state[Keys.ND_BUDGET]))
    runs = made_on_click("nd_forget_run", t("nd.forget_run"), lambda bar: needle_page.forgetting(lm, r, bar)) \
        or needle_page.kept_forgetting(r)
    if runs is None:
        return
    table = pd.DataFrame({t("nd.col_cache"): [x.label for x in runs],
                          t("nd.col_right"): [t("nd.right" if x.found else "nd.wrong") for x in runs],
                          t("nd.col_answer"): [x.answer for x in runs],
                          t("nd.col_kept"): [round(x.kv_bytes_kept / 1e6, 2) for x in runs],
                          t("nd.col_share"): [f"{x.kv_bytes_kept / max(1, x.kv_bytes_full):.0%}" for x in runs]})
    st.dataframe(table, hide_index=True, key="nd_forget_table")
    none = t("nd.forget_none")
    st.markdown(t("nd.forget_summary", budget=st.session_state[Keys.ND_BUDGET],
                  kept=", ".join(x.label for x in runs if x.found) or none,
                  lost=", ".join(x.label for x in runs if not x.found) or none, page=t("page.forget")))


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
    if needle_page.not_english():  # SmolLM2 was trained on English text
        st.info(t("nd.english_only"))
    st.markdown(f"**{t('nd.answer_title')}**")
    st.code(r.answer, language=None, wrap_lines=True)
    (st.success if r.found else st.warning)(t("nd.found" if r.found else "nd.not_found"))
    st.caption(t("nd.prompt_info", n=len(r.ids), last=len(r.ids) - 1, start=r.needle_span[0], end=r.needle_span[1] - 1, depth=r.depth,
                 copyable=r.copyable))
    prompt = needle_page.kept_prompt()
    if prompt is not None and prompt.cut:  # a haystack longer than the length: said, never cut silently
        last = prompt.last_kept if len(prompt.last_kept) <= 60 else "…" + prompt.last_kept[-60:]
        st.warning(t("nd.haystack_cut", kept=prompt.kept_sentences, total=prompt.sentences,
                     tokens=prompt.kept_tokens, given=prompt.given_tokens, n=len(r.ids), last=last))
    scores = r.retrieval_scores
    title = t("nd.scores_title" if r.found else "nd.scores_title_wrong")  # wrong: drawn to inspect, never counted
    charts.show(needle_figures.score_figure(scores, title, t("nd.head_x"), t("nd.layer_y"),
                                            retrieval.THRESHOLD if r.found else np.inf),  # wrong: no head ringed
                width="stretch", key="nd_scores")
    if r.found:
        st.caption(t("nd.scores_legend", threshold=retrieval.THRESHOLD))
    above = retrieval.above(scores)
    if not r.found:  # the definition counts right answers only: no head is listed as above the line
        st.info(t("nd.heads_wrong", threshold=retrieval.THRESHOLD))
    elif above:
        st.markdown(t("nd.heads_above", threshold=retrieval.THRESHOLD,
                      heads=", ".join(f"L{L} H{h} ({s:.2f})" for L, h, s in above[:12])))
    else:
        st.info(t("nd.heads_none", threshold=retrieval.THRESHOLD))
    if np.any(scores > 0):
        head_view(lm, r)
    proof_section(lm, r)
    forget_section(lm, r)
    grid_section(lm)


page()
