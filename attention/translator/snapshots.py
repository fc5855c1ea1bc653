"""The translator's training snapshots traced on one sentence, and its alignment over training.

Uncached: the app keeps the results in its one byte-bounded cache (attention/ui/cache.py).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from attention.analysis.learning_curves import SnapshotTraces
from attention.translator.api import load_snapshots, teacher_forced, translate
from attention.translator.model import Transformer


def snapshot_traces(text: str, final: Transformer | None = None,
                    snapshots: Sequence[tuple[int, Transformer]] | None = None) -> SnapshotTraces:
    """Every snapshot teacher-forced on the final model's translation of `text` (the same words at
    every step). `final` and `snapshots` default to the shipped ones."""
    target = translate(text, model=final).text
    snapshots = load_snapshots() if snapshots is None else snapshots
    traces = tuple(teacher_forced(text, target, model).trace for _, model in snapshots)
    return SnapshotTraces(text, target, tuple(step for step, _ in snapshots), traces)


def alignment_over_training(snapshots: Sequence[tuple[int, Transformer]] | None = None, n_pairs: int = 300,
                            batch_size: int = 500) -> tuple[tuple[int, ...], np.ndarray]:
    """(steps, (n_steps, decoder layers, heads)): per head, the share of target words whose strongest
    cross-attention falls on their gold source word, on the first n_pairs of the test split.
    batch_size: pairs per forward pass (the same figures at any size; smaller holds less memory)."""
    from attention.translator.corpus import build_corpus
    from attention.translator.evaluate import cross_alignment

    test = build_corpus().test[:n_pairs]
    snapshots = load_snapshots() if snapshots is None else snapshots
    return tuple(s for s, _ in snapshots), np.stack([cross_alignment(m, test, batch_size) for _, m in snapshots])
