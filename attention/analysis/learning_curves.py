"""How attention is learned: one pair of words followed through the translator's training snapshots (pure).

Every snapshot is traced on the SAME words (teacher-forced on the final model's translation), so a
cell (query, key) means the same pair of words at every step and its score, weight and the angle
between q and k can be followed over training.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attention import core
from attention.trace import Kind, Trace

NO_EFFECT = 0.5  # a change of the score gap smaller than this (in raw q·k units) is "no clear effect"


@dataclass(frozen=True)
class SnapshotTraces:
    text: str
    target: str  # the final model's translation, fed to every snapshot
    steps: tuple[int, ...]
    traces: tuple[Trace, ...]


@dataclass(frozen=True)
class PairCurve:
    """One (query, key) cell of one head over training."""

    query: int
    key: int
    score: np.ndarray  # (n_steps,) raw q·k
    weight: np.ndarray  # (n_steps,) softmax weight
    cosine: np.ndarray  # (n_steps,) cos of the angle between q and k


def pair_curve(st: SnapshotTraces, kind: Kind, layer: int, head: int, query: int, key: int) -> PairCurve:
    score, weight, cosine = [], [], []
    for tr in st.traces:
        site = tr.site(layer, kind)
        score.append(float(site.scores[head, query, key]))
        weight.append(float(site.weights[head, query, key]))
        cosine.append(core.cosine(site.q[head, query], site.k[head, key]))
    return PairCurve(query, key, np.array(score), np.array(weight), np.array(cosine))


@dataclass(frozen=True)
class Effect:
    """Did training pull the related pair ahead of the unrelated one?"""

    first_gap: float  # score(related) − score(unrelated) at the first snapshot
    last_gap: float  # … at the last
    last_weights: tuple[float, float]  # (related, unrelated) weight at the last snapshot

    @property
    def verdict(self) -> str:
        """"grew": the related pair gained clearly and ends ahead; "narrowed": it gained clearly but
        the unrelated pair still scores higher; "shrank": it lost clearly; "none": no clear change."""
        change = self.last_gap - self.first_gap
        if abs(change) < NO_EFFECT:
            return "none"
        if change < 0:
            return "shrank"
        return "grew" if self.last_gap > 0 else "narrowed"


def effect(related: PairCurve, unrelated: PairCurve) -> Effect:
    return Effect(
        first_gap=float(related.score[0] - unrelated.score[0]),
        last_gap=float(related.score[-1] - unrelated.score[-1]),
        last_weights=(float(related.weight[-1]), float(unrelated.weight[-1])),
    )


def token_index(tokens: tuple[str, ...], word: str, default: int = 0) -> int:
    """Position of `word` (case-insensitive) in tokens, or default."""
    lowered = [t.lower() for t in tokens]
    return lowered.index(word.lower()) if word.lower() in lowered else default
