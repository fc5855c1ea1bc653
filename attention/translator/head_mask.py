"""Switch attention heads off inside the translator for the duration of a `with` block.

    with switched_off({("cross", 1): Switch(keep, fill)}):
        model(src, tgt_in)

An off head's output z (before the heads are mixed by W_O) is replaced: by zeros ("zero" mode) or
by the head's mean output over reference sentences ("mean" mode). `keep` is (B, nh, 1, 1) — 1 for a
head left on, 0 for one switched off — so each row of a batch may switch off a different head, and
`fill` (B or 1, nh, 1, hs) is what an off head outputs. The switches live in a ContextVar, never on
the model: one loaded model serves every thread, and only this context sees them.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import torch


@dataclass(frozen=True)
class Switch:
    keep: torch.Tensor  # (B, nh, 1, 1) 1 on, 0 off
    fill: torch.Tensor  # (B or 1, nh, 1, hs) an off head's output


_switches: contextvars.ContextVar[Mapping[tuple[str, int], Switch] | None] = contextvars.ContextVar(
    "translator_head_switches", default=None)


@contextlib.contextmanager
def switched_off(switches: Mapping[tuple[str, int], Switch]) -> Iterator[None]:
    """Within the block, the attention sites named (kind, layer) in `switches` have heads off."""
    token = _switches.set(dict(switches))
    try:
        yield
    finally:
        _switches.reset(token)


def apply(kind: str, layer: int, z: torch.Tensor) -> torch.Tensor:
    """z (B, nh, Tq, hs) with the off heads replaced; z itself when nothing is switched here."""
    switches = _switches.get()
    switch = None if switches is None else switches.get((kind, layer))
    if switch is None:
        return z
    keep = switch.keep.to(z.dtype)
    return z * keep + (1 - keep) * switch.fill.to(z.dtype)
