"""Retrieval heads (Wu et al. 2024, "Retrieval Head Mechanistically Explains Long-Context Factuality"): the
score as their detection code computes it, on plain arrays. Pure numpy.

A needle (a sentence) sits at token positions [start, end) of a prompt; the model writes its answer greedily.
For the query that predicts written token y_t (the position just before it: for the first written token, the
prompt's last position), a head COPIES when its top-1 attention position i lies inside the needle and the
prompt's token at i is y_t itself:

    copies(h, t) = [start ≤ argmax_j A_h[t, j] < end] · [ids[argmax_j A_h[t, j]] = y_t]

    score(h) = Σ_t copies(h, t) / (end − start)

the share of the needle's tokens the head copied. Over several needles and haystacks, the score is averaged
over the runs whose answer was right (only a retrieval that worked says which heads retrieve). Heads whose
mean score exceeds THRESHOLD = 0.1 are retrieval heads (3–6 % of heads in the 7B-class models Wu et al. tried).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

THRESHOLD = 0.1  # Wu et al.: a head above this share of the needle's tokens copied is a retrieval head
ROUGE_RIGHT = 0.5  # Wu et al.: an answer is right when it recalls more than half of the needle's words


def copies(top_key: np.ndarray, token_id: int, ids: Sequence[int], span: tuple[int, int]) -> np.ndarray:
    """(layers, heads) bool: each head's top-1 key lies in the needle span and holds the written token.

    Args:
        top_key: (layers, heads) ints, every head's top-1 key position for the query that predicts the token.
        token_id: the written token.
        ids: the prompt's token ids (positions in top_key index them).
        span: (start, end) of the needle in the prompt, end excluded.
    """
    start, end = span
    top = np.asarray(top_key, dtype=np.int64)
    inside = (top >= start) & (top < end)
    at = np.asarray(ids, dtype=np.int64)[np.clip(top, 0, len(ids) - 1)]
    return inside & (at == int(token_id))


def copy_counts(top_keys: np.ndarray, written: Sequence[int], ids: Sequence[int], span: tuple[int, int]) -> np.ndarray:
    """(layers, heads) how many written tokens each head copied. top_keys (steps, layers, heads); written (steps,)."""
    top = np.asarray(top_keys)
    out = np.zeros(top.shape[1:], dtype=np.int64)
    for t, token in enumerate(written):
        out += copies(top[t], int(token), ids, span)
    return out


def scores(top_keys: np.ndarray, written: Sequence[int], ids: Sequence[int], span: tuple[int, int]) -> np.ndarray:
    """(layers, heads) Wu et al.'s retrieval score of one run: tokens copied / the needle's length (module doc).

    Args:
        top_keys: (steps, layers, heads) ints, the top-1 key of every head for each written token's query.
        written: (steps,) the written token ids.
        ids: the prompt's token ids.
        span: (start, end) of the needle in the prompt.

    Returns:
        (layers, heads) float in [0, steps / needle length]."""
    length = max(1, span[1] - span[0])
    return copy_counts(top_keys, written, ids, span) / length


def copyable(written: Sequence[int], ids: Sequence[int], span: tuple[int, int]) -> int:
    """Written tokens that occur in the needle (the steps at which any head could copy)."""
    needle = set(int(i) for i in ids[span[0]: span[1]])
    return sum(1 for t in written if int(t) in needle)


def words(text: str) -> list[str]:
    """Lower-case words, punctuation dropped (what ROUGE-1 counts)."""
    out, word = [], []
    for ch in text.lower():
        if ch.isalnum():
            word.append(ch)
        elif word:
            out.append("".join(word))
            word = []
    if word:
        out.append("".join(word))
    return out


def rouge1_recall(answer: str, reference: str) -> float:
    """Share of the reference's words (with their counts) found in the answer: ROUGE-1 recall."""
    ref, got = words(reference), words(answer)
    if not ref:
        return 0.0
    pool: dict[str, int] = {}
    for w in got:
        pool[w] = pool.get(w, 0) + 1
    hit = 0
    for w in ref:
        if pool.get(w, 0) > 0:
            pool[w] -= 1
            hit += 1
    return hit / len(ref)


def is_right(answer: str, needle: str, expected: str | None = None) -> bool:
    """The answer found the needle: it contains `expected` (case, spacing and punctuation aside; alternatives
    separated by "|", e.g. "forty-seven|47"), or, with none given, recalls more than ROUGE_RIGHT of the needle's
    words (Wu et al.'s rule)."""
    said = f" {' '.join(words(answer))} "
    options = [" ".join(words(e)) for e in (expected or "").split("|")]
    if any(options):
        return any(o and f" {o} " in said for o in options)
    return rouge1_recall(answer, needle) > ROUGE_RIGHT


def mean_over_right(per_run: Sequence[np.ndarray], right: Sequence[bool]) -> np.ndarray | None:
    """(layers, heads) the mean score over the runs whose answer was right; None when none was."""
    kept = [s for s, ok in zip(per_run, right) if ok]
    return None if not kept else np.mean(np.stack(kept), axis=0)


def above(score: np.ndarray, threshold: float = THRESHOLD) -> list[tuple[int, int, float]]:
    """[(layer, head, score)] of the heads above the threshold, largest first."""
    s = np.asarray(score, dtype=np.float64)
    layers, heads = np.nonzero(s > threshold)
    rows = [(int(L), int(h), float(s[L, h])) for L, h in zip(layers, heads)]
    return sorted(rows, key=lambda r: (-r[2], r[0], r[1]))


def sink_share(top_keys: np.ndarray, heads: Sequence[tuple[int, int]], sink: int = 0) -> float:
    """Share of (step, head) pairs whose top key is the sink position. top_keys (steps, layers, heads)."""
    top = np.asarray(top_keys)
    if not len(heads) or top.shape[0] == 0:
        return 0.0
    picked = np.stack([top[:, L, h] for L, h in heads], axis=1)  # (steps, len(heads))
    return float(np.mean(picked == sink))
