"""What each head does: role scores of every layer × head, measured on a probe made for the roles.

The probe (role_probes.py) is a prefix, then L random words, then the same L words again. With `s` the
position of the first word's token and A the weights (heads, n, n) of one layer, rows i summing to 1:

    previous   mean_i a[i, i−1]              i over the probe's tokens after its first
               (TransformerLens head_detector, "previous_token_head"; Olsson et al. 2022)
    duplicate  mean_i a[i, twin(i)]          twin: the same token in the other copy (i − L in the
               second copy; an encoder's first copy may also look ahead to i + L)
               (TransformerLens head_detector, "duplicate_token_head")
    induction  mean_i a[i, i − L + 1]        i over the second copy: the token after the earlier
               occurrence of the query's own token, what a head copies to predict the next token
               (Olsson et al. 2022, "In-context learning and induction heads"; head_detector's
               "induction_head" pattern)
    sink       mean_i a[i, 0]                the first token; a head "is a sink" when it exceeds
               ε = 0.3, and the sink rate is the share of heads that do (Gu et al. 2025, "When
               attention sink emerges in language models"; Xiao et al. 2023 on why sinks exist)
    local      mean_i Σ_j a[i, j]·|i − j|    mean distance in tokens: LOW is local
    broad      mean_i H(a[i]) / ln(k_i)      entropy normalised by its largest value, k_i the keys
               row i may see: 0 = one key, 1 = spread evenly over every key it sees

Averages over rows are TransformerLens's "mul" score Σ(A ⊙ P) / Σ A over the pattern's rows (the same
number when rows sum to 1). sink, local and broad use every row that has a choice (a causal model's
row 0 sees only itself: left out). Models without a causal mask (encoders such as MiniLM) see both
copies whole: previous, duplicate, sink, local and broad still mean what they say; induction does not
(see NOT_APPLICABLE) and is NaN there. Pure numpy.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

import numpy as np

from attention import core
from attention.ids import HeadId, TopHead, TopRows

ROLES: tuple[str, ...] = ("previous", "duplicate", "induction", "sink", "local", "broad")
SINK_EPSILON = 0.3  # Gu et al. 2025: a head is a sink when its mean weight on the first token exceeds ε
HIGH_IS_ROLE = {"previous": True, "duplicate": True, "induction": True, "sink": True, "local": False,
                "broad": True}  # local is a distance: the most local heads have the lowest
NOT_APPLICABLE = {  # role -> why it is not measured on a model without a causal mask
    "induction": ("without a causal mask the query also sees the token right after itself, which is the "
                  "same word as the one after its earlier copy: weight on i − L + 1 no longer shows a head "
                  "copying a continuation it could not see, so it is not counted as induction"),
}


def _rows(n_keys: int, causal: bool) -> np.ndarray:
    """The rows that have a choice of keys: all of them, except a causal model's row 0."""
    return np.arange(1 if causal else 0, n_keys)


def previous(weights: np.ndarray, start: int, length: int) -> np.ndarray:
    """(..., n, n) -> (...): mean a[i, i−1] over the probe's tokens after its first."""
    i = np.arange(start + 1, start + 2 * length)
    return weights[..., i, i - 1].mean(axis=-1)


def duplicate(weights: np.ndarray, start: int, length: int, causal: bool = True) -> np.ndarray:
    """(..., n, n) -> (...): mean weight on the same token in the other copy (second copy -> i − L; an
    encoder's first copy -> i + L as well)."""
    i = np.arange(start + length, start + 2 * length)
    twin = [weights[..., i, i - length]]
    if not causal:
        twin.append(weights[..., i - length, i])
    return np.concatenate(twin, axis=-1).mean(axis=-1)


def induction(weights: np.ndarray, start: int, length: int) -> np.ndarray:
    """(..., n, n) -> (...): mean a[i, i − L + 1] over the second copy."""
    i = np.arange(start + length, start + 2 * length)
    return weights[..., i, i - length + 1].mean(axis=-1)


def sink(weights: np.ndarray, causal: bool = True) -> np.ndarray:
    """(..., n, n) -> (...): mean weight on the first token over the rows with a choice."""
    return weights[..., _rows(weights.shape[-1], causal), 0].mean(axis=-1)


def local(weights: np.ndarray, causal: bool = True) -> np.ndarray:
    """(..., n, n) -> (...): mean Σ_j a[i, j]·|i − j| in tokens over the rows with a choice."""
    n = weights.shape[-1]
    rows = _rows(n, causal)
    dist = np.abs(rows[:, None] - np.arange(n)[None, :])  # (rows, n)
    return (weights[..., rows, :] * dist).sum(axis=-1).mean(axis=-1)


def broad(weights: np.ndarray, causal: bool = True) -> np.ndarray:
    """(..., n, n) -> (...): mean entropy / ln(keys seen) over the rows with a choice (0 one key, 1 even)."""
    n = weights.shape[-1]
    rows = _rows(n, causal)
    seen = rows + 1 if causal else np.full(len(rows), n)  # (rows,) keys each row may see
    return (core.entropy(weights[..., rows, :]) / np.log(seen)).mean(axis=-1)


def is_causal(weights: np.ndarray, tol: float = 1e-6) -> bool:
    """True when no query puts weight on a later key, in any head: a causal mask was applied."""
    above = np.triu_indices(weights.shape[-1], 1)  # every (query, later key)
    return bool(np.all(np.abs(weights[..., above[0], above[1]]) <= tol))


def scores(weights: np.ndarray, start: int, length: int, causal: bool) -> dict[str, np.ndarray]:
    """Every role of every head. weights (layers, heads, n, n) float -> role -> (layers, heads); a role
    that does not apply (NOT_APPLICABLE, no causal mask) is all NaN."""
    a = np.asarray(weights, dtype=np.float64)
    if a.ndim != 4 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"weights must be (layers, heads, n, n), not {a.shape}")
    if start < 0 or length < 2 or start + 2 * length > a.shape[-1]:
        raise ValueError(f"a probe of 2 × {length} tokens from {start} does not fit {a.shape[-1]} positions")
    out = {"previous": previous(a, start, length), "duplicate": duplicate(a, start, length, causal),
           "induction": induction(a, start, length), "sink": sink(a, causal), "local": local(a, causal),
           "broad": broad(a, causal)}
    if not causal:
        for role in NOT_APPLICABLE:
            out[role] = np.full(a.shape[:2], np.nan)
    return out


@dataclass(frozen=True)
class HeadRoles:
    """Role scores of every head on one probe: `scores[role]` is (layers, heads)."""

    scores: dict[str, np.ndarray]
    tokens: tuple[str, ...]  # the probe as the model read it, specials included
    start: int  # position of the first token of the first copy
    length: int  # L: tokens in one copy
    seed: int
    causal: bool
    model: str = ""
    kind: str = ""
    text: str = ""
    target: str = ""  # the decoder's probe, for a model that reads a second sentence (the translator)
    words: int = 0  # words per copy in the probe's text (= length when each word is one token)
    notes: dict[str, str] = field(default_factory=dict)  # role -> why it does not apply here

    @property
    def shape(self) -> tuple[int, int]:
        return self.scores["sink"].shape

    def applies(self, role: str) -> bool:
        return role not in self.notes

    @property
    def sink_rate(self) -> float:
        """Share of heads whose mean weight on the first token exceeds SINK_EPSILON."""
        return float(np.mean(self.scores["sink"] > SINK_EPSILON))

    def top(self, role: str, k: int = 5) -> TopRows[TopHead]:
        """The k heads that have the role most, [TopHead(HeadId(kind, layer, head), score), …]; [] for a role
        that does not apply. The kind is the one measured (a model without one: decoder when causal)."""
        s = self.scores[role]
        if not self.applies(role):
            return TopRows()
        flat = s.ravel() if HIGH_IS_ROLE[role] else -s.ravel()
        order = np.argsort(-flat, kind="stable")[:k]
        kind = self.kind or ("decoder" if self.causal else "encoder")
        return TopRows(TopHead(HeadId(kind, int(o // s.shape[1]), int(o % s.shape[1])), float(s.ravel()[o]))
                       for o in order)

    def to_csv(self) -> str:
        """One row per head (layer, head, every role); the probe in '#' lines above the header."""
        buf = io.StringIO()
        buf.write(f"# model: {self.model}\n# probe seed: {self.seed}; tokens per copy L: {self.length}; "
                  f"first copy at position {self.start}; causal: {self.causal}\n")
        buf.write("# probe tokens: " + " ".join(self.tokens).replace("\n", "\\n") + "\n")
        for role, why in self.notes.items():
            buf.write(f"# {role} not measured: {why}\n")
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["layer", "head", *ROLES])
        layers, heads = self.shape
        for layer in range(layers):
            for head in range(heads):
                w.writerow([layer, head, *(_cell(self.scores[r][layer, head]) for r in ROLES)])
        return buf.getvalue()


def _cell(x: float) -> str:
    return "" if np.isnan(x) else f"{x:.6g}"


def roles(weights: np.ndarray, tokens: tuple[str, ...], start: int, length: int, seed: int,
          causal: bool | None = None, **about) -> HeadRoles:
    """HeadRoles from the stacked weights (layers, heads, n, n) of one probe; causal read from them when None."""
    causal = is_causal(weights) if causal is None else causal
    notes = {} if causal else dict(NOT_APPLICABLE)
    return HeadRoles(scores(weights, start, length, causal), tuple(tokens), start, length, seed, causal,
                     notes=notes, **about)
