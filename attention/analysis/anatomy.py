"""The "why" of one selection, as numbers: a dot product dimension by dimension, an output row as a
weighted sum of value vectors, and one query row through every step of the formula.

Pure functions over a Site; the plots and pages only draw what these return.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from attention import core
from attention.trace import Site


@dataclass(frozen=True)
class DotAnatomy:
    """q·k taken apart: terms[d] = q[d]·k[d]; their sum is the cell of S."""

    query: int
    key: int
    q: np.ndarray  # (d_head,)
    k: np.ndarray  # (d_head,)
    terms: np.ndarray  # (d_head,)
    total: float  # Σ terms = S[query, key]
    cosine: float  # cos of the angle between q and k: alignment regardless of length

    @property
    def agreeing(self) -> int:
        """How many dimensions have q and k of the same sign (a positive term)."""
        return int(np.sum(self.terms > 0))

    def order(self, sort: bool) -> np.ndarray:
        """Dimension order for drawing: as is, or by contribution, largest first."""
        return np.argsort(-self.terms, kind="stable") if sort else np.arange(self.terms.shape[0])


def dot_anatomy(site: Site, head: int, query: int, key: int) -> DotAnatomy:
    q = site.q[head, query].astype(np.float64)
    k = site.head_k(head)[key].astype(np.float64)
    terms = core.dot_product_terms(q, k)
    # correctly rounded sums (math.fsum): the same digits whatever adds them (the browser's panel does, too)
    total = math.fsum(terms.tolist())
    norm = math.sqrt(math.fsum((q * q).tolist())) * math.sqrt(math.fsum((k * k).tolist()))
    return DotAnatomy(query, key, q, k, terms, total, total / norm if norm else 0.0)


@dataclass(frozen=True)
class SumAnatomy:
    """Row `query` of Z as Σ_j weight_j · V_j."""

    query: int
    weights: np.ndarray  # (key_pos,)
    contributions: np.ndarray  # (key_pos, d_head): weight_j · V_j
    total: np.ndarray  # (d_head,) = Σ_j contributions = the row of Z

    def strongest(self, n: int) -> np.ndarray:
        """Key positions whose contributions are largest (by vector length), strongest first."""
        size = np.linalg.norm(self.contributions, axis=1)
        return np.argsort(-size, kind="stable")[:n]


def sum_anatomy(site: Site, head: int, query: int) -> SumAnatomy:
    w = site.weights[head, query].astype(np.float64)
    v = site.head_v(head).astype(np.float64)
    contributions = core.weighted_value_terms(w, v)
    return SumAnatomy(query, w, contributions, contributions.sum(axis=0))


@dataclass(frozen=True)
class RowPipeline:
    """One query row through the formula, at a chosen softmax temperature."""

    query: int
    temperature: float
    raw: np.ndarray  # (key_pos,) q·k for every key
    scaled: np.ndarray  # (key_pos,) × scale / temperature (softcap and position bias included)
    masked: np.ndarray  # (key_pos,) bools: keys the mask hides
    weights: np.ndarray  # (key_pos,) softmax of scaled + mask
    z: np.ndarray  # (d_head,) weights · V


def row_pipeline(site: Site, head: int, query: int, temperature: float = 1.0) -> RowPipeline:
    """Recompute one row step by step with core.py. Temperature 1 gives exactly the model's row."""
    q = site.q[head, query : query + 1].astype(np.float32)  # (1, d_head)
    k, v = site.head_k(head).astype(np.float32), site.head_v(head).astype(np.float32)
    raw = core.raw_scores(q, k)  # (1, key_pos)
    bias = None if site.bias is None else site.bias[head, query : query + 1]
    scaled = core.logits(raw, site.scale, site.softcap, bias, temperature=temperature)  # shown without the mask
    mask = site.mask_rows(slice(query, query + 1))
    weights = core.softmax(core.add_mask(scaled, mask))  # = softmax(core.logits(…, mask)): the mask comes last
    return RowPipeline(
        query=query,
        temperature=temperature,
        raw=raw[0],
        scaled=scaled[0],
        masked=core.is_masked(mask, raw.shape)[0],
        weights=weights[0],
        z=core.weighted_sum(weights, v)[0],
    )

