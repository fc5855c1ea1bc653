"""Forget: what if the model forgot? The built-in language model writes with a KV cache that keeps only some
keys (a policy and a budget), beside the full cache at the same text: the next-word bars of both, the KL and
whether the top word changed, KL per word against window, the heads that lost most, and the newest row of a
layer with the evicted keys in grey."""

import streamlit as st

from attention import i18n
from attention.analysis.eviction import heads_lost_most
from attention.plots import evict_figures
from attention.plots.next_word_bars import bars_html
from attention.ui import charts
from attention.ui.pages import forgetting, writing
from attention.ui.lang import lang, t
from attention.ui.state import Keys


def controls() -> None:
    st.button(t("fg.lesson"), key="fg_lesson", on_click=forgetting.lesson, help=t("fg.lesson_help"),
              icon=":material/school:")
    st.text_area(t("fg.prompt"), key=Keys.FG_PROMPT, on_change=forgetting.settings_changed, height=120)
    row = st.container(horizontal=True)
    row.selectbox(t("fg.policy"), forgetting.POLICIES, key=Keys.FG_POLICY, help=t("fg.policy_help"),
                  on_change=forgetting.settings_changed,
                  format_func=lambda p, now=lang(): i18n.t(f"fg.policy_{p}", now))
    row.number_input(t("fg.budget"), *forgetting.BUDGET, step=1, key=Keys.FG_BUDGET, help=t("fg.budget_help"),
                     on_change=forgetting.settings_changed)
    row.number_input(t("fg.sinks"), *forgetting.SINKS, step=1, key=Keys.FG_SINKS, help=t("fg.sinks_help"),
                     on_change=forgetting.settings_changed, disabled=st.session_state[Keys.FG_POLICY] != "streaming")
    row = st.container(horizontal=True)
    full = st.session_state[Keys.FG_WORDS] >= forgetting.WORDS[1]
    row.button(t("fg.next"), key="fg_next", on_click=forgetting.write, args=(1,), type="primary", disabled=full)
    row.button(t("fg.six"), key="fg_six", on_click=forgetting.write, args=(6,), disabled=full)
    row.button(t("fg.restart"), key="fg_restart", on_click=forgetting.restart)


def bars(step, lm) -> None:
    """The ten likeliest next words with the evicted and with the full cache, side by side (stacked on a phone)."""
    left, right = st.columns(2)
    for column, probs, title in ((left, step.probs, "fg.bars_evicted"), (right, step.full, "fg.bars_full")):
        ids = probs.argsort()[::-1][:10]
        tokens = lm.tokenizer.convert_ids_to_tokens([int(i) for i in ids])
        chosen = next((i for i, j in enumerate(ids) if int(j) == step.token_id), None)
        column.html(bars_html(tokens, [float(probs[i]) for i in ids], t(title), t("fg.token"), t("fg.prob"),
                              t("fg.chosen"), chosen))


def page() -> None:
    st.title(t("fg.title"))
    st.caption(t("fg.explain"))
    st.caption(t("write.identity"))  # the model the page writes with (the Write page's)
    forgetting.defaults()
    controls()
    lm = writing.load_model()
    if lm is None:
        return
    with st.spinner(t("fg.working")):
        pair = forgetting.runs(lm)
    if pair is None:
        return
    e, window = pair
    if not e.steps:
        st.info(t("fg.nothing_yet"))
        return
    st.markdown(f"**{t('fg.written')}**")
    st.code(e.written, language=None, wrap_lines=True)
    if e.ended:
        st.info(t("fg.ended"))
    step = e.steps[-1]
    layer0 = min(step.kept_mask)
    seen = int(step.kept_mask[layer0][0].sum())
    st.caption(t("fg.step", index=step.index + 1, word=step.label, pos=step.position, seen=seen,
                 n=step.position + 1, layer=layer0))
    if step.index == 0:
        st.caption(t("fg.first"))
    row = st.container(horizontal=True)
    row.metric(t("fg.kl"), f"{step.kl:.3f}")
    row.metric(t("fg.top"), t("fg.top_same" if step.same_top else "fg.top_changed"))
    bars(step, lm)
    policy_name = i18n.t(f"fg.policy_{e.policy}", lang())
    charts.show(evict_figures.kl_figure(
        [s.kl for s in e.steps], policy_name, None if window is None else [s.kl for s in window.steps],
        i18n.t("fg.policy_window", lang()), t("fg.kl_title", policy=e.policy), t("fg.kl_x"), t("fg.kl_y")),
        width="stretch", key="fg_kl")
    st.caption(t("fg.kl_note"))
    st.subheader(t("fg.lost_title"))
    st.caption(t("fg.lost_explain"))
    lost = heads_lost_most(step.lost)
    if lost:
        charts.show(evict_figures.lost_figure(lost, t("fg.lost_x")), width="stretch",
                    key="fg_lost")
    else:
        st.info(t("fg.lost_none"))
    layers = sorted(step.rows)
    if st.session_state[Keys.FG_LAYER] not in layers:
        st.session_state[Keys.FG_LAYER] = layers[0]
    st.selectbox(t("fg.layer"), layers, key=Keys.FG_LAYER)
    layer = st.session_state[Keys.FG_LAYER]
    row_w, keep = step.rows[layer], step.kept_mask[layer]
    per_head = keep.repeat(row_w.shape[0] // keep.shape[0], axis=0)
    charts.show(evict_figures.newest_row_figure(
        row_w, per_head, e.tokens, t("fg.row_title", layer=layer), t("fg.row_x"), t("fg.row_y"), t("fg.evicted")),
        width="stretch", key="fg_row")


page()
