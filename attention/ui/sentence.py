"""The sentence every model page reads: checked, traced, and the notices a person should see."""

from __future__ import annotations

import streamlit as st

from attention import ModelLoadError, sources
from attention.params.markdown import literal
from attention.params.text_input import check_text
from attention.sources import Output, Source
from attention.trace import Trace
from attention.ui.hosting import cache, settings
from attention.ui import load_errors, state
from attention.ui.lang import t, trace_problems
from attention.ui.state import Keys

# Whose attention a page that offers a choice shows (Overview, Does it matter?): the model named in the
# sidebar (all-MiniLM-L6-v2 by default), or the built-in translator. `chosen()` turns the choice into a
# source; the links keep these two words.
MODEL, TRANSLATOR = "model", "translator"
TRANSLATOR_TEXT = "The black cat drank the milk."  # the first sentence of the translator's pages
TRANSLATOR_MAX_CHARS = 2_000


def chosen(choice: str) -> Source:
    """The source a page's choice (MODEL or TRANSLATOR) stands for."""
    return cache.source({MODEL: model_path(), TRANSLATOR: sources.TRANSLATOR}[choice])


def traced(name: str | None = None, key: str = Keys.TEXT) -> Trace | None:
    """The trace of the sentence (under session key `key`) with the chosen model, or None after telling
    the person why (blank text, an unreadable model folder). Cut text and dropped tokens are announced."""
    checked = check_text(st.session_state.get(key), settings.max_chars())
    if not checked.text:
        st.info(t("text.blank"))
        return None
    if checked.cut_chars:
        st.warning(t("text.cut", n=f"{len(checked.text):,}"))
    try:
        tr = cache.trace(model_path() if name is None else name, checked.text)
    except ModelLoadError as exc:
        st.error(load_errors.said(str(exc)))
        return None
    if tr.dropped_tokens:
        st.warning(t("explore.truncated", max=len(tr.tokens), dropped=tr.dropped_tokens))
    for problem in trace_problems(tr):  # sites missing, extra, mislabelled or refused: not the whole model
        st.error(problem)
    return tr if tr.sites else None  # nothing to draw (no attention layers, every site refused): said above


def source_output(src: Source, height: int = 80, show: bool = True) -> Output | None:
    """The sentence box of the source's home page (the same sentence as there) and the source's
    output, with its trace (None: the person has been told why). `show`: a translation above it."""
    if src.home in _HOME_BOX:
        out = translated(english_box(_HOME_BOX[src.home][0]))
        if out is not None and show:
            show_translation(out)
        return out
    st.text_area(t("explore.sentence"), key=Keys.TEXT, height=height)
    state_cap()
    tr = traced(src.name)
    return None if tr is None else cache.output(src.name, tr.text)


def state_cap() -> None:
    """Under the sentence box of a hosted demo, the input cap (a caption, not a help button: the box
    keeps its one accessible label)."""
    if settings.hosted():
        st.caption(t("text.cap", n=f"{settings.max_chars():,}"))


def name_model(name: str | None = None) -> None:
    """A caption naming the model the page shows: a folder's model by its name, else (None) the built-in
    translator."""
    st.caption(t("shown.model", model=name or t("shown.translator")))


def model_path() -> str | None:
    return st.session_state.get(Keys.MODEL_PATH) or None


def english_box(key: str) -> str | None:
    """The English sentence box of a translator page (its own key, kept across pages); its text."""
    if key not in st.session_state:
        st.session_state[key] = TRANSLATOR_TEXT
    st.text_input(t("translate.input"), key=key)
    return st.session_state.get(key)


def translated(text: str | None):
    """The built-in translator's Translation of the text (output and trace), or None after telling
    the person why (nothing to translate, weights missing)."""
    checked = check_text(text, max_chars=TRANSLATOR_MAX_CHARS)
    if not checked.text:
        st.info(t("translate.nothing"))
        return None
    try:
        return cache.translation(checked.text)
    except ValueError:  # no words at all (only spaces or symbols the tokenizer drops)
        st.info(t("translate.nothing"))
        return None
    except (OSError, RuntimeError) as exc:
        st.error(t("translate.unavailable", error=str(exc)))
        return None


def show_translation(out) -> None:
    """The Spanish output with how sure the model was of each word, and when not to trust it: words
    it could not read, a sentence shaped unlike anything it was trained on, punctuation left out."""
    from attention.translator.api import LOW_CONFIDENCE
    st.markdown(f"**{t('translate.output')}**")
    st.code(out.text or "∅", language=None, wrap_lines=True)
    low = set(out.low_confidence)
    words = [f":orange-background[**{literal(w)}** {p:.2f} ⚠]" if i in low else f"**{literal(w)}** {p:.2f}"
             for i, (w, p) in enumerate(zip(out.target_tokens, out.word_probs, strict=True))]
    if words:
        st.markdown(t("translate.probs") + " " + " · ".join(words))
        st.caption(t("translate.probs_note", low=f"{LOW_CONFIDENCE:.1f}"))
    reasons = []
    if out.unknown_words:
        reasons.append(t("translate.unknown", words=", ".join(out.unknown_words)))
    if not out.follows_grammar:
        reasons.append(t("translate.off_pattern"))
    if reasons:
        st.warning(t("translate.outside") + "\n\n" + "\n\n".join(f"- {r}" for r in reasons))
    if out.skipped_marks:
        st.caption(t("translate.skipped", marks=" ".join(out.skipped_marks)))


# The sentence box a source's home page reads, where the box has a first sentence of its own.
_HOME_BOX = {"translate": (Keys.TR_TEXT, TRANSLATOR_TEXT)}


def _first_sentence(src: Source) -> None:
    """Before another page opens on the source: its box holds its first sentence if still unset."""
    if src.home in _HOME_BOX:
        key, text = _HOME_BOX[src.home]
        st.session_state.setdefault(key, text)


def overview_button(choice: str, kind: str) -> None:  # choice: MODEL or TRANSLATOR
    """A button that opens the Overview on the same sentence, model and kind of attention."""
    if st.button(t("overview.open"), key=f"to_overview_{choice}", icon=":material/grid_view:"):
        _first_sentence(chosen(choice))
        state.go("overview", **{Keys.OV_SOURCE: choice, Keys.OV_KIND: kind})


def matter_button(choice: str, kind: str, layer: int, head: int) -> None:  # choice: MODEL or TRANSLATOR
    """A button that opens "Does it matter?" with this head switched off, on the same sentence."""
    from attention.analysis.effects import format_heads

    if st.button(t("ablation.open"), key=f"to_ablation_{choice}", icon=":material/power_off:"):
        _first_sentence(chosen(choice))
        state.go("does_it_matter", **{Keys.ABL_SOURCE: choice, Keys.ABL_HEADS: format_heads({(kind, layer, head)})})
