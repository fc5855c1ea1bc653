"""Write: the built-in language model writes word by word. The next-word panel (the ten likeliest tokens
after temperature, top-k, top-p), the newest row of attention in the head view, the KV cache said in
numbers, and every written word a way back to its step."""

import streamlit as st

from attention.analysis.text_tail import text_tail
from attention.plots.labels import label
from attention.plots.next_word_bars import bars_html
from attention.trace import TOLERANCE
from attention.ui import compare_run, head_component, state, write_lens, write_why, writing
from attention import i18n
from attention.ui.lang import lang, t
from attention.ui.matrices import head_labels
from attention.ui.state import Keys


def controls(vocab: int):
    s = writing.clamped_settings(vocab)
    c_t, c_k, c_p = st.columns(3)
    c_t.slider(t("write.temperature"), 0.05, 5.0, step=0.05, key=Keys.WR_TEMPERATURE, help=t("write.temperature_help"))
    c_k.number_input(t("write.top_k"), 0, vocab, step=1, key=Keys.WR_TOP_K, help=t("write.top_k_help"))
    c_p.slider(t("write.top_p"), writing.TOP_P_MIN, 1.0, step=0.01, key=Keys.WR_TOP_P, help=t("write.top_p_help"))
    return s


def buttons(w) -> None:
    c_mode, c_seed, c_next, c_ten, c_play = st.columns([2, 1, 1, 1, 1], vertical_alignment="bottom")
    c_mode.radio(t("write.mode"), [False, True], key=Keys.WR_SAMPLED, horizontal=True,
                 format_func=lambda sampled, now=lang(): i18n.t("write.mode_sampled" if sampled else "write.mode_greedy",
                                                                now))
    c_seed.number_input(t("write.seed"), 0, 2**31 - 1, step=1, key=Keys.WR_SEED, help=t("write.seed_help"),
                        disabled=not st.session_state.get(Keys.WR_SAMPLED))
    done = w.ended or w.full
    playing = writing.playing(w)  # Play writes: the two buttons wait
    c_next.button(t("write.next"), key="wr_next", on_click=writing.write, args=(1,), disabled=done or playing,
                  type="primary")
    c_ten.button(t("write.ten"), key="wr_ten", on_click=writing.write, args=(10,), disabled=done or playing)
    c_play.button(t("write.pause" if playing else "write.play"), key="wr_play", on_click=writing.toggle_play,
                  args=(not playing,), disabled=done, icon=":material/pause:" if playing else ":material/play_arrow:")
    if w.ended:
        st.info(t("write.ended"))
    elif w.full:
        st.info(t("write.full", max=w.total))


def written_words(w) -> None:
    """The written words as pills: a click goes back to that step."""
    options = list(range(len(w.steps) + 1))
    st.pills(t("write.steps"), options, key=Keys.WR_STEP, selection_mode="single",
             format_func=lambda i, now=lang(): i18n.t("write.prompt_step", now) if i == 0 else f"{i}: {w.steps[i - 1].label}")


def shown_step(w) -> int:
    """The step the pills choose (none chosen: the newest)."""
    shown = st.session_state.get(Keys.WR_STEP)
    return shown if isinstance(shown, int) and 0 <= shown <= len(w.steps) else len(w.steps)


def next_word_panel(w, step: int) -> None:
    dist = w.distribution(step)
    chosen = None
    if step < len(w.steps):  # this prediction was followed: mark the token written
        taken = w.steps[step]
        chosen = dist.top_ids.index(taken.token_id) if taken.token_id in dist.top_ids else None
        how = t("write.chosen_how_greedy") if taken.seed is None else t("write.chosen_how_seed", seed=taken.seed)
        st.caption(t("write.chosen", i=step + 1, token=f"`{taken.label}`", p=f"{taken.probability:.3f}") + f" — {how}")
    st.html(bars_html(list(dist.top_tokens), list(dist.top_probs), t("write.chart_title"), t("write.chart_token"),
                      t("write.chart_x"), t("write.chart_written"), chosen))


def attention_panel(w, step: int) -> None:
    layers = list(w.layers)
    store = w.stores[layers[0]]
    state.int_choice(Keys.WR_LAYER, layers)
    state.int_choice(Keys.WR_HEAD, list(range(store.heads)))
    per_group = store.heads // store.kv_heads
    c_layer, c_head = st.columns(2)
    c_layer.selectbox(t("write.layer"), layers, key=Keys.WR_LAYER)
    head = c_head.selectbox(t("write.head"), list(range(store.heads)), key=Keys.WR_HEAD,
                            format_func=lambda h, now=lang(): i18n.t("write.head_group", now, h=h, g=h // per_group))
    layer = st.session_state[Keys.WR_LAYER]
    site = w.site(layer, step)
    n = len(site.query_tokens)
    if per_group > 1:
        g = head // per_group
        st.caption(t("write.group_note", heads=", ".join(str(h) for h in range(g * per_group, (g + 1) * per_group)),
                     g=g))
    if not site.faithful:
        st.error(t("write.unfaithful", diff=f"{max(site.weights_diff, site.z_diff):.2e}", tol=f"{TOLERANCE:.0e}"))
    head_component.blocks_view(site, head, (n - 1, -1), key="wr-head", labels=head_labels(),
                               grown_from=w.prompt_len)  # a written word is a band of its own: one row is sent
    newest = label(w.tokens[n - 1])
    if step == 0:
        st.caption(t("write.prompt_rows", n=n, row=n - 1, token=newest))
    else:
        cached = n - 1
        size = cached * len(layers) * store.kv_heads * store.d_head * 2 * 4
        st.caption(t("write.cache", row=n - 1, token=newest, cached=cached, layers=len(layers), kv=store.kv_heads,
                     d=store.d_head, size=f"{size / 1024:.0f} KB"))


def write_page() -> None:
    st.title(t("write.title"))
    st.markdown(t("write.explain"))
    st.caption(t("write.identity"))
    writing.defaults()
    lm = writing.load_model()
    if lm is None:
        return
    vocab = int(lm.model.get_output_embeddings().weight.shape[0])
    st.text_area(t("write.prompt"), key=Keys.WR_PROMPT, height=68, on_change=writing.new_prompt)
    s = controls(vocab)
    w = writing.writing(lm, st.session_state.get(Keys.WR_PROMPT) or "", s)
    if w is None:
        return
    if w.cut:
        st.warning(t("write.cut", max=w.prompt_len, n=w.cut))
    playing = writing.playing(w)
    st.fragment(writing_area, run_every=writing.PLAY_SECONDS if playing else None)(w, playing)


def writing_area(w, ticking: bool) -> None:
    """Everything a written word changes, in one fragment: "Next word" reruns only this (the title,
    prompt and settings above stay as drawn), and while playing it ticks, a word per tick."""
    if state.switching() or writing.playing(w) != ticking:
        st.rerun()  # another page asked for, or Play / Pause / the end: the whole page runs (and ticks or not)
    if ticking and writing.play_due():
        writing.write(1)
    top = st.container()
    left, right = st.columns([1, 2])
    step = shown_step(w)
    with right:  # sent first, though drawn below: the browser draws the new row while the rest is computed
        attention_panel(w, step)
    with top:
        buttons(w)
        written_words(w)
        shown, hidden = text_tail(w.text, w.written)
        st.caption(t("write.text") if not hidden else t("write.text_tail", n=hidden))
        st.code(shown, language=None, wrap_lines=True)  # the text literally: markup, control characters and all
        compare_run.open_button(state.PAGES["write"].shows, w.text, key="to_compare_write")
    with left:
        next_word_panel(w, step)
    write_why.why_section(w, step)
    write_lens.section(w, step)
    state.write_url("write")  # a fragment rerun does not reach the end of app.py


write_page()
