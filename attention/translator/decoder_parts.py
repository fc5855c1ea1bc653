"""The parts of the translator decoder's final residual at one position (for what a head writes, direct logit
attribution; the result is made by attention/lm/writes_result.py through the translator's source).

The decoder is pre-norm with an output projection W_O per head, so its final residual at position p is a sum

    r = e + Σ_l ( Σ_h z^self_lh · W_O^self_l[h] + b_O^self_l + Σ_h z^cross_lh · W_O^cross_l[h] + b_O^cross_l + ffn_l )

with e = E[id]·√d_model + PE[p] (token and position), ffn_l the feed-forward's output (its biases inside), and
    logits = LN(r) · Eᵀ        (a final LayerNorm, γ and β; the output layer is the target embedding, tied)

so every part adds up to the logit once read through LN's one scale of r. The decoder is replayed here layer
by layer with the model's own modules (the three steps of DecoderLayer.forward) and the recorder, which hands
back every head's z; the model's own logits come from its ordinary forward pass (`Transformer.decode`), and
the parts are checked against those: were the replay to differ from the model, the check would say so.
Nothing is added to the shared model (no hooks): the recorder travels as an argument.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from attention.translator.model import (AttentionRecord, Transformer, additive_mask, causal_allowed,
                                        padding_allowed)
from attention.translator.vocab import BOS_ID, EOS_ID, tokenize


@dataclass(frozen=True, eq=False)
class DecoderParts:
    """One decoder position's parts as vectors (float64) and what turns them into logits."""

    kinds: tuple[str, ...]  # per row of heads: "decoder" (masked self-attention) or "cross", model order
    layers: tuple[int, ...]  # per row
    heads: np.ndarray  # (rows, H, C) each head's output z_h · W_O[h]
    out_biases: np.ndarray  # (rows, C) each output projection's bias b_O
    mlps: np.ndarray  # (L, C) each feed-forward's output
    embedding: np.ndarray  # (C,) E[id]·√C + PE[p]
    residual: torch.Tensor  # (C,) r, the final LayerNorm's input (float32, as the model has it)
    normed: torch.Tensor  # (C,) LN(r)
    logits: torch.Tensor  # (V,) the model's own at the position (Transformer.decode)
    reads: tuple[np.ndarray, ...]  # per row (H, T_k): each head's attention from the position
    norm: nn.LayerNorm  # the final LayerNorm
    unembed: torch.Tensor  # (V, C) the target embedding, tied to the output
    input_tokens: tuple[str, ...]  # <bos> and the Spanish words fed in up to the position
    source_tokens: tuple[str, ...]  # the English tokens the encoder read
    position: int
    default_id: int  # the word the model writes there (greedy: never <pad>, <unk>, <bos>)


def target_ids(model: Transformer, src: torch.Tensor, target: str | None) -> list[int]:
    """The Spanish words as ids: `target`'s (ValueError for a word outside the vocabulary), or None: the
    model's own greedy translation (without <eos>)."""
    if target is None:
        produced = model.generate(src)[0, 1:].tolist()
        return produced[: produced.index(EOS_ID)] if EOS_ID in produced else produced
    ids, unknown = model.tgt_vocab.encode(tokenize(target))
    if unknown:
        raise ValueError(f"the translator's Spanish vocabulary has no {', '.join(map(repr, unknown))}")
    if len(ids) >= model.cfg.max_len:
        raise ValueError(f"the target has {len(ids)} words; the decoder reads at most {model.cfg.max_len - 1}")
    return ids


@torch.no_grad()
def read(model: Transformer, source_ids: list[int], target: list[int], position: int = -1) -> DecoderParts:
    """The parts at decoder position `position` of <bos> + target (it writes target[position], or the next word
    after the target at the last position).

    Args:
        model: the translator (shared; nothing is changed on it).
        source_ids: (S,) the English ids as the encoder reads them.
        target: (n,) the Spanish word ids fed after <bos>.
        position: 0 … n (negative: from the end).

    Returns:
        DecoderParts.

    Raises:
        ValueError: a position outside the n + 1 decoder positions.
    """
    tgt = torch.tensor([[BOS_ID, *target]])  # (1, T)
    src = torch.tensor([list(source_ids)])  # (1, S)
    T = tgt.shape[1]
    if not -T <= position < T:
        raise ValueError(f"position {position} is outside the decoder's {T} positions (<bos> and {T - 1} words)")
    p = position % T
    memory = model.encode(src)  # (1, S, C)
    own = model.decode(tgt, memory, src)[0, p]  # (V,) the model's own forward pass
    self_mask = additive_mask(padding_allowed(tgt, T) & causal_allowed(T))  # (1, 1, T, T), as decode() makes it
    cross_mask = additive_mask(padding_allowed(src, T))  # (1, 1, T, S)
    y = model.embed(model.tgt_embed, tgt)  # (1, T, C)
    e = y[0, p].double().numpy()
    records: list[AttentionRecord] = []
    projections, mlps = [], []
    for layer in model.decoder:  # DecoderLayer.forward, step by step
        h = layer.ln_self(y)
        y = y + layer.self_attn(h, h, self_mask, records)
        y = y + layer.cross_attn(layer.ln_cross(y), memory, cross_mask, records)
        f = layer.ff(layer.ln_ff(y))  # (1, T, C)
        y = y + f
        projections += [layer.self_attn, layer.cross_attn]
        mlps.append(f[0, p].double().numpy())
    heads = np.stack([torch.einsum("hd,hdc->hc", r.z[0, :, p].double(), a.W_O.double()).numpy()
                      for r, a in zip(records, projections, strict=True)])  # (rows, H, C)
    vocab = model.tgt_vocab
    return DecoderParts(
        tuple(r.kind for r in records), tuple(r.layer for r in records), heads,
        np.stack([a.b_O.double().numpy() for a in projections]), np.stack(mlps), e, y[0, p].clone(),
        model.ln_decoder(y)[0, p].clone(), own.clone(),
        tuple(r.weights[0, :, p, : (p + 1 if r.kind == "decoder" else None)].numpy() for r in records),
        model.ln_decoder, model.tgt_embed.weight, tuple(vocab.tokens[i] for i in [BOS_ID, *target][: p + 1]),
        tuple(model.src_vocab.tokens[i] for i in source_ids), p, int(model.pick(own)))
