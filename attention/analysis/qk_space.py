"""Queries and keys of one head on one 2-D map, drawn from the origin (after AttentionViz, Yeh et al. 2023).

A query attends to the keys that reach furthest in its direction: S = Q·Kᵀ. Two changes leave every
attention weight exactly as the model computed it and make that readable:

    k_j -> k_j − mean(K)   subtracts q·mean(K) from a query's whole row of scores: the softmax
                           does not change. The keys' centre is now the origin.
    q -> q·s, k -> k / s   leaves every q·k as it is; s makes queries and keys equally long on average.

The two axes are the directions in which queries and keys together reach furthest from the origin
(the first two right singular vectors, no centring: the origin must stay where q·k is measured
from). On the map a key's score for a query is, approximately, the 2-D dot product. How good that
approximation is gets measured, not assumed: `kept` is the share of the vectors' squared length the
two axes hold, and `top_agree` counts the queries whose best key on the map is their best key in truth.
Pure numpy.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class QKSpace:
    queries: np.ndarray  # (query_pos, 2) coordinates of each query on the two axes
    keys: np.ndarray  # (key_pos, 2)
    kept: float  # share of the squared length of all (rescaled) vectors the two axes hold, 0..1
    top_agree: int  # queries whose highest 2-D dot product falls on their truly highest-scoring key
    scale: float  # s: queries ×s, keys ÷s (after the keys are centred)

    @property
    def n_queries(self) -> int:
        return self.queries.shape[0]


def aligned(q: np.ndarray, k: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """(q·s, (k − mean(K))/s, s): the two changes above. q (query_pos, d), k (key_pos, d)."""
    q, k = np.asarray(q, dtype=np.float64), np.asarray(k, dtype=np.float64)
    centred = k - k.mean(axis=0)
    q_len, k_len = np.linalg.norm(q, axis=1).mean(), np.linalg.norm(centred, axis=1).mean()
    scale = float(np.sqrt(k_len / q_len)) if q_len > 0 and k_len > 0 else 1.0
    return q * scale, centred / scale, scale


def _best_keys(scores: np.ndarray, masked: np.ndarray | None) -> np.ndarray:
    """(query_pos,) index of each row's highest score among the keys it may see."""
    if masked is not None:
        scores = np.where(masked, -np.inf, scores)
    return scores.argmax(axis=1)


def qk_space(q: np.ndarray, k: np.ndarray, masked: np.ndarray | None = None,
             weights: np.ndarray | None = None) -> QKSpace:
    """The map of one head: q (query_pos, d), k (key_pos, d); masked (query_pos, key_pos) True where
    a query may not see a key (the decoder's future); weights (query_pos, key_pos), the model's own,
    name each query's truly best key when given (they include any bias added to q·k), else q·k does."""
    q2, k2, scale = aligned(q, k)
    both = np.vstack([q2, k2])  # (query_pos + key_pos, d)
    _, singular, axes = np.linalg.svd(both, full_matrices=False)  # axes: rows of unit length
    axes = np.vstack([axes, np.zeros((max(0, 2 - axes.shape[0]), axes.shape[1]))])[:2]
    energy = float((singular**2).sum())
    kept = float((singular[:2] ** 2).sum() / energy) if energy > 0 else 1.0
    q_map, k_map = q2 @ axes.T, k2 @ axes.T  # (query_pos, 2), (key_pos, 2)
    truth = (np.asarray(weights).argmax(axis=1) if weights is not None
             else _best_keys(np.asarray(q, dtype=np.float64) @ np.asarray(k, dtype=np.float64).T, masked))
    on_map = _best_keys(q_map @ k_map.T, masked)
    return QKSpace(queries=q_map, keys=k_map, kept=kept, top_agree=int((truth == on_map).sum()), scale=scale)
