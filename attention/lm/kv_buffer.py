"""One memory for a layer's keys and values: the KV cache's tensors and the writer's kept k, v are views of it.

transformers' DynamicLayer grows its cache by concatenation: every written word copies the layer's whole
K and V (at 8,192 tokens 377 MB over 30 layers, a word), and the writer kept a second copy of them
for the pages (lm/rows.LayerStore). A BufferLayer writes the new keys into room made ahead instead and
hands the model a view of the filled part; the LayerStore reads the same arrays. Nothing about the
numbers changes: the model reads exactly the keys and values it wrote.
"""

from __future__ import annotations

import numpy as np
import torch
from transformers import DynamicCache
from transformers.cache_utils import DynamicLayer


class KVBuffer:
    """(kv_heads, capacity, d_head) keys and values after RoPE, filled to n; room doubles when outgrown,
    never past `most` tokens."""

    def __init__(self, kv_heads: int, d_head: int, capacity: int, most: int | None = None) -> None:
        self.most = most
        self.n = 0
        cap = max(1, capacity if most is None else min(capacity, most))
        self.k = np.empty((kv_heads, cap, d_head), np.float32)
        self.v = np.empty((kv_heads, cap, d_head), np.float32)

    def write(self, k: np.ndarray, v: np.ndarray) -> None:
        """Append (kv_heads, t, d_head) keys and values at n."""
        t = k.shape[1]
        if self.n + t > self.k.shape[1]:
            room = max(2 * self.k.shape[1], self.n + t)
            self._move(room if self.most is None else max(self.n + t, min(room, self.most)))
        self.k[:, self.n : self.n + t] = k
        self.v[:, self.n : self.n + t] = v
        self.n += t

    def fresh(self, n: int) -> None:
        """Keep the first n tokens in new arrays: views taken before (sites of a longer text) never see what
        is written next."""
        self.n = min(self.n, n)
        self._move(self.k.shape[1])

    def _move(self, capacity: int) -> None:
        k, v = (np.empty((a.shape[0], capacity, a.shape[2]), np.float32) for a in (self.k, self.v))
        k[:, : self.n], v[:, : self.n] = self.k[:, : self.n], self.v[:, : self.n]
        self.k, self.v = k, v


class BufferLayer(DynamicLayer):
    """A DynamicLayer whose keys and values are the first n tokens of a KVBuffer (batch of one, CPU, float32)."""

    def __init__(self, capacity: int, most: int | None = None, buffer: KVBuffer | None = None) -> None:
        super().__init__()
        self.capacity, self.most, self.buffer = capacity, most, buffer
        if buffer is not None and buffer.n:
            self.is_initialized, self.device = True, torch.device("cpu")
            self._show()

    def lazy_initialization(self, key_states: torch.Tensor, value_states: torch.Tensor) -> None:
        super().lazy_initialization(key_states, value_states)
        if self.buffer is None:
            self.buffer = KVBuffer(key_states.shape[1], key_states.shape[-1], self.capacity, self.most)

    def update(self, key_states: torch.Tensor, value_states: torch.Tensor, *args, **kwargs):
        if not self.is_initialized:
            self.lazy_initialization(key_states, value_states)
        self.buffer.write(key_states[0].numpy(), value_states[0].numpy())
        self._show()
        return self.keys, self.values

    def _show(self) -> None:
        n = self.buffer.n
        self.keys = torch.from_numpy(self.buffer.k)[None, :, :n]
        self.values = torch.from_numpy(self.buffer.v)[None, :, :n]

    def crop(self, tokens_to_remove: int) -> None:
        if tokens_to_remove < 0 and self.is_initialized:
            self.buffer.n = max(0, self.buffer.n + tokens_to_remove)
            self._show()
        else:
            super().crop(tokens_to_remove)


def buffered_cache(config, capacity: int, most: int | None = None,
                   buffers: dict[int, KVBuffer] | None = None) -> DynamicCache:
    """A DynamicCache whose full-attention layers are BufferLayers (over `buffers` where given: a cache made
    again over kept keys and values, without a copy); other kinds of layer (sliding windows) stay as they are."""
    cache = DynamicCache(config=config)
    buffers = buffers or {}
    cache.layers = [BufferLayer(capacity, most, buffers.get(i)) if type(layer) is DynamicLayer else layer
                    for i, layer in enumerate(cache.layers)]
    return cache
