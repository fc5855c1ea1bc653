"""The Forget page's state: its settings clamped, the Evictions it shows (the chosen policy's, the one beside
it at the same budget, and the full cache writing its own text), grown to the number of words the link names.
Greedy only, so a link rewrites the same words."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

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
AUTO_LAYER = -1  # the newest row opens at the layer of the head that lost most
LESSON_PROMPT = (
    "Mara kept a notebook of the birds she saw from her kitchen window. On Monday she saw a robin on the fence, "
    "two sparrows in the hedge and a heron flying over the river. On Tuesday it rained all day and she saw only a "
    "blackbird under the apple tree. On Wednesday her brother Tom came to visit and they walked to the lake, "
    "where they counted eleven ducks, three swans and a kingfisher that dived twice. Tom said the kingfisher was "
    "the best bird of the week. On Thursday Mara was tired and stayed inside. On Friday she looked back through "
    "her notebook and wrote a short summary of the week. The best bird of the week, according to Tom, was the")
# A name said once, in the middle, and asked for at the end. Measured (tests/pages/test_forget_page.py): the
# full cache writes "Eleanor Walsh"; streaming 64/4 writes "Eleanor." (Walsh 0.71 → 0.000, KL 6.6 at word 2).
FACT_PROMPT = (
    "Mara kept a notebook of the birds she saw from her kitchen window. On Wednesday a visitor came: the new "
    "teacher at the village school, whose name was Eleanor Walsh. She stayed for tea and they talked about owls. "
    "On Monday she saw a robin on the fence, two sparrows in the hedge and a heron flying over the river. "
    "On Tuesday it rained all day and she saw only a blackbird under the apple tree. On Thursday she was tired "
    "and stayed inside, reading by the fire while the wind blew leaves across the garden. On Friday she "
    "looked back through her notebook and wrote a short summary of the week for her club. "
    "At the end she added a line about her visitor. The visitor on Wednesday was the new teacher,")
DEFAULTS: dict[str, object] = {Keys.FG_PROMPT: LESSON_PROMPT, Keys.FG_POLICY: "streaming", Keys.FG_BUDGET: 64,
                               Keys.FG_SINKS: 4, Keys.FG_WORDS: 0, Keys.FG_LAYER: AUTO_LAYER}
REWRITTEN = "fg_rewritten"  # a settings change rewrote the words written before (said once on the page)


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
                          (Keys.FG_LAYER, (AUTO_LAYER, 1_000))):
        _clamp(key, lo, hi)


def write(n: int) -> None:
    """A button's callback: n more words (the page's run writes them)."""
    st.session_state[Keys.FG_WORDS] = min(WORDS[1], int(st.session_state.get(Keys.FG_WORDS, 0)) + n)


def restart() -> None:
    """Back to the prompt alone: the runs are dropped (a run cannot unwrite its words)."""
    st.session_state[Keys.FG_WORDS] = 0
    st.session_state.pop(Keys.FG_RUNS, None)


def settings_changed() -> None:
    """A new prompt, policy, budget or sinks: the same number of words is written again with the new cache
    (the page says so once)."""
    if st.session_state.get(Keys.FG_WORDS, 0):
        st.session_state[REWRITTEN] = True


def lesson() -> None:
    """"Drop the first tokens": a long prompt, budget 64, window (no sinks) as the headline, streaming's 4
    sinks beside it, 6 words."""
    st.session_state.update({Keys.FG_PROMPT: LESSON_PROMPT, Keys.FG_POLICY: "window", Keys.FG_BUDGET: 64,
                             Keys.FG_SINKS: 4, Keys.FG_WORDS: 6, Keys.FG_LAYER: AUTO_LAYER})


def fact_lesson() -> None:
    """"A name from the middle": streaming keeps its 4 sinks and the text fluent, not the name said once."""
    st.session_state.update({Keys.FG_PROMPT: FACT_PROMPT, Keys.FG_POLICY: "streaming", Keys.FG_BUDGET: 64,
                             Keys.FG_SINKS: 4, Keys.FG_WORDS: 6, Keys.FG_LAYER: AUTO_LAYER})


def other_policy(policy: str, sinks: int) -> tuple[str, int]:
    """The run drawn beside the chosen one: window (no sinks) against any other policy; against window itself,
    streaming with the sinks setting (4 when it is 0)."""
    return ("streaming", sinks or evict_policies.SINKS) if policy == "window" else ("window", 0)


class Runs(NamedTuple):
    main: Eviction  # the chosen policy's
    other: Eviction  # other_policy's, the same budget
    own: Eviction  # the full cache writing its own text (nothing evicted)


def runs(lm: LoadedModel, progress: Callable[[float, str], None] | None = None) -> Runs | None:
    """The three runs, each grown to FG_WORDS words; kept in the session while prompt and settings stay (and
    made again when the link asks for fewer words than they hold). progress(share, text) after each word.
    None (said on the page) when writing fails."""
    from attention.lm import evict

    s = st.session_state
    made_from = (s[Keys.FG_PROMPT], s[Keys.FG_POLICY], s[Keys.FG_BUDGET], s[Keys.FG_SINKS])
    kept = s.get(Keys.FG_RUNS)
    words = s[Keys.FG_WORDS]
    try:
        with admission.gate.turn(), one_torch_thread():
            if kept is None or kept[0] != made_from or len(kept[1].steps) > words:
                prompt, policy, budget, sinks = made_from
                limits = writing.limits()
                other, other_sinks = other_policy(policy, sinks)
                kept = (made_from, evict.start(lm, prompt, policy, budget, sinks, limits=limits),
                        evict.start(lm, prompt, other, budget, other_sinks, limits=limits),
                        evict.start(lm, prompt, "window", limits.total, 0, limits=limits))
                s[Keys.FG_RUNS] = kept
            todo = sum(max(0, words - len(r.steps)) for r in kept[1:] if not r.ended)
            done = 0
            for run in kept[1:]:
                while len(run.steps) < words and run.step() is not None:
                    done += 1
                    if progress is not None:
                        progress(done / max(todo, 1), t("fg.progress", done=done, total=todo))
                if run is not kept[3]:  # the full cache's own text needs no second reading
                    run.read_full()  # the full cache's words in one pass, here in the model's queue
    except ValueError as exc:  # an empty prompt, said in words
        st.info(str(exc))
        return None
    except Exception as exc:  # noqa: BLE001 - any failure is said on the page, never as a traceback
        st.error(t("fg.failed", error=f"{type(exc).__name__}: {exc}"))
        return None
    return Runs(*kept[1:])
