"""How much one head's attention changed between two inputs A and B, on the positions they share.

Rows are the aligned query positions. Each row is compared as a distribution over the aligned key
positions plus one bin holding the weight on keys that have no partner (the changed tokens), so a row
still sums to 1 and a head that moves its attention onto the new word counts as a change.
    max_abs: the largest |A_B − A_A| over aligned rows and columns.
    js: the mean over aligned rows of the Jensen–Shannon distance (base 2, in [0, 1]) of the two rows.
Identical weights give exactly 0 for both.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def js_distance(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Jensen–Shannon distance, base 2, of distributions along the last axis: sqrt(½KL(p‖m) + ½KL(q‖m)),
    m = (p + q)/2. p, q (..., n) -> (...). 0 exactly for identical rows, 1 for disjoint ones."""
    p = np.asarray(p, dtype=np.float64)
    q = np.asarray(q, dtype=np.float64)
    m = (p + q) / 2

    def kl(x: np.ndarray) -> np.ndarray:
        safe = np.where(x > 0, x, 1.0)
        return np.sum(np.where(x > 0, x * np.log2(safe / np.where(m > 0, m, 1.0)), 0.0), axis=-1)

    return np.sqrt(np.maximum((kl(p) + kl(q)) / 2, 0.0))


def _rows(w: np.ndarray, rows: Sequence[int], cols: Sequence[int]) -> np.ndarray:
    """(nh, Tq, Tk) -> (nh, rows, cols + 1): the aligned block and the weight left on unaligned keys."""
    block = w[:, list(rows)][:, :, list(cols)].astype(np.float64)
    rest = w[:, list(rows)].astype(np.float64).sum(axis=-1, keepdims=True) - block.sum(axis=-1, keepdims=True)
    return np.concatenate([block, np.maximum(rest, 0.0)], axis=-1)


def head_changes(wa: np.ndarray, wb: np.ndarray, rows: tuple[Sequence[int], Sequence[int]],
                 cols: tuple[Sequence[int], Sequence[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Per head, how much attention changed.

    Args:
        wa, wb: (nh, Tq_a, Tk_a) and (nh, Tq_b, Tk_b) the weights of A and B at one site.
        rows: (A's, B's) aligned query positions; cols: (A's, B's) aligned key positions.
    Returns:
        (max_abs (nh,), js (nh,)); NaN for every head when no rows are aligned.
    """
    if wa.shape[0] != wb.shape[0]:
        raise ValueError(f"the two sites have {wa.shape[0]} and {wb.shape[0]} heads")
    nh = wa.shape[0]
    if not len(rows[0]):
        return np.full(nh, np.nan), np.full(nh, np.nan)
    pa, pb = _rows(wa, rows[0], cols[0]), _rows(wb, rows[1], cols[1])  # (nh, R, C + 1)
    max_abs = np.abs(pb[..., :-1] - pa[..., :-1]).max(axis=(1, 2)) if len(cols[0]) else np.zeros(nh)
    return max_abs, js_distance(pa, pb).mean(axis=1)


def difference(wa: np.ndarray, wb: np.ndarray, rows: tuple[Sequence[int], Sequence[int]],
               cols: tuple[Sequence[int], Sequence[int]]) -> np.ndarray:
    """One head's A_B − A_A on the aligned rows and columns, plus a last column: the change of the
    weight on keys that have no partner (the changed words). wa (Tq_a, Tk_a), wb (Tq_b, Tk_b) ->
    (R, C + 1); every row sums to 0."""
    pa, pb = _rows(wa[None], rows[0], cols[0]), _rows(wb[None], rows[1], cols[1])  # (1, R, C + 1)
    return (pb - pa)[0]
