"""What the model reads: texts tokenised into one padded batch, cut to the model's limit, with the
real tokens of each text and what was cut; the decoder's teacher-forced input; what each layer read."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from attention.capture.loaded import LoadedModel, to_numpy


@dataclass(frozen=True)
class Encoded:
    """One batch ready for the model, with what was cut off to fit."""

    inputs: dict[str, torch.Tensor]
    tokens: list[list[str]]  # per text, the real (unpadded) tokens
    real: torch.Tensor  # (B, T) bool: real token, not padding
    dropped: list[int]  # per text, tokens cut off to fit max_tokens


def encode(lm: LoadedModel, texts: list[str]) -> Encoded:
    tok = lm.tokenizer
    if tok.pad_token is None:  # GPT-2 style tokenizers have no pad token
        tok.pad_token = tok.eos_token
    full_lengths = [len(tok(t, truncation=False)["input_ids"]) for t in texts]
    enc = tok(texts, return_tensors="pt", padding=True, truncation=True, max_length=lm.max_tokens)
    real = enc["attention_mask"].bool()
    tokens = [
        tok.convert_ids_to_tokens(ids[mask].tolist()) for ids, mask in zip(enc["input_ids"], real, strict=True)
    ]
    dropped = [max(0, n - len(t)) for n, t in zip(full_lengths, tokens, strict=True)]
    inputs = dict(enc)
    if not getattr(lm.model.config, "type_vocab_size", None):  # GPT-2 would embed these zeros as token 0
        inputs.pop("token_type_ids", None)
    return Encoded(inputs=inputs, tokens=tokens, real=real, dropped=dropped)


def decoder_inputs(lm: LoadedModel, targets: list[str]) -> Encoded:
    """Teacher-forced decoder input: the target's tokens shifted right behind the start token."""
    enc = encode(lm, targets)
    start = getattr(lm.model.config, "decoder_start_token_id", None)  # LongT5's config has none
    start = lm.tokenizer.pad_token_id if start is None else start
    ids = enc.inputs["input_ids"]
    shifted = torch.cat([torch.full_like(ids[:, :1], start), ids[:, :-1]], dim=1)
    real = torch.cat([torch.ones_like(enc.real[:, :1]), enc.real[:, :-1]], dim=1)
    tokens = [lm.tokenizer.convert_ids_to_tokens(row[m].tolist()) for row, m in zip(shifted, real, strict=True)]
    inputs = {"decoder_input_ids": shifted, "decoder_attention_mask": real.long()}
    return Encoded(inputs=inputs, tokens=tokens, real=real, dropped=enc.dropped)


def layer_inputs(outputs, b: int, enc: Encoded, dec: Encoded | None) -> dict[str, tuple[np.ndarray, ...]]:
    """Per side ("encoder"/"decoder"), the residual stream entering each layer, (pos, d_model), real
    positions of batch element b only. hidden_states[i] is what layer i reads."""
    sides = {}
    if dec is not None:
        sides["encoder"] = (getattr(outputs, "encoder_hidden_states", None), enc.real[b])
        sides["decoder"] = (getattr(outputs, "decoder_hidden_states", None), dec.real[b])
    else:
        sides["encoder"] = (getattr(outputs, "hidden_states", None), enc.real[b])
    picked = {}
    for side, (states, real) in sides.items():
        if states is not None:
            rows = slice(None) if bool(real.all()) else real  # a slice copies nothing; a mask gathers
            # a copy when batched: a view would keep the whole batch's tensor alive for one sentence
            picked[side] = tuple(to_numpy(h[b][rows]).copy() if h.shape[0] > 1 else to_numpy(h[b][rows]) for h in states[:-1])
    return picked
