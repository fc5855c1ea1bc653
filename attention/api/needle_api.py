"""Find the needle in a notebook: needle (one fact hidden in a long prompt, asked back, every head's top-1 key per
written token) and retrieval_heads (Wu et al. 2024's score over a grid of lengths and depths)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from attention.api.model_names import SMOLLM2, named

if TYPE_CHECKING:
    from attention.lm.needle import NeedleRun
    from attention.lm.needle_grid import RetrievalGrid


def needle(needle: str, question: str, haystack: str | None = None, length: int = 2_048, depth: float = 0.5,
           model: str = SMOLLM2, steps: int = 24, answer: str | None = None) -> NeedleRun:
    """Find the needle: a fact hidden in a long prompt, asked back at the end, answered greedily; every head's
    top-1 key for each written token (Wu et al. 2024's retrieval heads). See attention/lm/needle.py.

    Args:
        needle: the fact, one sentence.
        question: the question asking for it.
        haystack: the filler text (None: the built-in one, text SmolLM2 wrote itself, repeated as needed).
        length: the prompt's tokens (chat template and question included; capped so `steps` still fit).
        depth: where the needle goes in the filler, 0 (start) … 1 (end), at a sentence boundary.
        model: "smollm2" or the folder of a causal LM.
        steps: tokens written at most.
        answer: the words a right answer holds, alternatives separated by "|" (None: more than half of the
            needle's words, Wu et al.'s rule).

    Returns:
        NeedleRun: `.answer`, `.found`, `.ids`, `.needle_span` (start, end); `.steps`, each with `.token_id`,
        `.top_key` (layers, heads) ints (every head's top-1 key for the query predicting the token) and
        `.needle_weight` (layers, heads); `.retrieval_scores` (layers, heads): per head, the written tokens whose
        top-1 key was that very token inside the needle, divided by the needle's length.
    """
    from attention import sources
    from attention.lm import needle as needle_lm
    from attention.lm import needle_prompt

    lm = sources.get(named(model, SMOLLM2, "needle")).kept("writer")
    steps = max(1, int(steps))
    prompt = needle_prompt.build(lm.tokenizer, needle, question, haystack, min(int(length), lm.max_tokens - steps - 1),
                                 depth)
    return needle_lm.run(lm, prompt, needle, question, answer, steps)


def retrieval_heads(lengths=(512, 1_024, 2_048, 4_096), depths=(0.0, 0.25, 0.5, 0.75, 1.0), needles=None,
                    model: str = SMOLLM2, steps: int = 24, haystack: str | None = None,
                    progress: Callable[[int, int], None] | None = None, cache: bool = True) -> RetrievalGrid:
    """Retrieval heads over a grid: every (length, depth, needle) asked back once; Wu et al.'s score averaged
    over the runs answered right. See attention/lm/needle_grid.py.

    Args:
        lengths: the grid's prompt lengths in tokens.
        depths: the grid's depths, 0 … 1.
        needles: attention.lm.needle_prompt.Needle(needle, question, answer) items (None: the three built-in ones).
        model: as for needle().
        steps: as for needle().
        haystack: as for needle().
        progress: called as progress(runs done, runs in all) after each run.
        cache: keep the grid on disk per (model, grid) in the model cache folder, and read it back.

    Returns:
        RetrievalGrid: `.found` (lengths, depths, needles) bool; `.accuracy` (lengths, depths); `.mean_scores`
        (layers, heads); `.retrieval_heads()` [TopHead] above 0.1; `.top(k)`; `.copied_tokens` the n behind it.
    """
    import os

    from attention import sources
    from attention.lm import needle_grid, needle_prompt, smollm2

    lm = sources.get(named(model, SMOLLM2, "retrieval_heads")).kept("writer")
    folder = os.path.join(smollm2.cache_dir(), "needle") if cache else None
    return needle_grid.measure(lm, lengths, depths, tuple(needles or needle_prompt.NEEDLES), steps, haystack,
                               progress, folder)
