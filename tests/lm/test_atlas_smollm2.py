"""SmolLM2's atlas (texts read in one padded batch) against the shares recomputed by hand, row by row,
from attention.trace's weights of each text alone."""

from __future__ import annotations

import numpy as np
import pytest

import attention

TEXTS = ["The cat sat on the mat and the cat sat down.", "A big dog ran. A big dog ran home."]
HEADS = [(0, 0), (18, 6), (29, 8)]


def _by_hand(weights: np.ndarray, tokens: tuple[str, ...]) -> dict[str, list[float]]:
    """Each role's per-row values of one head, (n, n) weights, written as the issue defines them."""
    rows: dict[str, list[float]] = {r: [] for r in ("previous", "first", "induction", "duplicate", "local")}
    for i in range(len(tokens)):
        rows["local"].append(float(weights[i, max(0, i - 3):i + 1].sum()))
        if i >= 1:
            rows["previous"].append(float(weights[i, i - 1]))
            rows["first"].append(float(weights[i, 0]))
        earlier = [j for j in range(i - 1) if tokens[j] == tokens[i]]
        if earlier:
            rows["induction"].append(float(sum(weights[i, j + 1] for j in earlier)))
            rows["duplicate"].append(float(sum(weights[i, j] for j in earlier)))
    return rows


def test_atlas_shares_equal_the_ones_recomputed_from_trace(smollm2) -> None:
    seen: list[int] = []
    at = attention.head_atlas(TEXTS, model="smollm2", progress=lambda done, total: seen.append(done))
    assert seen == [1, 2] and at.shares["previous"].shape == (30, 9) and at.layers == tuple(range(30))
    traces = [attention.trace(text, model="smollm2") for text in TEXTS]
    assert [tr.tokens for tr in traces] == list(at.tokens)  # the batch dropped its padding
    for layer, head in HEADS:
        pooled: dict[str, list[float]] = {}
        for tr in traces:
            for role, values in _by_hand(tr.site(layer, "decoder").weights[head], tr.tokens).items():
                pooled.setdefault(role, []).extend(values)
        got = at.head_shares(layer, head)
        assert pooled["induction"], "the texts must repeat tokens"
        for role, values in pooled.items():
            assert got[role] == pytest.approx(np.mean(values), abs=1e-4), (layer, head, role)
    examples = at.examples(18, 6, k=2)
    assert len(examples) == 2 and all(e.key >= 1 and 0 <= e.weight <= 1 for e in examples)
