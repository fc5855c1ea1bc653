"""What a needle run's written tokens read, kept so one head's exact rows can be shown afterwards (the long head
view): for each written token's query, every layer's q row and the output row z the model produced; and every
layer's keys and values as the run left them (views of its cache, not copies: 12 MB at 512 tokens, 0.38 GB at
8,192 for keys and values together).

A head's rows then come back as a long Site (trace.Site.is_long): its rows are the written tokens' queries, its
keys the whole text, the causal rule its mask, so A[i, j] = softmax_j(q_i · k_j · scale) for j ≤ the query's
position, exactly the row the model's attention computed (only the keys up to the last query are kept).

    r = needle.run(lm, prompt, needle, question, keep=True)
    s = site(r, layer=18, tokens=tokens)              # tokens: the prompt's and the written ones, as text
    long_rows.row(s, head, i)                          # (keys,) written token i's exact row
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from attention.trace import Site, make_site


@dataclass(frozen=True, eq=False)
class NeedleRows:
    """Every layer's query and output rows for the written tokens, and the keys and values they read.

    Attributes:
        q: (layers, heads, steps, d_head) each written token's query (the position before it), per layer.
        z: (layers, heads, steps, d_head) the output the model's attention produced for that query.
        k, v: per layer (kv_heads, n, d_head), n = the last written token's query position + 1.
        scale: per layer, the softmax's scale.
        first: the first written token's query position (the prompt's last).
    """

    q: np.ndarray
    z: np.ndarray
    k: tuple[np.ndarray, ...]
    v: tuple[np.ndarray, ...]
    scale: tuple[float, ...]
    first: int


def step_rows(records: list, layer_of: Callable, layers: int) -> tuple[np.ndarray, np.ndarray, list[float]]:
    """From one forward pass's records: the last query's q and z rows, (layers, heads, d_head) each, and the
    scales."""
    q, z, scale = [None] * layers, [None] * layers, [1.0] * layers
    for rec in records:
        layer = layer_of(rec)
        q[layer], z[layer], scale[layer] = rec.q[0, :, -1].numpy().copy(), rec.z[0, :, -1].numpy().copy(), rec.scale
    return np.stack(q), np.stack(z), scale


def keep(qs: Sequence[np.ndarray], zs: Sequence[np.ndarray], scale: Sequence[float], cache, first: int) -> NeedleRows:
    """NeedleRows from the per-step rows (each (layers, heads, d_head)) and the run's cache."""
    n = first + len(qs)  # keys up to the last written token's query
    k = tuple(layer.keys[0, :, :n].numpy() for layer in cache.layers)
    v = tuple(layer.values[0, :, :n].numpy() for layer in cache.layers)
    return NeedleRows(np.stack(qs, axis=2), np.stack(zs, axis=2), k, v, tuple(float(s) for s in scale), first)


def site(rows: NeedleRows, layer: int, tokens: Sequence[str]) -> Site:
    """One layer's long Site over the written tokens' queries.

    Args:
        rows: a run's NeedleRows (needle.run(..., keep=True).rows).
        layer: the layer.
        tokens: (n_text,) every token of the text as shown: the prompt's, then the written ones.

    Returns:
        Site: q (heads, steps, d_head); k, v (kv_heads, n, d_head); query_tokens the tokens at the queries'
        positions (the token each query reads in), key_tokens the first n; causal_offset = rows.first.
    """
    steps, n = rows.q.shape[2], rows.k[layer].shape[1]
    return make_site(layer=layer, kind="decoder", query_tokens=tuple(tokens[rows.first: rows.first + steps]),
                     key_tokens=tuple(tokens[:n]), q=rows.q[layer], k=rows.k[layer], v=rows.v[layer],
                     scale=rows.scale[layer], model_weights=None, model_z=rows.z[layer], causal_offset=rows.first)
