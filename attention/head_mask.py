"""Switch attention heads off inside any of our models for the duration of a `with` block.

    with switched_off(build(rows, sites, mode, means)):
        model(...)

Each back end calls `apply(key, z)` where a site's per-head output z leaves the attention, before W_O
mixes the heads: the Hugging Face attention function keys a site by its module (id()), the translator
by (kind, layer). An off head's z is replaced by zeros ("zero" mode) or by the head's mean output over
reference sentences ("mean" mode). `keep` is (B, nh, 1, 1), 1 for a head left on and 0 for one off, so
each row of a batch may switch off a different head; `fill` (B or 1, nh, 1, hs) is what an off head
outputs. The switches live in a ContextVar, never on the model: one loaded model serves every thread,
and only this context sees them.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Hashable, Iterator, Mapping
from dataclasses import dataclass

import numpy as np
import torch

from attention.analysis.effects import MODES, HeadId


@dataclass(frozen=True)
class Switch:
    keep: torch.Tensor  # (B, nh, 1, 1) 1 on, 0 off
    fill: torch.Tensor  # (B or 1, nh, 1, hs) an off head's output


@dataclass(frozen=True)
class SiteShape:
    """One attention site as ablation sees it: the key its back end passes to apply(), and its size."""

    key: Hashable
    n_heads: int
    d_head: int


_switches: contextvars.ContextVar[Mapping[Hashable, Switch] | None] = contextvars.ContextVar(
    "head_switches", default=None)


@contextlib.contextmanager
def switched_off(switches: Mapping[Hashable, Switch]) -> Iterator[None]:
    """Within the block, the sites whose key is in `switches` have heads off."""
    token = _switches.set(dict(switches))
    try:
        yield
    finally:
        _switches.reset(token)


def apply(key: Hashable, z: torch.Tensor) -> torch.Tensor:
    """z (B, nh, Tq, hs) with the site's off heads replaced; z itself when none is switched off here."""
    switches = _switches.get()
    switch = None if switches is None else switches.get(key)
    if switch is None:
        return z
    keep, fill = switch.keep, switch.fill
    if keep.shape[0] > z.shape[0]:  # a batch growing layer by layer (capture.growing_batch): its first rows
        keep, fill = keep[: z.shape[0]], fill[: z.shape[0]]
    keep = keep.to(z.dtype)
    return z * keep + (1 - keep) * fill.to(z.dtype)


def check(heads: set[HeadId] | frozenset[HeadId], known: tuple[HeadId, ...], mode: str) -> None:
    """A clear error for an unknown mode or a head the model does not have."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
    unknown = set(heads) - set(known)
    if unknown:
        raise ValueError(f"no such heads in this model: {sorted(unknown)}")


def build(rows: list[frozenset[HeadId]], sites: Mapping[tuple[str, int], SiteShape], mode: str = "zero",
          means: Mapping[tuple[str, int], np.ndarray] | None = None,
          dtype: torch.dtype = torch.float32) -> dict[Hashable, Switch]:
    """The switches for a batch whose row b has the heads rows[b] off. `means`: per (kind, layer) each
    head's mean output (nh, hs), needed in "mean" mode."""
    out = {}
    for kind, layer in {(k, L) for row in rows for (k, L, _) in row}:
        site = sites[(kind, layer)]
        keep = torch.ones(len(rows), site.n_heads, 1, 1, dtype=dtype)
        for b, row in enumerate(rows):
            for k, L, h in row:
                if (k, L) == (kind, layer):
                    keep[b, h] = 0.0
        fill = (torch.from_numpy(np.asarray(means[(kind, layer)])).to(dtype)[None, :, None, :] if mode == "mean"
                else torch.zeros(1, site.n_heads, 1, site.d_head, dtype=dtype))
        out[site.key] = Switch(keep, fill)
    return out
