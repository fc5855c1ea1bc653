"""What the Overview page draws for one trace, one kind of attention and the whole-words choice: every
head's thumbnail, the head statistics, the rollout, and the mapping between token positions and the
rows drawn (words, when merging). Pure: no Streamlit; the page caches one per (model, text, kind, merge).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attention.analysis import head_stats, rollout, word_merge
from attention.analysis.head_stats import HeadStats
from attention.trace import Trace

THUMB_MAX = 48  # cells per side of a thumbnail, at most


def block_edges(n: int, blocks: int) -> np.ndarray:
    """Boundaries of `blocks` contiguous, non-empty, near-equal blocks of 0..n: (blocks + 1,) ints."""
    blocks = max(1, min(n, blocks))
    return (np.arange(blocks + 1) * n) // blocks


def downsample(weights: np.ndarray, max_cells: int = THUMB_MAX) -> np.ndarray:
    """(query_pos, key_pos) -> at most (max_cells, max_cells), float32: key blocks summed, query blocks
    averaged (each row still sums to what it summed to)."""
    a = np.asarray(weights, dtype=np.float64)
    n_q, n_k = a.shape
    q_edges, k_edges = block_edges(n_q, max_cells), block_edges(n_k, max_cells)
    summed = np.add.reduceat(a, k_edges[:-1], axis=1)
    averaged = np.add.reduceat(summed, q_edges[:-1], axis=0) / np.diff(q_edges)[:, None]
    return averaged.astype(np.float32)


def query_block(n_query: int, query: int, max_cells: int = THUMB_MAX) -> int:
    """Which thumbnail row holds query position `query`."""
    return int(np.searchsorted(block_edges(n_query, max_cells), query, side="right") - 1)


@dataclass(frozen=True, eq=False)
class Overview:
    kind: str
    merged: bool
    thumbs: dict[tuple[int, int], np.ndarray]  # (layer, head) -> at most THUMB_MAX² float32 weights
    query_rows: word_merge.Rows  # the rows drawn: tokens, or whole words when merged
    key_labels: list[str]
    heads_per_layer: int
    stats: list[HeadStats]  # always per token (statistics of the model's own attention)
    rollout: np.ndarray | None  # (rows, rows) when has_rollout, else None
    long: bool = False  # a long trace: per token, no rollout (_build_long)

    @property
    def query_labels(self) -> list[str]:
        return self.query_rows.labels

    @property
    def n_query(self) -> int:
        return len(self.query_labels)

    def to_shown(self, position: int | None) -> int | None:
        """A token position -> the row it is drawn in (its word, when merging); None if out of range."""
        return self.query_rows.row_of(position)

    def to_token(self, shown: int) -> int:
        """A drawn row -> a token position (a word's first piece)."""
        return self.query_rows.first_token(shown)


def has_rollout(trace: Trace, kind: str) -> bool:
    """Rollout follows a stack of self-attention layers that nothing else feeds: an encoder, or a
    decoder-only model (GPT-2). A decoder with cross-attention between its layers has none."""
    return kind == "encoder" or (kind == "decoder" and "cross" not in trace.kinds)


def build(trace: Trace, kind: str, merge_words: bool) -> Overview:
    """Everything the Overview draws for the trace's sites of one kind."""
    sites = sorted((s for s in trace.sites if s.kind == kind), key=lambda s: s.layer)
    if not sites:
        raise ValueError(f"the trace has no {kind} attention")
    if any(s.is_long for s in sites):
        return _build_long(trace, kind, sites)
    thumbs: dict[tuple[int, int], np.ndarray] = {}
    for site in sites:
        weights, _, key_labels = word_merge.site_weights(site, merge_words)
        for h in range(site.n_heads):
            thumbs[(site.layer, h)] = downsample(weights[h])
    rows = word_merge.Rows.of(sites[0].query_tokens, merge_words)
    stats = head_stats.head_stats(trace, kind)
    return _overview(trace, kind, merge_words, thumbs, rows, key_labels, sites, stats)


def _build_long(trace: Trace, kind: str, sites: list) -> Overview:
    """A long trace (no n × n kept): thumbnails and statistics in one pass over each site's row tiles, per
    token (no whole words: merging would need every head's n × n), and no rollout (pos × pos float64 per
    layer, n³ work); `long` says so on the page."""
    from attention.analysis import streamed

    thumbs: dict[tuple[int, int], np.ndarray] = {}
    stats = []
    for site in sites:
        per_head, site_stats = streamed.summaries(site, THUMB_MAX)
        thumbs.update({(site.layer, h): thumb for h, thumb in per_head.items()})
        stats += site_stats
    rows = word_merge.Rows.of(sites[0].query_tokens, False)
    return Overview(kind=kind, merged=False, thumbs=thumbs, query_rows=rows, key_labels=list(sites[0].key_tokens),
                    heads_per_layer=sites[0].n_heads, stats=stats, rollout=None, long=True)


def _overview(trace: Trace, kind: str, merge_words: bool, thumbs, rows, key_labels, sites, stats) -> Overview:
    rolled = None
    if has_rollout(trace, kind):
        rolled = rollout.trace_rollout(trace, kind)
        if merge_words:
            rolled = word_merge.merge_matrix(rolled, rows.groups, rows.groups)
    return Overview(
        kind=kind, merged=merge_words, thumbs=thumbs, query_rows=rows, key_labels=key_labels,
        heads_per_layer=sites[0].n_heads, stats=stats, rollout=rolled,
    )
