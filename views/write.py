"""Write: the built-in language model writes word by word. The next-word panel (the ten likeliest tokens;
with top-k or top-p on, the ten likeliest before the cut, each kept or removed), the newest row of
attention in the head view, the KV cache said in numbers, and every written word a way back to its step."""

from typing import NamedTuple

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from attention.lm import sampling
from attention.params.text_tail import text_tail
from attention.params.markdown import code
from attention.plots.next_word_bars import bars_html
from attention.trace import TOLERANCE
from attention.ui.pages import (compare_run, presses, write_lens, write_play, write_why, write_writes, writing,
                                written_steps)
from attention.ui.head_view import head_component, head_legend, long_view
from attention.ui import state
from attention import i18n
from attention.ui.lang import lang, t
from attention.ui.head_view.matrices import head_labels
from attention.ui.state import Keys

LAYER_BOX_PX = 96  # the layer picker: two digits and the arrow
VIEW_KEY = "wr-head"  # the head view's key: its blocks sent, and those made (ui/head_view/head_component.py)


def controls(vocab: int):
    """The settings: drawn by the whole page's run (a change reruns it), not by each written word."""
    s = writing.clamped_settings(vocab)
    # rows of widgets as flex rows, not columns: each column is a block more that every render of the page
    # (three per written word) walks again
    row = st.container(horizontal=True)
    row.slider(t("write.temperature"), 0.05, 5.0, step=0.05, key=Keys.WR_TEMPERATURE, help=t("write.temperature_help"))
    row.number_input(t("write.top_k"), 0, vocab, step=1, key=Keys.WR_TOP_K, help=t("write.top_k_help"))
    row.slider(t("write.top_p"), writing.TOP_P_MIN, 1.0, step=0.01, key=Keys.WR_TOP_P, help=t("write.top_p_help"))
    row = st.container(horizontal=True, vertical_alignment="bottom")
    row.radio(t("write.mode"), [False, True], key=Keys.WR_SAMPLED, horizontal=True, width="stretch",
              format_func=lambda sampled, now=lang(): i18n.t("write.mode_sampled" if sampled else "write.mode_greedy",
                                                             now))
    row.number_input(t("write.seed"), 0, 2**31 - 1, step=1, key=Keys.WR_SEED, help=t("write.seed_help"),
                     disabled=not st.session_state.get(Keys.WR_SAMPLED))
    if not st.session_state.get(Keys.WR_SAMPLED):  # greedy: the settings move the bars, never the word
        st.caption(t("write.greedy_note"))
    return s


def buttons(w, step: int) -> None:
    done = written_steps.finished(w, step)  # from an earlier step the buttons write again (replacing what follows)
    playing = write_play.playing(w)  # Play writes: the two buttons wait
    row = st.container(horizontal=True)
    # a press only asks for its words (ui/pages/presses.py): this fragment's run says so, then writes them
    row.button(t("write.next"), key="wr_next", on_click=presses.press, args=(1,), disabled=done or playing,
               type="primary")
    row.button(t("write.ten"), key="wr_ten", on_click=presses.press, args=(10,), disabled=done or playing)
    row.button(t("write.pause" if playing else "write.play"), key="wr_play", on_click=write_play.toggle_play,
               args=(not playing,), disabled=done, icon=":material/pause:" if playing else ":material/play_arrow:")
    if done and w.ended:
        st.info(t("write.ended"))
    elif done:
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
    cut = sampling.cut(dist.logits, dist.settings)
    if cut.cuts:  # top-k / top-p removed tokens: the likeliest before the cut, each kept or removed
        ids, probs, tokens = [int(i) for i in cut.ids], list(cut.after), w.lm.tokenizer.convert_ids_to_tokens(
            [int(i) for i in cut.ids])
    else:
        ids, probs, tokens = list(dist.top_ids), list(dist.top_probs), list(dist.top_tokens)
    st.caption(t("tokens.marks"))
    if written_steps.reads_bytes(w):  # Chinese and other non-Latin text: what the byte pieces mean, said plainly
        st.info(t("write.bytes_note"))
    shown = [w.candidate_label(tok, step) for tok in tokens]
    chosen = None
    if step < len(w.steps):  # this prediction was followed: mark the token written
        taken = w.steps[step]
        chosen = ids.index(taken.token_id) if taken.token_id in ids else None
        st.caption(t("write.chosen", i=step + 1, token=f"`{taken.label}`", p=f"{taken.probability:.3f}")
                   + f" — {written_steps.how_chosen(taken)}")
    if not cut.cuts:
        st.html(bars_html(tokens, probs, t("write.chart_title"), t("write.chart_token"), t("write.chart_x"),
                          t("write.chart_written"), chosen, labels=shown))
        return
    st.html(bars_html(tokens, probs, t("write.chart_title_cut"), t("write.chart_token"), t("write.chart_x_cut"),
                      t("write.chart_written"), chosen, before=list(cut.before), before_title=t("write.chart_before"),
                      removed_word=t("write.chart_removed"), labels=shown))
    st.caption(t("write.cut_caption", kept=f"{cut.kept:,}", vocab=f"{cut.vocab:,}", removed=f"{cut.removed:.3f}"))


def head_pickers(lm) -> None:
    """Layer and head, drawn by the whole page's run from the model's shape: a written word does not change them."""
    config = lm.model.config
    layers = list(range(config.num_hidden_layers))
    heads = config.num_attention_heads
    state.int_choice(Keys.WR_LAYER, layers)
    state.int_choice(Keys.WR_HEAD, list(range(heads)))
    per_group = heads // getattr(config, "num_key_value_heads", heads)
    # the layer's box as narrow as a two-digit number needs: on a phone the head's label ("head 6 (key/value
    # group 2)") keeps the rest of the row and is read whole
    row = st.container(horizontal=True)
    row.selectbox(t("write.layer"), layers, key=Keys.WR_LAYER, width=LAYER_BOX_PX)
    head = row.selectbox(t("write.head"), list(range(heads)), key=Keys.WR_HEAD,
                         format_func=lambda h, now=lang(): i18n.t("write.head_group", now, h=h, g=h // per_group))
    if per_group > 1:
        g = head // per_group
        st.caption(t("write.group_note", heads=", ".join(str(h) for h in range(g * per_group, (g + 1) * per_group)),
                     g=g))


def view_site(w, step: int):
    """The site the head view shows and its blocks, made (or found made, see head_component.made_blocks)."""
    site = w.site(st.session_state[Keys.WR_LAYER], step)
    if max(site.shape) > long_view.EXACT_MAX:  # drawn pooled (attention_view): no blocks of every cell
        return site
    head_component.made_blocks(site, st.session_state[Keys.WR_HEAD], key=VIEW_KEY, labels=head_labels(),
                               grown_from=w.prompt_len)  # a written word is a band of its own: one row is sent
    return site


def attention_view(w, step: int) -> None:
    layers = list(w.layers)
    store = w.stores[layers[0]]
    site = view_site(w, step)
    n = len(site.query_tokens)
    if not site.faithful:
        st.error(t("write.unfaithful", diff=f"{site.check_diff:.2e}", tol=f"{TOLERANCE:.0e}"))
    if n > long_view.EXACT_MAX:  # every cell of the head would be megabytes a word: pooled, a window, the row
        long_view.show_long(site, st.session_state[Keys.WR_HEAD], None, (tuple(w.ids[:n]), site.layer), query=n - 1)
    else:
        legend = st.container()  # above the matrices it explains, filled after the view is sent (sent first: latency)
        head_component.blocks_view(site, st.session_state[Keys.WR_HEAD], (n - 1, -1), key=VIEW_KEY,
                                   labels=head_labels(), grown_from=w.prompt_len)
        with legend:
            head_legend.show(site, st.session_state[Keys.WR_HEAD])
    newest = code(w.labels(n - 1, n)[0])  # as the steps read it; markdown, not a chart: code, never HTML-escaped
    if step == 0:
        st.caption(t("write.prompt_rows", n=n, row=n - 1, token=newest))
    else:
        cached = n - 1
        size = cached * len(layers) * store.kv_heads * store.d_head * 2 * 4  # K and V, 4 bytes per float32
        st.caption(t("write.cache", row=n - 1, token=newest, cached=cached, layers=len(layers), kv=store.kv_heads,
                     d=store.d_head, bytes=f"{size:,}", size=f"{size / 1024:.0f} KB"))


class Boxes(NamedTuple):
    """Where the fragment writes, inside the page's frame: a written word redraws only what is in these."""
    top: DeltaGenerator
    bars: DeltaGenerator
    view: DeltaGenerator
    why: DeltaGenerator
    lens: DeltaGenerator
    sinks: DeltaGenerator


def frame(lm) -> Boxes:
    """The page below the settings, drawn by the whole page's run: headings, explanations and the widgets a
    word does not change stay as drawn; what a word changes goes into the boxes (each written each run)."""
    top = st.container()
    left, right = st.columns([1, 2])
    with right:
        head_pickers(lm)
        view = st.container()
    why = write_why.frame()
    lens, sinks = write_lens.frame()
    return Boxes(top, left.container(), view, why, lens, sinks)


def write_page() -> None:
    st.title(t("write.title"), anchor=False)
    st.markdown(t("write.explain"))
    st.caption(t("write.identity"))
    write_writes.follow_unless_linked((writing.DEFAULTS[Keys.WR_LAYER], writing.DEFAULTS[Keys.WR_HEAD]))
    writing.defaults()
    lm = writing.load_model()
    if lm is None:
        return
    vocab = int(lm.model.get_output_embeddings().weight.shape[0])
    st.text_area(t("write.prompt"), key=Keys.WR_PROMPT, height=68, on_change=writing.new_prompt)
    s = controls(vocab)
    prompt = st.session_state.get(Keys.WR_PROMPT) or ""
    if not prompt:
        st.info(t("write.empty"))
        return
    playing = bool(st.session_state.get(Keys.WR_PLAYING))
    write_play.frame_changed()  # this run draws the frame: a change asked for is drawn now
    boxes = frame(lm)
    # The fragment is registered before the Writing is read (it reads it, inside): a press on a page that
    # reconnected to a new session is dropped by Streamlit unless the session holds the fragment its button is in
    st.fragment(writing_area, run_every=write_play.PLAY_SECONDS if playing else None)(playing, boxes, lm, prompt, s)


def writing_area(ticking: bool, boxes: Boxes, lm, prompt: str, s: sampling.Settings) -> None:
    """Everything a written word changes, in one fragment that writes into the frame's boxes: "Next word"
    reruns only this (the frame's headings and widgets are not sent again with each word), and while
    playing it ticks, a word per tick. It reads the session's Writing (again from the link when the budget
    emptied it), then writes the words pressed for, then draws. Words pressed for are said first, before the
    session's lock, the Writing's read or any turn (ui/pages/presses.py), until their word is drawn."""
    with boxes.top:
        notice = presses.Notice(st.empty())  # where the words pressed for say they wait, or are being written
    presses.tell(notice)
    with writing.slot().lock:  # one run of this session reads the Writing at a time (ui/hosting/held.py)
        if state.switching() or write_play.frame_changed():
            st.rerun()  # another page, or a picker the frame draws
        with boxes.top:
            w = writing.writing(lm, prompt, s)
        if w is None:
            notice.clear()
            return
        if write_play.playing(w) != ticking:
            st.rerun()  # Play / Pause / the end
        _writing_area(w, ticking, boxes, notice)
        notice.clear()  # the word is drawn: what said it was coming goes


def _writing_area(w, ticking: bool, boxes: Boxes, notice: presses.Notice) -> None:
    if ticking and write_play.play_due():
        presses.write(1, notice)
    else:
        presses.write_pending(notice)
    step = shown_step(w)
    with boxes.view:  # sent first, though drawn below: the browser draws the new row while the rest is computed
        attention_view(w, step)
    with boxes.top:
        presses.press_failed()
        if w.cut:
            st.warning(t("write.cut", max=w.prompt_len, n=w.cut))
        buttons(w, step)
        written_words(w)
        st.caption(written_steps.step_named(w, step))
        warning = written_steps.replaced(w, step)
        if warning:
            st.caption(warning)
        shown, hidden = text_tail(w.text, w.written)
        st.caption(t("write.text") if not hidden else t("write.text_tail", n=hidden))
        st.code(shown, language=None, wrap_lines=True)  # the text literally: markup, control characters and all
        compare_run.open_button(state.PAGES["write"].shows, w.text, key="to_compare_write")
    with boxes.bars:
        next_word_panel(w, step)
    with boxes.why:
        write_why.why_section(w, step)
        write_writes.writes_section(w, step)
    with boxes.lens:
        write_lens.lens_section(w, step)
    with boxes.sinks:
        write_lens.sinks_section(w, step)
    state.write_url("write")  # a fragment rerun does not reach the end of app.py
    writing.read_ahead(w, step)


write_page()
