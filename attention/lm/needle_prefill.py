"""Reading a needle prompt into the KV cache in fixed pieces, so that prompts which start alike share that start.

The prompt (all but its last token, which is read recorded) goes through the model in pieces whose ends depend
on positions only: every multiple of PIECE before the needle, the needle's first token, then the rest at once.
Two prompts whose first b tokens agree, b an end of both, then hold the very same keys and values up to b: the
same calls on the same numbers (a piece read after a copied start sees bit for bit the keys it would have read
in place). A grid of needles (needle_grid.measure) reads each start once: the filler before the needle is the
same for every needle at one length and depth, and with the built-in haystack it is a prefix of the longer
haystacks too. Shelf keeps the longest run of whole pieces read so far (the trunk) and the last needle start.

Why fixed ends rather than one pass: a piece's numbers depend on how the tokens before it were cut (torch's
attention kernel blocks its sums by the piece's shape), so reusing a start is exact only if every run cuts
its prompt the same way. Measured on SmolLM2: one pass against two pieces cut at 512 agreed bit for bit, cut at
256 or 300 differed from layer 1 on (by about 2e-5 in the keys).

    ends = boundaries(len(ids) - 1, span[0])      # [512, 1024, span[0], len(ids) - 1] for a needle past 1,024
    cache = read(lm, ids, ends, kv_buffer.buffered_cache(config, room, room))
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
from transformers import DynamicCache

from attention.capture import attention_fn
from attention.capture.loaded import LoadedModel
from attention.lm import kv_buffer

PIECE = 512  # tokens: the start is read in whole pieces of this size up to the needle


def boundaries(n: int, start: int, piece: int | None = None) -> list[int]:
    """The ends of the pieces that read tokens [0, n): every multiple of `piece` (None: PIECE) below the needle's
    first token `start`, `start` itself, then n. Ends outside 1 … n are dropped."""
    piece = PIECE if piece is None else int(piece)
    ends = [*range(piece, min(start, n), piece), start, n]
    return sorted({e for e in ends if 0 < e <= n})


def read(lm: LoadedModel, ids: Sequence[int], ends: Sequence[int], cache: DynamicCache, done: int = 0) -> DynamicCache:
    """Tokens ids[done:ends[-1]] into `cache` (which holds the first `done`), one forward pass per piece that ends
    after `done`, with the model's fast attention (SDPA, nothing recorded). Returns the cache."""
    with attention_fn.fast(), torch.inference_mode():
        for end in ends:
            if end <= done:
                continue
            cache = lm.model(input_ids=torch.tensor([list(ids[done:end])]), cache=cache, use_cache=True,
                             logits_to_keep=1).cache
            done = end
    return cache


def held(cache: DynamicCache) -> int:
    """Tokens the cache holds."""
    return int(cache.get_seq_length()) if cache.layers and cache.layers[0].is_initialized else 0


def copy_of(cache: DynamicCache, n: int, config, room: int) -> DynamicCache:
    """A new buffered cache with room for `room` tokens holding the first n keys and values of `cache` (copied)."""
    buffers = {}
    for i, layer in enumerate(cache.layers):
        k, v = layer.keys[0, :, :n].numpy(), layer.values[0, :, :n].numpy()  # (kv_heads, n, d_head)
        buf = kv_buffer.KVBuffer(k.shape[0], k.shape[2], room, room)
        buf.write(k, v)
        buffers[i] = buf
    return kv_buffer.buffered_cache(config, room, room, buffers)


def _agree(a: Sequence[int], b: Sequence[int]) -> int:
    """How many leading tokens a and b share."""
    n = min(len(a), len(b))
    for i in range(n):
        if a[i] != b[i]:
            return i
    return n


class Shelf:
    """Starts already read, for one model and a run of needle prompts: the trunk (the longest run of whole
    pieces read so far) and the last needle start. Prompts sorted by their start reuse the most."""

    def __init__(self, lm: LoadedModel) -> None:
        self.lm, self.piece = lm, PIECE
        self.trunk_ids: list[int] = []
        self.trunk: DynamicCache | None = None
        self.start_ids: tuple[int, ...] | None = None
        self.start: DynamicCache | None = None
        self.read_tokens = 0  # tokens this shelf put through the model (what a grid saved is the rest)

    def before_needle(self, ids: Sequence[int], start: int, room: int) -> tuple[DynamicCache, int]:
        """A cache with room for `room` tokens holding ids[:start] exactly as needle.run would read them, and
        `start`. ids: the prompt's tokens; start: the needle's first position."""
        config = self.lm.model.config
        head = tuple(int(t) for t in ids[:start])
        if head != self.start_ids:
            whole = max([e for e in boundaries(len(ids) - 1, start, self.piece) if e < start], default=0)
            self._grow_trunk(ids, whole)
            snap = copy_of(self.trunk, whole, config, room) if whole else kv_buffer.buffered_cache(config, room, room)
            self.start = read(self.lm, ids, [start], snap, whole)
            self.read_tokens += start - whole
            self.start_ids = head
        return copy_of(self.start, start, config, room), start

    def _grow_trunk(self, ids: Sequence[int], whole: int) -> None:
        """The trunk made to hold ids[:whole] (whole: a multiple of the piece), keeping what it shares."""
        if self.trunk is None:
            self.trunk = kv_buffer.buffered_cache(self.lm.model.config, max(whole, self.piece))
        agree = _agree(self.trunk_ids, ids[:whole])
        if agree >= whole:  # the trunk already holds this start (and maybe more)
            return
        shared = agree // self.piece * self.piece
        if held(self.trunk) > shared:
            self.trunk.crop(shared - held(self.trunk))  # negative: that many tokens dropped from the end
        ends = [e for e in range(self.piece, whole + 1, self.piece) if e > shared]
        self.trunk = read(self.lm, ids, ends, self.trunk, shared)
        self.read_tokens += whole - shared
        self.trunk_ids = [int(t) for t in ids[:whole]]


def planned(prompts: Sequence[tuple[Sequence[int], int]]) -> tuple[int, int]:
    """(tokens a Shelf puts through the model, tokens every run reading alone does) for prompts given as
    (ids, the needle's first position) in the order they are run: what a grid saves, counted without a model."""
    trunk: list[int] = []
    last: tuple[int, ...] | None = None
    shared = alone = 0
    for ids, start in prompts:
        alone += len(ids)
        head = tuple(int(t) for t in ids[:start])
        if head != last:
            whole = max([e for e in boundaries(len(ids) - 1, start) if e < start], default=0)
            agree = _agree(trunk, ids[:whole])
            if agree < whole:
                shared += whole - agree // PIECE * PIECE
                trunk = [int(t) for t in ids[:whole]]
            shared += start - whole
            last = head
        shared += len(ids) - start
    return shared, alone
