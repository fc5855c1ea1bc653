"""When each head role appears over training: every snapshot's roles (head_roles.HeadRoles) -> per role the
best head's score, the heads above a bar, and the first step from which the role stays above it.

The bar is judged against an even spread, as claims.py judges a weight: a head that spreads its weight
evenly over the keys a row may see gives the pattern's key 1/k_i (k_i = i + 1 under a causal mask, n
without one, the source's length in cross-attention), so a role's even share is the mean of 1/k_i over the
rows the role reads. The best of many heads lies above that by chance (an untrained model's best head
already does), so a role counts only at

    bar = max(APPEAR_TIMES × even, even + APPEAR_GAP)

and it "appears" at the first snapshot from which the best head stays at or above the bar, and above the
untrained (first) snapshot's best head, at every later snapshot (APPEAR_HOLD of them at least): a role that rises and falls back has not
appeared, nor one that only matches what random weights already gave. A role above the bar at every
snapshot, the first included, was there before training (`from_start`); when no snapshot qualifies it
never appears (`appears` None).
Only the roles that are a weight on a pattern's key are judged (APPEAR_ROLES): distance and breadth
have no key to be above even on. Pure numpy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from attention.analysis.head_roles import HeadRoles

APPEAR_ROLES: tuple[str, ...] = ("previous", "duplicate", "induction", "sink")
APPEAR_TIMES = 2.0  # at least twice the even share …
APPEAR_GAP = 0.1  # … and at least 0.1 of the row's weight above it
APPEAR_HOLD = 2  # snapshots in a row, the last included: one point at the end is not a role that stays


def _rows(role: str, r: HeadRoles) -> np.ndarray:
    """The query rows a role's score averages over (head_roles.py's definitions)."""
    s, L, n = r.start, r.length, len(r.tokens)
    if r.kind == "cross":
        return np.zeros(0, dtype=int)  # every row sees all n source keys: handled in even()
    return {"previous": np.arange(s + 1, s + 2 * L), "duplicate": np.arange(s + L, s + 2 * L),
            "induction": np.arange(s + L, s + 2 * L), "sink": np.arange(1 if r.causal else 0, n)}[role]


def even(role: str, r: HeadRoles) -> float:
    """The role's score of a head that spreads every row evenly over the keys it may see."""
    n = len(r.tokens)
    if r.kind == "cross" or not r.causal:
        return 1.0 / n  # every row sees every key (the duplicate score's two directions alike)
    return float(np.mean(1.0 / (_rows(role, r) + 1)))


def bar(even_share: float) -> float:
    return max(APPEAR_TIMES * even_share, even_share + APPEAR_GAP)


def first_appearance(steps: Sequence[int], best: Sequence[float] | np.ndarray, level: float) -> int | None:
    """The step from which `best` stays ≥ `level` and above its first value through the last snapshot, for
    APPEAR_HOLD snapshots at least (the first step when it is ≥ `level` everywhere); None if there is none."""
    b = np.asarray(best, dtype=np.float64)
    if b.size and np.all(b >= level):
        return int(steps[0])  # there before training
    ok = (b >= level) & (b > b[0]) if b.size else b.astype(bool)
    if not ok.size or not ok[-1]:
        return None
    k = len(ok) - 1
    while k > 1 and ok[k - 1]:
        k -= 1
    return int(steps[k]) if len(ok) - k >= APPEAR_HOLD else None


@dataclass(frozen=True)
class Emergence:
    """One role of one kind of attention over training."""

    role: str
    steps: tuple[int, ...]
    best: np.ndarray  # (n_steps,) the best head's score at each snapshot
    best_head: tuple[tuple[int, int], ...]  # (layer, head) of that head at each snapshot
    count: np.ndarray  # (n_steps,) heads at or above the bar
    even: float  # the score of an even spread
    bar: float  # what the best head must reach
    appears: int | None  # the step from which the role stays above the bar; None: never

    @property
    def from_start(self) -> bool:
        """Above the bar from the first (untrained) snapshot on: there before any learning."""
        return self.appears is not None and self.appears == self.steps[0]


def over_training(steps: Sequence[int], per_snapshot: Sequence[HeadRoles]) -> dict[str, Emergence]:
    """role -> Emergence for every role of APPEAR_ROLES that applies, from each snapshot's roles of one kind
    of attention (the same probe at every snapshot)."""
    if len(steps) != len(per_snapshot) or not steps:
        raise ValueError("one HeadRoles per step, and at least one step")
    if list(steps) != sorted(steps):
        raise ValueError("steps must be in training order")
    first = per_snapshot[0]
    out = {}
    for role in APPEAR_ROLES:
        if not first.applies(role):
            continue
        grids = np.stack([r.scores[role] for r in per_snapshot])  # (n_steps, layers, heads)
        flat = grids.reshape(len(steps), -1)
        top = flat.argmax(axis=1)
        e = even(role, first)
        level = bar(e)
        heads = grids.shape[2]
        out[role] = Emergence(role, tuple(int(s) for s in steps), flat.max(axis=1),
                              tuple((int(i // heads), int(i % heads)) for i in top),
                              (flat >= level).sum(axis=1), e, level, first_appearance(steps, flat.max(axis=1), level))
    return out
