"""What switching heads off did, as plain data: which heads, what the model said with and without
them, and one number per head for ranking. Pure numpy; the runs themselves are in
translator/ablation.py (the built-in translator) and capture/hf_ablation.py (Hugging Face models).

A head is named (kind, layer, head), e.g. ("cross", 1, 2). In a link or a box it is written
"cross.1.2"; several are separated by commas.

Measures:
  "log_prob"  the log-probability of each word of the original output (the translator's own
              translation, or a language model's next tokens), teacher-forced, with and without the
              heads; the effect is the mean drop per word (nats; positive = the heads helped).
  "cosine"    a model with no language-model head (a sentence encoder such as MiniLM): the cosine
              between the final hidden states with and without, per position, and between the
              pooled sentence embeddings (mean over tokens); the effect is 1 − the pooled cosine.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

import numpy as np

from attention.ids import HeadId, TopHead, TopRows, head_id

Mode = Literal["zero", "mean"]
MODES: tuple[str, ...] = ("zero", "mean")
KIND_LETTERS = {"encoder": "e", "decoder": "d", "cross": "c"}


def head_name(head: HeadId) -> str:
    kind, layer, h = head
    return f"{kind}.{layer}.{h}"


def parse_heads(spec: str | Iterable | None) -> frozenset[HeadId]:
    """Heads from "cross.1.2, encoder.0.3" or from an iterable of (kind, layer, head); bad parts are
    an error (ValueError), an empty spec no heads."""
    if spec is None:
        return frozenset()
    if isinstance(spec, str):
        parts = [p.strip() for p in spec.split(",") if p.strip()]
        heads = []
        for part in parts:
            bits = part.split(".")
            if len(bits) != 3 or bits[0] not in KIND_LETTERS or not (bits[1].isdigit() and bits[2].isdigit()):
                raise ValueError(f"not a head: {part!r} (write kind.layer.head, e.g. cross.1.2)")
            heads.append(HeadId(bits[0], int(bits[1]), int(bits[2])))
        return frozenset(heads)
    heads = []
    for item in spec:
        kind, layer, h = item
        if kind not in KIND_LETTERS:
            raise ValueError(f"not a kind of attention: {kind!r}")
        heads.append(HeadId(str(kind), int(layer), int(h)))
    return frozenset(heads)


def format_heads(heads: Iterable[HeadId]) -> str:
    """The link form, in a stable order: "cross.1.2,encoder.0.3"."""
    return ",".join(head_name(h) for h in sorted(heads))


@dataclass(frozen=True, eq=False)
class Ablation:
    """One run with `heads` switched off, compared with the run with every head on."""

    heads: tuple[HeadId, ...]
    mode: str  # "zero" or "mean"
    measure: str  # "log_prob" or "cosine"
    tokens: tuple[str, ...]  # log_prob: the words scored; cosine: the positions compared
    base_log_probs: np.ndarray | None = None  # (words,) every head on
    ablated_log_probs: np.ndarray | None = None  # (words,) with the heads off
    hidden_cosine: np.ndarray | None = None  # (positions,) final hidden states, on vs off
    pooled_cosine: float | None = None  # the mean-pooled sentence embedding, on vs off
    base_text: str | None = None  # the translator's translation with every head on
    new_text: str | None = None  # ... and with the heads off

    @property
    def drops(self) -> np.ndarray | None:
        """Per word, how much log-probability the original word lost (positive: the heads helped it)."""
        if self.base_log_probs is None or self.ablated_log_probs is None:
            return None
        return self.base_log_probs - self.ablated_log_probs

    @property
    def effect(self) -> float:
        """One number, larger = removing the heads mattered more."""
        if self.measure == "log_prob":
            return float(np.mean(self.drops)) if self.drops is not None and self.drops.size else 0.0
        return 0.0 if self.pooled_cosine is None else 1.0 - float(self.pooled_cosine)

    @property
    def changed(self) -> bool | None:
        """Did the translation change (None when there is no translation)?"""
        if self.base_text is None or self.new_text is None:
            return None
        return self.base_text != self.new_text


@dataclass(frozen=True, eq=False)
class HeadEffects:
    """One head off at a time, for every head: the table the page ranks."""

    heads: tuple[HeadId, ...]
    mode: str
    measure: str
    tokens: tuple[str, ...]  # the words scored (log_prob) or positions compared (cosine)
    effect: np.ndarray  # (n_heads,) Ablation.effect for each head alone
    drops: np.ndarray | None = None  # (n_heads, words) log-probability drop of each word
    pooled_cosine: np.ndarray | None = None  # (n_heads,)
    base_text: str | None = None
    new_texts: tuple[str, ...] | None = None  # the translation with each head off


    def __post_init__(self) -> None:
        object.__setattr__(self, "heads", tuple(head_id(h) for h in self.heads))
    def changed(self) -> np.ndarray | None:
        """(n_heads,) bools: the translation changed with that head off."""
        if self.new_texts is None:
            return None
        return np.array([text != self.base_text for text in self.new_texts], dtype=bool)

    def of(self, head: HeadId) -> int:
        return self.heads.index(head)

    def ranked(self) -> TopRows[TopHead]:
        """Heads by effect, largest first: [TopHead(HeadId(kind, layer, head), effect), …]."""
        order = np.argsort(-self.effect, kind="stable")
        return TopRows(TopHead(head_id(self.heads[i]), float(self.effect[i])) for i in order)

    def top(self, k: int = 5) -> list[TopHead]:
        """The k heads whose removal changed most, largest first."""
        return self.ranked()(k)


def ranks(values: np.ndarray) -> np.ndarray:
    """Ranks 1..n, largest value first, ties sharing the average rank."""
    x = -np.asarray(values, dtype=np.float64)
    order = np.argsort(x, kind="stable")
    r = np.empty(len(x), dtype=np.float64)
    r[order] = np.arange(1, len(x) + 1)
    for v in np.unique(x):  # average the ranks of ties
        tied = x == v
        if tied.sum() > 1:
            r[tied] = r[tied].mean()
    return r


def spearman(a: np.ndarray, b: np.ndarray) -> float:
    """Spearman's rank correlation: Pearson's correlation of the two rankings (ties averaged);
    nan when either side has fewer than two distinct values."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        raise ValueError(f"different lengths: {a.shape} and {b.shape}")
    if a.size < 2 or np.unique(a).size < 2 or np.unique(b).size < 2:
        return float("nan")
    ra, rb = ranks(a), ranks(b)
    ra, rb = ra - ra.mean(), rb - rb.mean()
    return float((ra @ rb) / np.sqrt((ra @ ra) * (rb @ rb)))


AGREEMENT_LEVELS = ((0.7, "strong"), (0.4, "moderate"), (0.1, "weak"), (-0.1, "none"))


def agreement(rho: float) -> str:
    """A word for a rank correlation a learner can read: strong, moderate, weak, none, opposite, or
    unknown (nan)."""
    if np.isnan(rho):
        return "unknown"
    for floor, word in AGREEMENT_LEVELS:
        if rho >= floor:
            return word
    return "opposite"


def word_changes(before: Iterable[str], after: Iterable[str]) -> list[tuple[str, str, bool]]:
    """Word by word, (word before, word after, changed): the shorter side is padded with ""."""
    b, a = list(before), list(after)
    n = max(len(b), len(a))
    b += [""] * (n - len(b))
    a += [""] * (n - len(a))
    return [(x, y, x != y) for x, y in zip(b, a, strict=True)]
