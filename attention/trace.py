"""The trace: the one contract between the models and every page.

One frozen `Site` per attention call (layer × kind). Every array is numpy, read-only, float32:

    q, k, v   (heads, pos, d_head)            hook_q / hook_k / hook_v
    scores    (heads, query_pos, key_pos)     hook_attn_scores before scaling: raw Q·Kᵀ
    weights   (heads, query_pos, key_pos)     hook_pattern: softmax of the scaled, masked scores
    z         (heads, query_pos, d_head)      hook_z: weights·V

`weights` and `z` are recomputed here by core.py from q, k, v and the mask the model used, and
compared with what the model itself computed: `weights_diff` and `z_diff` are the largest
absolute differences. The page warns when they exceed TOLERANCE, so the picture never lies.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from attention import core

Kind = Literal["encoder", "decoder", "cross"]
KINDS: tuple[Kind, ...] = ("encoder", "decoder", "cross")
KIND_TITLES: dict[str, str] = {
    "encoder": "encoder self-attention",
    "decoder": "decoder self-attention (masked)",
    "cross": "encoder–decoder cross-attention",
}
TOLERANCE = 1e-5


def _frozen(a: np.ndarray | None) -> np.ndarray | None:
    if a is None:
        return None
    a = np.ascontiguousarray(a, dtype=np.float32)
    a.flags.writeable = False
    return a


@dataclass(frozen=True, eq=False)
class Site:
    """One attention call site: everything needed to redraw and re-derive it."""

    layer: int
    kind: Kind
    query_tokens: tuple[str, ...]
    key_tokens: tuple[str, ...]
    q: np.ndarray  # (heads, query_pos, d_head)
    k: np.ndarray  # (heads, key_pos, d_head)
    v: np.ndarray  # (heads, key_pos, d_head)
    scores: np.ndarray  # (heads, query_pos, key_pos) raw Q·Kᵀ
    weights: np.ndarray  # (heads, query_pos, key_pos)
    z: np.ndarray  # (heads, query_pos, d_head)
    scale: float
    mask: np.ndarray | None = None  # (query_pos, key_pos) additive: 0 allowed, core.MASKED hidden
    bias: np.ndarray | None = None  # (heads, query_pos, key_pos) additive, e.g. T5 position bias
    softcap: float | None = None
    weights_diff: float = 0.0  # max |our weights − the model's own|
    z_diff: float = 0.0  # max |our z − the model's own|
    name: str = ""  # the module's qualified name in the model
    input_tokens: tuple[str, ...] | None = None  # decoder: the word fed in at each query position

    @property
    def n_heads(self) -> int:
        return self.q.shape[0]

    @property
    def d_head(self) -> int:
        return self.q.shape[-1]

    @property
    def scaled(self) -> np.ndarray:
        """(heads, query_pos, key_pos): scores after ×scale, softcap, bias and the mask — what
        the softmax sees."""
        s = core.softcap_scores(core.scale_scores(self.scores.astype(np.float64), self.scale), self.softcap)
        if self.bias is not None:
            s = s + self.bias
        return core.add_mask(s, self.mask)

    @property
    def masked(self) -> np.ndarray:
        """(query_pos, key_pos) bools: True where the query may not see the key."""
        return core.is_masked(self.mask, self.scores.shape[1:])

    @property
    def faithful(self) -> bool:
        return max(self.weights_diff, self.z_diff) <= TOLERANCE

    @property
    def title(self) -> str:
        return f"layer {self.layer} · {KIND_TITLES[self.kind]}"


def make_site(
    *,
    layer: int,
    kind: Kind,
    query_tokens: tuple[str, ...],
    key_tokens: tuple[str, ...],
    q: np.ndarray,
    k: np.ndarray,
    v: np.ndarray,
    scale: float,
    mask: np.ndarray | None,
    model_weights: np.ndarray,
    model_z: np.ndarray,
    bias: np.ndarray | None = None,
    softcap: float | None = None,
    name: str = "",
    input_tokens: tuple[str, ...] | None = None,
) -> Site:
    """Recompute scores, weights and z with core.py (in float64) from what the model handed its
    attention function, and record how far they are from the model's own weights and z."""
    q64, k64, v64 = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    scores, weights, z = core.attention(
        q64, k64, v64, scale=scale, mask=mask, bias=None if bias is None else np.asarray(bias, np.float64),
        softcap=softcap,
    )
    return Site(
        layer=layer,
        kind=kind,
        query_tokens=tuple(query_tokens),
        key_tokens=tuple(key_tokens),
        q=_frozen(q64),
        k=_frozen(k64),
        v=_frozen(v64),
        scores=_frozen(scores),
        weights=_frozen(weights),
        z=_frozen(z),
        scale=float(scale),
        mask=_frozen(mask),
        bias=_frozen(bias),
        softcap=softcap,
        weights_diff=float(np.max(np.abs(weights - model_weights), initial=0.0)),
        z_diff=float(np.max(np.abs(z - model_z), initial=0.0)),
        name=name,
        input_tokens=None if input_tokens is None else tuple(input_tokens),
    )


@dataclass(frozen=True, eq=False)
class Trace:
    """Every attention site of one forward pass over one text, in model order."""

    text: str
    model: str  # a short name for display
    tokens: tuple[str, ...]  # the tokens the model read (after truncation)
    sites: tuple[Site, ...]
    dropped_tokens: int = 0  # how many tokens were cut off to fit the model's maximum length
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def kinds(self) -> tuple[Kind, ...]:
        return tuple(k for k in KINDS if any(s.kind == k for s in self.sites))

    def layers(self, kind: Kind) -> tuple[int, ...]:
        return tuple(s.layer for s in self.sites if s.kind == kind)

    def site(self, layer: int, kind: Kind = "encoder") -> Site:
        for s in self.sites:
            if s.layer == layer and s.kind == kind:
                return s
        raise KeyError(f"no {kind} attention at layer {layer}")

    @property
    def max_weights_diff(self) -> float:
        return max((s.weights_diff for s in self.sites), default=0.0)

    @property
    def max_z_diff(self) -> float:
        return max((s.z_diff for s in self.sites), default=0.0)

    @property
    def faithful(self) -> bool:
        return all(s.faithful for s in self.sites)
