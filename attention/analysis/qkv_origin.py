"""Where one word's q, k and v come from, as data: its input x, this head's rows of W_Q, W_K, W_V,
the recomputed q, k, v and the ones the model used (pure; built by capture/projections.py for
Hugging Face models and by translator/origin.py for the built-in translator).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

AGREE = 1e-4


@dataclass(frozen=True)
class Embedding:
    """The first layer's input taken apart (BERT-style embeddings)."""

    token: np.ndarray  # (d_model,)
    position: np.ndarray  # (d_model,)
    segment: np.ndarray | None  # (d_model,)


@dataclass(frozen=True)
class Origin:
    pos: int
    x: np.ndarray  # (d_model,) the word's input to the layer
    weights: dict[str, np.ndarray]  # "q"/"k"/"v" -> (d_head, d_model) this head's rows of W
    biases: dict[str, np.ndarray]  # "q"/"k"/"v" -> (d_head,)
    recomputed: dict[str, np.ndarray]  # x·Wᵀ + b, (d_head,)
    from_model: dict[str, np.ndarray]  # what the model used, (d_head,)
    embedding: Embedding | None

    @property
    def max_diff(self) -> float:
        return max(float(np.abs(self.recomputed[n] - self.from_model[n]).max()) for n in "qkv")
