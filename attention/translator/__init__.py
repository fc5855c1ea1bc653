"""The built-in English→Spanish translator: a small encoder–decoder transformer trained by our own
script (`python -m attention.translator.train`) on a generated corpus, shipped in weights/.

    corpus.py      the seeded grammar that writes the parallel corpus, with gold word alignments
    vocab.py       tokenizing and word ↔ id
    model.py       the transformer; every attention call can be recorded
    checkpoint.py  saving and loading weights and training snapshots
    train.py       the training script
    evaluate.py    exact match and cross-attention alignment on a list of pairs
    api.py         translate(text) -> Translation with its Trace
    snapshots.py   the training snapshots traced on one sentence; alignment over training
    origin.py      where a word's q, k, v come from in this model
"""

from attention.translator.api import (
    MODEL_NAME,
    WEIGHTS_DIR,
    Translation,
    load_model,
    load_snapshots,
    loss_history,
    model_info,
    read_model,
    read_snapshots,
    teacher_forced,
    translate,
)

__all__ = [
    "MODEL_NAME",
    "WEIGHTS_DIR",
    "Translation",
    "load_model",
    "load_snapshots",
    "loss_history",
    "model_info",
    "read_model",
    "read_snapshots",
    "teacher_forced",
    "translate",
]
