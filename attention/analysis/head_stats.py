"""One row of numbers per layer × head: what kind of head is this?

For the weights A (heads, query_pos, key_pos) of one site, each statistic is computed per query row
and averaged over the rows:

    entropy    −Σ_j a_ij·ln a_ij   in nats; 0 = all on one key, ln(n_keys) = spread evenly
    distance   Σ_j a_ij·|i − j|    how far, in tokens, the head looks (self-attention only)
    special    Σ_{j special} a_ij  share on [CLS], [SEP], <s>, … and on the first token
    previous   a_{i, i−1}          share on the token just before (self-attention only)
    self       a_{i, i}            share on the query's own token (self-attention only)

The previous-token share is averaged over the rows that have a previous token (not the first).
Cross-attention queries and keys are different sentences, so distance, previous and self are NaN there.
Rows with nothing to see (every key masked, all-zero weights) are left out of the averages.
Pure numpy: no Streamlit, no pandas.
"""

from __future__ import annotations

from dataclasses import asdict

import numpy as np

from attention import core
from attention.analysis import streamed
from attention.analysis.special_tokens import special_positions
from attention.trace import Site, Trace

from attention.analysis.head_stat_types import STAT_COLUMNS, HeadStats  # noqa: F401 - head_stats' API


def _offset(n_query: int, n_key: int) -> int:
    """Key position of query 0 (queries align with the last keys when there are more keys: a cache)."""
    return n_key - n_query


def row_distance(weights: np.ndarray) -> np.ndarray:
    """Σ_j a_ij |i − j| per row, self-attention. (..., query_pos, key_pos) -> (..., query_pos)."""
    n_q, n_k = weights.shape[-2:]
    i = np.arange(n_q)[:, None] + _offset(n_q, n_k)
    j = np.arange(n_k)[None, :]
    return np.sum(np.asarray(weights, dtype=np.float64) * np.abs(i - j), axis=-1)


def row_diagonal(weights: np.ndarray, shift: int) -> np.ndarray:
    """a_{i, i+shift} per row (0 where that key does not exist). shift 0: itself, −1: the previous token."""
    n_q, n_k = weights.shape[-2:]
    j = np.arange(n_q) + _offset(n_q, n_k) + shift
    ok = (j >= 0) & (j < n_k)
    out = np.zeros(weights.shape[:-1], dtype=np.float64)
    rows = np.arange(n_q)[ok]
    out[..., rows] = np.asarray(weights, dtype=np.float64)[..., rows, j[ok]]
    return out


def row_share(weights: np.ndarray, key_is: np.ndarray) -> np.ndarray:
    """Σ_{j: key_is[j]} a_ij per row. key_is: (key_pos,) bools."""
    return np.sum(np.asarray(weights, dtype=np.float64) * np.asarray(key_is, dtype=bool), axis=-1)


def _mean_rows(per_row: np.ndarray, live: np.ndarray) -> np.ndarray:
    """(heads, query_pos) -> (heads,): the mean over the live rows; NaN when none is live."""
    count = live.sum(axis=-1)
    total = np.where(live, per_row, 0.0).sum(axis=-1)
    return np.divide(total, count, out=np.full(total.shape, np.nan), where=count > 0)


def site_stats(site: Site) -> list[HeadStats]:
    """The statistics of every head of one site, head by head (a long site's in one pass of row tiles)."""
    if site.is_long:
        return streamed.summaries(site, thumb_max=0)[1]
    a = site.weights  # (heads, query_pos, key_pos)
    live = a.sum(axis=-1) > 0.5  # rows that really distribute attention
    nan = np.full(a.shape[0], np.nan)
    self_attention = site.kind != "cross"
    entropy = _mean_rows(core.entropy(a), live)
    special = _mean_rows(row_share(a, np.array(special_positions(site.key_tokens))), live)
    distance = _mean_rows(row_distance(a), live) if self_attention else nan
    has_previous = np.arange(a.shape[1]) + _offset(*a.shape[1:]) >= 1  # the first token has none
    previous = _mean_rows(row_diagonal(a, -1), live & has_previous) if self_attention else nan
    itself = _mean_rows(row_diagonal(a, 0), live) if self_attention else nan
    return [
        HeadStats(site.layer, h, site.kind, float(entropy[h]), float(distance[h]), float(special[h]),
                  float(previous[h]), float(itself[h]))
        for h in range(a.shape[0])
    ]


def head_stats(trace: Trace, kind: str = "encoder") -> list[HeadStats]:
    """Every layer × head of the trace's sites of one kind, in model order (layer, then head)."""
    sites = sorted((s for s in trace.sites if s.kind == kind), key=lambda s: s.layer)
    return [row for s in sites for row in site_stats(s)]


def as_records(stats: list[HeadStats]) -> list[dict]:
    """Plain dicts (one per head), ready for a table."""
    return [asdict(s) for s in stats]


def order_by(stats: list[HeadStats], column: str | None, ascending: bool = False) -> list[tuple[int, int]]:
    """(layer, head) pairs sorted by one statistic (NaN last, ties in model order); None: model order."""
    pairs = [(s.layer, s.head) for s in stats]
    if column is None:
        return pairs
    if column not in STAT_COLUMNS:
        raise ValueError(f"unknown statistic {column!r}; choose from {list(STAT_COLUMNS)}")
    values = [getattr(s, column) for s in stats]
    sign = 1.0 if ascending else -1.0
    order = sorted(range(len(stats)), key=lambda i: (np.isnan(values[i]), sign * np.nan_to_num(values[i]), i))
    return [pairs[i] for i in order]
