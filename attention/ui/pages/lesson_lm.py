"""The Lesson's last step, Streamlit glue: the model that writes asked through the cache (its failures said
in words), the caption naming that model, and the buttons to Write with the prompt or open the leading
head in Explore. What the step says is attention/lesson/predict_word.py's."""

from __future__ import annotations

from typing import Any

import streamlit as st

from attention import sources
from attention.errors import ModelLoadError
from attention.lesson.steps import Step, Unavailable
from attention.lm import smollm2
from attention.ui.hosting import cache, settings
from attention.ui import load_errors, state
from attention.ui.lang import t
from attention.ui.state import EXPLORE_SCOPE, Keys

WRITER = sources.SMOLLM2  # the step runs on the model that writes, whatever model the lesson reads


def deciding(prompt: str) -> Any:
    """The next word after `prompt` and its deciding heads, kept in the cache; Unavailable says why not."""
    if not prompt.strip():
        raise Unavailable(t("lesson.predict_word.empty"))
    if settings.hosted() and not smollm2.is_expanded():  # expanding takes 1.6 GB: never inside a serving replica
        raise Unavailable(t("lesson.predict_word.not_expanded"))
    try:
        return cache.deciding(prompt)
    except ValueError as exc:  # nothing the tokenizer can read
        raise Unavailable(t("lesson.predict_word.empty")) from exc
    except (ModelLoadError, OSError, RuntimeError) as exc:
        said = load_errors.said(str(exc)) if isinstance(exc, ModelLoadError) else str(exc)
        raise Unavailable(t("lesson.predict_word.no_model", error=said)) from exc


def _explore(values: dict[str, Any]) -> None:
    """Explore on the prompt, the model that writes and the leading head; the pair is declared made there.
    A callback (go_later): the model's name is a sidebar widget's key, set only before widgets are drawn."""
    st.session_state[Keys.LESSON_RETURN] = st.session_state[Keys.LESSON_STEP]
    state.adopt_selection(EXPLORE_SCOPE, (values[Keys.TEXT], values[Keys.MODEL_PATH], values[Keys.KIND]))
    state.go_later("explore", **values)


def _write(values: dict[str, Any]) -> None:
    st.session_state[Keys.LESSON_RETURN] = st.session_state[Keys.LESSON_STEP]
    state.go_later("write", **values)


def extras(step: Step) -> None:
    """Under the revealed step: which model it ran on, and the two ways on."""
    st.caption(t("lesson.predict_word.caption"))
    left, right = st.columns(2)
    left.button(t("lesson.predict_word.write"), key="lesson_write_prompt", icon=":material/edit:", on_click=_write,
                args=(step.link[1],))
    link = step.extra.get("head_link")
    if link is not None:
        layer, head = step.extra["head"]
        right.button(t("lesson.predict_word.explore_head", layer=layer, head=head), key="lesson_explore_head",
                     icon=":material/search:", on_click=_explore, args=(link[1],))
