"""The translator's training snapshots traced on one sentence, and its alignment over training.

The alignment curve is measured once, when the weights are written (train.py, or
`python -m attention.translator.snapshots` for weights trained before it did), and stored beside
them in alignment.json: measuring it needs the corpus's test split, and building the corpus takes
seconds the Learning page's first visit should not spend.

Uncached: the app keeps the results in its one byte-bounded cache (attention/ui/hosting/cache.py).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from attention.analysis.learning_curves import SnapshotTraces
from attention.translator.api import WEIGHTS_DIR, load_snapshots, read_snapshots, teacher_forced, translate
from attention.translator.model import Transformer


def snapshot_traces(text: str, final: Transformer | None = None,
                    snapshots: Sequence[tuple[int, Transformer]] | None = None) -> SnapshotTraces:
    """Every snapshot teacher-forced on the final model's translation of `text` (the same words at
    every step). `final` and `snapshots` default to the shipped ones."""
    target = translate(text, model=final).text
    snapshots = load_snapshots() if snapshots is None else snapshots
    traces = tuple(teacher_forced(text, target, model).trace for _, model in snapshots)
    return SnapshotTraces(text, target, tuple(step for step, _ in snapshots), traces)


ALIGNMENT_FILE = "alignment.json"
N_ALIGNMENT_PAIRS = 300


def measure_alignment(snapshots: Sequence[tuple[int, Transformer]] | None = None, n_pairs: int = N_ALIGNMENT_PAIRS,
                      corpus: dict | None = None, batch_size: int = 500) -> tuple[tuple[int, ...], np.ndarray]:
    """(steps, (n_steps, decoder layers, heads)): per head, the share of target words whose strongest
    cross-attention falls on their gold source word, on the first n_pairs of the test split of the
    corpus (`corpus`: build_corpus's seed, n_pairs, n_test as training recorded them).
    batch_size: pairs per forward pass (the same figures at any size; smaller holds less memory)."""
    from attention.translator.corpus import build_corpus
    from attention.translator.evaluate import cross_alignment

    c = corpus or {}
    test = build_corpus(*(c[k] for k in ("seed", "n_pairs", "n_test") if k in c)).test[:n_pairs]
    snapshots = load_snapshots() if snapshots is None else snapshots
    return tuple(s for s, _ in snapshots), np.stack([cross_alignment(m, test, batch_size) for _, m in snapshots])


def write_alignment(directory: str | Path, snapshots: Sequence[tuple[int, Transformer]], corpus: dict | None = None,
                    n_pairs: int = N_ALIGNMENT_PAIRS) -> Path:
    """Measure the alignment curve on these snapshots and store it beside the weights."""
    steps, shares = measure_alignment(snapshots, n_pairs, corpus)
    path = Path(directory) / ALIGNMENT_FILE
    body = {"steps": list(steps), "n_pairs": n_pairs, "corpus": corpus or {}, "shares": shares.round(6).tolist()}
    path.write_text(json.dumps(body, separators=(",", ":")) + "\n", encoding="utf-8")
    return path


def alignment_over_training(snapshots: Sequence[tuple[int, Transformer]] | None = None,
                            directory: str | Path = WEIGHTS_DIR, batch_size: int = 500
                            ) -> tuple[tuple[int, ...], np.ndarray]:
    """The stored alignment curve (see measure_alignment) when it matches the snapshots' steps;
    measured now otherwise (weights written without it)."""
    snapshots = load_snapshots() if snapshots is None else snapshots
    steps = tuple(s for s, _ in snapshots)
    path = Path(directory) / ALIGNMENT_FILE
    if path.exists():
        body = json.loads(path.read_text(encoding="utf-8"))
        if tuple(body["steps"]) == steps:
            return steps, np.asarray(body["shares"], dtype=float)
    return measure_alignment(snapshots, batch_size=batch_size)


def main(argv: list[str] | None = None) -> Path:
    """Derive alignment.json from weights already written (deterministic: the same snapshots and the
    same seeded corpus give the same file)."""
    p = argparse.ArgumentParser(description=main.__doc__)
    p.add_argument("--weights", default=str(WEIGHTS_DIR), help="the folder with model.pt and snapshots.pt")
    a = p.parse_args(argv)
    from attention.translator.api import model_info

    corpus = model_info(a.weights).get("corpus")
    path = write_alignment(a.weights, read_snapshots(a.weights), corpus)
    print(f"wrote {path}")
    return path


if __name__ == "__main__":
    main()
