"""A Hugging Face model as the capture reads it, and its tensors as numpy: what hf_model.py, inputs.py
and eager.py all use, so it sits below them (none of them imports another's privates)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import torch

if TYPE_CHECKING:
    from transformers import PreTrainedModel


@dataclass(frozen=True, eq=False)
class LoadedModel:
    """A model loaded once and shared read-only by every caller."""

    name: str
    path: str
    model: PreTrainedModel
    tokenizer: object
    module_names: dict[int, str]  # id(attention module) -> qualified name
    max_tokens: int
    capture: str = "registry"  # "registry" (attention_fn.py) or "eager" (eager.py: the model's own weights)
    fallback: str = ""  # why not the registry: one of trace.FALLBACKS, "" when it is used
    expected_layers: dict[str, tuple[int, ...]] | None = None  # per kind, from the config (expected.py)

    @property
    def is_encoder_decoder(self) -> bool:
        return bool(getattr(self.model.config, "is_encoder_decoder", False))

    @property
    def n_layers(self) -> int:
        c = self.model.config
        return int(getattr(c, "num_hidden_layers", None) or getattr(c, "n_layer", 0) or getattr(c, "num_layers", 0))


def to_numpy(t: torch.Tensor) -> np.ndarray:
    """float32 numpy, off the autograd graph and the device (what every Site holds)."""
    return t.detach().to(torch.float32).cpu().numpy()
