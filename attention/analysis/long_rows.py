"""What the long head view asks of one head, each exact and none of it n × n: a tile of A (the rows it
covers, cut to its keys), a query's row and a key's column.

A column j needs every row's softmax denominator. The pooled pass (analysis/pooled.py) kept each row's
anchor, its largest weight a_i at key m_i; then, with l the logits the softmax sees,

    A[i, j] = exp(l_ij − lse_i) = a_i · exp(l_ij − l_im)        (the denominators cancel)

which costs two dot products a row: O(n·d) for the whole column. l_im is the row's largest logit, so the
exponent is ≤ 0 and nothing overflows; the result differs from Site.pattern's by float32 rounding only
(tests/analysis/test_long_rows.py bounds it)."""

from __future__ import annotations

import numpy as np

from attention import core
from attention.analysis.pooled import Pooled
from attention.trace import Site

TILE_MAX = 640  # positions a side of one exact tile at most (the view asks when it shows ≤ 512)
TILE_GRID = 64  # tiles start on multiples of this, so a small pan asks for a tile it already has


def tile_bounds(r0: int, c0: int, span: int, shape: tuple[int, int]) -> tuple[int, int, int, int]:
    """(r0, r1, c0, c1): a tile that covers span × span cells from (r0, c0), its start moved back to the
    grid, kept inside the matrix and at most TILE_MAX a side (a request comes from the browser: any numbers)."""
    span = int(min(max(1, span), TILE_MAX - TILE_GRID))

    def side(start: int, n: int) -> tuple[int, int]:
        start = int(min(max(0, start), max(0, n - 1)))
        first = start // TILE_GRID * TILE_GRID
        return first, min(n, start + span)

    (a, b), (c, d) = side(r0, shape[0]), side(c0, shape[1])
    return a, b, c, d


def tile(site: Site, head: int, bounds: tuple[int, int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """A's exact cells in `bounds` (r1 − r0, c1 − c0) float32, and which of them are hidden (bool)."""
    r0, r1, c0, c1 = bounds
    rows = slice(r0, r1)
    return site.pattern(head, rows)[:, c0:c1], site.masked_rows(rows)[:, c0:c1]


def row(site: Site, head: int, query: int) -> np.ndarray:
    """(key_pos,) the exact row of `query`: Site.pattern's."""
    return site.pattern(head, [query])[0]


def _logits(site: Site, head: int, keys: np.ndarray) -> np.ndarray:
    """(query_pos,) l_i,keys[i]: what the softmax of row i sees at key keys[i] (scale, softcap, bias, mask)."""
    n_query = site.shape[0]
    rows = np.arange(n_query)
    k = site.head_k(head)
    s = np.einsum("id,id->i", site.q[head], k[keys], dtype=np.float32)  # (query_pos,) q_i · k_keys[i]
    bias = None if site.bias is None else site.bias[head][rows, keys]
    if site.mask is not None:
        mask = site.mask[rows, keys]
    elif site.causal_offset is not None:
        mask = np.where(keys <= rows + site.causal_offset, np.float32(0.0), np.float32(core.MASKED))
    else:
        mask = None
    return core.logits(s, site.scale, site.softcap, bias, mask).astype(np.float32)


def column(site: Site, head: int, key: int, pooled: Pooled) -> np.ndarray:
    """(query_pos,) the exact column of `key`: A[i, key] for every query i, from the rows' anchors."""
    if pooled.anchor_key is None or pooled.anchor_weight is None:
        raise ValueError("the pooled picture was made without anchors")
    n_query = site.shape[0]
    keys = np.full(n_query, key)
    diff = _logits(site, head, keys).astype(np.float64) - _logits(site, head, pooled.anchor_key)
    return (pooled.anchor_weight * np.exp(np.minimum(diff, 0.0))).astype(np.float32)
