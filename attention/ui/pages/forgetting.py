"""The Forget page's state: its settings clamped, the two Evictions it shows (the chosen policy's and
window's, the same budget), grown to the number of words the link names. Greedy only, so a link rewrites
the same words."""

from __future__ import annotations

from typing import TYPE_CHECKING

import streamlit as st

from attention.blas import one_torch_thread
from attention.lm import evict_policies  # numpy only: the page's choices without loading torch
from attention.ui.hosting import admission
from attention.ui.pages import writing
from attention.ui.lang import t
from attention.ui.state import Keys

if TYPE_CHECKING:
    from attention.capture.hf_model import LoadedModel
    from attention.lm.evict import Eviction

POLICIES = evict_policies.POLICIES
BUDGET, SINKS, WORDS = (4, 1024), (0, 16), (0, 48)  # the ranges the widgets and a link are held to
LESSON_PROMPT = (
    "Mara kept a notebook of the birds she saw from her kitchen window. On Monday she saw a robin on the fence, "
    "two sparrows in the hedge and a heron flying over the river. On Tuesday it rained all day and she saw only a "
    "blackbird under the apple tree. On Wednesday her brother Tom came to visit and they walked to the lake, "
    "where they counted eleven ducks, three swans and a kingfisher that dived twice. Tom said the kingfisher was "
    "the best bird of the week. On Thursday Mara was tired and stayed inside. On Friday she looked back through "
    "her notebook and wrote a short summary of the week. The best bird of the week, according to Tom, was the")
DEFAULTS: dict[str, object] = {Keys.FG_PROMPT: LESSON_PROMPT, Keys.FG_POLICY: "streaming", Keys.FG_BUDGET: 64,
                               Keys.FG_SINKS: 4, Keys.FG_WORDS: 0, Keys.FG_LAYER: 0}


def _clamp(key: str, lo: int, hi: int) -> None:
    value = st.session_state.get(key)
    st.session_state[key] = max(lo, min(hi, value)) if isinstance(value, int) else DEFAULTS[key]


def defaults() -> None:
    """Every setting present and valid (a link may name anything)."""
    for key, value in DEFAULTS.items():
        st.session_state.setdefault(key, value)
    if st.session_state[Keys.FG_POLICY] not in POLICIES:
        st.session_state[Keys.FG_POLICY] = DEFAULTS[Keys.FG_POLICY]
    if not isinstance(st.session_state[Keys.FG_PROMPT], str):
        st.session_state[Keys.FG_PROMPT] = LESSON_PROMPT
    for key, (lo, hi) in ((Keys.FG_BUDGET, BUDGET), (Keys.FG_SINKS, SINKS), (Keys.FG_WORDS, WORDS),
                          (Keys.FG_LAYER, (0, 1_000))):
        _clamp(key, lo, hi)


def write(n: int) -> None:
    """A button's callback: n more words (the page's run writes them)."""
    st.session_state[Keys.FG_WORDS] = min(WORDS[1], int(st.session_state.get(Keys.FG_WORDS, 0)) + n)


def restart() -> None:
    st.session_state[Keys.FG_WORDS] = 0


def settings_changed() -> None:
    """A new prompt, policy, budget or sinks: the words written before belonged to the old cache."""
    st.session_state[Keys.FG_WORDS] = 0


def lesson() -> None:
    """"Drop the first tokens": a long prompt, budget 64, streaming's 4 sinks against window's none, 6 words."""
    st.session_state.update({Keys.FG_PROMPT: LESSON_PROMPT, Keys.FG_POLICY: "streaming", Keys.FG_BUDGET: 64,
                             Keys.FG_SINKS: 4, Keys.FG_WORDS: 6})


def runs(lm: LoadedModel) -> tuple[Eviction, Eviction | None] | None:
    """(the chosen policy's run, window's or None when the policy is window), each grown to FG_WORDS words.
    Kept in the session while prompt and settings stay; None (said on the page) when writing fails."""
    from attention.lm import evict

    s = st.session_state
    made_from = (s[Keys.FG_PROMPT], s[Keys.FG_POLICY], s[Keys.FG_BUDGET], s[Keys.FG_SINKS])
    kept = s.get(Keys.FG_RUNS)
    try:
        with admission.gate.turn(), one_torch_thread():
            if kept is None or kept[0] != made_from:
                prompt, policy, budget, sinks = made_from
                main = evict.start(lm, prompt, policy, budget, sinks, limits=writing.limits())
                window = None if policy == "window" else evict.start(lm, prompt, "window", budget, 0,
                                                                     limits=writing.limits())
                kept = (made_from, main, window)
                s[Keys.FG_RUNS] = kept
            for run in kept[1:]:
                while run is not None and len(run.steps) < s[Keys.FG_WORDS] and run.step() is not None:
                    pass
                if run is not None:
                    run.read_full()  # the full cache's words in one pass, here in the model's queue
    except ValueError as exc:  # an empty prompt, said in words
        st.info(str(exc))
        return None
    except Exception as exc:  # noqa: BLE001 - any failure is said on the page, never as a traceback
        st.error(t("fg.failed", error=f"{type(exc).__name__}: {exc}"))
        return None
    return kept[1], kept[2]
