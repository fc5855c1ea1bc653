"""Which heads link a query word to a key word: every layer × head ranked by weight or raw score."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from attention.trace import Kind, Trace


@dataclass(frozen=True)
class HeadLink:
    kind: Kind
    layer: int
    head: int
    weight: float  # A[query, key] in this head
    score: float  # raw q·k
    rank: int  # 1 = the key is this query's strongest in this head


def rank_heads(tr: Trace, kind: Kind, query: int, key: int, by: Literal["weight", "score"] = "weight"
               ) -> list[HeadLink]:
    """Every head of every `kind` site, strongest link from `query` to `key` first."""
    links = []
    for site in tr.sites:
        if site.kind != kind:
            continue
        row = site.weights[:, query]  # (heads, key_pos)
        ranks = 1 + np.sum(row > row[:, key : key + 1], axis=1)  # keys weighted strictly more, plus one
        for h in range(site.n_heads):
            links.append(HeadLink(kind, site.layer, h, float(row[h, key]), float(site.scores[h, query, key]),
                                  int(ranks[h])))
    return sorted(links, key=lambda link: -(link.weight if by == "weight" else link.score))
