"""Which source words did an output word depend on? Gradient × input and integrated gradients,
computed with torch autograd on the translator, over the source words' embeddings.

f(x) = log p(word at decoder position t | source embeddings x, the original translation before t)
(teacher-forced on the model's own translation). x_i = E[source word i]·√d_model is what each word
brings in (the position encoding is left fixed, so the baseline keeps the word order and removes the
words):

    gradient × input      a_i = Σ_d x_id · ∂f/∂x_id                       (one backward pass)
    integrated gradients  a_i = Σ_d (x_id − x'_id) · ∫₀¹ ∂f/∂x_id (x' + α(x − x')) dα
                          baseline x' = 0; the integral by the trapezoid rule over `steps` intervals,
                          all steps + 1 points in one batch. Completeness: Σ_i a_i ≈ f(x) − f(x').
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch

from attention.translator import api
from attention.translator.model import Transformer, additive_mask, padding_allowed
from attention.translator.vocab import BOS_ID, EOS, EOS_ID

IG_STEPS = 32


@dataclass(frozen=True, eq=False)
class Attribution:
    source_tokens: tuple[str, ...]
    position: int  # decoder position whose output is attributed
    word: str  # the word it produced (the original translation's word, or <eos>)
    gradient_x_input: np.ndarray  # (S,)
    integrated_gradients: np.ndarray  # (S,)
    f_input: float  # f(x): log p(word)
    f_baseline: float  # f(x') with every source word's embedding zero
    steps: int

    @property
    def completeness_gap(self) -> float:
        """|Σ IG − (f(x) − f(x'))|: how far the integral's approximation is from exact."""
        return abs(float(self.integrated_gradients.sum()) - (self.f_input - self.f_baseline))


def word_log_prob(model: Transformer, src: torch.Tensor, tgt_in: torch.Tensor, position: int, word: int
                  ) -> Callable[[torch.Tensor], torch.Tensor]:
    """f: source embeddings (B, S, C) -> (B,) log p(word) at `position`, everything else as in
    Transformer.encode / decode."""
    S = src.shape[1]
    mask = additive_mask(padding_allowed(src, S))  # (1, 1, S, S)

    def f(emb: torch.Tensor) -> torch.Tensor:
        B = emb.shape[0]
        x = emb + model.positions[:S].to(emb.dtype)  # x = E[ids]·√d_model + PE[pos]
        for layer in model.encoder:
            x = layer(x, mask.expand(B, -1, -1, -1))
        memory = model.ln_encoder(x)
        logits = model.decode(tgt_in.expand(B, -1), memory, src.expand(B, -1))  # (B, T, V)
        return torch.log_softmax(logits[:, position].double(), dim=-1)[:, word]

    return f


def source_embeddings(model: Transformer, src: torch.Tensor) -> torch.Tensor:
    return model.src_embed(src) * math.sqrt(model.cfg.d_model)  # (1, S, C)


def gradient_x_input(f: Callable[[torch.Tensor], torch.Tensor], x: torch.Tensor) -> np.ndarray:
    """(1, S, C) -> (S,) Σ_d x·∂f/∂x."""
    x = x.detach().clone().requires_grad_(True)
    (grad,) = torch.autograd.grad(f(x).sum(), x)
    return (grad * x).sum(-1)[0].detach().double().numpy()


def integrated_gradients(f: Callable[[torch.Tensor], torch.Tensor], x: torch.Tensor, baseline: torch.Tensor,
                         steps: int = IG_STEPS) -> np.ndarray:
    """(1, S, C) -> (S,) integrated gradients from `baseline` to x, trapezoid rule, one batch."""
    alphas = torch.linspace(0.0, 1.0, steps + 1, dtype=x.dtype)[:, None, None]  # (steps + 1, 1, 1)
    points = (baseline + alphas * (x - baseline)).detach().requires_grad_(True)  # (steps + 1, S, C)
    (grads,) = torch.autograd.grad(f(points).sum(), points)
    w = torch.full((steps + 1, 1, 1), 1.0 / steps, dtype=grads.dtype)
    w[0] = w[-1] = 0.5 / steps  # trapezoid weights
    mean_grad = (grads * w).sum(0, keepdim=True)  # (1, S, C) ≈ ∫₀¹ ∂f/∂x dα
    return ((x - baseline) * mean_grad).sum(-1)[0].detach().double().numpy()


def attribute_ids(model: Transformer, source_ids: list[int], produced: list[int], position: int,
                  steps: int = IG_STEPS) -> tuple[np.ndarray, np.ndarray, float, float]:
    """Gradient × input and IG of the word at `position` of produced + <eos>, with f(x) and f(x')."""
    src = torch.tensor([source_ids])
    tgt_in = torch.tensor([[BOS_ID] + produced])
    word = (produced + [EOS_ID])[position]
    f = word_log_prob(model, src, tgt_in, position, word)
    x = source_embeddings(model, src).detach()
    baseline = torch.zeros_like(x)
    gxi = gradient_x_input(f, x)
    ig = integrated_gradients(f, x, baseline, steps)
    with torch.no_grad():
        fx, fb = float(f(x)[0]), float(f(baseline)[0])
    return gxi, ig, fx, fb


def attribute(text: str, position: int, model: Transformer | None = None, steps: int = IG_STEPS) -> Attribution:
    """Attribution of the translation's word at decoder `position` (len(words) for the final <eos>)."""
    model = api.load_model() if model is None else model
    out = api.translate(text, model=model)
    words = list(out.target_tokens) + [EOS]
    if not 0 <= position < len(words):
        raise ValueError(f"position {position} is outside the translation's {len(words)} words")
    source_ids = api._source(model, text).ids
    produced = [model.tgt_vocab.id(w) for w in out.target_tokens]
    gxi, ig, fx, fb = attribute_ids(model, source_ids, produced, position, steps)
    return Attribution(out.source_tokens, position, words[position], gxi, ig, fx, fb, steps)
