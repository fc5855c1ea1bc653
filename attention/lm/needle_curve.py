"""The proof as a curve over k: the k best retrieval heads switched off, for k = 1, 2, 4, 8, 16, against k random
heads with the same layers' spread (several draws, attention/lm/needle_proof.same_layer_draw), on the same
prompts: how often the answer stays right. Only prompts answered right with every head on count. The sentence
a page may write from it is decided in attention/analysis/needle_claims.py.

    c = curve(lm, [(prompt, needle)], ranking, ks=(1, 2, 4, 8, 16), draws=3)
    c.top_rate, c.random_rate          # (K,) shares of the right prompts still right
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from attention.analysis import retrieval
from attention.capture.loaded import LoadedModel
from attention.ids import HeadId
from attention.lm.needle import NeedleRun
from attention.lm.needle_prompt import Needle, Prompt, Refused
from attention.lm.needle_proof import counted_runs, same_layer_draw

Progress = Callable[[int, int], None]
KS = (1, 2, 4, 8, 16)


@dataclass(frozen=True)
class ProofCurve:
    """Heads switched off k at a time: the best k against k random ones from the same layers.

    Attributes:
        ks: (K,) how many heads were switched off.
        top: the ranking's first max(ks) heads (top k = top[:k]); random: (K, draws) the heads drawn.
        base_right: (P,) right with every head on.
        top_right: (K, P) right with the top k off; random_right: (K, draws, P) with each draw's k off.
        top_sink: (K,) over the prompts the top k got wrong, the share of (written token, switched-off head)
            pairs whose top key was the first token (NaN where none went wrong).
    """

    ks: tuple[int, ...]
    top: tuple[HeadId, ...]
    random: tuple[tuple[tuple[HeadId, ...], ...], ...]
    base_right: np.ndarray
    top_right: np.ndarray
    random_right: np.ndarray
    top_sink: np.ndarray

    @property
    def counted(self) -> int:
        """Prompts answered right with every head on: the only ones the rates count."""
        return int(self.base_right.sum())

    @property
    def top_rate(self) -> np.ndarray:
        """(K,) share of the counted prompts still right with the top k off (NaN with none counted)."""
        return _rate(self.top_right[:, self.base_right])

    @property
    def random_rates(self) -> np.ndarray:
        """(K, draws) the same with each draw's k random heads off."""
        return _rate(self.random_right[:, :, self.base_right])

    @property
    def random_rate(self) -> np.ndarray:
        """(K,) the random draws' mean."""
        return self.random_rates.mean(axis=-1) if self.random_rates.size else np.full(len(self.ks), np.nan)


def _rate(right: np.ndarray) -> np.ndarray:
    """Share right over the last axis (the prompts); NaN where there are none."""
    if right.shape[-1] == 0:
        return np.full(right.shape[:-1], np.nan)
    return right.mean(axis=-1)


def ranking(r: NeedleRun) -> list[HeadId]:
    """Every head of a run, best first: by retrieval score, ties (often 0) by the mean weight on the needle."""
    scores = r.retrieval_scores
    weight = np.mean([s.needle_weight for s in r.steps], axis=0) if r.steps else np.zeros_like(scores)
    order = np.lexsort((-weight.reshape(-1), -scores.reshape(-1)))  # the last key sorts first
    heads = scores.shape[1]
    return [HeadId("decoder", int(i // heads), int(i % heads)) for i in order]


def curve(lm: LoadedModel, prompts: Sequence[tuple[Prompt, Needle]], ranked: Sequence[HeadId],
          ks: Sequence[int] = KS, draws: int = 3, steps: int = 24, seed: int = 0,
          progress: Progress | None = None) -> ProofCurve:
    """Each prompt with every head on, with the top k of `ranked` off for each k, and with `draws` random
    same-layer sets of k off for each k (1 + K × (1 + draws) runs a prompt). `ranked`: every head, best first; a k
    past half of them is left out (k random heads outside the top k would not exist)."""
    ks = tuple(sorted({int(k) for k in ks if 0 < 2 * int(k) <= len(ranked)}))
    if not ks or not prompts:
        raise Refused("nd.err.proof", "The proof needs at least one prompt and one head to switch off.")
    top = tuple(ranked[: ks[-1]])
    heads = int(lm.model.config.num_attention_heads)
    rng = np.random.default_rng(seed)
    layers = lm.n_layers
    drawn = tuple(tuple(same_layer_draw(top[:k], heads, {(h.layer, h.head) for h in top[:k]}, rng, layers)
                        for _ in range(draws)) for k in ks)
    one = counted_runs(lm, steps, len(prompts) * (1 + len(ks) * (1 + draws)), progress)

    base = np.array([one(p, nd, ()).found for p, nd in prompts], bool)
    top_right = np.zeros((len(ks), len(prompts)), bool)
    sink = np.full(len(ks), np.nan)
    for a, k in enumerate(ks):
        runs = [one(p, nd, top[:k]) for p, nd in prompts]
        top_right[a] = [r.found for r in runs]
        failed = [r for r, ok in zip(runs, base) if ok and not r.found and r.steps]
        if failed:
            pairs = [(h.layer, h.head) for h in top[:k]]
            sink[a] = float(np.mean([retrieval.sink_share(r.top_keys, pairs) for r in failed]))
    random_right = np.array([[[one(p, nd, d).found for p, nd in prompts] for d in per_k] for per_k in drawn],
                            bool).reshape(len(ks), draws, len(prompts))
    return ProofCurve(ks, top, drawn, base, top_right, random_right, sink)
