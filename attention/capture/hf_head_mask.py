"""Switch attention heads off inside a Hugging Face model for the duration of a `with` block.

The attention function (attention_fn.capturing_attention) hands each call's per-head output z to
`apply` before the heads are merged and projected by W_O; an off head's z is replaced by zeros
("zero" mode) or by the head's mean output over reference sentences ("mean" mode). Switches are
keyed by the attention module and live in a ContextVar, never on the model, so the one loaded
model keeps serving every other thread unchanged.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import torch


@dataclass(frozen=True)
class Switch:
    keep: torch.Tensor  # (B, nh, 1, 1) 1 on, 0 off: each row of a batch may switch off other heads
    fill: torch.Tensor  # (B or 1, nh, 1, hs) an off head's output


_switches: contextvars.ContextVar[Mapping[int, Switch] | None] = contextvars.ContextVar(
    "hf_head_switches", default=None)


@contextlib.contextmanager
def switched_off(switches: Mapping[int, Switch]) -> Iterator[None]:
    """Within the block, the attention modules whose id() is a key of `switches` have heads off."""
    token = _switches.set(dict(switches))
    try:
        yield
    finally:
        _switches.reset(token)


def apply(module: torch.nn.Module, z: torch.Tensor) -> torch.Tensor:
    """z (B, nh, Tq, hs) with this module's off heads replaced; z itself when none is switched off."""
    switches = _switches.get()
    switch = None if switches is None else switches.get(id(module))
    if switch is None:
        return z
    keep = switch.keep.to(z.dtype)
    return z * keep + (1 - keep) * switch.fill.to(z.dtype)
