"""What a written text's attention is made of, kept per layer as it grows: every query row, the
keys and values of each key/value head (grouped-query models keep 3 groups, not 9 repeated heads),
and what the model itself computed (its weights and its z). A Site for any length is assembled from
these rows; nothing is computed again. numpy only: the model's tensors are copied in as they arrive.

    q        (heads, n, d_head)        one row per token, written when the model read that token
    k, v     (kv_heads, n, d_head)     after RoPE: exactly what the KV cache holds
    z        (heads, n, d_head)        the model's own output rows
    weights  blocks of rows: the prompt's (heads, P, P), then one (heads, 1, P + i + 1) per written token
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attention import core
from attention.trace import Site, make_site


@dataclass(frozen=True, eq=False)
class NewRows:
    """One layer's rows for the tokens just read (Tq of them: the prompt at first, then 1 a step)."""

    q: np.ndarray  # (heads, Tq, d_head)
    k: np.ndarray  # (kv_heads, Tq, d_head) the new keys only; earlier ones come from the cache
    v: np.ndarray  # (kv_heads, Tq, d_head)
    weights: np.ndarray  # (heads, Tq, n) the model's weights over the whole context
    z: np.ndarray  # (heads, Tq, d_head)


class LayerStore:
    """One layer's rows, grown in place (capacity doubles), cut back when the writer goes back a step."""

    def __init__(self, layer: int, kind: str, name: str, scale: float, heads: int, kv_heads: int, d_head: int) -> None:
        self.layer, self.kind, self.name, self.scale = layer, kind, name, scale
        self.heads, self.kv_heads, self.d_head = heads, kv_heads, d_head
        self.n = 0
        self._q = np.empty((heads, 0, d_head), np.float32)
        self._z = np.empty((heads, 0, d_head), np.float32)
        self._k = np.empty((kv_heads, 0, d_head), np.float32)
        self._v = np.empty((kv_heads, 0, d_head), np.float32)
        self.blocks: list[np.ndarray] = []  # the model's weights, block by block, (heads, rows, keys)

    def append(self, rows: NewRows) -> None:
        t = rows.q.shape[1]
        if self.n + t > self._q.shape[1]:
            self._grow(max(2 * self._q.shape[1], self.n + t, 16))
        for store, new in ((self._q, rows.q), (self._z, rows.z), (self._k, rows.k), (self._v, rows.v)):
            store[:, self.n : self.n + t] = new
        self.blocks.append(rows.weights)
        self.n += t

    def _grow(self, capacity: int) -> None:
        """New arrays: sites assembled earlier keep views of the old ones, which stay as they were."""
        def bigger(a: np.ndarray) -> np.ndarray:
            out = np.empty((a.shape[0], capacity, a.shape[2]), np.float32)
            out[:, : self.n] = a[:, : self.n]
            return out
        self._q, self._z, self._k, self._v = (bigger(a) for a in (self._q, self._z, self._k, self._v))

    def cut(self, n: int) -> None:
        """Keep the first n tokens. Copies, so sites assembled before never see rows written after."""
        keep_blocks, rows = [], 0
        for block in self.blocks:
            if rows + block.shape[1] > n:
                break
            keep_blocks.append(block)
            rows += block.shape[1]
        if rows != n:
            raise ValueError(f"can only go back to a step boundary (asked {n}, nearest {rows})")
        self.blocks, self.n = keep_blocks, n
        self._grow(max(n, 16))

    def kv(self, n: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(kv_heads, n, d_head) keys and values of the first n tokens (views)."""
        n = self.n if n is None else n
        return self._k[:, :n], self._v[:, :n]

    def site(self, tokens: tuple[str, ...], n: int | None = None, first_row: int = 0) -> Site:
        """The site over the first n tokens, query rows first_row..n−1 (0: the whole text; n−1: the newest)."""
        n = self.n if n is None else n
        rep = self.heads // self.kv_heads
        k, v = (np.repeat(a, rep, axis=0) if rep > 1 else a for a in self.kv(n))  # (heads, n, d_head)
        return make_site(
            layer=self.layer, kind=self.kind, name=self.name, scale=self.scale,
            query_tokens=tokens[first_row:n], key_tokens=tokens[:n],
            q=self._q[:, first_row:n], k=k, v=v,
            mask=core.causal_mask(n - first_row, n) if n - first_row > 1 else None,
            model_weights=self.model_weights(n, first_row), model_z=self._z[:, first_row:n],
        )

    def model_weights(self, n: int, first_row: int = 0) -> np.ndarray:
        """(heads, n − first_row, n) the model's own weights, rows assembled from the blocks (0 where hidden)."""
        out = np.zeros((self.heads, n - first_row, n), np.float32)
        row = 0
        for block in self.blocks:
            t, width = block.shape[1], block.shape[2]
            lo, hi = max(row, first_row), min(row + t, n)
            if lo < hi:
                out[:, lo - first_row : hi - first_row, :width] = block[:, lo - row : hi - row, :width]
            row += t
            if row >= n:
                break
        return out
