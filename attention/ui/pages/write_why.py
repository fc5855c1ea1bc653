"""The Write page's "Why this word" section: behind a button (every head off costs seconds), the heads the
chosen next token depends on (choosing one shows it in the head view), each prompt token's attribution
as bars, and the agreement of the two in words the numbers earn (attention.analysis.claims)."""

from __future__ import annotations

import time

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from attention.analysis import claims, why_word
from attention.params.markdown import code
from attention.plots.why_bars import attribution_figure
from attention.ui.hosting import admission
from attention.ui import charts, progress
from attention.ui.pages import write_play
from attention.ui.lang import t
from attention.ui.state import Keys


def _explain(w, step: int, key: tuple) -> None:
    from attention.lm import why

    bar, started = progress.Bar(), time.monotonic()

    def reported(stage: str, done: int, total: int) -> None:  # the heads are ~90 % of the time
        s = f"{time.monotonic() - started:.0f}"
        if stage == "heads":
            bar(0.9 * done / max(total, 1), t("why.progress_heads", done=done, total=total, s=s))
        else:
            bar(0.9, t("why.progress_gradients", steps=total, s=s))

    try:
        with admission.turn(), st.spinner(t("why.running")):  # tens of CPU seconds: it waits its turn
            st.session_state[Keys.WR_WHY] = (key, why.at_step(w, step, progress=reported))
    except Exception as exc:  # said in words, never a traceback
        st.session_state[Keys.WR_WHY] = (key, f"{type(exc).__name__}: {exc}")
    bar.done()


def _show_head(layer: int, head: int) -> None:
    st.session_state[Keys.WR_LAYER], st.session_state[Keys.WR_HEAD] = layer, head
    write_play.change_frame()


def frame() -> DeltaGenerator:
    """The heading and explanation, drawn by the page's run; the box the writing fragment fills."""
    st.subheader(t("why.title"), anchor=False)
    st.caption(t("why.explain"))
    return st.container()


def why_section(w, step: int) -> None:
    """The section for `step` of the Writing `w`: the button, then the last answer when it is for this step."""
    from attention.lm import why

    ids, token_id = why.target(w, step)
    key = (ids, token_id)
    words = _words(w, step, len(ids), token_id)
    # the token as text, in backticks: a widget label is markdown, never HTML, so it is not escaped
    token = code(words[-1])
    if st.button(t("why.button", token=token, heads=why.head_count(w.lm)), key="wr_why_go"):
        _explain(w, step, key)
    kept = st.session_state.get(Keys.WR_WHY)
    if not kept or kept[0] != key:
        return
    answer = kept[1]
    if isinstance(answer, str):
        st.error(t("why.failed", error=answer))
        return
    _answer(answer, token, words[:-1])


def _words(w, step: int, n: int, token_id: int) -> list[str]:
    """The n prompt tokens and the token explained, as the written steps and the bars read them (a Chinese
    character's byte pieces written as that character, "…" on the side where it goes on)."""
    if step < len(w.steps):  # a written token: read with the text around it
        return w.labels(0, n + 1)
    raw = w.lm.tokenizer.convert_ids_to_tokens([token_id])[0]
    return [*w.labels(0, n), w.candidate_label(raw, step)]


def _answer(a, token: str, words: list[str]) -> None:
    st.markdown(t("why.for", token=token, lp=claims.number(a.f_input), n=len(a.heads),
                  s=f"{a.seconds_heads:.1f}"))
    left, right = st.columns([1, 1])
    with left:
        if claims.heads_matter(a.drops):
            st.caption(t("why.heads"))
            for i, ((_, layer, head), drop) in enumerate(a.top):
                # the change of log p, signed once: a drop of 1.506 is "−1.506", never "lost … −1.506"
                st.button(t("why.head_option", layer=layer, head=head, change=claims.number(-drop, "+.3f")),
                          key=f"wr_why_head_{i}",
                          on_click=_show_head, args=(layer, head))
        else:
            st.info(t("why.no_heads", floor=claims.EFFECT_FLOOR))
        _agreement(a)
    with right:
        fig = attribution_figure(list(a.tokens), {t("why.ig"): list(a.integrated_gradients),
                                                  t("why.gxi"): list(a.gradient_x_input)},
                                 t("why.chart_title"), t("why.chart_x"), labels=words)
        charts.show(fig, key="wr_why_chart")
        st.caption(t("why.gap", steps=a.ig_steps, total=claims.number(a.integrated_gradients.sum()),
                     delta=claims.number(a.f_input - a.f_baseline), gap=claims.number(a.completeness_gap)))
        if a.reference[0] != "integrated_gradients":
            st.caption(t("why.gap_large"))
        apart = why_word.sign_disagreements(a.integrated_gradients, a.gradient_x_input)
        if apart:
            st.caption(t("why.disagree", tokens=", ".join(code(words[i]) for i in apart),
                         ref=t(f"why.ref_{a.reference[0]}")))


def _agreement(a) -> None:
    ref = t(f"why.ref_{a.reference[0]}")
    for ag in a.agreements:
        _, layer, head = ag.head
        if ag.attention is None:
            st.caption(t("why.no_agree", layer=layer, head=head, min_n=claims.MIN_N))
            continue
        rho = ag.attention.rho
        text = t("why.agree", layer=layer, head=head, ref=ref, rho=claims.number(rho, "+.2f"), n=ag.attention.n,
                 strength=t(f"why.strength_{why_word.strength(rho)}"),
                 sign=t("why.sign_positive" if rho >= 0 else "why.sign_negative"))
        if ag.value_weighted is not None:
            text += " " + t("why.agree_value", rho=claims.number(ag.value_weighted.rho, "+.2f"), n=ag.value_weighted.n)
        st.caption(text)
