"""Measuring the translator on a list of pairs: exact match of greedy translations, and how often
each cross-attention head looks at the gold source word.

Alignment is read at the decoder position whose OUTPUT is the target word: position i is fed
<bos>, t_1 … t_i and produces t_{i+1}, so its cross-attention row should peak on the English word
that t_{i+1} translates. Target words with no English counterpart (alignment -1) are skipped.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch

from attention.translator.corpus import Pair
from attention.translator.model import Transformer
from attention.translator.vocab import PAD_ID, Vocab


def pad_batch(vocab: Vocab, sequences: Sequence[Sequence[str]], bos: bool = False, eos: bool = False) -> torch.Tensor:
    """Word lists -> (B, L) ids, padded with PAD_ID at the end."""
    ids = [vocab.encode(list(s), bos=bos, eos=eos)[0] for s in sequences]
    out = torch.full((len(ids), max(map(len, ids))), PAD_ID, dtype=torch.long)
    for row, seq in zip(out, ids):
        row[: len(seq)] = torch.tensor(seq)
    return out


@torch.no_grad()
def translate_batch(model: Transformer, sources: Sequence[Sequence[str]], batch_size: int = 500,
                    max_new_tokens: int = 40) -> list[tuple[str, ...]]:
    """Greedy translations of tokenized sentences, as word tuples without <eos>."""
    out: list[tuple[str, ...]] = []
    for start in range(0, len(sources), batch_size):
        src = pad_batch(model.src_vocab, sources[start : start + batch_size])
        for row in model.generate(src, max_new_tokens):
            out.append(tuple(model.tgt_vocab.decode(row.tolist())))
    return out


def exact_match(model: Transformer, pairs: Sequence[Pair], batch_size: int = 500) -> float:
    """Share of pairs whose greedy translation equals the reference word for word."""
    if not pairs:
        return float("nan")
    hyps = translate_batch(model, [p.source for p in pairs], batch_size)
    return sum(h == p.target for h, p in zip(hyps, pairs)) / len(pairs)


@torch.no_grad()
def cross_alignment(model: Transformer, pairs: Sequence[Pair], batch_size: int = 500) -> np.ndarray:
    """(decoder layers, heads): share of aligned target words whose cross-attention argmax, at the
    position that outputs the word (teacher forcing on the reference), is its gold source word."""
    cfg = model.cfg
    hits = np.zeros((cfg.n_decoder_layers, cfg.n_heads))
    total = 0
    for start in range(0, len(pairs), batch_size):
        chunk = pairs[start : start + batch_size]
        src = pad_batch(model.src_vocab, [p.source for p in chunk])
        tgt_in = pad_batch(model.tgt_vocab, [p.target for p in chunk], bos=True)  # <bos> t_1 … t_n
        recorder: list = []
        model(src, tgt_in, recorder)
        cross = [r for r in recorder if r.kind == "cross"]
        # gold[b, i]: source index of target word i (what position i outputs), -1 for none/padding
        gold = torch.full(tgt_in.shape, -1, dtype=torch.long)
        for b, p in enumerate(chunk):
            gold[b, : len(p.alignment)] = torch.tensor(p.alignment)
        counted = gold >= 0  # (B, T)
        total += int(counted.sum())
        for r in cross:
            peak = r.weights.argmax(dim=-1)  # (B, nh, T)
            hit = (peak == gold[:, None, :]) & counted[:, None, :]
            hits[r.layer] += hit.sum(dim=(0, 2)).numpy()
    return hits / max(total, 1)
