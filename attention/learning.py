"""How attention is learned: the built-in translator's training snapshots, read as curves.

Every snapshot is traced on the SAME words (teacher-forced on the final model's translation), so a
cell (query, key) means the same pair of words at every step and its score, weight and the angle
between q and k can be followed over training.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from attention.trace import Kind, Trace
from attention.translator import load_snapshots, teacher_forced, translate

NO_EFFECT = 0.5  # a change of the score gap smaller than this (in raw q·k units) is "no clear effect"


@dataclass(frozen=True)
class SnapshotTraces:
    text: str
    target: str  # the final model's translation, fed to every snapshot
    steps: tuple[int, ...]
    traces: tuple[Trace, ...]


@lru_cache(maxsize=16)
def snapshot_traces(text: str) -> SnapshotTraces:
    target = translate(text).text
    snapshots = load_snapshots()
    traces = tuple(teacher_forced(text, target, model).trace for _, model in snapshots)
    return SnapshotTraces(text, target, tuple(step for step, _ in snapshots), traces)


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
        q = site.q[head, query].astype(np.float64)
        k = site.k[head, key].astype(np.float64)
        score.append(float(site.scores[head, query, key]))
        weight.append(float(site.weights[head, query, key]))
        norm = float(np.linalg.norm(q) * np.linalg.norm(k))
        cosine.append(float(q @ k) / norm if norm else 0.0)
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


@lru_cache(maxsize=2)
def alignment_over_training(n_pairs: int = 300) -> tuple[tuple[int, ...], np.ndarray]:
    """(steps, (n_steps, decoder layers, heads)): per head, the share of target words whose strongest
    cross-attention falls on their gold source word, on the first n_pairs of the test split."""
    from attention.translator.corpus import build_corpus
    from attention.translator.evaluate import cross_alignment

    test = build_corpus().test[:n_pairs]
    snapshots = load_snapshots()
    return tuple(s for s, _ in snapshots), np.stack([cross_alignment(m, test) for _, m in snapshots])


def token_index(tokens: tuple[str, ...], word: str, default: int = 0) -> int:
    """Position of `word` (case-insensitive) in tokens, or default."""
    lowered = [t.lower() for t in tokens]
    return lowered.index(word.lower()) if word.lower() in lowered else default
