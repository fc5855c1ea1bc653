"""What every head does on ordinary text: the share of its attention each role's pattern takes, over a
corpus, and the places where it moves the most. The probe (head_roles.py) asks a narrow question; this
asks how much of a head's attention on real sentences that answer explains.

With A the weights of one head on one text (rows i summing to 1, tokens t), over every text's rows pooled:

    previous   mean over rows i ≥ 1 of A[i, i−1]
    first      mean over rows i ≥ 1 of A[i, 0]
    induction  over rows i whose token occurred earlier at some j < i − 1 (t[j] = t[i]): the mean of
               Σ_j A[i, j + 1], the keys right after every such earlier occurrence
    duplicate  over the same rows: the mean of Σ_j A[i, j], those earlier occurrences themselves
    local      mean over every row i of Σ A[i, k] for k in i−3 … i (the keys it may see)
    rest       1 − the largest of these: "not one of these"

The roles overlap (previous lies inside local; first inside local for i ≤ 3), so shares need not add to 1.
Each share comes with what an even spread over the same rows would give (`even`, each row 1/(keys it
sees) per key): a short row puts half its weight on the first token by chance, and claims.py judges a
share against that. Examples: per text, the (query, key) pair whose value-weighted share
‖α_ij·v_j‖ / Σ_j' ‖α_ij'·v_j'‖ is largest outside the first token (key ≥ 1, so the sink does not win);
the k best texts per head. Pure numpy: the caller feeds sites (attention/__init__.head_atlas).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from attention.ids import HeadId, TopHead, TopRows

ROLES: tuple[str, ...] = ("previous", "first", "induction", "duplicate", "local")
LOCAL_WINDOW = 3  # keys i−3 … i
KEEP_EXAMPLES = 8  # texts kept per head (the page shows up to this many)
MAP_TOKENS = 512  # tokens of the first texts whose q and k every head keeps (float16) for the joint map


@dataclass(frozen=True)
class Example:
    text: int  # index into Atlas.texts
    query: int  # query position
    key: int  # key position
    weight: float  # A[query, key]
    share: float  # value-weighted share of that key in the query's output


def role_patterns(tokens: list[str] | tuple[str, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(repeated (n,) bool: rows whose token occurred at some j < i − 1, induction (n, n) bool: keys j + 1,
    duplicate (n, n) bool: keys j) for one text's tokens."""
    t = np.asarray(list(tokens), dtype=object)
    n = len(t)
    same = t[:, None] == t[None, :]  # (n, n)
    earlier = same & (np.arange(n)[None, :] < np.arange(n)[:, None] - 1)  # j < i − 1
    induction = np.zeros((n, n), bool)
    induction[:, 1:] = earlier[:, :-1]  # key j + 1 for every earlier j
    return earlier.any(axis=1), induction, earlier


def row_shares(a: np.ndarray, rows: np.ndarray, patterns: tuple[np.ndarray, np.ndarray, np.ndarray]
               ) -> dict[str, tuple[np.ndarray, int]]:
    """Per role (the sum over the rows it counts (heads,), how many rows): a (heads, len(rows), n_k) A's rows
    at positions `rows` (self-attention: query i is key i)."""
    repeated, induction, duplicate = (p[rows] for p in patterns)
    keys = np.arange(a.shape[-1])
    after = rows >= 1
    local = (keys[None, :] <= rows[:, None]) & (keys[None, :] >= rows[:, None] - LOCAL_WINDOW)  # (rows, n_k)
    prev = np.where(after, rows - 1, 0)
    return {
        "previous": (a[:, after, prev[after]].sum(axis=-1), int(after.sum())),
        "first": (a[:, after, 0].sum(axis=-1), int(after.sum())),
        "induction": ((a * induction).sum(axis=-1)[:, repeated].sum(axis=-1), int(repeated.sum())),
        "duplicate": ((a * duplicate).sum(axis=-1)[:, repeated].sum(axis=-1), int(repeated.sum())),
        "local": ((a * local).sum(axis=(-1, -2)), len(rows)),
    }


def best_pair(a: np.ndarray, v_norm: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per head, the (query, key) with the largest value-weighted share outside the first token:
    a (heads, n_q, n_k), v_norm (heads, n_k) ‖v_j‖ -> (flat index (heads,), share (heads,), weight (heads,))."""
    c = a * v_norm[:, None, :]  # ‖α_ij · v_j‖
    total = c.sum(axis=-1, keepdims=True)
    share = np.divide(c, total, out=np.zeros_like(c), where=total > 0)
    share[..., 0] = 0.0  # outside the first token
    flat = share.reshape(share.shape[0], -1).argmax(axis=1)
    h = np.arange(share.shape[0])
    return flat, share.reshape(share.shape[0], -1)[h, flat], a.reshape(a.shape[0], -1)[h, flat]


@dataclass
class Atlas:
    """Every head over a corpus. `shares[role]` (layers, heads) as defined above ("rest" included);
    `even[role]` (layers, heads) the same share of an even spread; `rows[role]` the rows each counts."""

    texts: tuple[str, ...]
    tokens: tuple[tuple[str, ...], ...]
    layers: tuple[int, ...]  # the model's layer numbers, in order (index i of every array is layers[i])
    n_heads: int
    shares: dict[str, np.ndarray]
    even: dict[str, np.ndarray]
    rows: dict[str, int]
    model: str = ""
    kind: str = "decoder"
    # (layer index, head) -> up to KEEP_EXAMPLES examples, best first
    best: dict[tuple[int, int], list[Example]] = field(default_factory=dict)
    # layer index -> (q (heads, N, d) float16, k (heads, N, d) float16, text (N,), pos (N,)) of the first texts
    map_rows: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = field(default_factory=dict)

    def index(self, layer: int) -> int:
        return self.layers.index(layer)

    def examples(self, layer: int, head: int, k: int = 5) -> list[Example]:
        """The k texts where head `head` of layer `layer` moves the most, best first."""
        return self.best.get((self.index(layer), head), [])[:k]

    def top(self, role: str, k: int = 5) -> TopRows[TopHead]:
        """The k heads with the largest share of `role` ("previous", "first", "induction", "duplicate",
        "local", "rest"), [TopHead(HeadId(kind, layer, head), share), …], largest first (NaN never)."""
        s = np.nan_to_num(self.shares[role], nan=-np.inf)  # (layers, heads)
        order = np.argsort(-s.ravel(), kind="stable")[:k]
        return TopRows(TopHead(HeadId(self.kind, self.layers[o // self.n_heads], int(o % self.n_heads)),
                               float(self.shares[role].ravel()[o])) for o in order if np.isfinite(s.ravel()[o]))

    def head_shares(self, layer: int, head: int) -> dict[str, float]:
        i = self.index(layer)
        return {r: float(self.shares[r][i, head]) for r in (*ROLES, "rest")}

    def head_even(self, layer: int, head: int) -> dict[str, float]:
        i = self.index(layer)
        return {r: float(self.even[r][i, head]) for r in ROLES}

    def largest(self) -> tuple[np.ndarray, np.ndarray]:
        """(the role index in ROLES with the largest share (layers, heads), that share (layers, heads))."""
        stack = np.stack([self.shares[r] for r in ROLES])  # (roles, layers, heads)
        return stack.argmax(axis=0), stack.max(axis=0)

    @property
    def n_tokens(self) -> int:
        return sum(len(t) for t in self.tokens)

    @property
    def nbytes(self) -> int:
        maps = sum(q.nbytes + k.nbytes + t.nbytes + p.nbytes for q, k, t, p in self.map_rows.values())
        return maps + sum(s.nbytes for s in self.shares.values()) * 2 + 64 * len(self.best) * KEEP_EXAMPLES


class AtlasBuilder:
    """Sums over the corpus, one site (one layer of one text) at a time; nothing n × n is kept."""

    def __init__(self, layers: tuple[int, ...], n_heads: int, model: str = "", kind: str = "decoder") -> None:
        self.layers, self.n_heads, self.model, self.kind = layers, n_heads, model, kind
        shape = (len(layers), n_heads)
        self.sums = {r: np.zeros(shape) for r in ROLES}
        self.even_sums = {r: np.zeros(shape) for r in ROLES}
        self.counts = dict.fromkeys(ROLES, 0)
        self.texts: list[str] = []
        self.tokens: list[tuple[str, ...]] = []
        self.best: dict[tuple[int, int], list[Example]] = {}
        self.maps: dict[int, list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]] = {}
        self.map_tokens = 0
        self.keeping_map = False

    def add_text(self, text: str, tokens: tuple[str, ...]) -> int:
        """Start a text; its index. Its q and k go to the map while the map has room."""
        self.texts.append(text)
        self.tokens.append(tuple(tokens))
        self._patterns = role_patterns(tokens)
        self.keeping_map = self.map_tokens + len(tokens) <= MAP_TOKENS or not self.map_tokens
        if self.keeping_map:
            self.map_tokens += len(tokens)
        self._counted = False
        return len(self.texts) - 1

    def add_layer(self, layer: int, a: np.ndarray, visible: np.ndarray, v_norm: np.ndarray,
                  q: np.ndarray | None = None, k: np.ndarray | None = None) -> None:
        """One layer of the current text: a (heads, n, n) A; visible (n, n) bool, the keys each row may see;
        v_norm (heads, n) ‖v_j‖; q, k (heads, n, d) the head's queries and (its group's) keys."""
        li, t = self.layers.index(layer), len(self.texts) - 1
        rows = np.arange(a.shape[1])
        even = np.where(visible, 1.0 / np.maximum(visible.sum(axis=1, keepdims=True), 1), 0.0)[None]  # (1, n, n)
        for role, (total, count) in row_shares(a.astype(np.float64), rows, self._patterns).items():
            self.sums[role][li] += total
            if not self._counted:  # rows are counted once per text, not once per layer
                self.counts[role] += count
        for role, (total, _) in row_shares(even, rows, self._patterns).items():
            self.even_sums[role][li] += total[0]
        self._counted = True
        flat, share, weight = best_pair(a.astype(np.float64), v_norm)
        for h in range(a.shape[0]):
            kept = self.best.setdefault((li, h), [])
            if share[h] <= 0:  # nothing outside the first token (a one-token text)
                continue
            qi, ki = divmod(int(flat[h]), a.shape[2])
            kept.append(Example(t, qi, ki, float(weight[h]), float(share[h])))
            kept.sort(key=lambda e: -e.share)
            del kept[KEEP_EXAMPLES:]
        if self.keeping_map and q is not None and k is not None:
            n = a.shape[1]
            self.maps.setdefault(li, []).append((q.astype(np.float16), k.astype(np.float16),
                                                 np.full(n, t, np.int32), np.arange(n, dtype=np.int32)))

    def finish(self) -> Atlas:
        def mean(sums: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
            return {r: sums[r] / self.counts[r] if self.counts[r] else np.full_like(sums[r], np.nan) for r in ROLES}

        shares, even = mean(self.sums), mean(self.even_sums)
        shares["rest"] = 1.0 - np.nanmax(np.stack([shares[r] for r in ROLES]), axis=0)
        maps = {li: (np.concatenate([m[0] for m in parts], axis=1), np.concatenate([m[1] for m in parts], axis=1),
                     np.concatenate([m[2] for m in parts]), np.concatenate([m[3] for m in parts]))
                for li, parts in self.maps.items()}
        return Atlas(tuple(self.texts), tuple(self.tokens), self.layers, self.n_heads, shares, even,
                     dict(self.counts), self.model, self.kind, self.best, maps)
