"""What an evicted cache cost, as data for the Forget page (numpy only)."""

from __future__ import annotations

import numpy as np


def heads_lost_most(lost: np.ndarray, top: int = 10, floor: float = 1e-3) -> list[tuple[int, int, float]]:
    """[(layer, head, weight), …] the heads whose full-cache row put the most weight on evicted keys, largest
    first, at most `top`, none under `floor` (a weight that small moves nothing). lost (layers, heads)."""
    order = np.argsort(-lost, axis=None, kind="stable")[:top]
    heads = lost.shape[1]
    return [(int(i // heads), int(i % heads), float(lost.flat[i])) for i in order if lost.flat[i] >= floor]
