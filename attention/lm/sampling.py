"""The next token, from the model's logits: temperature, top-k, top-p (nucleus), the ten likeliest, a
seeded draw. Pure numpy, in float64; the order is the one transformers' generate uses: logits ÷ T,
then top-k, then top-p on what top-k kept.

    p = softmax(logits / T)                      T → 0: all weight on the likeliest token
    top-k: keep the k likeliest tokens           (ties at the k-th kept by index order)
    top-p: keep the likeliest tokens until their probability reaches p (at least one)
    then renormalise what is kept to sum to 1
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from attention import core

TEMPERATURE_RANGE = (0.05, 5.0)  # below 0.05 the softmax is argmax in float64; above 5 it is near-uniform
TOP_N = 10


@dataclass(frozen=True)
class Settings:
    """Sampling settings after clamping; `clamped` names each value that was out of range."""

    temperature: float = 1.0
    top_k: int | None = None  # None: no top-k
    top_p: float | None = None  # None: no top-p
    clamped: tuple[str, ...] = ()


def settings(temperature: object = 1.0, top_k: object = None, top_p: object = None,
             vocab: int | None = None) -> Settings:
    """Clamp to ranges that mean something: T in TEMPERATURE_RANGE, 1 ≤ top_k ≤ vocab (whole), 0 < top_p ≤ 1.
    A value that is not a number (NaN, text) falls back to the default (T 1, no top-k / top-p)."""
    clamped: list[str] = []
    t = _number(temperature)
    lo, hi = TEMPERATURE_RANGE
    t_kept = 1.0 if t is None else min(max(t, lo), hi)
    if t != t_kept:
        clamped.append("temperature")
    k_kept: int | None = None
    if top_k is not None:
        k = _number(top_k)
        if k is not None:
            k_kept = int(min(max(math.floor(k), 1), vocab if vocab is not None else math.inf))
        if k is None or k != k_kept:
            clamped.append("top_k")
    p_kept: float | None = None
    if top_p is not None:
        p = _number(top_p)
        if p is not None:
            p_kept = min(max(p, 1e-6), 1.0)
        if p is None or p != p_kept:
            clamped.append("top_p")
    return Settings(temperature=float(t_kept), top_k=k_kept, top_p=p_kept, clamped=tuple(clamped))


def _number(x: object) -> float | None:
    """x as a float; None for what is not a number (NaN included). Infinities stay (then clamped)."""
    if isinstance(x, bool):
        return None
    try:
        f = float(x)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):
        return None
    return None if math.isnan(f) else f


def probabilities(logits: np.ndarray, temperature: float = 1.0) -> np.ndarray:
    """(vocab,) softmax(logits / T) in float64."""
    return core.softmax(np.asarray(logits, dtype=np.float64) / float(temperature), axis=-1)


def top_k_keep(probs: np.ndarray, k: int) -> np.ndarray:
    """(vocab,) bools: the k likeliest tokens (a stable sort: equal probabilities kept by index)."""
    keep = np.zeros(probs.shape, dtype=bool)
    keep[np.argsort(-probs, kind="stable")[: max(int(k), 1)]] = True
    return keep


def top_p_keep(probs: np.ndarray, p: float) -> np.ndarray:
    """(vocab,) bools: the likeliest tokens whose probability before them is still under p."""
    order = np.argsort(-probs, kind="stable")
    before = np.cumsum(probs[order]) - probs[order]  # probability of the tokens ahead of each one
    keep = np.zeros(probs.shape, dtype=bool)
    keep[order[before < p]] = True
    keep[order[0]] = True  # never nothing
    return keep


def distribution(logits: np.ndarray, s: Settings | None = None) -> np.ndarray:
    """(vocab,) the probabilities the next token is drawn from: softmax(logits / T), then top-k, then
    top-p, each time renormalised over what is kept."""
    s = s or Settings()
    probs = probabilities(logits, s.temperature)
    if s.top_k is not None and s.top_k < probs.size:
        probs = _renormalised(probs, top_k_keep(probs, s.top_k))
    if s.top_p is not None and s.top_p < 1.0:
        probs = _renormalised(probs, top_p_keep(probs, s.top_p))
    return probs


def _renormalised(probs: np.ndarray, keep: np.ndarray) -> np.ndarray:
    out = np.where(keep, probs, 0.0)
    return out / out.sum()


def top(probs: np.ndarray, n: int = TOP_N) -> tuple[np.ndarray, np.ndarray]:
    """The n likeliest tokens: (ids (n,), probabilities (n,)), likeliest first."""
    n = min(n, probs.size)
    nth = np.partition(probs, probs.size - n)[probs.size - n]  # the n-th largest value: O(vocab), no full sort
    near = np.flatnonzero(probs >= nth)
    order = near[np.lexsort((near, -probs[near]))][:n]  # likeliest first, equals by index (as top_k_keep)
    return order, probs[order]


@dataclass(frozen=True)
class Cut:
    """What top-k and top-p did to the likeliest tokens: the n likeliest before the cut (after temperature
    alone), each with its probability before and after; `kept` tokens of `vocab` survive, and the removed
    ones held `removed` of the probability before the cut (shared out among the kept ones after it)."""

    ids: np.ndarray  # (n,) likeliest first
    before: np.ndarray  # (n,) softmax(logits / T)
    after: np.ndarray  # (n,) what the token is drawn with: 0 where the cut removed it
    kept: int
    vocab: int
    removed: float

    @property
    def cuts(self) -> bool:
        """Some token was removed (top-k of the whole vocabulary, or top-p 1, removes nothing)."""
        return self.kept < self.vocab


def cut(logits: np.ndarray, s: Settings, n: int = TOP_N) -> Cut:
    """The n likeliest tokens before top-k/top-p, and what those settings did to them. The kept tokens
    are always the likeliest, so the list after the cut starts the same way."""
    before = probabilities(logits, s.temperature)
    after = distribution(logits, s)
    ids, _ = top(before, n)
    kept = after > 0
    return Cut(ids, before[ids], after[ids], int(kept.sum()), int(before.size), float(before[~kept].sum()))


def greedy(probs: np.ndarray) -> int:
    """The likeliest token (the first of equals)."""
    return int(np.argmax(probs))


def rank(logits: np.ndarray, token_id: int) -> int:
    """The token's place among the next tokens: 1 for the likeliest (equals share a place). Read from the
    model's own logits: temperature keeps their order and top-k/top-p only cut the tail, so the place
    holds whatever the settings, even for a token they left at probability 0."""
    return 1 + int(np.count_nonzero(logits > logits[token_id]))


def sample(probs: np.ndarray, rng: np.random.Generator) -> int:
    """One token drawn from probs with the seeded generator (the same seed, the same token)."""
    cdf = np.cumsum(probs)
    u = rng.random() * cdf[-1]
    return int(min(np.searchsorted(cdf, u, side="right"), probs.size - 1))
