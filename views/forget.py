"""Forget: what if the model forgot? The built-in language model writes with a KV cache that keeps only some
keys (a policy and a budget), beside a second policy at the same budget and the full cache's own text: the
headline KL of both policies (in words too), the next-word bars, whether a word said earlier was forgotten,
KL per word, the heads that lost most (a click opens their layer), and the newest row of a layer with the
evicted keys in grey."""

import streamlit as st

from attention import i18n
from attention.analysis import claims
from attention.analysis.eviction import heads_lost_most
from attention.lm.evict_policies import keys_seen
from attention.plots import evict_figures
from attention.plots.head_grid import head_from_event
from attention.plots.next_word_bars import bars_html
from attention.ui import charts
from attention.ui.pages import forgetting, writing
from attention.ui.lang import lang, t
from attention.ui.progress import Bar
from attention.ui.state import Keys


def policy_name(policy: str, sinks: int = 0) -> str:
    """The policy's short name (its code name, as the papers call it), with streaming's sinks."""
    return t("fg.with_sinks", name=policy, sinks=sinks) if policy == "streaming" else policy


def controls() -> None:
    row = st.container(horizontal=True)
    row.button(t("fg.lesson"), key="fg_lesson", on_click=forgetting.lesson, help=t("fg.lesson_help"),
               icon=":material/school:")
    row.button(t("fg.fact_lesson"), key="fg_fact_lesson", on_click=forgetting.fact_lesson,
               help=t("fg.fact_lesson_help"), icon=":material/school:")
    st.text_area(t("fg.prompt"), key=Keys.FG_PROMPT, on_change=forgetting.settings_changed, height=120)
    st.selectbox(t("fg.policy"), forgetting.POLICIES, key=Keys.FG_POLICY, help=t("fg.policy_help"),
                 on_change=forgetting.settings_changed,
                 format_func=lambda p, now=lang(): i18n.t(f"fg.policy_{p}", now))
    row = st.container(horizontal=True, vertical_alignment="bottom")
    row.number_input(t("fg.budget"), *forgetting.BUDGET, step=1, key=Keys.FG_BUDGET, help=t("fg.budget_help"),
                     on_change=forgetting.settings_changed)
    row.number_input(t("fg.sinks"), *forgetting.SINKS, step=1, key=Keys.FG_SINKS, help=t("fg.sinks_help"),
                     on_change=forgetting.settings_changed,
                     disabled=st.session_state[Keys.FG_POLICY] not in ("streaming", "window"))
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


def texts(runs: forgetting.Runs, main_name: str) -> None:
    """The evicted cache's text beside the full cache's own (both greedy from the same prompt)."""
    left, right = st.columns(2)
    left.markdown(f"**{t('fg.written', policy=main_name)}**")
    left.code(runs.main.written, language=None, wrap_lines=True)
    right.markdown(f"**{t('fg.written_full')}**")
    right.code(runs.own.written, language=None, wrap_lines=True)


def headline(runs: forgetting.Runs, main_name: str, other_name: str) -> None:
    """Both policies' KL at their newest word, the chosen one's top word, and what the KL means."""
    step, other = runs.main.steps[-1], runs.other.steps[-1] if runs.other.steps else None
    row = st.container(horizontal=True)
    row.metric(t("fg.kl_of", policy=main_name), f"{step.kl:.3f}")
    row.metric(t("fg.top"), t("fg.top_same" if step.same_top else "fg.top_changed"))
    if other is not None:
        row.metric(t("fg.kl_of", policy=other_name), f"{other.kl:.3f}")
    band, ratio = claims.kl_band(step.kl)
    st.caption(t(f"fg.kl_means.{band}", kl=f"{step.kl:.3f}", ratio=f"{ratio:,.0f}" if ratio >= 10 else f"{ratio:.2f}"))
    st.caption(t("fg.kl_scale"))


def forgotten(lm, run) -> None:
    """The first word whose fact the evicted cache forgot, when claims.forgot_fact lets the page say so."""
    for step in run.steps:
        visible = None
        for m in step.kept_mask.values():  # a key any head of any layer sees
            seen = m.any(axis=0)
            visible = seen if visible is None else visible | seen
        found = claims.forgot_fact(step.full, step.probs, run.ids[:step.position + 1], visible)
        if found is not None:
            word, wrote = lm.tokenizer.convert_ids_to_tokens([found.token_id, step.token_id])
            st.warning(t("fg.forgot", index=step.index + 1, word=step.label, full_word=_shown(run, word),
                         full=f"{found.full:.2f}", evicted=f"{found.evicted:.3f}",
                         at=", ".join(str(p) for p in found.positions), wrote=_shown(run, wrote)))
            return


def _shown(run, raw: str) -> str:
    """A token as a word in a sentence: its leading-space mark dropped (a space alone keeps it)."""
    from attention.analysis.token_text import LEADING_SPACE, readable

    label = readable(raw, run.scheme)
    return label[1:] if label.startswith(LEADING_SPACE) and label.strip(LEADING_SPACE) else label


LOST_CHART = "fg_lost"  # the heads-that-lost-most chart (its click event)


def pick_lost_layer() -> None:
    """A click on a bar: the newest row is drawn at that head's layer."""
    picked = head_from_event(st.session_state.get(LOST_CHART))
    if picked is not None:
        st.session_state[Keys.FG_LAYER] = picked[0]


def newest_row(step, tokens: list[str], lost: list[tuple[int, int, float]]) -> None:
    layers = sorted(step.rows)
    if st.session_state[Keys.FG_LAYER] not in layers:  # auto (or out of range): the layer that lost most
        st.session_state[Keys.FG_LAYER] = lost[0][0] if lost else layers[0]
    st.selectbox(t("fg.layer"), layers, key=Keys.FG_LAYER)
    layer = st.session_state[Keys.FG_LAYER]
    row_w, keep = step.rows[layer], step.kept_mask[layer]
    per_head = keep.repeat(row_w.shape[0] // keep.shape[0], axis=0)
    charts.show(evict_figures.newest_row_figure(
        row_w, per_head, tokens, t("fg.row_title", layer=layer), t("fg.row_x"), t("fg.row_y"), t("fg.kept_hover"),
        t("fg.evicted_hover"), t("fg.marked")), width="stretch", key="fg_row")
    st.caption(t("fg.row_caption"))


def page() -> None:
    st.title(t("fg.title"))
    st.caption(t("fg.explain"))
    st.caption(t("write.identity"))  # the model the page writes with (the Write page's)
    forgetting.defaults()
    controls()
    lm = writing.load_model()
    if lm is None:
        return
    bar = Bar()
    with st.spinner(t("fg.working")):
        runs = forgetting.runs(lm, bar)
    bar.done()
    if runs is None:
        return
    e = runs.main
    if st.session_state.pop(forgetting.REWRITTEN, False) and e.steps:
        st.info(t("fg.rewritten", n=len(e.steps)))
    if not e.steps:
        st.info(t("fg.nothing_yet"))
        return
    main_name, other_name = policy_name(e.policy, e.sinks), policy_name(runs.other.policy, runs.other.sinks)
    texts(runs, main_name)
    if e.ended:
        st.info(t("fg.ended"))
    step = e.steps[-1]
    layer0 = min(step.kept_mask)
    seen = int(step.kept_mask[layer0][0].sum())
    st.caption(t("fg.step", index=step.index + 1, word=step.label, pos=step.position, seen=seen,
                 n=step.position + 1, layer=layer0))
    if step.index == 0:
        st.caption(t("fg.first"))
    elif e.policy == "snapkv" and seen > e.budget:
        prompt_kept = min(e.budget, e.prompt_len)  # keys_seen: these and every written key, its own included
        st.caption(t("fg.snapkv_over", seen=keys_seen("snapkv", e.budget, step.position, e.prompt_len),
                     budget=e.budget, prompt=prompt_kept, written=seen - prompt_kept))
    headline(runs, main_name, other_name)
    forgotten(lm, e)
    bars(step, lm)
    charts.show(evict_figures.kl_figure(
        [s.kl for s in e.steps], main_name, [s.kl for s in runs.other.steps], other_name,
        t("fg.kl_title", policy=main_name, other=other_name), t("fg.kl_x"), t("fg.kl_y")), width="stretch", key="fg_kl")
    st.caption(t("fg.kl_note"))
    st.subheader(t("fg.lost_title"))
    st.caption(t("fg.lost_explain"))
    lost = heads_lost_most(step.lost)
    if lost:
        charts.show(evict_figures.lost_figure(lost, t("fg.lost_x")), width="stretch", key=LOST_CHART,
                    on_select=pick_lost_layer, selection_mode="points")
        st.caption(t("fg.lost_click"))
    else:
        st.info(t("fg.lost_none"))
    newest_row(step, e.tokens, lost)


page()
