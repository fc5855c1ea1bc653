"""One head's A at any length as a picture of at most `side` pixels a side, max-pooled: each pixel holds
the largest weight of its cell × cell block, so a sink column or a single strong cell stays visible (a mean
would wash them out). Made tile by tile from Site.pattern: never the head's n × n at once.

The same pass keeps, per query row, its largest weight and where it is (the row's anchor, O(n)): with it
a whole column of A is exact in O(n·d) (analysis/long_rows.column), without another pass over n × n."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from attention.trace import Site

SIDE = 1024  # pixels a side at most


@dataclass(frozen=True)
class Pooled:
    image: np.ndarray  # (ceil(query_pos / cell), ceil(key_pos / cell)) float32: the largest weight of each block
    cell: int  # positions a pixel covers on each axis (1: exact)
    # (ceil(query_pos / cell), ceil(key_pos / cell)) bool: every key of the block is hidden from every query of it
    hidden: np.ndarray | None = None
    anchor_key: np.ndarray | None = None  # (query_pos,) int: the key of each row's largest weight
    anchor_weight: np.ndarray | None = None  # (query_pos,) float32: that weight


def cell_for(n: int, side: int = SIDE) -> int:
    return max(1, math.ceil(n / side))


def pool_rows(block: np.ndarray, cell: int) -> np.ndarray:
    """(rows, cols) -> (ceil(rows / cell), ceil(cols / cell)), the maximum of each cell × cell block."""
    rows, cols = block.shape
    out_r, out_c = math.ceil(rows / cell), math.ceil(cols / cell)
    fill = False if block.dtype == bool else -np.inf
    padded = np.full((out_r * cell, out_c * cell), fill, block.dtype if block.dtype == bool else np.float32)
    padded[:rows, :cols] = block
    return padded.reshape(out_r, cell, out_c, cell).max(axis=(1, 3))


def pooled_pattern(site: Site, head: int, side: int = SIDE) -> Pooled:
    """A of one head, max-pooled to at most `side` pixels a side, with each row's anchor."""
    n_query, n_key = site.shape
    cell = cell_for(max(n_query, n_key), side)
    step = cell * max(1, (1 << 20) // max(1, n_key * cell))  # about 4 MiB of A rows at a time, whole cells
    parts, hidden, keys, weights = [], [], [], []
    for r0 in range(0, n_query, step):
        rows = slice(r0, min(n_query, r0 + step))
        a = site.pattern(head, rows)  # (step, key_pos)
        parts.append(pool_rows(a, cell))
        hidden.append(~pool_rows(~site.masked_rows(rows), cell))  # a block is hidden when no cell of it is seen
        keys.append(a.argmax(axis=1))
        weights.append(a.max(axis=1, initial=0.0))
    width = math.ceil(n_key / cell)
    image = np.concatenate(parts) if parts else np.zeros((0, width), np.float32)
    return Pooled(image=image, cell=cell,
                  hidden=np.concatenate(hidden) if hidden else np.zeros((0, width), bool),
                  anchor_key=np.concatenate(keys) if keys else np.zeros(0, np.int64),
                  anchor_weight=np.concatenate(weights).astype(np.float32) if weights else np.zeros(0, np.float32))
