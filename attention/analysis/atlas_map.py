"""One head's queries and keys over the corpus on one map (after AttentionViz, Yeh et al. 2023), with a
number that says how far the map may be trusted.

The map is qk_space's: keys centred (softmax does not change), queries ×s and keys ÷s so both are as long
on average (every q·k unchanged), then the first two principal directions of queries and keys together.
For grouped-query attention the keys are the head's key/value group's, shared with the other query heads
of the group. A projection distorts, so the page prints Spearman's ρ between q·k and closeness on the map
(−distance) over the (query, key) pairs the head really scores: the same text, keys it may see. Pure numpy.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attention.analysis import claims
from attention.analysis.atlas import Atlas
from attention.analysis.qk_space import aligned

MAX_PAIRS = 20_000  # pairs drawn (seed 0) for the correlation


@dataclass(frozen=True)
class JointMap:
    queries: np.ndarray  # (N, 2)
    keys: np.ndarray  # (N, 2)
    text: np.ndarray  # (N,) index into Atlas.texts of each position
    pos: np.ndarray  # (N,) token position in its text
    kept: float  # share of the vectors' squared length the two axes hold
    agreement: claims.Correlation | None  # ρ(q·k, −distance on the map) with n, None when claims refuse one


def pairs(text: np.ndarray, pos: np.ndarray, causal: bool, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(query index, key index) of pairs within one text, key ≤ query when causal; at most MAX_PAIRS."""
    qi, ki = [], []
    for t in np.unique(text):
        idx = np.flatnonzero(text == t)
        a, b = np.meshgrid(idx, idx, indexing="ij")
        keep = pos[b] <= pos[a] if causal else np.ones_like(a, bool)
        qi.append(a[keep])
        ki.append(b[keep])
    qi, ki = np.concatenate(qi), np.concatenate(ki)
    if qi.size > MAX_PAIRS:
        pick = rng.choice(qi.size, MAX_PAIRS, replace=False)
        qi, ki = qi[pick], ki[pick]
    return qi, ki


def joint_map(atlas: Atlas, layer: int, head: int) -> JointMap | None:
    """The map of one head over the texts the atlas kept q and k for; None when it kept none."""
    rows = atlas.map_rows.get(atlas.index(layer))
    if rows is None:
        return None
    q, k, text, pos = rows
    q, k = q[head].astype(np.float64), k[head].astype(np.float64)  # (N, d)
    q2, k2, _ = aligned(q, k)
    both = np.vstack([q2, k2])  # (2N, d)
    _, singular, axes = np.linalg.svd(both, full_matrices=False)
    axes = np.vstack([axes, np.zeros((max(0, 2 - axes.shape[0]), axes.shape[1]))])[:2]
    energy = float((singular**2).sum())
    kept = float((singular[:2] ** 2).sum() / energy) if energy > 0 else 1.0
    q_map, k_map = q2 @ axes.T, k2 @ axes.T  # (N, 2)
    qi, ki = pairs(text, pos, atlas.kind == "decoder", np.random.default_rng(0))
    dots = np.einsum("nd,nd->n", q[qi], k[ki])  # the model's own q·k (before its scale)
    closeness = -np.linalg.norm(q_map[qi] - k_map[ki], axis=1)
    return JointMap(q_map, k_map, text, pos, kept, claims.correlation(dots, closeness))
