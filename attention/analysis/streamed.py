"""The Overview's summaries of a long site (trace.Site.is_long) in one pass over its heads, a tile of query
rows at a time: every head's thumbnail and statistics, without any head's n × n kept (at 8,192 tokens one
head's A is 256 MiB). The numbers are head_stats' and overview_data's, summed tile by tile instead of
over the whole matrix (float64 sums in another order: equal to ~1e-12)."""

from __future__ import annotations

import numpy as np

from attention import core
from attention.analysis.head_stat_types import HeadStats
from attention.analysis.special_tokens import special_positions
from attention.trace import Site

def block_index(n: int, blocks: int) -> tuple[np.ndarray, np.ndarray]:
    """(edges (blocks + 1,), the block of each of 0..n−1 (n,)): overview_data.block_edges' blocks."""
    blocks = max(1, min(n, blocks))
    edges = (np.arange(blocks + 1) * n) // blocks
    return edges, np.searchsorted(edges, np.arange(n), side="right") - 1


def summaries(site: Site, thumb_max: int) -> tuple[dict[int, np.ndarray], list[HeadStats]]:
    """Per head its thumbnail (thumb_max 0: none, only the statistics; else at most thumb_max² float32: key blocks summed, query blocks averaged, as
    overview_data.downsample) and its HeadStats (as head_stats.site_stats)."""
    n_q, n_k = site.shape
    offset = n_k - n_q  # key position of query 0
    q_edges, q_block = block_index(n_q, max(1, thumb_max))
    k_edges, _ = block_index(n_k, max(1, thumb_max))
    special = np.zeros(n_k, bool)
    special[list(special_positions(site.key_tokens))] = True
    self_attention = site.kind != "cross"
    thumbs, stats = {}, []
    for h in range(site.n_heads):
        thumb = np.zeros((len(q_edges) - 1, len(k_edges) - 1))
        sums = dict.fromkeys(("entropy", "distance", "special", "previous", "self"), 0.0)
        counts = dict.fromkeys(("live", "previous"), 0)
        for r0 in range(0, n_q, site.row_tile):  # the site's own tiles: each computed once
            a = site.pattern(h, slice(r0, min(n_q, r0 + site.row_tile))).astype(np.float64)  # (rows, n_k)
            rows = np.arange(r0, r0 + a.shape[0])
            if thumb_max:  # 0: statistics alone (head_stats)
                np.add.at(thumb, q_block[rows], np.add.reduceat(a, k_edges[:-1], axis=1))
            live = a.sum(axis=-1) > 0.5
            sums["entropy"] += core.entropy(a)[live].sum()
            sums["special"] += (a * special).sum(axis=-1)[live].sum()
            counts["live"] += int(live.sum())
            if self_attention:
                i = rows + offset
                sums["distance"] += (a * np.abs(i[:, None] - np.arange(n_k)[None, :])).sum(axis=-1)[live].sum()
                inside = (i >= 0) & (i < n_k)
                sums["self"] += a[np.flatnonzero(inside & live), i[inside & live]].sum()
                before = live & (i >= 1) & (i - 1 < n_k)
                sums["previous"] += a[np.flatnonzero(before), i[before] - 1].sum()
                counts["previous"] += int(before.sum())
        thumbs[h] = (thumb / np.diff(q_edges)[:, None]).astype(np.float32)
        live_n, prev_n = counts["live"], counts["previous"]

        def mean(total: float, count: int, applies: bool = True) -> float:
            return total / count if applies and count else float("nan")

        stats.append(HeadStats(site.layer, h, site.kind, mean(sums["entropy"], live_n),
                               mean(sums["distance"], live_n, self_attention), mean(sums["special"], live_n),
                               mean(sums["previous"], prev_n, self_attention), mean(sums["self"], live_n, self_attention)))
    return thumbs, stats
