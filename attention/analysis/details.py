"""The numbers behind a selection: a query word's strongest keys and one cell, step by step."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from attention.analysis.special_tokens import is_special
from attention.analysis.value_weighted import contributions
from attention.trace import Site


@dataclass(frozen=True)
class KeyWeight:
    key: int
    token: str
    weight: float
    # weight × ‖v_j‖: how much this key can move the query's z at most. A "sink" such as [CLS] may
    # take much weight yet, with a short value vector, add little to z.
    moved: float = 0.0
    special: bool = False  # a tokenizer's marker ([CLS], [SEP], <s>, …)


@dataclass(frozen=True)
class CellDetail:
    """One (query, key) cell of one head, from the raw dot product to the weight."""

    query: int
    key: int
    query_token: str
    key_token: str
    dot: float  # q·k, the cell of S
    scale: float  # 1/√d_k as the model used it
    scaled: float  # what the softmax saw: q·k × scale (+ bias), or -inf-like when masked
    masked: bool
    weight: float  # the cell of A


def top_keys(site: Site, head: int, query: int, n: int = 5) -> list[KeyWeight]:
    """The n keys the query word attends to most, strongest first (masked keys excluded)."""
    row = site.pattern(head, slice(query, query + 1))[0]
    allowed = ~site.masked_rows(slice(query, query + 1))[0]
    order = [int(j) for j in np.argsort(-row, kind="stable") if allowed[j]]
    contrib = contributions(site.pattern(head, slice(query, query + 1))[None], site.head_v(head)[None])[0, 0]  # ‖α·v‖
    return [KeyWeight(j, site.key_tokens[j], float(row[j]), float(contrib[j]), is_special(site.key_tokens[j]))
            for j in order[:n]]


def cell_detail(site: Site, head: int, query: int, key: int) -> CellDetail:
    q = site.q[head, query].astype(np.float64)  # (d_head,)
    k = site.head_k(head)[key].astype(np.float64)  # (d_head,)
    masked = bool(site.masked_rows(slice(query, query + 1))[0, key])
    return CellDetail(
        query=query,
        key=key,
        query_token=site.query_tokens[query],
        key_token=site.key_tokens[key],
        dot=math.fsum((q * k).tolist()),  # correctly rounded: the same digits as anatomy's Σ and the browser's
        scale=site.scale,
        scaled=float(site.scaled_row(head, query)[key]),
        masked=masked,
        weight=float(site.pattern(head, slice(query, query + 1))[0, key]),
    )
