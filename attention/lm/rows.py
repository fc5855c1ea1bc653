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

import dataclasses
from dataclasses import dataclass

import numpy as np

from attention import blas, core
from attention.trace import Site, make_site


@dataclass(frozen=True, eq=False)
class NewRows:
    """One layer's rows for the tokens just read (Tq of them: the prompt at first, then 1 a step)."""

    q: np.ndarray  # (heads, Tq, d_head)
    k: np.ndarray  # (kv_heads, Tq, d_head) the new keys only; earlier ones come from the cache
    v: np.ndarray  # (kv_heads, Tq, d_head)
    weights: np.ndarray | None  # (heads, Tq, n) the model's weights over the whole context; None: lean (SDPA)
    z: np.ndarray  # (heads, Tq, d_head)


class LayerStore:
    """One layer's rows, grown in place (capacity doubles), cut back when the writer goes back a step."""

    def __init__(self, layer: int, kind: str, name: str, scale: float, heads: int, kv_heads: int, d_head: int,
                 most: int | None = None, check_as_read: bool = False) -> None:
        self.layer, self.kind, self.name, self.scale = layer, kind, name, scale
        self.heads, self.kv_heads, self.d_head = heads, kv_heads, d_head
        self.most = most  # tokens it will ever hold (the writer's limit): room is never made past it
        self.n = 0
        self._q = np.empty((heads, 0, d_head), np.float32)
        self._z = np.empty((heads, 0, d_head), np.float32)
        self._k = np.empty((kv_heads, 0, d_head), np.float32)
        self._v = np.empty((kv_heads, 0, d_head), np.float32)
        self.blocks: list[np.ndarray] = []  # the model's weights, block by block, (heads, rows, keys)
        self.sizes: list[int] = []  # rows of each append: the steps one can go back to
        # a lean store (the model's weights never made): per row, the largest |our z − the model's| over the
        # heads, NaN until a site over that row is first checked (only the layers shown pay for it)
        self.z_diff = np.empty(0)
        self.buffer = None  # a kv_buffer.KVBuffer shared with the KV cache: k and v are its arrays, not copies
        self.cache_index = layer  # the KV cache's layer these rows are read through
        # lean only: each row's z is checked as it arrives and not kept (a hosted class: 20 MB a Writing)
        self.check_as_read = check_as_read

    def share(self, buffer) -> None:
        """Read k and v from the KV cache's own memory (kv_buffer.KVBuffer) instead of keeping a copy."""
        if self.n == 0 and buffer.k.shape[0] == self.kv_heads and buffer.k.shape[2] == self.d_head:
            self.buffer = buffer
            self._k = self._v = None

    def reserve(self, capacity: int) -> None:
        """Room for `capacity` tokens at once: a long prompt read in chunks would otherwise double the arrays
        (old and new side by side) at each chunk."""
        capacity = capacity if self.most is None else min(capacity, self.most)
        if capacity > self._q.shape[1]:
            self._grow(capacity)

    def append(self, rows: NewRows) -> None:
        t = rows.q.shape[1]
        if self.n + t > self._q.shape[1]:
            room = max(2 * self._q.shape[1], 16)
            self._grow(max(self.n + t, room if self.most is None else min(room, self.most)))
        kept = ((self._q, rows.q),) + (() if self.check_as_read else ((self._z, rows.z),))
        kept += () if self.buffer is not None else ((self._k, rows.k), (self._v, rows.v))
        for store, new in kept:  # a shared buffer has the new keys and values already: the cache wrote them
            store[:, self.n : self.n + t] = new
        if rows.weights is not None:
            self.blocks.append(rows.weights)
        self.sizes.append(t)
        self.z_diff = np.concatenate([self.z_diff[: self.n], self._checked(rows) if self.check_as_read else np.full(t, np.nan)])
        self.n += t

    def _checked(self, rows: NewRows) -> np.ndarray:
        """(t,) per new row, the largest |our z − the model's| over the heads, computed now by core.attention from
        the kept q, k, v (the rows' keys are in place) against the model's z, which is then dropped. Every head in
        one call: a head at a time, a written word's check cost more than the model's own step."""
        t, n = rows.q.shape[1], self.n + rows.q.shape[1]
        rep = self.heads // self.kv_heads
        k, v = (np.repeat(a, rep, axis=0) if rep > 1 else a for a in self.kv(n))  # (heads, n, d_head)
        with blas.one_thread():
            _, _, z = core.attention(self._q[:, self.n : n], k, v, scale=self.scale,
                                     mask=core.causal_mask(t, n) if t > 1 else None)  # the last t of n rows
        return np.abs(z - rows.z).max(axis=(0, 2), initial=0.0)

    def _grow(self, capacity: int) -> None:
        """New arrays: sites assembled earlier keep views of the old ones, which stay as they were."""
        def bigger(a: np.ndarray) -> np.ndarray:
            out = np.empty((a.shape[0], capacity, a.shape[2]), np.float32)
            out[:, : self.n] = a[:, : self.n]
            return out
        self._q = bigger(self._q)
        if not self.check_as_read:
            self._z = bigger(self._z)
        if self.buffer is None:
            self._k, self._v = bigger(self._k), bigger(self._v)

    def cut(self, n: int) -> None:
        """Keep the first n tokens. Copies, so sites assembled before never see rows written after."""
        keep, rows = 0, 0
        for size in self.sizes:
            if rows + size > n:
                break
            keep += 1
            rows += size
        if rows != n:
            raise ValueError(f"can only go back to a step boundary (asked {n}, nearest {rows})")
        self.blocks, self.sizes, self.n, self.z_diff = self.blocks[: keep if self.blocks else 0], self.sizes[:keep], n, self.z_diff[:n].copy()
        self._grow(max(n, 16))
        if self.buffer is not None:
            self.buffer.fresh(n)

    def nbytes(self) -> int:
        """Bytes held: the rows' arrays (with their spare room), the model's weight blocks, the checks."""
        kv = (self._k, self._v) if self.buffer is None else (self.buffer.k, self.buffer.v)  # shared: counted here
        return sum(a.nbytes for a in (self._q, self._z, *kv, self.z_diff, *self.blocks))

    def kv(self, n: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(kv_heads, n, d_head) keys and values of the first n tokens (views)."""
        n = self.n if n is None else n
        if self.buffer is not None:
            return self.buffer.k[:, :n], self.buffer.v[:, :n]
        return self._k[:, :n], self._v[:, :n]

    @property
    def lean(self) -> bool:
        """The model's weights were not kept (the writing's prompt was long): sites are long sites."""
        return self.n > 0 and not self.blocks

    def long_site(self, tokens: tuple[str, ...], n: int | None = None, first_row: int = 0) -> Site:
        """A long site (trace.Site.is_long) over the first n tokens, rows first_row..n−1: q, z and the grouped
        k, v as views, the causal rule for a mask; its check over rows not checked before is made and kept."""
        n = self.n if n is None else n
        k, v = self.kv(n)
        site = make_site(
            layer=self.layer, kind=self.kind, name=self.name, scale=self.scale,
            query_tokens=tokens[first_row:n], key_tokens=tokens[:n], q=self._q[:, first_row:n], k=k, v=v,
            model_weights=None, causal_offset=first_row,
            # z checked as read and not kept: NaN, never read (every row's check is done), and if it were, a NaN check
            model_z=np.broadcast_to(np.float32(np.nan), (self.heads, n - first_row, self.d_head)) if self.check_as_read
            else self._z[:, first_row:n],
        )
        todo = np.flatnonzero(np.isnan(self.z_diff[first_row:n]))
        if todo.size:
            self.z_diff[first_row + todo] = site.row_z_diff(todo)
        site.take_z_diff(float(self.z_diff[first_row:n].max(initial=0.0)))
        return site

    def site(self, tokens: tuple[str, ...], n: int | None = None, first_row: int = 0,
             assembled: tuple[np.ndarray, np.ndarray] | None = None) -> Site:
        """The site over the first n tokens, query rows first_row..n−1 (0: the whole text; n−1: the newest).
        `assembled`: its (model weights, mask) already made (Recomputed keeps them), else made here."""
        if self.lean:
            return self.long_site(tokens, n, first_row)
        n = self.n if n is None else n
        rep = self.heads // self.kv_heads
        k, v = (np.repeat(a, rep, axis=0) if rep > 1 else a for a in self.kv(n))  # (heads, n, d_head)
        weights, mask = assembled or (self.model_weights(n, first_row), core.causal_mask(n - first_row, n))
        return make_site(
            layer=self.layer, kind=self.kind, name=self.name, scale=self.scale,
            query_tokens=tokens[first_row:n], key_tokens=tokens[:n],
            q=self._q[:, first_row:n], k=k, v=v, mask=mask if n - first_row > 1 else None,
            model_weights=weights, model_z=self._z[:, first_row:n],
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


GROW = 64  # rows of room added when a recomputation outgrows its arrays (not doubled: n² each)


@dataclass(frozen=True, eq=False)
class Recomputed:
    """One layer's recomputation by core.attention from the kept q, k, v over the first n tokens, with
    each row's largest difference from the model's own weights and z. Row i of a causal text reads keys
    0..i only, so the rows of a shorter text are the first rows of a longer one: a written word adds
    its row (and the old rows' scores against its key) in place, and an earlier step is a slice.
    The arrays have room past n; what lies there is not part of this recomputation."""

    n: int
    scores: np.ndarray  # (heads, room, room) float32, raw Q·Kᵀ (masked cells too)
    weights: np.ndarray  # (heads, room, room)
    z: np.ndarray  # (heads, room, d_head)
    weights_diff: np.ndarray  # (room,) per query row
    z_diff: np.ndarray  # (room,)
    model_weights: np.ndarray  # (heads, room, room) the model's own, assembled from the store's blocks
    mask: np.ndarray  # (room, room) float32 causal: its top-left n × n is the mask of n tokens

    def site_for(self, store: LayerStore, tokens: tuple[str, ...], n: int) -> Site:
        """store.site(tokens, n) with its recomputation, the model's weights and the mask taken from these
        rows (views) instead of made again: at 1,024 tokens, 37 MB a word not assembled and copied."""
        site = store.site(tokens, n, assembled=(self.model_weights[:, :n, :n], self.mask[:n, :n]))
        site.take_recomputation(self.scores[:, :n, :n], self.weights[:, :n, :n], self.z[:, :n],
                                self.weights_diff[:n].max(initial=0.0), self.z_diff[:n].max(initial=0.0))
        return site

    def cut(self, n: int) -> Recomputed:
        """The first n rows in arrays of their own (after going back, rows past n will be written anew)."""
        return Recomputed(n, *(a[:, :n, :n].copy() for a in (self.scores, self.weights)), self.z[:, :n].copy(),
                          self.weights_diff[:n].copy(), self.z_diff[:n].copy(), self.model_weights[:, :n, :n].copy(),
                          self.mask[:n, :n].copy())


def recomputed(store: LayerStore, n: int, before: Recomputed | None = None) -> Recomputed:
    """`before` grown to n rows (its rows are kept, the new ones written into its room), or computed anew;
    a `before` at least n long comes back as its first n rows."""
    if before is not None and before.n >= n:
        return dataclasses.replace(before, n=n)
    a = 0 if before is None else before.n
    room = 0 if before is None else before.scores.shape[1]
    h, d = store.heads, store.d_head
    if n > room:  # new arrays with room for the next words; the rows so far copied in
        room = n + GROW
        new = Recomputed(n, np.empty((h, room, room), np.float32), np.zeros((h, room, room), np.float32),
                         np.empty((h, room, d), np.float32), np.zeros(room), np.zeros(room),
                         np.zeros((h, room, room), np.float32), core.causal_mask(room).astype(np.float32))
        if before is not None:
            for name in ("scores", "weights", "model_weights"):
                getattr(new, name)[:, :a, :a] = getattr(before, name)[:, :a, :a]
            new.z[:, :a], new.weights_diff[:a], new.z_diff[:a] = before.z[:, :a], before.weights_diff[:a], before.z_diff[:a]
    else:
        new = dataclasses.replace(before, n=n)
    rep = h // store.kv_heads
    k, v = (np.repeat(x, rep, axis=0) if rep > 1 else x for x in store.kv(n))  # (heads, n, d_head)
    with blas.one_thread():
        s_new, w_new, z_new = core.attention(store._q[:, a:n], k, v, scale=store.scale, mask=new.mask[a:n, :n])
    model_new = store.model_weights(n, first_row=a)  # (heads, n − a, n)
    new.scores[:, a:n, :n], new.weights[:, a:n, :n], new.z[:, a:n], new.model_weights[:, a:n, :n] = (
        s_new, w_new, z_new, model_new)
    new.scores[:, :a, a:n] = core.raw_scores(store._q[:, :a], k[:, a:n])  # earlier queries, the new keys (masked)
    new.weights[:, :a, a:n] = new.model_weights[:, :a, a:n] = 0.0
    new.weights_diff[a:n] = np.abs(w_new - model_new).max(axis=(0, 2), initial=0.0)
    new.z_diff[a:n] = np.abs(z_new - store._z[:, a:n]).max(axis=(0, 2), initial=0.0)
    return new
