"""Learning: the translator's attention at each training snapshot, and pairs of words followed over training."""

import streamlit as st

from attention.analysis import learning_curves
from attention.params.text_input import check_text
from attention.plots import heatmaps, training_curves
from attention.ui.hosting import cache
from attention.ui import charts, sentence, state
from attention.ui.pages import lesson_page
from attention.ui.head_view import matrices
from attention.ui import pickers as pickers_
from attention.ui.pages.learning_roles import roles_over_training
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


PLAY_SECONDS = 0.8  # one training snapshot per tick while playing


def _toggle_play(steps: list[int], playing: bool) -> None:
    """▶ starts from the first step (or goes on from where the slider is); ⏸ stops where it is. The
    wanted state comes with the click (a ⏸ that lands just after the last step stays a stop)."""
    if bool(st.session_state.get(Keys.LEARN_PLAYING)) == playing:
        return
    st.session_state[Keys.LEARN_PLAYING] = playing
    if playing:
        st.session_state[Keys.LEARN_PLAY_FRESH] = True
        if st.session_state.get(Keys.LEARN_STEP) == steps[-1]:
            st.session_state[Keys.LEARN_STEP] = steps[0]
            st.session_state[Keys.LEARN_TICK] = st.session_state.get(Keys.LEARN_TICK, 0) + 1  # a new slider


def play_button(steps: list[int]) -> None:
    playing = bool(st.session_state.get(Keys.LEARN_PLAYING))
    st.button(t("learning.pause") if playing else t("learning.play"), key="learn_play", on_click=_toggle_play,
              args=(steps, not playing))


def _advance(steps: list[int]) -> bool:
    """While playing, each tick of the fragment moves the step on by one. On the tick after the last
    step was drawn it stops instead and returns True: the page must rerun (before this fragment draws
    anything, so no half-drawn run is left behind) for the fragment to stop ticking and ▶ to return."""
    if not st.session_state.get(Keys.LEARN_PLAYING):
        return False
    if st.session_state.pop(Keys.LEARN_PLAY_FRESH, False):
        return False  # the run the ▶ click caused: show where it starts
    at = steps.index(st.session_state[Keys.LEARN_STEP])
    if at >= len(steps) - 1:
        st.session_state[Keys.LEARN_PLAYING] = False
        return True
    st.session_state[Keys.LEARN_STEP] = steps[at + 1]
    st.session_state[Keys.LEARN_TICK] = st.session_state.get(Keys.LEARN_TICK, 0) + 1
    return False


def _slider_key() -> str:
    return f"learn_step_slider_{st.session_state.get(Keys.LEARN_TICK, 0)}"


def _slider_moved(slider_key: str) -> None:
    """Only the slider on screen moves the step. A browser may still report a slider that an earlier
    tick replaced (with the value it was drawn with); taken as a move, that old value sent Play back
    to its last step and stopped it after one tick."""
    if slider_key == _slider_key():
        st.session_state[Keys.LEARN_STEP] = st.session_state[slider_key]


def step_slider(steps: list[int]) -> None:
    """The step slider shows Keys.LEARN_STEP. While playing, each tick draws a NEW slider (its key
    counts the ticks) created at the new step: a browser may keep showing its own value of a slider
    whose value the server changed, so a slider is never moved from the server, only made anew."""
    step = st.session_state[Keys.LEARN_STEP]
    if st.session_state.get(_slider_key(), step) != step:  # the step moved but not from this slider
        st.session_state[Keys.LEARN_TICK] = st.session_state.get(Keys.LEARN_TICK, 0) + 1
    slider_key = _slider_key()
    st.select_slider(t("learning.step"), steps, value=step, key=slider_key,
                     on_change=_slider_moved, args=(slider_key,))


def timeline(st_traces: learning_curves.SnapshotTraces, kind: str, layer: int, head: int) -> None:
    """The slider, S and A at its step, and every curve with its marker, in one fragment: they are
    always drawn in the same run, so they always show the same step. Playing reruns only this
    fragment once per tick; the rest of the page stays as it is and usable."""
    steps = list(st_traces.steps)
    state.int_choice(Keys.LEARN_STEP, steps[::-1])
    play_button(steps)
    playing = bool(st.session_state.get(Keys.LEARN_PLAYING))
    st.fragment(_timeline, run_every=PLAY_SECONDS if playing else None)(st_traces, kind, layer, head)


def _timeline(st_traces: learning_curves.SnapshotTraces, kind: str, layer: int, head: int) -> None:
    steps = list(st_traces.steps)
    if _advance(steps):
        st.rerun()  # the whole page, once: the fragment stops ticking and the button says ▶ again
    step_slider(steps)
    step = st.session_state[Keys.LEARN_STEP]
    site = st_traces.traces[steps.index(step)].site(layer, kind)
    matrices.show_scores_and_weights(site, head, prefix="learn", scope=LEARN_SCOPE,
                                     note=t("learning.at_step", step=step))
    pair_curves(st_traces, kind, layer, head)
    if kind == "cross":
        alignment_section()
    state.write_url("learning")  # a fragment rerun does not reach the end of app.py


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
    verdict(st_traces, kind, a, b, (q_words[query], k_words[rel], k_words[unrel]))
    qw, aw, bw = (heatmaps.label(w) for w in (q_words[query], k_words[rel], k_words[unrel]))
    steps, marker = list(st_traces.steps), st.session_state.get(Keys.LEARN_STEP)
    names = (f"{qw} → {aw}", f"{qw} → {bw}")  # the pair's weight, not a dot product
    cols = st.columns(2)
    for i, (metric, key) in enumerate((("score", "learning.score"), ("weight", "learning.weight"),
                                       ("cosine", "learning.cosine"))):
        fig = training_curves.curves_figure(steps, {names[0]: getattr(a, metric), names[1]: getattr(b, metric)},
                                           t(key), t(key), marker, x_title=t("learning.step"))
        charts.show(fig, width="stretch", key=f"learn_curve_{metric}", where=cols[i % 2])
    loss = training_curves.loss_figure(list(cache.loss_history()), t("learning.loss"), marker, y_title=t("learning.loss_axis"),
                                       x_title=t("learning.step"), name=t("learning.loss_curve"))
    charts.show(loss, width="stretch", key="learn_loss", where=cols[1])


def verdict(st_traces: learning_curves.SnapshotTraces, kind: str, a: learning_curves.PairCurve,
            b: learning_curves.PairCurve, words: tuple[str, str, str]) -> None:
    """Which key ends ahead, by how much, how training moved the gap; the same over every head of
    the kind; and, for the encoder, what this translator does and does not learn."""
    eff = learning_curves.effect(a, b)
    qw, aw, bw = (heatmaps.label(w) for w in words)
    (wa0, wb0), (wa, wb) = eff.first_weights, eff.last_weights
    message = " ".join((t(eff.lead_key, q=qw, a=aw, b=bw, wa=f"{wa:.3f}", wb=f"{wb:.3f}", ratio=eff.ratio_text,
                          even=f"{eff.even:.3f}", bar=f"{eff.bar:.3f}", n=eff.n_keys),
                        t(f"learning.trend.{eff.trend}", wa0=f"{wa0:.3f}", wb0=f"{wb0:.3f}")))
    (st.success if eff.learned else st.info)(message)
    whole = learning_curves.summary(st_traces, kind, a.query, a.key, b.key)
    st.caption(t("learning.summary", heads=whole.heads, n=whole.related_ahead, a=aw, b=bw, q=qw,
                 max=f"{whole.max_related:.3f}"))
    st.caption(t("learning.finding"))


def alignment_section() -> None:
    st.subheader(t("learning.alignment"))
    st.caption(t("learning.alignment_explain"))
    steps, shares = cache.alignment_over_training()
    curves = {t("chart.head", layer=layer, head=head): shares[:, layer, head]
              for layer in range(shares.shape[1]) for head in range(shares.shape[2])}
    fig = training_curves.curves_figure(list(steps), curves, t("learning.alignment"), t("learning.share"),
                                       st.session_state.get(Keys.LEARN_STEP), x_title=t("learning.step"))
    charts.show(fig, width="stretch", key="learn_alignment")


def learning_page() -> None:
    st.title(t("learning.title"))
    lesson_page.back_button()
    st.markdown(t("learning.explain"))
    sentence.name_model()
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
    timeline(st_traces, kind, layer, head)
    roles_over_training()


learning_page()
