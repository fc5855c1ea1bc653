"""Value-weighted attention (Kobayashi et al., 2020): how much each key actually adds to a query's
output, not only how much weight it gets.

A query's output is z_i = Σ_j α_ij · v_j. The weight α_ij says where the query looks; the vector
α_ij · v_j is what key j adds to z_i. A key with a large weight but a tiny value vector (a "sink"
such as [CLS], [SEP] or a full stop) adds almost nothing:

    c_ij = ‖α_ij · v_j‖ = α_ij · ‖v_j‖        (α ≥ 0)
    ĉ_ij = c_ij / Σ_j' c_ij'                   normalised per row, so each row sums to 1 like A

The output projection W_O (and everything after it) is left out: this is the share of the head's own
output, before the heads are mixed. Pure numpy.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from attention.analysis.special_tokens import is_special
from attention.trace import Site


def contributions(weights: np.ndarray, v: np.ndarray) -> np.ndarray:
    """‖α_ij · v_j‖: (heads, query_pos, key_pos) weights and (heads, key_pos, d_head) values ->
    (heads, query_pos, key_pos), float64."""
    norms = np.linalg.norm(np.asarray(v, dtype=np.float64), axis=-1)  # (heads, key_pos)
    return np.abs(np.asarray(weights, dtype=np.float64)) * norms[:, None, :]


def value_weighted(weights: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Each key's share of the query's output, rows summing to 1 (a row with nothing to share: 0)."""
    c = contributions(weights, v)
    total = c.sum(axis=-1, keepdims=True)
    return np.divide(c, total, out=np.zeros_like(c), where=total > 0)


def site_value_weighted(site: Site) -> np.ndarray:
    """The value-weighted attention of every head of a site, (heads, query_pos, key_pos)."""
    return value_weighted(site.weights, site.v_heads)


def head_value_weighted(site: Site, head: int) -> np.ndarray:
    """One head, (query_pos, key_pos): site_value_weighted(site)[head] without the other heads' work."""
    return value_weighted(site.weights[head:head + 1], site.head_v(head)[None])[0]


def row_value_weighted(site: Site, head: int, query: int) -> np.ndarray:
    """One query row of one head, (key_pos,): what a click needs, without every head's n² (the same
    numbers as site_value_weighted(site)[head, query])."""
    return value_weighted(site.pattern(head, slice(query, query + 1))[None], site.head_v(head)[None])[0, 0]


@dataclass(frozen=True)
class SinkShare:
    """What the special tokens (the usual "sinks") get, averaged over heads and query rows."""

    tokens: tuple[str, ...]  # the special key tokens counted
    weight: float  # their share of the attention weight
    value_weighted: float  # their share of the value-weighted attention


def sink_share(site: Site, keys: Iterable[int] | None = None) -> SinkShare:
    """The weight and value-weighted share of the key columns `keys` (default: the special tokens),
    averaged over every head and every query row that can see at least one key."""
    cols = [j for j, tok in enumerate(site.key_tokens) if is_special(tok)] if keys is None else list(keys)
    vw = site_value_weighted(site)
    seen = ~site.masked.all(axis=-1)  # (query_pos,) rows with at least one visible key
    if not cols or not seen.any():
        return SinkShare(tuple(site.key_tokens[j] for j in cols), 0.0, 0.0)
    w = site.weights[:, seen][:, :, cols].sum(axis=-1).mean()
    c = vw[:, seen][:, :, cols].sum(axis=-1).mean()
    return SinkShare(tuple(site.key_tokens[j] for j in cols), float(w), float(c))


@dataclass(frozen=True)
class FirstToken:
    """What each head's query row gives the first token (StreamingLLM's "attention sink", Xiao et al. 2023)."""

    weight: np.ndarray  # (heads,) α on the first key
    value_weighted: np.ndarray  # (heads,) its share of ‖α·v‖
    value_norm: np.ndarray  # (heads,) ‖v_first‖ / the mean ‖v‖ of the other keys it sees (nan: none)


def first_token(site: Site, query: int = -1) -> FirstToken:
    """Per head, for one query row (default: the newest): the first key's weight beside its value-weighted
    share. A head that parks weight on a first token whose value is small adds little from it."""
    weights = site.weights[:, query]  # (heads, key_pos)
    share = value_weighted(weights[:, None, :], site.v_heads)[:, 0, 0]
    norms = np.linalg.norm(np.asarray(site.v_heads, dtype=np.float64), axis=-1)  # (heads, key_pos)
    seen = ~np.asarray(site.masked)[query]  # (key_pos,) the keys this row can see
    seen[0] = False
    others = norms[:, seen].mean(axis=-1) if seen.any() else np.full(norms.shape[0], np.nan)
    ratio = np.divide(norms[:, 0], others, out=np.full_like(others, np.nan), where=others > 0)
    return FirstToken(np.asarray(weights[:, 0], dtype=np.float64), share, ratio)
