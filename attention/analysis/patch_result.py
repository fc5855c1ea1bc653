"""What activation patching per head found, as data (the back ends compute it: capture/hf_patching.py for
Hugging Face causal language models, translator/head_patching.py for the translator)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attention.ids import HeadId, TopHead, TopRows, head_id

NO_DIFFERENCE = 1e-9  # |M_B − M_A| below this: there is no difference to restore
NOTHING_TO_RESTORE = "no difference to restore: A and B give the same output measure"


@dataclass(frozen=True)
class Patching:
    """Every head patched alone from B into A.

    heads: (kind, layer, head) in model order; restored (n_heads,) each head's share of M_B − M_A
    (NaN when there is no difference). The measure M: a language model's logit difference of the two
    runs' top next tokens (tokens (t_A, t_B), labels as the charts show them, "·by"); the translator's log-probability of
    B's first differing word (labels (A's word, B's word)). ld_a, ld_b: M of the unpatched runs.
    note: why nothing is ranked ("" otherwise)."""

    heads: tuple[HeadId, ...]
    restored: np.ndarray
    ld_a: float
    ld_b: float
    tokens: tuple[int, int]
    labels: tuple[str, str]
    note: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "heads", tuple(head_id(h) for h in self.heads))

    def ranked(self) -> TopRows[TopHead]:
        """Heads by restored share, largest first, [TopHead(HeadId, share), …]; [] when there is no
        difference to restore."""
        if self.note:
            return TopRows()
        order = np.argsort(-self.restored, kind="stable")
        return TopRows(TopHead(head_id(self.heads[i]), float(self.restored[i])) for i in order)

    def top(self, k: int = 5) -> list[TopHead]:
        """The k heads that restore most of B's difference, largest first."""
        return self.ranked()(k)




def measure_key(tokens: tuple[int, int], top_b: int | None) -> str:
    """How a language model's measure is worded: "tops" when its B token is B's own likeliest next
    token; "rose" when both runs put the same token first and the measure follows instead the token
    whose logit rose most from A to B (capture/hf_patching.contrast): then B's chart does not have it on top."""
    return "tops" if top_b is None or tokens[1] == top_b else "rose"
