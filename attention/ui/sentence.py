"""The sentence every model page reads: checked, traced, and the notices a person should see."""

from __future__ import annotations

import streamlit as st

from attention import ModelLoadError
from attention.analysis.text_input import check_text
from attention.trace import Trace
from attention.ui import cache, settings, state
from attention.ui.lang import t
from attention.ui.state import Keys

MODEL, TRANSLATOR = "model", "translator"  # whose attention a page shows (the Overview offers both)
TRANSLATOR_TEXT = "The black cat drank the milk."  # the first sentence of the translator's pages
TRANSLATOR_MAX_CHARS = 2_000


def traced() -> Trace | None:
    """The trace of the sentence (Keys.TEXT) with the chosen model, or None after telling the person
    why (blank text, an unreadable model folder). Cut text and dropped tokens are announced."""
    checked = check_text(st.session_state.get(Keys.TEXT), settings.max_chars())
    if not checked.text:
        st.info(t("text.blank"))
        return None
    if checked.cut_chars:
        st.warning(t("text.cut", n=f"{len(checked.text):,}"))
    try:
        tr = cache.trace(model_path(), checked.text)
    except ModelLoadError as exc:
        st.error(t("error.model", message=str(exc)))
        return None
    if tr.dropped_tokens:
        st.warning(t("explore.truncated", max=len(tr.tokens), dropped=tr.dropped_tokens))
    return tr


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
    """The Spanish output, and the English words the translator could not read."""
    st.markdown(f"**{t('translate.output')}:**")
    st.code(out.text or "∅", language=None)
    if out.unknown_words:
        st.warning(t("translate.unknown", words=", ".join(out.unknown_words)))


def overview_button(source: str, kind: str) -> None:  # source: MODEL or TRANSLATOR
    """A button that opens the Overview on the same sentence, model and kind of attention."""
    if st.button(t("overview.open"), key=f"to_overview_{source}", icon=":material/grid_view:"):
        if source == TRANSLATOR and Keys.TR_TEXT not in st.session_state:
            st.session_state[Keys.TR_TEXT] = TRANSLATOR_TEXT
        state.go("overview", **{Keys.OV_SOURCE: source, Keys.OV_KIND: kind})


def matter_button(source: str, kind: str, layer: int, head: int) -> None:  # source: MODEL or TRANSLATOR
    """A button that opens "Does it matter?" with this head switched off, on the same sentence."""
    from attention.analysis.effects import format_heads

    if st.button(t("ablation.open"), key=f"to_ablation_{source}", icon=":material/power_off:"):
        if source == TRANSLATOR and Keys.TR_TEXT not in st.session_state:
            st.session_state[Keys.TR_TEXT] = TRANSLATOR_TEXT
        state.go("does_it_matter", **{Keys.ABL_SOURCE: source, Keys.ABL_HEADS: format_heads({(kind, layer, head)})})
