"""Why this word: which heads and which prompt tokens a language model's next token depended on, and
what may be said of how the measures agree. Pure numpy; the numbers come from attention.lm.why.

For the chosen next token w after the prompt x_1..x_T:
- a head's drop is log p(w | x) − log p(w | x, that head's output zero) (one head off at a time);
- a head's row is its attention from the last position over the T prompt tokens, and its
  value-weighted row ‖α_j·v_j‖ normalised (Kobayashi et al. 2020);
- gradient × input and integrated gradients say how much each prompt token's embedding moved log p(w).

The rank agreement of a head's row with |IG| is Spearman's ρ over the T tokens, given only when
claims.correlation allows one (n ≥ MIN_N, both sides spread) and when some head matters at all
(claims.heads_matter on the drops).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from attention.analysis import claims
from attention.ids import HeadId, TopHead, TopRows, head_id
from attention.analysis.value_weighted import value_weighted


def top_heads(heads: Sequence[HeadId], drops: np.ndarray, n: int = 5) -> TopRows[TopHead]:
    """The n heads whose removal costs the token most log-probability, largest drop first (ties: model order)."""
    order = np.argsort(-np.asarray(drops, dtype=np.float64), kind="stable")[:n]
    return TopRows(TopHead(head_id(heads[i]), float(drops[i])) for i in order)


def value_row(weights: np.ndarray, v: np.ndarray) -> np.ndarray:
    """(T,) weights of one query row and (T, d) values -> (T,) each key's share of the head's output."""
    return value_weighted(np.asarray(weights)[None, None, :], np.asarray(v)[None])[0, 0]


@dataclass(frozen=True)
class HeadAgreement:
    """How one head's rows rank the prompt tokens against |IG|; None where no correlation may be said."""

    head: HeadId
    drop: float
    attention: claims.Correlation | None
    value_weighted: claims.Correlation | None


def agreements(top: Sequence[tuple[HeadId, float]], rows: dict[HeadId, np.ndarray],
               value_rows: dict[HeadId, np.ndarray], attribution: np.ndarray,
               drops: np.ndarray) -> list[HeadAgreement]:
    """Each top head's Spearman ρ (with n) between its rows and |attribution|; every ρ is None when no
    head matters for this word (claims.heads_matter), or where claims.correlation refuses one."""
    matter = claims.heads_matter(drops)
    a = np.abs(np.asarray(attribution, dtype=np.float64))
    out = []
    for head, drop in top:
        att = claims.correlation(rows[head], a) if matter else None
        val = claims.correlation(value_rows[head], a) if matter else None
        out.append(HeadAgreement(head, drop, att, val))
    return out


REFERENCES = ("integrated_gradients", "gradient_x_input")  # what reference() may name
STRENGTHS = ("strong", "moderate", "weak")  # what strength() may answer
TRUST = 0.1  # IG is the reference when its completeness gap is under this share of |f(x) − f(x')|


def reference(ig: np.ndarray, gxi: np.ndarray, gap: float, delta: float, trust: float = TRUST
              ) -> tuple[str, np.ndarray]:
    """The attribution the heads are compared with: ("integrated_gradients", IG) when its sum is within
    `trust` of f(x) − f(x'), else ("gradient_x_input", G×I) — an integral that missed by more says
    little per token (on a Llama model a zero baseline would sit where RMSNorm divides by ~0)."""
    if np.isfinite(gap) and gap <= trust * max(abs(delta), 1e-6):
        return "integrated_gradients", np.asarray(ig)
    return "gradient_x_input", np.asarray(gxi)


def strength(rho: float) -> str:
    """A word for |ρ|: "strong" ≥ 0.7, "moderate" ≥ 0.4, "weak" otherwise (the sign said apart)."""
    r = abs(rho)
    return "strong" if r >= 0.7 else "moderate" if r >= 0.4 else "weak"


SIGN_FLOOR = 0.05  # nats: attributions smaller than this have no sign worth comparing


def sign_disagreements(ig: np.ndarray, gxi: np.ndarray, floor: float = SIGN_FLOOR) -> list[int]:
    """Positions where integrated gradients and gradient × input both reach `floor` and point opposite
    ways: one says the token raised log p, the other that it lowered it."""
    a, b = np.asarray(ig, dtype=np.float64), np.asarray(gxi, dtype=np.float64)
    both = (np.abs(a) >= floor) & (np.abs(b) >= floor)
    return [int(i) for i in np.flatnonzero(both & (np.sign(a) != np.sign(b)))]
