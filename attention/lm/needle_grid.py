"""Retrieval heads over a grid of lengths × depths × needles: Wu et al.'s score averaged over the runs whose
answer was right, the grid of right and wrong answers (the classic needle-in-a-haystack picture), and the heads
above the threshold. Kept on disk per (model, grid): a grid costs minutes, asking again costs nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from attention.analysis import retrieval
from attention.capture.loaded import LoadedModel
from attention.ids import HeadId, TopHead
from attention.lm import needle as needle_run
from attention.lm import needle_prefill, needle_prompt
from attention.lm.needle_prompt import NEEDLES, Needle

Progress = Callable[[int, int], None]  # (runs done, runs in all)
KIND = "decoder"  # a causal LM's heads are its decoder's
# (lengths, depths) of the grids offered: "full" the 4 × 5 up to 4,096 tokens, "small" the page's
GRIDS: dict[str, tuple[tuple[int, ...], tuple[float, ...]]] = {
    "full": ((512, 1024, 2048, 4096), (0.0, 0.25, 0.5, 0.75, 1.0)),
    "small": ((512, 2048), (0.1, 0.5, 0.9)),
}


@dataclass(frozen=True, eq=False)
class RetrievalGrid:
    """Needles asked back over lengths × depths: what was right, and which heads copied.

    Attributes:
        model: the model's name; lengths (L,), depths (D,), needles (N,): the grid; steps: tokens written.
        found: (L, D, N) bool, the answer was right.
        scores: (L, D, N, layers, heads) each run's retrieval score.
        copyable: (L, D, N) written tokens that occur in the needle (copies possible) per run.
        answers: (L, D, N) the written answers.
        prompt_tokens: (L, D, N) the prompts' lengths as read.
    """

    model: str
    lengths: tuple[int, ...]
    depths: tuple[float, ...]
    needles: tuple[Needle, ...]
    steps: int
    found: np.ndarray
    scores: np.ndarray
    copyable: np.ndarray
    answers: np.ndarray
    prompt_tokens: np.ndarray

    @property
    def right_runs(self) -> int:
        return int(self.found.sum())

    @property
    def copied_tokens(self) -> int:
        """Copyable written tokens over the right runs: the n behind the mean score."""
        return int(self.copyable[self.found].sum())

    @property
    def mean_scores(self) -> np.ndarray:
        """(layers, heads) the score averaged over the right runs only (zeros when none was right)."""
        if not self.found.any():
            return np.zeros(self.scores.shape[-2:])
        return self.scores[self.found].mean(axis=0)

    @property
    def accuracy(self) -> np.ndarray:
        """(L, D) share of the needles answered right at each length and depth."""
        return self.found.mean(axis=2)

    def top(self, k: int = 10) -> list[TopHead]:
        """The k heads with the largest mean score, largest first."""
        s = self.mean_scores
        order = np.argsort(-s, axis=None, kind="stable")[:k]
        return [TopHead(HeadId(KIND, int(i // s.shape[1]), int(i % s.shape[1])), float(s.flat[i])) for i in order]

    def retrieval_heads(self, threshold: float = retrieval.THRESHOLD) -> list[TopHead]:
        """The heads whose mean score is above the threshold (Wu et al.: 0.1), largest first."""
        return [TopHead(HeadId(KIND, L, h), s) for L, h, s in retrieval.above(self.mean_scores, threshold)]


def grid_key(model: str, lengths: Sequence[int], depths: Sequence[float], needles: Sequence[Needle], steps: int,
             haystack: str | None) -> str:
    """A file name for the grid: a hash of everything it depends on."""
    spec = json.dumps([model, list(lengths), [float(d) for d in depths], [[n.needle, n.question, n.answer] for n in needles], steps,
                       haystack or ""])
    return "needle-" + hashlib.sha256(spec.encode()).hexdigest()[:20] + ".npz"


def _load(path: str, model: str, lengths, depths, needles, steps) -> RetrievalGrid | None:
    try:
        with np.load(path, allow_pickle=False) as f:
            return RetrievalGrid(model, tuple(lengths), tuple(depths), tuple(needles), steps, f["found"], f["scores"],
                                 f["copyable"], f["answers"], f["prompt_tokens"])
    except (OSError, KeyError, ValueError):
        return None


def _save(path: str, grid: RetrievalGrid) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + f".{os.getpid()}.tmp.npz"
    np.savez_compressed(tmp, found=grid.found, scores=grid.scores, copyable=grid.copyable,
                        answers=grid.answers.astype(str), prompt_tokens=grid.prompt_tokens)
    os.replace(tmp, path)


def measure(lm: LoadedModel, lengths: Sequence[int] = (512, 1024, 2048, 4096),
            depths: Sequence[float] = (0.0, 0.25, 0.5, 0.75, 1.0), needles: Sequence[Needle] = NEEDLES,
            steps: int = 24, haystack: str | None = None, progress: Progress | None = None,
            cache_dir: str | None = None, shared: bool = True) -> RetrievalGrid:
    """Every (length, depth, needle) run once (see RetrievalGrid); `progress(done, total)` after each run.
    With `cache_dir`, a grid measured before with the same model and settings is read from there.
    `shared`: the runs are ordered by the tokens before their needle and each such start is read once
    (needle_prefill.Shelf): the same numbers as every run read on its own (shared=False), in about half the time."""
    lengths, depths, needles = tuple(int(x) for x in lengths), tuple(float(d) for d in depths), tuple(needles)
    if not lengths or not depths or not needles:
        raise needle_prompt.Refused("nd.err.grid", "The grid needs at least one length, one depth and one needle.")
    path = None if cache_dir is None else os.path.join(cache_dir, grid_key(lm.name, lengths, depths, needles, steps,
                                                                             haystack))
    if path is not None and os.path.isfile(path):
        kept = _load(path, lm.name, lengths, depths, needles, steps)
        if kept is not None:
            if progress:
                progress(kept.found.size, kept.found.size)
            return kept
    shape = (len(lengths), len(depths), len(needles))
    found, copyable, tokens = np.zeros(shape, bool), np.zeros(shape, np.int64), np.zeros(shape, np.int64)
    answers = np.empty(shape, dtype=object)
    scores = None
    prompts = {(a, b, c): needle_prompt.build(lm.tokenizer, nd.needle, nd.question, haystack,
                                              min(length, lm.max_tokens - steps - 1), depth)
               for a, length in enumerate(lengths) for b, depth in enumerate(depths) for c, nd in enumerate(needles)}
    order = sorted(prompts, key=lambda abc: prompts[abc].ids[: prompts[abc].span[0]]) if shared else list(prompts)
    shelf = needle_prefill.Shelf(lm) if shared else None
    for done, (a, b, c) in enumerate(order, start=1):
        prompt, nd = prompts[a, b, c], needles[c]
        start = None if shelf is None else shelf.before_needle(prompt.ids, prompt.span[0],
                                                               needle_run.room(lm, prompt, steps))
        r = needle_run.run(lm, prompt, nd.needle, nd.question, nd.answer, steps, start=start)
        s = r.retrieval_scores
        if scores is None:
            scores = np.zeros(shape + s.shape)
        scores[a, b, c], found[a, b, c], copyable[a, b, c] = s, r.found, r.copyable
        answers[a, b, c], tokens[a, b, c] = r.answer, len(r.ids)
        if progress:
            progress(done, len(order))
    grid = RetrievalGrid(lm.name, lengths, depths, needles, steps, found, scores, copyable, answers.astype(str), tokens)
    if path is not None:
        _save(path, grid)
    return grid
