"""Attention rollout (Abnar & Zuidema, 2020): how much each input token feeds each position after
all the encoder's self-attention layers, counting the residual connection as attention to itself.

For each layer l, with A_l (heads, pos, pos):

    Â_l = 0.5·mean_heads(A_l) + 0.5·I      the residual stream carries half of each token through
    Â_l = Â_l / rowsum(Â_l)                 rows renormalised (a row of A may be masked out)
    R   = Â_L · … · Â_2 · Â_1               row i: how much of input token j reaches position i

Each row of R sums to 1. Pure numpy.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from attention.trace import Trace


def residual_attention(weights: np.ndarray, residual: float = 0.5) -> np.ndarray:
    """Â = (1 − residual)·mean_heads(A) + residual·I, rows renormalised. (heads, pos, pos) -> (pos, pos)."""
    a = np.asarray(weights, dtype=np.float64)
    n_q, n_k = a.shape[-2:]
    if n_q != n_k:
        raise ValueError(f"rollout needs self-attention (square weights), got {n_q}×{n_k}")
    mixed = (1.0 - residual) * a.mean(axis=0) + residual * np.eye(n_q)
    return mixed / mixed.sum(axis=-1, keepdims=True)


def rollout(layers: Sequence[np.ndarray], residual: float = 0.5) -> np.ndarray:
    """R = Â_L · … · Â_1 over the layers' weights, first layer first. Each (heads, pos, pos) -> (pos, pos)."""
    if not layers:
        raise ValueError("rollout needs at least one layer")
    result = residual_attention(layers[0], residual)
    for weights in layers[1:]:
        result = residual_attention(weights, residual) @ result  # later layers multiply on the left
    return result


def trace_rollout(trace: Trace, kind: str = "encoder") -> np.ndarray:
    """Rollout across every self-attention layer of one kind, in layer order. -> (pos, pos)."""
    if kind == "cross":
        raise ValueError("rollout runs over self-attention; cross-attention has no single sentence")
    sites = sorted((s for s in trace.sites if s.kind == kind), key=lambda s: s.layer)
    if not sites:
        raise ValueError(f"the trace has no {kind} self-attention")
    return rollout([s.weights for s in sites])
