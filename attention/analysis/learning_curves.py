"""How attention is learned: one pair of words followed through the translator's training snapshots (pure).

Every snapshot is traced on the SAME words (teacher-forced on the final model's translation), so a
cell (query, key) means the same pair of words at every step and its score, weight and the angle
between q and k can be followed over training.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attention import core
from attention.analysis import claims
from attention.trace import Kind, Trace

STEADY = 0.02  # a change of the weight gap smaller than this: the gap barely changed


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
    n_keys: int = 0  # keys in the query's row: an even spread gives each 1/n_keys


def pair_curve(st: SnapshotTraces, kind: Kind, layer: int, head: int, query: int, key: int) -> PairCurve:
    score, weight, cosine = [], [], []
    for tr in st.traces:
        site = tr.site(layer, kind)
        score.append(float(site.scores[head, query, key]))
        weight.append(float(site.weights[head, query, key]))
        cosine.append(core.cosine(site.q[head, query], site.head_k(head)[key]))
    n_keys = len(st.traces[-1].site(layer, kind).key_tokens)
    return PairCurve(query, key, np.array(score), np.array(weight), np.array(cosine), n_keys)


@dataclass(frozen=True)
class Effect:
    """Where one query's weight on a related and an unrelated key ends, and how training moved the
    gap between them — said in the weights a learner reads, not in raw scores.

    The first snapshot is random initialisation, so its gap is chance: what matters is which key
    ends ahead, by how much, and whether training widened or narrowed the lead."""

    first_weights: tuple[float, float]  # (related, unrelated) weight at the first snapshot
    last_weights: tuple[float, float]  # … at the last
    n_keys: int  # keys in the row: "ahead" is judged against the even share 1/n_keys (analysis/claims.py)

    @property
    def leader(self) -> str:
        """"related" or "unrelated" (which key ends clearly above an even spread and ahead), "level"
        (both clearly above it, about equally), or "neither" (neither is clearly above 1/n_keys)."""
        said = claims.lead(*self.last_weights, self.n_keys)
        return "unrelated" if said == "other" else said

    @property
    def even(self) -> float:
        return claims.even(self.n_keys)

    @property
    def bar(self) -> float:
        """The weight a key must reach to lead: (1 + claims.MARGIN) × the even share."""
        return (1 + claims.MARGIN) * self.even

    @property
    def lead_key(self) -> str:
        """The text that says who ends ahead: a ratio above claims.FAR is "far ahead", never a long number."""
        far = self.leader in ("related", "unrelated") and claims.times(self.ratio) is None
        return f"learning.lead.{self.leader}" + ("_far" if far else "")

    @property
    def ratio_text(self) -> str:
        return claims.times(self.ratio) or ""

    @property
    def ratio(self) -> float:
        """How many times the leading key's final weight the other key's is (inf when it is 0)."""
        a, b = self.last_weights
        hi, lo = max(a, b), min(a, b)
        return hi / lo if lo > 0 else float("inf")

    @property
    def trend(self) -> str:
        """"overtook": the key ahead at the end was behind at the start; else "grew", "narrowed" or
        "steady": how the gap between the two weights changed from the first snapshot to the last."""
        first = self.first_weights[0] - self.first_weights[1]
        last = self.last_weights[0] - self.last_weights[1]
        if self.leader in ("related", "unrelated") and first * last < 0 and abs(first) >= STEADY:
            return "overtook"
        change = abs(last) - abs(first)
        if abs(change) < STEADY:
            return "steady"
        return "grew" if change > 0 else "narrowed"

    @property
    def learned(self) -> bool:
        """Training clearly favoured the related key: it ends ahead and its lead grew or was won."""
        return self.leader == "related" and self.trend in ("grew", "overtook")


def effect(related: PairCurve, unrelated: PairCurve) -> Effect:
    return Effect(first_weights=(float(related.weight[0]), float(unrelated.weight[0])),
                  last_weights=(float(related.weight[-1]), float(unrelated.weight[-1])), n_keys=related.n_keys)


@dataclass(frozen=True)
class KindSummary:
    """One pair of keys over every head of a kind of attention, at the last snapshot."""

    heads: int
    related_ahead: int  # heads where the related key ends clearly ahead
    max_related: float  # the largest final weight any head gives the related key


def summary(st: SnapshotTraces, kind: Kind, query: int, related: int, unrelated: int) -> KindSummary:
    last = st.traces[-1]
    effects = [effect(pair_curve(st, kind, s.layer, h, query, related), pair_curve(st, kind, s.layer, h, query, unrelated))
               for s in last.sites if s.kind == kind for h in range(s.weights.shape[0])]
    return KindSummary(len(effects), sum(e.leader == "related" for e in effects),
                       max((e.last_weights[0] for e in effects), default=0.0))


def token_index(tokens: tuple[str, ...], word: str, default: int = 0) -> int:
    """Position of `word` (case-insensitive) in tokens, or default."""
    lowered = [t.lower() for t in tokens]
    return lowered.index(word.lower()) if word.lower() in lowered else default
