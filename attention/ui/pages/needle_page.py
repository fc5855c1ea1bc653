"""The Find-the-needle page's state: its settings held to range, the run it shows (kept while the settings
stay), and the grid, the proof and the forgetting comparison, each made when its button asks and kept for
the run it was made for. Greedy only, so a link gives the same answer."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import streamlit as st

from attention.blas import one_torch_thread
from attention.ids import HeadId
from attention.lm.needle_prompt import NEEDLES, Refused  # pure: the built-in needles without loading torch
from attention.ui.hosting import admission
from attention.ui.lang import t
from attention.ui.state import Keys

if TYPE_CHECKING:
    from attention.capture.hf_model import LoadedModel
    from attention.lm.needle import NeedleRun

LENGTH, DEPTH, BUDGET = (64, 8_160), (0.0, 1.0), (8, 4_096)  # the ranges the widgets and a link are held to
STEPS = 24
PROMPT = "nd_prompt"  # session key: (settings, the Prompt read) for the haystack's cut
PROOF_KS, PROOF_DRAWS = (1, 2, 4, 8, 16), 3  # the top k heads off, against 3 random draws of k (needle_claims)
DEFAULTS: dict[str, object] = {Keys.ND_NEEDLE: NEEDLES[0].needle, Keys.ND_QUESTION: NEEDLES[0].question,
                               Keys.ND_ANSWER: NEEDLES[0].answer, Keys.ND_HAYSTACK: "", Keys.ND_LENGTH: 512,
                               Keys.ND_DEPTH: 0.5, Keys.ND_HEAD: "", Keys.ND_BUDGET: 128, Keys.ND_GO: False}


def defaults() -> None:
    """Every setting present and valid (a link may name anything)."""
    s = st.session_state
    for key, value in DEFAULTS.items():
        s.setdefault(key, value)
    for key in (Keys.ND_NEEDLE, Keys.ND_QUESTION, Keys.ND_ANSWER, Keys.ND_HAYSTACK, Keys.ND_HEAD):
        if not isinstance(s[key], str):
            s[key] = DEFAULTS[key]
    for key, (lo, hi) in ((Keys.ND_LENGTH, LENGTH), (Keys.ND_BUDGET, BUDGET)):
        s[key] = max(lo, min(hi, s[key])) if isinstance(s[key], int) and not isinstance(s[key], bool) else DEFAULTS[key]
    if not isinstance(s[Keys.ND_GO], bool):
        s[Keys.ND_GO] = False
    depth = s[Keys.ND_DEPTH]
    s[Keys.ND_DEPTH] = float(max(0.0, min(1.0, depth))) if isinstance(depth, (int, float)) and depth == depth else 0.5


def not_english() -> bool:
    """The needle, question or haystack holds CJK, kana or Hangul text (SmolLM2 reads English only)."""
    s = st.session_state
    text = s[Keys.ND_NEEDLE] + s[Keys.ND_QUESTION] + s[Keys.ND_HAYSTACK]
    return any("\u3040" <= c <= "\u9fff" or "\uac00" <= c <= "\ud7af" or "\uff00" <= c <= "\uffef" for c in text)


def go() -> None:
    """The button's callback: run the needle (and again whenever the settings change)."""
    st.session_state[Keys.ND_GO] = True


def _made_from() -> tuple:
    s = st.session_state
    return (s[Keys.ND_NEEDLE], s[Keys.ND_QUESTION], s[Keys.ND_ANSWER], s[Keys.ND_HAYSTACK], s[Keys.ND_LENGTH],
            s[Keys.ND_DEPTH])


def _guarded(make: Callable[[], Any]) -> Any:
    """make() in the model's queue; a bad input said with st.info, any other failure with st.error; None then."""
    try:
        with admission.gate.turn(), one_torch_thread():
            return make()
    except Refused as exc:  # an empty needle, a length too short: said in words, in the page's language
        st.info(t(exc.key, **exc.fields))
    except Exception as exc:  # noqa: BLE001 - any failure is said on the page, never as a traceback
        st.error(t("nd.failed", error=f"{type(exc).__name__}: {exc}"))
    return None


def run(lm: LoadedModel) -> NeedleRun | None:
    """The needle asked back with the page's settings (kept in the session while they stay)."""
    from attention.lm import needle, needle_prompt

    made_from = _made_from()
    kept = st.session_state.get(Keys.ND_RUN)
    if kept is not None and kept[0] == made_from:
        return kept[1]
    nd, question, answer, haystack, length, depth = made_from

    def make():
        prompt = needle_prompt.build(lm.tokenizer, nd, question, haystack or None,
                                     min(length, lm.max_tokens - STEPS - 1), depth)
        st.session_state[PROMPT] = (made_from, prompt)  # what was read: a person's haystack cut or not
        return needle.run(lm, prompt, nd, question, answer.strip() or None, STEPS, keep=True)

    result = _guarded(make)
    if result is not None:
        st.session_state[Keys.ND_RUN] = (made_from, result)
    return result


def kept_prompt() -> Any:
    """The needle_prompt.Prompt the shown run read (its haystack's cut), None when there is none."""
    kept = st.session_state.get(PROMPT)
    return kept[1] if kept is not None and kept[0] == _made_from() else None


def top_heads(r: NeedleRun, k: int) -> list[HeadId]:
    """This run's best heads by score, those that copied at least once, at most k."""
    from attention.analysis import retrieval

    rows = retrieval.above(r.retrieval_scores, 0.0)[:k]
    return [HeadId("decoder", layer, head) for layer, head, _ in rows]


def grid(lm: LoadedModel, progress: Callable[[int, int], None]) -> Any:
    """The small grid (lm/needle_grid.GRIDS["small"], the three built-in needles), kept on disk per model."""
    from attention.lm import needle_grid, smollm2

    lengths, depths = needle_grid.GRIDS["small"]
    folder = os.path.join(smollm2.cache_dir(), "needle")
    result = _guarded(lambda: needle_grid.measure(lm, lengths, depths, steps=STEPS, progress=progress,
                                                  cache_dir=folder))
    if result is not None:
        st.session_state[Keys.ND_GRID] = result
    return result


def kept_grid() -> Any:
    return st.session_state.get(Keys.ND_GRID)


def _prompt_of(r: NeedleRun):
    from attention.lm.needle_prompt import Needle, Prompt

    return Prompt("", r.ids, r.needle_span, r.depth, True), Needle(r.needle, r.question, r.expected or "")


def _run_key(lm: LoadedModel, r: NeedleRun) -> tuple:
    """What a run is a pure function of (greedy): the same link in any session gives the same key."""
    return lm.name, r.ids, r.needle_span, r.needle, r.question, r.expected


def proof(lm: LoadedModel, r: NeedleRun, progress: Callable[[int, int], None]) -> Any:
    """The proof curve (lm/needle_curve.py) on this run's prompt: its best k heads off against random ones. Kept on
    the shelf every session shares: a class pressing it on one link computes it once (21 runs of the model)."""
    from attention.lm import needle_curve
    from attention.ui.hosting import cache

    prompt, nd = _prompt_of(r)
    key = ("needle_proof", *_run_key(lm, r), PROOF_KS, PROOF_DRAWS, STEPS)
    result = _guarded(lambda: cache.shelf.get(key, lambda: needle_curve.curve(
        lm, [(prompt, nd)], needle_curve.ranking(r), PROOF_KS, PROOF_DRAWS, STEPS, progress=progress), None, queued=True))
    if result is not None:
        st.session_state[Keys.ND_PROOF] = (id(r), result)
    return result


def kept_proof(r: NeedleRun) -> Any:
    kept = st.session_state.get(Keys.ND_PROOF)
    return kept[1] if kept is not None and kept[0] == id(r) else None


def forgetting(lm: LoadedModel, r: NeedleRun, progress: Callable[[int, int], None]) -> Any:
    """The full cache, each eviction policy and the DuoAttention-style split at the page's budget, on this run's
    prompt; kept on the shared shelf like the proof."""
    from attention.analysis import retrieval
    from attention.lm import needle_proof
    from attention.ui.hosting import cache

    prompt, nd = _prompt_of(r)
    heads = [HeadId("decoder", layer, head) for layer, head, _ in retrieval.above(r.retrieval_scores)]
    budget = st.session_state[Keys.ND_BUDGET]
    key = ("needle_forgetting", *_run_key(lm, r), budget, STEPS)
    result = _guarded(lambda: cache.shelf.get(key, lambda: needle_proof.forgetting(
        lm, prompt, nd, heads, budget, steps=STEPS, progress=progress), None, queued=True))
    if result is not None:
        st.session_state[Keys.ND_FORGET] = ((id(r), budget), result)
    return result


def kept_forgetting(r: NeedleRun) -> Any:
    kept = st.session_state.get(Keys.ND_FORGET)
    return kept[1] if kept is not None and kept[0] == (id(r), st.session_state[Keys.ND_BUDGET]) else None


def head_rows(lm: LoadedModel, r: NeedleRun, layer: int) -> Any:
    """The long Site of one layer over the written tokens' queries (needle_rows.site), or None when the run kept
    no rows."""
    from attention.lm import needle_rows

    if r.rows is None:
        return None
    tokens = lm.tokenizer.convert_ids_to_tokens(list(r.ids)) + [s.token for s in r.steps[:-1]]
    return needle_rows.site(r.rows, layer, tokens)
