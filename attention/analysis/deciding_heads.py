"""The lesson's last model step: which heads decide a language model's next word, and which earlier words
they read. Pure numpy; the numbers come from attention.lm.deciding.

Two measures of a head h for the word w after the prompt:
- the estimate: g_h = ∂ log p(w) / ∂ keep_h at keep = 1, where keep_h scales the head's output z. Switching
  the head off sets keep_h to 0, so to first order log p(w) falls by g_h. One backward pass gives every
  head's g_h: cheap, and only a ranking;
- the measure: log p(w | all heads) − log p(w | h off), each of the CANDIDATES best-estimated heads really
  switched off alone (a batch). Only measured drops are ranked, and only they earn words.

What may be said (claims.py's rule):
- "these heads decide the word" only when some measured drop reaches DECIDES nats (the word's probability
  falls by at least 1 − e^−DECIDES, about 10 %) and the drops are not tied (claims.heads_matter);
- how well the estimate ranked the candidates: Spearman's ρ with its n, only where claims.correlation gives one;
- a head "reads" an earlier word only when its weight there is clearly above the even share 1/n
  (claims.above_even); the first token taking more than every word is said (an attention sink).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from attention.analysis import claims
from attention.analysis.effects import HeadId

CANDIDATES = 24  # heads really switched off: the best-estimated ones
SHOWN = 3  # heads whose attention rows are drawn
DECIDES = 0.1  # nats: a drop this large takes about a tenth of the word's probability away
READ_WORDS = 3  # at most this many earlier words named per head


def candidates(estimates: np.ndarray, n: int = CANDIDATES) -> np.ndarray:
    """(H,) estimated drops -> the indices of the n largest, largest first (ties: model order)."""
    x = np.asarray(estimates, dtype=np.float64)
    return np.argsort(-x, kind="stable")[: max(0, min(n, x.size))]


def confirmed(heads: Sequence[HeadId], picked: np.ndarray, drops: np.ndarray) -> list[tuple[HeadId, float]]:
    """The picked heads with their measured drops, largest drop first (ties: the estimate's order)."""
    order = np.argsort(-np.asarray(drops, dtype=np.float64), kind="stable")
    return [(heads[int(picked[i])], float(drops[i])) for i in order]


def decides(drops: np.ndarray, floor: float = DECIDES) -> bool:
    """Whether the measured drops earn "these heads decide the word"."""
    x = np.asarray(drops, dtype=np.float64)
    return claims.heads_matter(x) and bool(x.size) and float(np.max(x)) >= floor


def estimate_agreement(estimates: np.ndarray, drops: np.ndarray) -> claims.Correlation | None:
    """How the estimate ranked the candidates against their measured drops (None: not to be said)."""
    if not claims.heads_matter(drops):
        return None
    return claims.correlation(estimates, drops)


@dataclass(frozen=True)
class Reading:
    """What one head's row over the earlier words says."""

    words: tuple[int, ...]  # positions clearly above the even share, heaviest first (at most READ_WORDS)
    sink: int | None  # the first token when it takes more than every other position, else None


def reads(row: np.ndarray, n_words: int = READ_WORDS) -> Reading:
    """(T,) one attention row from the last position -> the earlier words it reads clearly: neither the
    first token (a sink) nor the last, the query's own position (it is not earlier than itself)."""
    w = np.asarray(row, dtype=np.float64)
    n = w.size
    order = np.argsort(-w, kind="stable")
    words = tuple(int(j) for j in order if 0 < j < n - 1 and claims.above_even(float(w[j]), n))[:n_words]
    sink = 0 if n > 1 and float(w[0]) > float(np.max(w[1:])) else None
    return Reading(words, sink)


def probability_after(log_p: float, drop: float) -> float:
    """p(w) with the head off, from log p(w) with every head on and the head's measured drop."""
    return float(np.exp(log_p - drop))
