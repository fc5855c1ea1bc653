"""One head's A at any length as a picture of at most `side` pixels a side, max-pooled: each pixel holds
the largest weight of its cell × cell block, so a sink column or a single strong cell stays visible (a mean
would wash them out). Made tile by tile from Site.pattern: never the head's n × n at once."""

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


def cell_for(n: int, side: int = SIDE) -> int:
    return max(1, math.ceil(n / side))


def pool_rows(block: np.ndarray, cell: int) -> np.ndarray:
    """(rows, cols) -> (ceil(rows / cell), ceil(cols / cell)), the maximum of each cell × cell block."""
    rows, cols = block.shape
    out_r, out_c = math.ceil(rows / cell), math.ceil(cols / cell)
    padded = np.full((out_r * cell, out_c * cell), -np.inf, np.float32)
    padded[:rows, :cols] = block
    return padded.reshape(out_r, cell, out_c, cell).max(axis=(1, 3))


def pooled_pattern(site: Site, head: int, side: int = SIDE) -> Pooled:
    """A of one head, max-pooled to at most `side` pixels a side."""
    n_query, n_key = site.shape
    cell = cell_for(max(n_query, n_key), side)
    step = cell * max(1, (1 << 20) // max(1, n_key * cell))  # about 4 MiB of A rows at a time, whole cells
    parts = [pool_rows(site.pattern(head, slice(r0, min(n_query, r0 + step))), cell) for r0 in range(0, n_query, step)]
    image = np.concatenate(parts) if parts else np.zeros((0, math.ceil(n_key / cell)), np.float32)
    return Pooled(image=image, cell=cell)
