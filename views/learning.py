"""Learning: the translator's attention at each training snapshot, and pairs of words followed over training."""

import time

import streamlit as st

from attention.analysis import learning_curves
from attention.analysis.text_input import check_text
from attention.plots import heatmaps, training_curves
from attention.translator import loss_history
from attention.ui import cache, charts, matrices, sentence, state
from attention.ui import pickers as pickers_
from attention.ui.state import LEARN_SCOPE, Keys
from attention.ui.lang import t

DEFAULT_PAIRS = {  # kind -> (query word, related key word, unrelated key word)
    "cross": ("leche", "milk", "black"),
    "encoder": ("milk", "drank", "black"),
    "decoder": ("leche", "bebió", "negro"),
}


def pickers(st_traces: learning_curves.SnapshotTraces) -> tuple[str, int, int]:
    site, head = pickers_.site_picker(st_traces.traces[-1], Keys.LEARN_KIND, Keys.LEARN_LAYER, Keys.LEARN_HEAD,
                                      radio=True, default_kind="cross")  # the clearest case first
    return site.kind, site.layer, head


def step_view(st_traces: learning_curves.SnapshotTraces, kind: str, layer: int, head: int) -> None:
    steps = list(st_traces.steps)
    c_slider, c_play = st.columns([5, 1])
    state.int_choice(Keys.LEARN_STEP, steps[::-1])
    c_slider.select_slider(t("learning.step"), steps, key=Keys.LEARN_STEP)
    play = c_play.button(t("learning.play"), key="learn_play")
    area = st.empty()
    shown = steps if play else [st.session_state[Keys.LEARN_STEP]]
    for step in shown:  # playing redraws the same place once per snapshot
        with area.container():
            site = st_traces.traces[steps.index(step)].site(layer, kind)
            matrices.show_scores_and_weights(site, head, prefix="learn", scope=LEARN_SCOPE,
                                             note=t("learning.at_step", step=step), interactive=not play)
        if play:
            time.sleep(0.6)


def pair_curves(st_traces: learning_curves.SnapshotTraces, kind: str, layer: int, head: int) -> None:
    st.subheader(t("learning.pairs"))
    site = st_traces.traces[-1].site(layer, kind)
    q_words, k_words = site.query_tokens, site.key_tokens
    default_q, default_a, default_b = DEFAULT_PAIRS[kind]
    c_q, c_a, c_b = st.columns(3)
    fmt_q, fmt_k = (lambda i: f"{q_words[i]} ({i})"), (lambda j: f"{k_words[j]} ({j})")
    query = c_q.selectbox(t("learning.query"), range(len(q_words)), key=f"learn_q_{kind}", format_func=fmt_q,
                          index=learning_curves.token_index(q_words, default_q))
    rel = c_a.selectbox(t("learning.related"), range(len(k_words)), key=f"learn_a_{kind}", format_func=fmt_k,
                        index=learning_curves.token_index(k_words, default_a))
    unrel = c_b.selectbox(t("learning.unrelated"), range(len(k_words)), key=f"learn_b_{kind}", format_func=fmt_k,
                          index=learning_curves.token_index(k_words, default_b, default=min(1, len(k_words) - 1)))
    a = learning_curves.pair_curve(st_traces, kind, layer, head, query, rel)
    b = learning_curves.pair_curve(st_traces, kind, layer, head, query, unrel)
    eff = learning_curves.effect(a, b)
    qw, aw, bw = (heatmaps.label(w) for w in (q_words[query], k_words[rel], k_words[unrel]))
    message = t(f"learning.{eff.verdict}", q=qw, a=aw, b=bw, first=f"{eff.first_gap:+.2f}",
                last=f"{eff.last_gap:+.2f}", wa=f"{eff.last_weights[0]:.3f}", wb=f"{eff.last_weights[1]:.3f}")
    (st.success if eff.verdict == "grew" else st.info)(message)
    steps, marker = list(st_traces.steps), st.session_state.get(Keys.LEARN_STEP)
    names = (f"{qw}·{aw}", f"{qw}·{bw}")
    cols = st.columns(2)
    for i, (metric, key) in enumerate((("score", "learning.score"), ("weight", "learning.weight"),
                                       ("cosine", "learning.cosine"))):
        fig = training_curves.curves_figure(steps, {names[0]: getattr(a, metric), names[1]: getattr(b, metric)},
                                           t(key), t(key), marker, x_title=t("learning.step"))
        cols[i % 2].plotly_chart(fig, width="stretch", key=f"learn_curve_{metric}", config=charts.config())
    loss = training_curves.loss_figure(list(loss_history()), t("learning.loss"), marker, y_title=t("learning.loss_axis"),
                                       x_title=t("learning.step"), name=t("learning.loss_curve"))
    cols[1].plotly_chart(loss, width="stretch", key="learn_loss", config=charts.config())


def alignment_section() -> None:
    st.subheader(t("learning.alignment"))
    st.caption(t("learning.alignment_explain"))
    steps, shares = cache.alignment_over_training()
    curves = {t("chart.head", layer=layer, head=head): shares[:, layer, head]
              for layer in range(shares.shape[1]) for head in range(shares.shape[2])}
    fig = training_curves.curves_figure(list(steps), curves, t("learning.alignment"), t("learning.share"),
                                       st.session_state.get(Keys.LEARN_STEP), x_title=t("learning.step"))
    st.plotly_chart(fig, width="stretch", key="learn_alignment", config=charts.config())


def learning_page() -> None:
    st.title(t("learning.title"))
    st.markdown(t("learning.explain"))
    checked = check_text(sentence.english_box(Keys.LEARN_TEXT), max_chars=500)
    if not checked.text:
        st.info(t("translate.nothing"))
        return
    try:
        st_traces = cache.snapshot_traces(checked.text)
    except ValueError:
        st.info(t("translate.nothing"))
        return
    st.caption(t("learning.target", target=st_traces.target))
    kind, layer, head = pickers(st_traces)
    step_view(st_traces, kind, layer, head)
    pair_curves(st_traces, kind, layer, head)
    if kind == "cross":
        alignment_section()


learning_page()
