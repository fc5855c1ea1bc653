"""The Lesson page's Streamlit glue: the sentences, back / next, one step drawn (text, chart, hint, link,
prediction), the session's score and the printable summary. What a step says is in attention/lesson/steps.py and
story.py; the numbers in attention/lesson/numbers.py."""

from __future__ import annotations

import re
import zlib

import streamlit as st

from attention.lesson import numbers
from attention.params.selection import Selection
from attention.params.text_input import check_text
from attention.capture import hf_model, projections
from attention.lesson import printout
from attention.lesson.steps import READS_SENTENCE, Context, Prediction, Step, Unavailable
from attention.lesson.story import N_STEPS, NEEDS_QKV, SOURCES, STEPS
from attention.trace import Kind
from attention.ui.hosting import cache
from attention.ui import charts, sentence, state
from attention.ui.pages import lesson_lm
from attention.ui.lang import kind_title, lang, t
from attention.ui.head_view.matrices import select_from_chart
from attention.ui.state import EXPLORE_SCOPE, LESSON_SCOPE, TRANSLATE_SCOPE, Keys

MODEL_TEXT = "The black cat drank the milk"  # the article's sentences
TRANSLATOR_TEXT = "The ball is blue."


def defaults() -> None:
    st.session_state.setdefault(Keys.LESSON_TEXT, MODEL_TEXT)
    st.session_state.setdefault(Keys.LESSON_TR_TEXT, TRANSLATOR_TEXT)
    st.session_state.setdefault(Keys.LESSON_TEMPERATURE, numbers.TEMPERATURE)
    st.session_state.setdefault(Keys.LESSON_ANSWERS, {})
    state.int_choice(Keys.LESSON_STEP, list(range(N_STEPS)))


def _move(by: int) -> None:
    st.session_state[Keys.LESSON_STEP] = min(max(st.session_state[Keys.LESSON_STEP] + by, 0), N_STEPS - 1)


def navigation(where: str) -> None:
    """Back, the progress bar with the score, next (drawn above and below the step)."""
    step = st.session_state[Keys.LESSON_STEP]
    c_back, c_progress, c_next = st.columns([1, 4, 1])
    c_back.button(t("lesson.back"), key=f"lesson_back_{where}", on_click=_move, args=(-1,), disabled=step == 0,
                  icon=":material/arrow_back:")
    right, answered = numbers.score(st.session_state[Keys.LESSON_ANSWERS])
    at = t("lesson.progress", i=step + 1, n=N_STEPS - 1) if step < N_STEPS - 1 else t("lesson.progress_end")
    c_progress.progress((step + 1) / N_STEPS, text=at + " · "
                        + t("lesson.score", right=right, answered=answered))
    c_next.button(t("lesson.next"), key=f"lesson_next_{where}", on_click=_move, args=(1,),
                  disabled=step == N_STEPS - 1, icon=":material/arrow_forward:")


def _choose_head(tr, kind: Kind, query: int, key: int) -> None:
    """On the first visit, the head the relevance finder picks for the article's pair."""
    if Keys.LESSON_LAYER not in st.session_state or Keys.LESSON_HEAD not in st.session_state:
        best = numbers.best_head(tr, kind, query, key)
        st.session_state[Keys.LESSON_LAYER], st.session_state[Keys.LESSON_HEAD] = best.layer, best.head
    state.int_choice(Keys.LESSON_LAYER, list(tr.layers(kind)))
    state.int_choice(Keys.LESSON_HEAD, list(range(tr.site(st.session_state[Keys.LESSON_LAYER], kind).n_heads)))


def context(tr, kind: Kind) -> Context:
    """Everything the steps read, for the sentences and head in session state, on the model's `kind`
    of self-attention (numbers.lesson_kind)."""
    from attention.translator.grammar import verb_forms

    site = tr.site(tr.layers(kind)[0], kind)
    f = numbers.focus(site.key_tokens, verb_forms())
    _choose_head(tr, kind, f.query, f.key)
    sel = state.get_selection(LESSON_SCOPE, (tr.text, sentence.model_path())).clamp(
        len(site.query_tokens), len(site.key_tokens))
    sel = Selection(f.query if sel.query is None else sel.query, f.key if sel.key is None else sel.key)
    state.set_selection(sel, LESSON_SCOPE)
    other = f.other if f.other not in (sel.query, sel.key) else next(
        (j for j in numbers.content_positions(site.key_tokens) if j not in (sel.query, sel.key)), f.other)
    lm = cache.model(sentence.model_path())
    tr_text = check_text(st.session_state[Keys.LESSON_TR_TEXT], sentence.TRANSLATOR_MAX_CHARS).text
    return Context(lang(), tr.text, tr, st.session_state[Keys.LESSON_LAYER], st.session_state[Keys.LESSON_HEAD],
                   sel, other, lambda s, h, pos: projections.origin(lm, tr, s, h, pos), tr_text,
                   translation=lambda: _translation(tr_text), snapshots=lambda: _snapshots(tr.text),
                   temperature=float(st.session_state[Keys.LESSON_TEMPERATURE]), model_path=sentence.model_path(),
                   kind=kind, deciding=lesson_lm.deciding, writer=lesson_lm.WRITER)


def _translation(text: str):
    if not text:
        raise Unavailable(t("translate.nothing"))
    try:
        return cache.translation(text)
    except ValueError as exc:
        raise Unavailable(t("translate.nothing")) from exc
    except (OSError, RuntimeError) as exc:
        raise Unavailable(t("translate.unavailable", error=str(exc))) from exc


def _snapshots(text: str):
    try:
        return cache.snapshot_traces(text)
    except ValueError as exc:  # nothing the translator can read (only marks it drops)
        raise Unavailable(t("translate.nothing")) from exc
    except (OSError, RuntimeError) as exc:
        raise Unavailable(t("translate.unavailable", error=str(exc))) from exc


def _reveal(pred: Prediction, pick_key: str) -> None:
    chosen = st.session_state.get(pick_key)
    if chosen is not None:
        st.session_state[Keys.LESSON_ANSWERS][pred.record_key] = (chosen, chosen == pred.answer)


def prediction(pred: Prediction) -> bool:
    """Ask, then (once answered) say whether the model agrees and why. True once revealed."""
    st.markdown(f"**{t('lesson.predict')}{t('lesson.colon')}** {pred.question}")
    given = st.session_state[Keys.LESSON_ANSWERS].get(pred.record_key)
    if given is None:
        pick_key = f"lesson_pick_{pred.id}_{zlib.crc32(pred.record_key.encode())}"  # a new question, a new widget
        labels = dict(pred.labels)
        st.radio(pred.question, pred.options, index=None, key=pick_key, format_func=labels.get, horizontal=True,
                 label_visibility="collapsed")
        if st.button(t("lesson.check"), key=f"lesson_check_{pred.id}", on_click=_reveal, args=(pred, pick_key),
                     type="primary") and st.session_state.get(pick_key) is None:
            st.info(t("lesson.pick_first"))
        return False
    chosen, right = given
    if right:
        st.success(t("lesson.right"))
    else:
        st.error(t("lesson.wrong", answer=pred.labels[pred.answer]))
    st.caption(t("lesson.answer_was", chosen=pred.labels.get(chosen, chosen), answer=pred.labels[pred.answer]))
    st.markdown(pred.explain)
    return True


def _switch_head(layer: int, head: int) -> None:
    st.session_state[Keys.LESSON_LAYER], st.session_state[Keys.LESSON_HEAD] = layer, head


def _open(step: Step, c: Context) -> None:
    """The full page on the step's view; its selection is declared made there, so the page keeps it."""
    page, values = step.link
    st.session_state[Keys.LESSON_RETURN] = st.session_state[Keys.LESSON_STEP]  # the full page offers a way back
    if page == "explore":
        state.adopt_selection(EXPLORE_SCOPE, (c.tr.text, c.model_path, c.kind))
    elif page == "translate":
        state.adopt_selection(TRANSLATE_SCOPE, (c.translation().trace.text, values[Keys.TR_KIND]))
    state.go(page, **values)


def draw(step: Step, c: Context) -> None:
    st.subheader(step.title)
    for paragraph in step.text:
        st.markdown(paragraph)
    shown = prediction(step.prediction) if step.prediction is not None else True
    for more in step.more:  # each further question once the one before it is revealed
        shown = shown and prediction(more)
    for note in step.notes:
        st.warning(note)
    if shown and step.offer is not None:
        st.button(t("lesson.switch_head", layer=step.offer[0], head=step.offer[1]), key="lesson_switch",
                  on_click=_switch_head, args=step.offer, icon=":material/swap_horiz:")
    if shown and step.id == "temperature":
        st.slider(t("lesson.temperature_slider"), 0.1, 5.0, step=0.1, key=Keys.LESSON_TEMPERATURE)
    if shown and step.figure is not None:
        chart_key = f"lesson_{step.id}_chart"
        if step.clickable:  # the same click behaviour as the full pages: the lesson follows the pair
            charts.show(step.figure, key=chart_key, on_select=lambda: select_from_chart(chart_key, LESSON_SCOPE),
                        selection_mode="points", width="stretch",
                        config=charts.config(modeBarButtonsToRemove=["select2d", "lasso2d"]))
        else:
            charts.show(step.figure, key=chart_key, width="stretch")
    if shown and step.id == "predict_word":  # the model that writes, and the ways on from its answer
        lesson_lm.extras(step)
    elif step.source == READS_SENTENCE and step.id not in ("vectors", "training", "predict_word"):
        st.caption(t("lesson.head_caption", model=c.tr.model_name, kind=kind_title(c.kind), layer=c.layer, head=c.head,
                     heads=c.site.n_heads))
    st.info(f"**{t('lesson.try_label')}{t('lesson.colon')}** {step.hint}", icon=":material/lightbulb:")
    if st.button(t("lesson.open_full"), key=f"lesson_link_{step.id}", icon=":material/open_in_new:"):
        _open(step, c)


def _use_default() -> None:
    st.session_state[Keys.MODEL_PATH] = ""
    for key in (Keys.LESSON_LAYER, Keys.LESSON_HEAD):  # the default model's own best head is chosen again
        st.session_state.pop(key, None)


def offer_default(said: str) -> None:
    """Why the chosen model cannot show this, in words, and a button to show it on the default model."""
    st.info(said, icon=":material/info:")
    st.button(t("lesson.kind.use_default", model=hf_model.DEFAULT_MODEL_NAME), key="lesson_default_model",
              on_click=_use_default, icon=":material/restart_alt:")


def blocked(index: int, c: Context) -> str:
    """Why step `index` cannot be shown on the chosen model ("" when it can): a weights-only family hands
    over no q, k, v, which most model steps read."""
    return numbers.missing_qkv(c.tr, c.kind) if STEPS[index] in NEEDS_QKV else ""


def build(index: int, c: Context) -> Step | None:
    """Step `index` on the context, or None after saying why it cannot be shown (the chosen model does
    not hand over what the step reads; the translator cannot read the sentence)."""
    reason = blocked(index, c)
    if reason:
        st.subheader(t("lesson.kind.blocked_title", i=index + 1, model=c.tr.model_name))
        offer_default(t("lesson.kind.no_qkv", model=c.tr.model_name) + "\n\n" + t(f"missing_qkv.{reason}"))
        return None
    try:
        return STEPS[index](c)
    except Unavailable as exc:
        st.info(str(exc))
        return None


def end(c: Context) -> None:
    """The last page: the score, the step titles, and the whole lesson as one page to save or print."""
    st.subheader(t("lesson.end.title"))
    st.markdown(t("lesson.end.body"))
    answers = st.session_state[Keys.LESSON_ANSWERS]
    right, answered = numbers.score(answers)
    st.markdown(t("lesson.end.score", right=right, answered=answered))
    steps = []
    for i in range(len(STEPS)):
        if blocked(i, c):  # said on its own page; the summary holds what the model can show
            continue
        try:
            steps.append(STEPS[i](c))
        except Unavailable:
            continue
    # the titles are numbered ("1. …"): one line each, the number's dot escaped so it is not a list marker
    st.markdown(f"**{t('lesson.end.steps')}**\n\n" + "  \n".join(re.sub(r"^(\d+)\.", r"\1\\.", s.title)
                                                                   for s in steps))
    words = {"predict": t("lesson.predict") + t("lesson.colon"), "answer_was": t("lesson.answer_was"),
             "print": t("lesson.print")}
    lines = [t("lesson.print_sentences", text=f"`{c.text}`", tr_text=f"`{c.tr_text}`"),
             t("lesson.end.score", right=right, answered=answered)]
    page = printout.summary_html(t("lesson.title"), lang(), lines, steps, answers, words)
    st.download_button(t("lesson.end.download"), page.encode("utf-8"), file_name=f"attention-lesson-{lang()}.html",
                       mime="text/html", key="lesson_download", icon=":material/download:")
    st.button(t("lesson.end.restart"), key="lesson_restart", on_click=_move, args=(-N_STEPS,))


def back_button() -> None:
    """On a full page opened from a lesson step: a way back to that step (the browser's Back needs two)."""
    step = st.session_state.get(Keys.LESSON_RETURN)
    if step is not None and st.button(t("lesson.back_to", step=step + 1), key="back_to_lesson",
                                      icon=":material/arrow_back:"):
        state.go("lesson", **{Keys.LESSON_STEP: step})


def page() -> None:
    st.session_state.pop(Keys.LESSON_RETURN, None)  # back in the lesson: no page needs to offer the way back
    defaults()
    st.title(t("lesson.title"))
    st.caption(t("lesson.explain"))
    index = st.session_state[Keys.LESSON_STEP]
    source = SOURCES[index] if index < len(SOURCES) else READS_SENTENCE
    if source == READS_SENTENCE:
        st.text_input(t("lesson.sentence_model", model=hf_model.display_name(sentence.model_path())),
                      key=Keys.LESSON_TEXT)
    else:
        st.text_input(t("lesson.sentence_translator"), key=Keys.LESSON_TR_TEXT)
    navigation("top")
    tr = sentence.traced(key=Keys.LESSON_TEXT)
    if tr is None:
        return
    kind = numbers.lesson_kind(tr)
    if kind is None:  # neither an encoder nor a decoder reads the sentence
        offer_default(t("lesson.kind.none", model=tr.model_name))
        return
    c = context(tr, kind)
    if kind == "decoder" and source == READS_SENTENCE:
        st.caption(t("lesson.kind.decoder", model=tr.model_name))
    if index == N_STEPS - 1:
        end(c)
    else:
        step = build(index, c)
        if step is not None:
            draw(step, c)
    navigation("bottom")
