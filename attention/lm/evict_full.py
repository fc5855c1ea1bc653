"""The full KV cache beside an evicted one (attention/lm/evict.py): the same text read with every key, for
each written word's `.full` distribution and what each head lost, read when first asked.

Why apart and late: the full cache's row depends only on the text (the words are chosen from the evicted
distribution), so the words written since it last read come through it together, as a prompt does, one
pass for several words. Read with each word instead, a second row costs a second pass through every
projection: on this CPU a two-row matrix product costs about what two one-row ones do (bench/evict_speed.py).

Both caches are KVBuffers (attention/lm/kv_buffer.py): a word writes its key and value into room made ahead,
not a copy of the whole cache. The full cache starts as a copy of the prompt's keys and values (the two
caches part from the first written word on: its key was computed from a forgetful past).
"""

from __future__ import annotations

import copy

import numpy as np
import torch
from transformers import DynamicCache

from attention import blas
from attention.capture import attention_fn
from attention.capture.loaded import LoadedModel
from attention.lm import kv_buffer

CHUNK = 64  # written words read at a time: its logits (CHUNK × vocab) and one layer's rows at once


def prompt_weights(q: torch.Tensor, k: torch.Tensor, scale: float, first_row: int) -> torch.Tensor:
    """(heads, t, n) causal softmax(q·kᵀ·scale) of query rows first_row..first_row + t − 1 over keys 0..n − 1.
    q (heads, t, d); k (kv_heads, n, d): a group's query heads read their key/value head."""
    heads, t, d = q.shape
    kv, n = k.shape[0], k.shape[1]
    scores = torch.matmul(q.reshape(kv, heads // kv * t, d), k.transpose(1, 2)).view(heads, t, n) * scale
    hidden = torch.ones(t, n, dtype=torch.bool).triu(first_row + 1)  # key j > query row i
    return torch.softmax(scores.masked_fill(hidden, float("-inf")), dim=-1)


def copied(cache: DynamicCache, config, capacity: int, most: int) -> DynamicCache:
    """A second cache holding what `cache` holds now (its buffers' filled part copied; other kinds of layer,
    e.g. sliding windows, deep-copied)."""
    buffers = {}
    for i, layer in enumerate(cache.layers):
        if isinstance(layer, kv_buffer.BufferLayer) and layer.buffer is not None:
            b = layer.buffer
            buffers[i] = kv_buffer.KVBuffer(b.k.shape[0], b.k.shape[2], max(capacity, b.n), most)
            buffers[i].write(b.k[:, : b.n], b.v[:, : b.n])
    out = kv_buffer.buffered_cache(config, capacity, most, buffers)
    with torch.inference_mode():
        out.layers = [out.layers[i] if i in buffers else copy.deepcopy(layer) for i, layer in enumerate(cache.layers)]
    return out


class FullCache:
    """The full cache at an evicted run's text. `logits[i]`, `lost[i]`: word i's full distribution (vocab,)
    and (layers, heads) each head's full-cache weight on the keys evicted from its query; word 0's query
    (the prompt's last) read everything, so its logits are the prompt's and it lost nothing."""

    def __init__(self, lm: LoadedModel, cache: DynamicCache, first: int, logits: np.ndarray, layers: int,
                 heads: int) -> None:
        self.lm, self._cache, self.first = lm, cache, first  # first: the position of the first written word
        self.logits: list[np.ndarray] = [logits]
        self.lost: list[np.ndarray] = [np.zeros((layers, heads))]

    @property
    def read(self) -> int:
        """Written words read so far (word i's distribution is known for i ≤ read)."""
        return len(self.logits) - 1

    def catch_up(self, words: list[int], kept: list[dict[int, np.ndarray]]) -> None:
        """Read the written words `words[read:]`; kept[i]: layer -> (kv_heads, first + i) bool, the keys word i's
        query saw in the evicted cache (len(kept) ≥ len(words) + 1)."""
        with blas.one_torch_thread():  # as the evicted run's words: one thread, the same float sums each time
            while self.read < len(words):
                lo = self.read
                self._chunk(words[lo: lo + CHUNK], kept[lo + 1: lo + 1 + CHUNK])

    def _chunk(self, ids: list[int], kept: list[dict[int, np.ndarray]]) -> None:
        t, first_row = len(ids), self.first + self.read  # positions first_row … first_row + t − 1
        with attention_fn.recording(lean=True) as records, torch.inference_mode():
            out = self.lm.model(input_ids=torch.tensor([ids]), cache=self._cache, use_cache=True, logits_to_keep=t)
        self._cache = out.cache
        lost = np.zeros((t, *self.lost[0].shape))
        for rec in records:
            layer = attention_fn.call_layer(rec.module, self.lm.module_names.get(id(rec.module), ""))
            q, k = rec.q[0], rec.shared_k[0]  # (heads, t, d), (kv, n, d)
            w = prompt_weights(q, k, rec.scale, first_row).numpy()  # (heads, t, n)
            heads, kv, n = q.shape[0], k.shape[0], k.shape[1]
            hidden = np.zeros((t, kv, n), bool)  # row i: the keys evicted from word i + 1's query
            for i, masks in enumerate(kept):
                keep = masks[layer]
                hidden[i, :, : keep.shape[1]] = ~keep
            per_head = np.repeat(hidden, heads // kv, axis=1).transpose(1, 0, 2)  # (heads, t, n)
            lost[:, layer] = (w * per_head).sum(axis=-1).T
        logits = out.logits[0].float().numpy()  # (t, vocab)
        self.logits.extend(logits[i].copy() for i in range(t))
        self.lost.extend(lost)
