"""What a head writes: every part of the final residual's direct share of one token's logit (direct logit
attribution), adding up exactly to the model's own logit.

At a position, the final residual r (the final norm's input) is a sum of parts (residual_parts.py):
the embedding e, every head's output x_lh = W_O[:, h's columns] · z_lh, each layer's output-projection bias
b_O,l (where the model has one) and each MLP's output m_l. The final norm divides the whole of r by one scale

    s = √(mean(r²) + ε)                           RMSNorm
    s = √(mean((r − r̄)²) + ε), every part centred LayerNorm

so with γ the norm's weight, β its bias and W_U the unembedding, a part x contributes

    part(x) = ((x − x̄) / s) · (γ ⊙ W_U[:, t])     (x̄ = 0 for RMSNorm)

and Σ parts + β · W_U[:, t] + b_U[t] = logit(t): `.check` is how far that sum is from the logit the model
computed (float64 here, float32 in the model). Every part is read through the same s, the scale of the
whole residual (TransformerLens's `apply_ln_to_stack`), which is why they add up; the logit-lens convention
of normalising each part by its own scale does not add up. `.promotes` offers both: "residual" (this one)
and "own", the LLM Transparency Tool's "normalize before unembedding".

The translator's decoder is read the same way (attention/translator/decoder_parts.py, assembled here by
`readout` and `assemble` through its source): its parts are each layer's masked self-attention heads and
cross-attention heads (a row of each per layer, `kinds`), their two b_O, each feed-forward, and the
embedding (token + position); its final norm is a LayerNorm (centred, β) and its output is tied to E.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import torch
from torch import nn

from attention.capture import residual_parts
from attention.capture.loaded import LoadedModel
from attention.capture.residual_parts import Refused
from attention.lm.writes_result import CHECK, NORMS, HeadWrites, Readout, Vectors, parts_of

NORM_AGREE = 1e-3  # our reading of the final norm against its output, relative to the output's largest value

__all__ = ["CHECK", "NORMS", "HeadWrites", "Readout", "Refused", "Vectors", "assemble", "head_vectors", "readout",
           "writes"]


def head_vectors(z: torch.Tensor, w_o: torch.Tensor, heads: int) -> np.ndarray:
    """(H·d_head,) one layer's projection input, (C, H·d_head) W_O -> (H, C) each head's output, float64."""
    zz = z.double().reshape(heads, -1)  # (H, d_head)
    w = w_o.detach().double().reshape(w_o.shape[0], heads, -1)  # (C, H, d_head)
    return torch.einsum("chd,hd->hc", w, zz).numpy()


def readout(norm: nn.Module, centred: bool, eps: float, unembed: nn.Module | torch.Tensor, residual: torch.Tensor,
            normed: torch.Tensor, logits: torch.Tensor) -> Readout:
    """The final norm read at r, checked against the norm's own output (Refused when it does not compute
    γ ⊙ (r − r̄) / s + β as read here).

    Args:
        norm: the final norm (its weight γ, its bias β where it has one).
        centred: LayerNorm (True) or RMSNorm (False).
        eps: its ε.
        unembed: the output layer (a Linear: its weight (V, C) and bias) or a tied weight (V, C) alone.
        residual: (C,) r, the norm's input; normed: (C,) its output; logits: (V,) the model's own.

    Returns:
        Readout.
    """
    r = residual.double().numpy()
    x = r - r.mean() if centred else r
    scale = float(np.sqrt((x ** 2).mean() + eps))
    gamma = norm.weight.detach().double().numpy()
    bias = getattr(norm, "bias", None)
    beta = None if bias is None else bias.detach().double().numpy()
    mine = gamma * x / scale + (0.0 if beta is None else beta)
    theirs = normed.double().numpy()
    if np.abs(mine - theirs).max() > NORM_AGREE * max(1.0, np.abs(theirs).max()):
        raise Refused(f"its final norm ({type(norm).__name__}) does not compute γ ⊙ r / s as read here")
    weight, b_u = (unembed, None) if isinstance(unembed, torch.Tensor) else (unembed.weight, unembed.bias)
    return Readout(weight, b_u, gamma, beta, centred, eps, scale, logits)


def assemble(vec: Vectors, ro: Readout, token_id: int, tokens: tuple[str, ...], position: int,
             layers: tuple[int, ...], names: Callable[[list[int]], list[str]], **more) -> HeadWrites:
    """Every part's share of `token_id`'s logit from the parts as vectors and the readout.

    Args:
        vec: the parts (rows, H, C) …; ro: the final norm and unembedding at r.
        token_id: the token explained; tokens: those read up to the position (raw); position: from 0.
        layers: each row's layer; names: token ids -> raw tokens.
        **more: HeadWrites's optional fields (reads, kinds, site_reads, source_tokens).

    Returns:
        HeadWrites.
    """
    parts = parts_of(vec, ro, token_id)
    return HeadWrites(tokens, position, token_id, names([token_id])[0], layers, parts[0], parts[1], parts[2],
                      parts[3], parts[4], float(ro.logits[token_id]), vec, ro, names, **more)


def writes(lm: LoadedModel, ids: list[int], token_id: int | None = None, position: int = -1) -> HeadWrites:
    """Every part's direct share of the logit of `token_id` after ids[position] (see the module's docstring).

    Args:
        lm: a causal language model loaded with our attention function (attention_fn).
        ids: the prompt's token ids (T,).
        token_id: the token explained; None: the model's likeliest after the position.
        position: the prompt token whose next token is explained (negative: from the end). The model reads
            ids[:position + 1] once (a causal model's output there reads nothing later).

    Returns:
        HeadWrites: heads (L, H), mlps (L,), out_biases (L,), embedding, bias, logit, check.

    Raises:
        Refused: the model's logit does not split into heads (the message says why).
        ValueError: no tokens, or a position outside them.
    """
    if not ids:
        raise ValueError("the prompt has no tokens")
    n = len(ids)
    if not -n <= position < n:
        raise ValueError(f"position {position} is outside the prompt's {n} tokens")
    position %= n
    lay = residual_parts.layout(lm)
    got = residual_parts.read(lm, list(ids[:position + 1]))
    ro = readout(lay.norm, lay.norm_kind == "layer", lay.eps, lm.model.get_output_embeddings(), got.residual,
                 got.normed, got.logits)
    heads = np.stack([head_vectors(got.z[i], residual_parts.out_weight(p)[0], lay.heads)
                      for i, p in enumerate(lay.out_proj)])  # (L, H, C)
    c = heads.shape[-1]
    biases = np.stack([np.zeros(c) if (b := residual_parts.out_weight(p)[1]) is None else b.detach().double().numpy()
                       for p in lay.out_proj])  # (L, C)
    vec = Vectors(heads, got.mlp.double().numpy(), biases, got.embedding.double().numpy(),
                  got.residual.double().numpy())
    token_id = int(got.logits.argmax()) if token_id is None else int(token_id)
    tok = lm.tokenizer

    def names(ids_: list[int]) -> list[str]:
        return list(tok.convert_ids_to_tokens(list(ids_)))

    return assemble(vec, ro, token_id, tuple(names(list(ids[:position + 1]))), position, lay.layers, names,
                    reads=None if got.reads is None else got.reads.double().numpy())
