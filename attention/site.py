"""One attention site: what a model's attention function received and returned, and what we recompute.

One frozen `Site` per attention call (layer × kind). Every array is numpy, read-only, float32:

    q, k, v   (heads, pos, d_head)            hook_q / hook_k / hook_v
    scores    (heads, query_pos, key_pos)     hook_attn_scores before scaling: raw Q·Kᵀ
    weights   (heads, query_pos, key_pos)     hook_pattern: softmax of the scaled, masked scores
    z         (heads, query_pos, d_head)      hook_z: weights·V

`scores`, `weights` and `z` are recomputed here by core.py from q, k, v and the mask the model
used, and compared with what the model itself computed (`model_weights`, `model_z`):
`weights_diff` and `z_diff` are the largest absolute differences. The page warns when they exceed
TOLERANCE, so the picture never lies.

A long site (captured at lengths where every head's n × n would not fit: capture/attention_fn.py's lean
recording) keeps O(n·d): q, z, the model's z, and k, v once per key/value group (kv_heads, key_pos,
d_head); `model_weights` is None and the mask is a rule (`causal_offset`), not an n × n array. One
head's rows are computed when asked (`pattern(head, rows)`, `score_rows`, `z_rows`), in blocks of query
rows, and what a page asks for whole is kept in head_cache's byte budget. Its check compares z, head by
head and block by block (`check_diff`), since the model's own weights were never made.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Literal

import numpy as np

from attention import blas, core, head_cache, site_rows

Kind = Literal["encoder", "decoder", "cross"]
KINDS: tuple[Kind, ...] = ("encoder", "decoder", "cross")
# Why a site has the model's weights but no q, k, v (Site.missing_qkv): "disentangled", the scores add
# position terms computed inside the module (DeBERTa); "local", Longformer local attention with global
# tokens (the local band alone is rebuilt); "unknown", attention inside a module we have no recipe for; "not_reproduced", our recomputation did not match the model's own weights.
MISSING_QKV: tuple[str, ...] = ("disentangled", "local", "not_reproduced", "unknown")
TOLERANCE = 1e-5  # the largest |our number − the model's own| a faithful site may show


def _frozen(a: np.ndarray | None) -> np.ndarray | None:
    if a is None:
        return None
    a = np.asarray(a, dtype=np.float32).view()  # a slice stays a slice (1,024 tokens: 37 MB not copied a word)
    a.flags.writeable = False  # the view only: the caller's array keeps its own flag
    return a


@dataclass(frozen=True, eq=False)
class Site:
    """One attention call site: what the model's attention function received and returned.

    scores, weights and z are recomputed by core.py from q, k, v, the scale and the mask the first
    time any of them is read (a page that shows one layer pays for one layer), then kept.
    """

    layer: int
    kind: Kind
    query_tokens: tuple[str, ...]
    key_tokens: tuple[str, ...]
    q: np.ndarray  # (heads, query_pos, d_head)
    k: np.ndarray  # (heads, key_pos, d_head); a long site: (kv_heads, key_pos, d_head), see head_k()
    v: np.ndarray  # (heads, key_pos, d_head); a long site: (kv_heads, key_pos, d_head)
    scale: float
    # (heads, query_pos, key_pos) the weights the model itself used; None: not made (a long site)
    model_weights: np.ndarray | None
    model_z: np.ndarray  # (heads, query_pos, d_head) the output the model itself produced
    mask: np.ndarray | None = None  # (query_pos, key_pos) additive: 0 allowed, core.MASKED hidden
    bias: np.ndarray | None = None  # (heads, query_pos, key_pos) additive, e.g. T5 position bias
    softcap: float | None = None
    name: str = ""  # the module's qualified name in the model
    input_tokens: tuple[str, ...] | None = None  # decoder: the word fed in at each query position
    query_inputs: np.ndarray | None = None  # (query_pos, d_model) what W_Q was applied to, when known
    key_inputs: np.ndarray | None = None  # (key_pos, d_model) what W_K and W_V were applied to, when known
    sinks: np.ndarray | None = None  # (heads,) sink logits (GPT-OSS): a share of each row goes to no key
    # "" when q, k, v are the model's own; else one of MISSING_QKV: q, k, v are empty (d_head 0), the
    # weights are the model's own, and S and Z are not available (scores are NaN, z has no columns).
    missing_qkv: str = ""
    # with mask None: key j is hidden from query i when j > i + causal_offset (a long causal site keeps
    # the rule, not 256 MiB of mask at 8,192 tokens); None: the mask is `mask`
    causal_offset: int | None = None

    # ---- what a site computes: whole (a site that holds the model's weights) or by head and rows (a long site)

    @property
    def is_long(self) -> bool:
        """The model's own weights were not made (a long capture): every n × n is computed when asked, by head."""
        return self.model_weights is None and not self.missing_qkv

    @property
    def _recomputed(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, float, float]:
        # Kept in the instance's __dict__ rather than with functools.cached_property, whose lock
        # (Python 3.11) is shared by every Site: sessions reading different sites of shared traces
        # would wait for each other. Two threads racing on one site compute the same numbers.
        done = self.__dict__.get("_recomputed_cache")
        if done is None:
            done = self.__dict__["_recomputed_cache"] = self._recompute()
        return done

    def take_recomputation(self, scores: np.ndarray, weights: np.ndarray, z: np.ndarray, weights_diff: float,
                           z_diff: float) -> None:
        """Keep a recomputation the caller already made by core.attention from this site's own q, k, v (and
        its largest differences from the model's weights and z) instead of making it again when read:
        lm/rows.Recomputed grows it a row per written word. The arrays are kept as given (views are not
        copied) and made read-only."""
        for a in (scores, weights, z):
            a.flags.writeable = False
        self.__dict__["_recomputed_cache"] = (scores, weights, z, float(weights_diff), float(z_diff))

    def _recompute(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, float, float]:
        """float32, as the models compute; core.py follows its own order of operations, so
        agreement to ~1e-7 is evidence, not an echo of the model's numbers."""
        if self.missing_qkv:  # nothing to recompute from: the model's weights, and no S or Z
            scores = np.full(self.model_weights.shape, np.nan, np.float32)
            return _frozen(scores), self.model_weights, self.model_z, 0.0, 0.0
        with blas.one_thread():
            scores, weights, z = core.attention(
                self.q, self.k, self.v, scale=self.scale, mask=self.mask, bias=self.bias, softcap=self.softcap,
                sinks=self.sinks,
            )
        return (
            _frozen(scores),
            _frozen(weights),
            _frozen(z),
            site_rows.max_abs_diff(weights, self.model_weights),
            site_rows.max_abs_diff(z, self.model_z),
        )

    def _every_head(self) -> np.ndarray:
        """A long site asked for every head at once: made, and kept only within head_cache's budget."""
        return head_cache.get(self._key("all"), lambda: _frozen(site_rows.every_head(self)))

    def _key(self, *what: object) -> tuple:
        owner = self.__dict__.get("_owner")
        if owner is None:
            owner = self.__dict__.setdefault("_owner", head_cache.new_owner())
        return (owner, *what)

    @property
    def shape(self) -> tuple[int, int]:
        """(query_pos, key_pos)."""
        return (self.q.shape[1], self.k.shape[1]) if not self.missing_qkv else tuple(self.model_weights.shape[1:])

    def head_k(self, head: int) -> np.ndarray:
        """(key_pos, d_head) the keys query head `head` reads: its key/value group's (head · kv_heads // heads)."""
        return self.k[head * self.k.shape[0] // self.n_heads]

    def head_v(self, head: int) -> np.ndarray:
        """(key_pos, d_v) the values query head `head` reads."""
        return self.v[head * self.v.shape[0] // self.n_heads]

    @property
    def v_heads(self) -> np.ndarray:
        """(heads, key_pos, d_v) the values every query head reads (a long site's groups repeated: a copy)."""
        rep = self.n_heads // max(1, self.v.shape[0])
        return self.v if rep == 1 else np.repeat(self.v, rep, axis=0)

    def mask_rows(self, rows: slice | np.ndarray = slice(None)) -> np.ndarray | None:
        """(len(rows), key_pos) the additive mask of these query rows; None when nothing is hidden."""
        return site_rows.mask_rows(self, rows)

    @property
    def row_tile(self) -> int:
        """Query rows a long site computes together (a fixed grid: see site_rows)."""
        return site_rows.row_tile(self.shape[1])

    def _rows(self, head: int, rows, what: int) -> np.ndarray:
        """Rows of one head of a long site, made tile by tile (what: 0 S, 1 A, 2 Z): see site_rows."""
        return site_rows.head_rows(self, head, rows, what)

    def score_rows(self, head: int, rows: slice | np.ndarray | None = None) -> np.ndarray:
        """(len(rows), key_pos) raw Q·Kᵀ of one head's query rows (hook_attn_scores); rows None: the whole
        head, kept within head_cache's budget on a long site. The one name for one head's S."""
        if not self.is_long:
            return self.scores[head] if rows is None else self.scores[head][rows]
        if rows is None:
            return head_cache.get(self._key("S", head), lambda: _frozen(self._rows(head, slice(None), 0)))
        return self._rows(head, rows, 0)

    def pattern(self, head: int, rows: slice | np.ndarray | None = None) -> np.ndarray:
        """(len(rows), key_pos) A of one head's query rows (hook_pattern); rows None: the whole head
        (query_pos, key_pos). Computed when asked on a long site, a whole head kept within head_cache's budget.
        The one name for one head's A (`weights` is every head's, (heads, query_pos, key_pos))."""
        if not self.is_long:
            return self.weights[head] if rows is None else self.weights[head][rows]
        if rows is None:
            return head_cache.get(self._key("A", head), lambda: _frozen(self._rows(head, slice(None), 1)))
        return self._rows(head, rows, 1)

    def z_rows(self, head: int, rows: slice | np.ndarray | None = None) -> np.ndarray:
        """(len(rows), d_v) Z = A·V of one head's query rows (hook_z); rows None: every row."""
        rows = slice(None) if rows is None else rows
        if not self.is_long:
            return self.z[head][rows]
        return self._rows(head, rows, 2)

    def head_scores(self, head: int) -> np.ndarray:
        """Deprecated: score_rows(head), one head's whole S."""
        warnings.warn("Site.head_scores(h) is now Site.score_rows(h)", DeprecationWarning, stacklevel=2)
        return self.score_rows(head)

    def head_weights(self, head: int) -> np.ndarray:
        """Deprecated: pattern(head), one head's whole A."""
        warnings.warn("Site.head_weights(h) is now Site.pattern(h)", DeprecationWarning, stacklevel=2)
        return self.pattern(head)

    @property
    def scores(self) -> np.ndarray:
        """(heads, query_pos, key_pos): raw Q·Kᵀ, before scaling (hook_attn_scores)."""
        return self._every_head()[0] if self.is_long else self._recomputed[0]

    @property
    def weights(self) -> np.ndarray:
        """(heads, query_pos, key_pos): softmax of the scaled, masked scores (hook_pattern)."""
        return self._every_head()[1] if self.is_long else self._recomputed[1]

    @property
    def z(self) -> np.ndarray:
        """(heads, query_pos, d_head): weights · V (hook_z)."""
        if self.is_long:
            return head_cache.get(self._key("Z"), lambda: _frozen(np.stack(
                [self._rows(h, slice(None), 2) for h in range(self.n_heads)])))
        return self._recomputed[2]

    @property
    def weights_diff(self) -> float:
        """max |our weights − the model's own|; NaN on a long site (the model's weights were never made)."""
        if self.is_long:
            return float("nan")
        return self._recomputed[3]

    @property
    def z_diff(self) -> float:
        """max |our z − the model's own|. A long site compares head by head, a block of rows at a time,
        and keeps the figure, not our z."""
        if not self.is_long:
            return self._recomputed[4]
        done = self.__dict__.get("_z_diff")
        if done is None:
            done = self.__dict__["_z_diff"] = site_rows.z_diff(self)
        return done

    def row_z_diff(self, rows: slice | np.ndarray = slice(None)) -> np.ndarray:
        """(len(rows),) per query row, the largest |our z − the model's| over the heads (a writer checks
        each row once): see site_rows."""
        return site_rows.row_z_diff(self, rows)

    def take_z_diff(self, value: float) -> None:
        """Keep a check the caller made over these rows (row_z_diff), not made again when read."""
        self.__dict__["_z_diff"] = float(value)

    @property
    def weights_compared(self) -> bool:
        """Whether the check compared the weights too (False on a long site: z alone)."""
        return not self.is_long

    @property
    def check_diff(self) -> float:
        """The check's figure: the largest difference of what was compared (weights and z, or z alone)."""
        return self.z_diff if self.is_long else max(self.weights_diff, self.z_diff)

    @property
    def has_qkv(self) -> bool:
        """q, k, v (and so S and Z) are known; False for a site that holds only the model's weights."""
        return not self.missing_qkv

    @property
    def sink_share(self) -> np.ndarray | None:
        """(heads, query_pos): the weight each row gives the sink (1 − the row's sum), None without sinks."""
        if self.sinks is None:
            return None
        return (1.0 - self.weights.astype(np.float64).sum(-1)).astype(np.float32)

    @property
    def n_heads(self) -> int:
        return self.q.shape[0]

    @property
    def d_head(self) -> int:
        return self.q.shape[-1]

    def scaled(self, head: int) -> np.ndarray:
        """(query_pos, key_pos) of one head, float64: the scores after ×scale, softcap, bias and the
        mask — exactly what the softmax sees (core.logits)."""
        if self.missing_qkv:
            return np.full(self.model_weights.shape[1:], np.nan)
        bias = None if self.bias is None else self.bias[head]
        return core.logits(self.score_rows(head).astype(np.float64), self.scale, self.softcap, bias,
                           self.mask_rows())

    def masked_rows(self, rows: slice | np.ndarray = slice(None)) -> np.ndarray:
        """(len(rows), key_pos) bools of these query rows: True where the row may not see the key."""
        mask = self.mask_rows(rows)
        n = len(np.atleast_1d(np.arange(self.shape[0])[rows]))
        return np.zeros((n, self.shape[1]), bool) if mask is None else np.broadcast_to(mask <= core.MASKED / 2, (n, self.shape[1]))

    def scaled_row(self, head: int, query: int) -> np.ndarray:
        """(key_pos,) float64: one row of scaled(head), without the head's whole matrix."""
        if not self.is_long:
            return self.scaled(head)[query]
        bias = None if self.bias is None else self.bias[head][query]
        mask = self.mask_rows(slice(query, query + 1))
        return core.logits(self.score_rows(head, slice(query, query + 1))[0].astype(np.float64), self.scale,
                           self.softcap, bias, None if mask is None else mask[0])

    @property
    def masked(self) -> np.ndarray:
        """(query_pos, key_pos) bools: True where the query may not see the key."""
        if self.mask is None and self.causal_offset is not None:
            return np.arange(self.shape[1])[None, :] > np.arange(self.shape[0])[:, None] + self.causal_offset
        return core.is_masked(self.mask, self.shape)

    @property
    def faithful(self) -> bool:
        return self.check_diff <= TOLERANCE
