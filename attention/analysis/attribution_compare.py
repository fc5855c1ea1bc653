"""One output word of the translator, four views of which source words matter: its cross-attention
row, its rollout row, gradient × input and integrated gradients; how well their rankings agree.

The rollout row of an output word (our own simple extension of rollout to cross-attention): the
word's cross-attention row, averaged over heads and decoder layers, passed through the encoder's
rollout — how much of each source word reaches the memory positions the word reads:

    r = mean_{layers, heads} A_cross[t, :] · R_encoder        (sums to 1)
"""

from __future__ import annotations

import numpy as np

from attention.analysis.effects import spearman
from attention.analysis.rollout import trace_rollout
from attention.trace import Trace


def cross_row(trace: Trace, position: int) -> np.ndarray:
    """(S,) the cross-attention row of decoder position `position`, mean over heads and layers."""
    rows = [s.weights[:, position].astype(np.float64).mean(axis=0) for s in trace.sites if s.kind == "cross"]
    if not rows:
        raise ValueError("the trace has no cross-attention")
    return np.mean(rows, axis=0)


def rollout_row(trace: Trace, position: int) -> np.ndarray:
    """(S,) the cross row carried through the encoder's rollout."""
    return cross_row(trace, position) @ trace_rollout(trace, "encoder")


def agreement_table(measures: dict[str, np.ndarray]) -> dict[tuple[str, str], float]:
    """Spearman's ρ between the rankings of every two measures (by magnitude: an attribution can be
    negative, a weight cannot)."""
    names = list(measures)
    return {(a, b): spearman(np.abs(measures[a]), np.abs(measures[b]))
            for i, a in enumerate(names) for b in names[i + 1:]}


def top_word(values: np.ndarray) -> int:
    return int(np.argmax(np.abs(values)))


def disagreements(measures: dict[str, np.ndarray], reference: str, threshold: float = 0.4) -> list[str]:
    """The measures whose ranking of the source words disagrees with `reference`: a different top word,
    or a rank correlation below `threshold`."""
    ref = measures[reference]
    return [name for name, v in measures.items() if name != reference and (
        top_word(v) != top_word(ref) or not spearman(np.abs(v), np.abs(ref)) >= threshold)]
