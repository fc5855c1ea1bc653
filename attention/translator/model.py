"""A small encoder–decoder transformer ("Attention Is All You Need"), written so that every
attention call can be watched.

    source ids -> embed + positions -> [encoder layer] × n -> memory
    target ids -> embed + positions -> [decoder layer] × n -> logits over Spanish words
                                          self-attention (causal) · cross-attention on memory

Every attention module computes the formula itself, per head, and — only when the caller passes
a `recorder` list — appends what it used (q, k, v, the additive mask, the scale) and what it got
(weights, z). The recorder travels as an argument, never as module state, so one model can serve
several threads at once.

Shapes: B batch, S source length, T target length, nh heads, hs d_head, C d_model.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

from attention import core
from attention import head_mask
from attention.translator.vocab import BOS_ID, EOS_ID, PAD_ID, UNK_ID, Vocab

MASKED = core.MASKED  # the additive value that hides a key: float32 min, as the page expects
NEVER_PRODUCED = (PAD_ID, UNK_ID, BOS_ID)  # ids greedy decoding never picks (no target contains them)


@dataclass(frozen=True)
class Config:
    src_vocab_size: int
    tgt_vocab_size: int
    n_encoder_layers: int = 2
    n_decoder_layers: int = 2
    n_heads: int = 4
    d_model: int = 64
    d_ff: int = 128
    max_len: int = 64  # longest sequence the position encoding covers, per side

    @property
    def d_head(self) -> int:
        return self.d_model // self.n_heads


@dataclass(frozen=True)
class AttentionRecord:
    """What one attention call used (q, k, v: float32; mask) and produced (weights, z: float64),
    for the whole batch."""

    name: str  # qualified module name, e.g. "decoder.1.cross_attn"
    kind: str  # "encoder", "decoder" or "cross"
    layer: int
    q: torch.Tensor  # (B, nh, Tq, hs)
    k: torch.Tensor  # (B, nh, Tk, hs)
    v: torch.Tensor  # (B, nh, Tk, hs)
    mask: torch.Tensor  # (B, 1, Tq, Tk) additive: 0 allowed, MASKED hidden
    scale: float
    weights: torch.Tensor  # (B, nh, Tq, Tk)
    z: torch.Tensor  # (B, nh, Tq, hs)
    x: torch.Tensor | None = None  # (B, Tq, C) the stream the queries were projected from
    context: torch.Tensor | None = None  # (B, Tk, C) the stream the keys and values were projected from


def additive_mask(allowed: torch.Tensor) -> torch.Tensor:
    """Booleans -> the additive mask: 0 where allowed, MASKED where hidden (float32)."""
    return torch.where(allowed, 0.0, MASKED).to(torch.float32)


def padding_allowed(ids: torch.Tensor, query_len: int) -> torch.Tensor:
    """(B, Tk) ids -> (B, 1, Tq, Tk) booleans: every query may see every real (non-pad) key."""
    real = ids != PAD_ID  # (B, Tk)
    return real[:, None, None, :].expand(-1, 1, query_len, -1)


def causal_allowed(length: int, device=None) -> torch.Tensor:
    """(T, T) booleans: query i may see keys 0..i."""
    return torch.ones(length, length, dtype=torch.bool, device=device).tril()


def sinusoidal_positions(max_len: int, d_model: int) -> torch.Tensor:
    """PE(pos, 2i) = sin(pos / 10000^(2i/d_model)),  PE(pos, 2i+1) = cos(pos / 10000^(2i/d_model))."""
    pos = torch.arange(max_len, dtype=torch.float32)[:, None]  # (max_len, 1)
    inv_freq = torch.exp(-math.log(10000.0) * torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    pe = torch.zeros(max_len, d_model)
    pe[:, 0::2] = torch.sin(pos * inv_freq)
    pe[:, 1::2] = torch.cos(pos * inv_freq)
    return pe  # (max_len, C)


class Attention(nn.Module):
    """Multi-head attention with explicit per-head projections W_Q, W_K, W_V: (nh, C, hs)."""

    def __init__(self, cfg: Config, kind: str, layer: int) -> None:
        super().__init__()
        nh, C, hs = cfg.n_heads, cfg.d_model, cfg.d_head
        self.kind, self.layer, self.name = kind, layer, kind
        self.scale = 1.0 / math.sqrt(hs)
        self.W_Q = nn.Parameter(torch.randn(nh, C, hs) / math.sqrt(C))
        self.W_K = nn.Parameter(torch.randn(nh, C, hs) / math.sqrt(C))
        self.W_V = nn.Parameter(torch.randn(nh, C, hs) / math.sqrt(C))
        self.b_Q = nn.Parameter(torch.zeros(nh, hs))
        self.b_K = nn.Parameter(torch.zeros(nh, hs))
        self.b_V = nn.Parameter(torch.zeros(nh, hs))
        n_layers = cfg.n_encoder_layers + cfg.n_decoder_layers
        self.W_O = nn.Parameter(torch.randn(nh, hs, C) / math.sqrt(nh * hs * 2 * n_layers))
        self.b_O = nn.Parameter(torch.zeros(C))

    def forward(self, x: torch.Tensor, context: torch.Tensor, mask: torch.Tensor, recorder: list | None = None):
        # x (B, Tq, C) the queries' stream; context (B, Tk, C) the keys' and values' stream
        # mask (B, 1, Tq, Tk) additive
        q = torch.einsum("btc,hcd->bhtd", x, self.W_Q) + self.b_Q[:, None, :]  # (B, nh, Tq, hs)
        k = torch.einsum("btc,hcd->bhtd", context, self.W_K) + self.b_K[:, None, :]  # (B, nh, Tk, hs)
        v = torch.einsum("btc,hcd->bhtd", context, self.W_V) + self.b_V[:, None, :]  # (B, nh, Tk, hs)
        # The attention core runs in float64 (q, k, v stay float32). In float32, rounding Q·Kᵀ
        # alone can move a softmax weight by ~1e-6 once scores reach ~25; in float64 the model's
        # weights carry no rounding of their own, so a recomputation from the recorded q, k, v
        # differs from them only by its own rounding.
        qd, kd, vd = q.double(), k.double(), v.double()
        # S = Q·Kᵀ
        scores = qd @ kd.transpose(-2, -1)  # (B, nh, Tq, Tk)
        # S' = S / √d_k + M
        scaled = scores * self.scale + mask  # (B, nh, Tq, Tk)
        # A = softmax(S')
        weights = torch.softmax(scaled, dim=-1)  # (B, nh, Tq, Tk)
        # Z = A·V
        z = weights @ vd  # (B, nh, Tq, hs)
        if recorder is not None:
            recorder.append(
                AttentionRecord(self.name, self.kind, self.layer, q.detach(), k.detach(), v.detach(),
                                mask.detach(), self.scale, weights.detach(), z.detach(), x.detach(),
                                context.detach())
            )
        z = head_mask.apply((self.kind, self.layer), z)  # heads switched off (ablation), if any
        # out = Σ_h Z_h · W_O[h]
        return torch.einsum("bhtd,hdc->btc", z.to(x.dtype), self.W_O) + self.b_O  # (B, Tq, C)


class FeedForward(nn.Module):
    """FFN(x) = max(0, x·W1 + b1)·W2 + b2"""

    def __init__(self, cfg: Config) -> None:
        super().__init__()
        self.fc_in = nn.Linear(cfg.d_model, cfg.d_ff)
        self.fc_out = nn.Linear(cfg.d_ff, cfg.d_model)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc_out(F.relu(self.fc_in(x)))


class EncoderLayer(nn.Module):
    """Pre-norm: x + SelfAttn(LN(x)), then x + FFN(LN(x))."""

    def __init__(self, cfg: Config, layer: int) -> None:
        super().__init__()
        self.ln_attn = nn.LayerNorm(cfg.d_model)
        self.self_attn = Attention(cfg, "encoder", layer)
        self.ln_ff = nn.LayerNorm(cfg.d_model)
        self.ff = FeedForward(cfg)

    def forward(self, x, mask, recorder=None):
        h = self.ln_attn(x)
        x = x + self.self_attn(h, h, mask, recorder)
        return x + self.ff(self.ln_ff(x))


class DecoderLayer(nn.Module):
    """Pre-norm: y + SelfAttn(LN(y)) (causal), y + CrossAttn(LN(y), memory), y + FFN(LN(y))."""

    def __init__(self, cfg: Config, layer: int) -> None:
        super().__init__()
        self.ln_self = nn.LayerNorm(cfg.d_model)
        self.self_attn = Attention(cfg, "decoder", layer)
        self.ln_cross = nn.LayerNorm(cfg.d_model)
        self.cross_attn = Attention(cfg, "cross", layer)
        self.ln_ff = nn.LayerNorm(cfg.d_model)
        self.ff = FeedForward(cfg)

    def forward(self, y, memory, self_mask, cross_mask, recorder=None):
        h = self.ln_self(y)
        y = y + self.self_attn(h, h, self_mask, recorder)
        y = y + self.cross_attn(self.ln_cross(y), memory, cross_mask, recorder)
        return y + self.ff(self.ln_ff(y))


class Transformer(nn.Module):
    """English ids in, Spanish logits out. Carries its two vocabularies (may be None in tests)."""

    def __init__(self, cfg: Config, src_vocab: Vocab | None = None, tgt_vocab: Vocab | None = None) -> None:
        super().__init__()
        self.cfg, self.src_vocab, self.tgt_vocab = cfg, src_vocab, tgt_vocab
        C = cfg.d_model
        self.src_embed = nn.Embedding(cfg.src_vocab_size, C)
        self.tgt_embed = nn.Embedding(cfg.tgt_vocab_size, C)  # also the output projection (tied)
        nn.init.normal_(self.src_embed.weight, std=C**-0.5)
        nn.init.normal_(self.tgt_embed.weight, std=C**-0.5)
        self.register_buffer("positions", sinusoidal_positions(cfg.max_len, C), persistent=False)
        self.encoder = nn.ModuleList(EncoderLayer(cfg, i) for i in range(cfg.n_encoder_layers))
        self.ln_encoder = nn.LayerNorm(C)
        self.decoder = nn.ModuleList(DecoderLayer(cfg, i) for i in range(cfg.n_decoder_layers))
        self.ln_decoder = nn.LayerNorm(C)
        for name, module in self.named_modules():
            if isinstance(module, Attention):
                module.name = name

    def embed(self, table: nn.Embedding, ids: torch.Tensor) -> torch.Tensor:
        """x = E[ids]·√d_model + PE[pos]"""
        T = ids.shape[1]
        if T > self.cfg.max_len:
            raise ValueError(f"sequence of {T} tokens is longer than max_len={self.cfg.max_len}")
        return table(ids) * math.sqrt(self.cfg.d_model) + self.positions[:T]  # (B, T, C)

    def encode(self, src: torch.Tensor, recorder: list | None = None) -> torch.Tensor:
        """src (B, S) ids -> memory (B, S, C)."""
        x = self.embed(self.src_embed, src)
        mask = additive_mask(padding_allowed(src, src.shape[1]))  # (B, 1, S, S)
        for layer in self.encoder:
            x = layer(x, mask, recorder)
        return self.ln_encoder(x)

    def decode(self, tgt_in: torch.Tensor, memory: torch.Tensor, src: torch.Tensor,
               recorder: list | None = None) -> torch.Tensor:
        """tgt_in (B, T) ids starting with <bos>, memory (B, S, C) -> logits (B, T, V_tgt)."""
        T = tgt_in.shape[1]
        y = self.embed(self.tgt_embed, tgt_in)
        self_mask = additive_mask(padding_allowed(tgt_in, T) & causal_allowed(T, tgt_in.device))  # (B, 1, T, T)
        cross_mask = additive_mask(padding_allowed(src, T))  # (B, 1, T, S)
        for layer in self.decoder:
            y = layer(y, memory, self_mask, cross_mask, recorder)
        # logits = LN(y)·Eᵀ  (the output projection shares the target embedding)
        return self.ln_decoder(y) @ self.tgt_embed.weight.T  # (B, T, V_tgt)

    def forward(self, src: torch.Tensor, tgt_in: torch.Tensor, recorder: list | None = None) -> torch.Tensor:
        return self.decode(tgt_in, self.encode(src, recorder), src, recorder)

    @staticmethod
    def pick(logits: torch.Tensor) -> torch.Tensor:
        """Greedy choice: (..., V) logits -> (...) ids, never one of NEVER_PRODUCED (an untrained
        snapshot would otherwise happily emit <bos>)."""
        logits = logits.clone()
        logits[..., list(NEVER_PRODUCED)] = float("-inf")
        return logits.argmax(-1)

    @torch.no_grad()
    def generate(self, src: torch.Tensor, max_new_tokens: int = 40) -> torch.Tensor:
        """Greedy decoding, one word at a time: (B, S) -> (B, 1 + n) ids starting with <bos>;
        after a row's <eos> the row is padded."""
        max_new_tokens = min(max_new_tokens, self.cfg.max_len - 1)
        memory = self.encode(src)
        ys = torch.full((src.shape[0], 1), BOS_ID, dtype=torch.long, device=src.device)
        done = torch.zeros(src.shape[0], dtype=torch.bool, device=src.device)
        for _ in range(max_new_tokens):
            next_id = self.pick(self.decode(ys, memory, src)[:, -1])  # (B,)
            next_id = torch.where(done, PAD_ID, next_id)
            ys = torch.cat([ys, next_id[:, None]], dim=1)
            done |= next_id == EOS_ID
            if bool(done.all()):
                break
        return ys
