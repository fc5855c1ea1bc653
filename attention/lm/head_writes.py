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
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np
import torch

from attention.capture import residual_parts
from attention.capture.loaded import LoadedModel
from attention.capture.residual_parts import Refused
from attention.ids import HeadId, TopHead, TopToken

CHECK = 1e-4  # |Σ parts + bias − logit| above this: the page says the parts do not add up
NORM_AGREE = 1e-3  # our reading of the final norm against its output, relative to the output's largest value
NORMS = ("residual", "own")

__all__ = ["CHECK", "NORMS", "HeadWrites", "Readout", "Refused", "Vectors", "head_vectors", "writes"]


def head_vectors(z: torch.Tensor, w_o: torch.Tensor, heads: int) -> np.ndarray:
    """(H·d_head,) one layer's projection input, (C, H·d_head) W_O -> (H, C) each head's output, float64."""
    zz = z.double().reshape(heads, -1)  # (H, d_head)
    w = w_o.detach().double().reshape(w_o.shape[0], heads, -1)  # (C, H, d_head)
    return torch.einsum("chd,hd->hc", w, zz).numpy()


@dataclass(frozen=True, eq=False)
class Vectors:
    """The parts of r as vectors, float64; they add up to r (up to the model's float32 sums)."""

    heads: np.ndarray  # (L, H, C)
    mlps: np.ndarray  # (L, C)
    out_biases: np.ndarray  # (L, C) zeros where the projection has no bias
    embedding: np.ndarray  # (C,)
    residual: np.ndarray  # (C,) r as the model had it

    def total(self) -> np.ndarray:
        """(C,) the sum of the parts."""
        return self.embedding + self.heads.sum((0, 1)) + self.mlps.sum(0) + self.out_biases.sum(0)


@dataclass(frozen=True, eq=False)
class Readout:
    """The final norm and the unembedding, at one residual r: what turns a part into logits."""

    unembed: torch.Tensor  # (V, C) W_U, the model's own tensor (not copied)
    unembed_bias: torch.Tensor | None  # (V,)
    gamma: np.ndarray  # (C,) float64
    beta: np.ndarray | None  # (C,) LayerNorm's bias
    centred: bool  # LayerNorm: parts centred
    eps: float
    scale: float  # s of r
    logits: torch.Tensor  # (V,) the model's own logits at the position

    def direction(self, token_id: int) -> np.ndarray:
        """(C,) u with part(x) = x · u: γ ⊙ W_U[t] / s, centred for LayerNorm (x − x̄)·u = x·(u − ū)."""
        u = self.gamma * self.unembed[token_id].detach().double().numpy() / self.scale
        return u - u.mean() if self.centred else u

    def constant(self, token_id: int) -> float:
        """β · W_U[t] + b_U[t]: no part's (0.0 where the model has neither)."""
        c = 0.0 if self.beta is None else float(self.beta @ self.unembed[token_id].detach().double().numpy())
        return c + (0.0 if self.unembed_bias is None else float(self.unembed_bias[token_id]))

    def read(self, x: np.ndarray, norm: str = "residual") -> torch.Tensor:
        """(C,) one part -> (V,) what it alone adds to every logit: through r's scale ("residual"), or normed
        by its own ("own", the LLM Transparency Tool's convention; β and b_U left out: no part's)."""
        if norm not in NORMS:
            raise ValueError(f"norm is one of {NORMS}, not {norm!r}")
        x = x - x.mean() if self.centred else x
        s = self.scale if norm == "residual" else float(np.sqrt((x ** 2).mean() + self.eps))
        v = torch.from_numpy(self.gamma * x / s).to(self.unembed.dtype)  # (C,)
        with torch.inference_mode():
            return self.unembed.detach() @ v  # (V,) float32: a ranking of 49,152 tokens, not a sum to check


@dataclass(frozen=True, eq=False)
class HeadWrites:
    """Each part's direct share of the logit of `token` (or of `token` − `vs`) at `position`, in logits.

    heads (L, H), mlps (L,), out_biases (L,), embedding and bias add up to `logit`, the model's own (its
    logit of token minus its logit of vs, for a difference); `check` says how closely (`adds_up`: ≤ CHECK).
    `reads` (L, H, T) is what each head read: its attention from the position over the prompt."""

    tokens: tuple[str, ...]  # the prompt's tokens up to and including the position, raw
    position: int  # counted from 0; the token explained comes after it
    token_id: int
    token: str  # raw
    layers: tuple[int, ...]  # the layer numbers the rows of heads stand for
    heads: np.ndarray  # (L, H) every head's part
    mlps: np.ndarray  # (L,)
    out_biases: np.ndarray  # (L,) each output projection's bias (0.0 where none)
    embedding: float
    bias: float  # β · W_U[t] + b_U[t] (0.0 where the model has neither)
    logit: float  # the model's own
    vectors: Vectors
    readout: Readout
    names: Callable[[list[int]], list[str]]  # token ids -> raw tokens
    vs: int | None = None  # a difference: the token whose logit is subtracted
    reads: np.ndarray | None = None  # (L, H, T) each head's attention from the position (what it read)

    @property
    def total(self) -> float:
        """Σ parts + bias, float64."""
        return float(self.heads.sum() + self.mlps.sum() + self.out_biases.sum() + self.embedding + self.bias)

    @property
    def check(self) -> float:
        """|Σ parts + bias − the model's own logit|."""
        return abs(self.total - self.logit)

    @property
    def adds_up(self) -> bool:
        return self.check <= CHECK

    def head_ids(self) -> list[HeadId]:
        return [HeadId("decoder", layer, h) for layer in self.layers for h in range(self.heads.shape[1])]

    def top(self, k: int = 5) -> list[TopHead]:
        """The k heads with the largest |part|, largest first (score: the signed part)."""
        flat = self.heads.reshape(-1)
        order = np.argsort(-np.abs(flat), kind="stable")[:k]
        ids = self.head_ids()
        return [TopHead(ids[i], float(flat[i])) for i in order]

    def part(self, layer: int, head: int) -> float:
        return float(self.heads[self.layers.index(layer), head])

    def _ranked(self, layer: int, head: int, k: int, norm: str, sign: int) -> list[TopToken]:
        values = self.readout.read(self.vectors.heads[self.layers.index(layer), head], norm)  # (V,)
        top = torch.topk(sign * values, k)
        ids = [int(i) for i in top.indices]
        return [TopToken(tok, float(values[i]), i) for tok, i in zip(self.names(ids), ids, strict=True)]

    def promotes(self, layer: int, head: int, k: int = 10, norm: str = "residual") -> list[TopToken]:
        """The k tokens this head's output alone pushes up most.

        Args:
            layer, head: the head (layer as the model numbers it).
            k: how many tokens.
            norm: "residual": its vector read through r's scale s, so a value is its part in that token's
                logit; "own": normed by its own scale (the LLM Transparency Tool's "normalize before
                unembedding"; larger numbers, not parts of a logit). See Readout.read.

        Returns:
            [TopToken(token raw, value in logits, token_id)], largest first.
        """
        return self._ranked(layer, head, k, norm, 1)

    def suppresses(self, layer: int, head: int, k: int = 10, norm: str = "residual") -> list[TopToken]:
        """The k tokens it pushes down most, most negative first."""
        return self._ranked(layer, head, k, norm, -1)

    def difference(self, token_a: int, token_b: int) -> HeadWrites:
        """The same parts for logit(token_a) − logit(token_b): why a rather than b.

        Args:
            token_a, token_b: token ids.

        Returns:
            HeadWrites with token = a, vs = b, every part the difference of the two tokens' parts and `logit`
            the model's own logit difference (`check` as for one token).
        """
        a, b = _parts(self.vectors, self.readout, token_a), _parts(self.vectors, self.readout, token_b)
        own = float(self.readout.logits[token_a]) - float(self.readout.logits[token_b])
        return replace(self, token_id=int(token_a), token=self.names([int(token_a)])[0], vs=int(token_b),
                       heads=a[0] - b[0], mlps=a[1] - b[1], out_biases=a[2] - b[2], embedding=a[3] - b[3],
                       bias=a[4] - b[4], logit=own)


def _parts(v: Vectors, ro: Readout, token_id: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, float, float]:
    u = ro.direction(token_id)  # (C,)
    return v.heads @ u, v.mlps @ u, v.out_biases @ u, float(v.embedding @ u), ro.constant(token_id)


def _readout(lm: LoadedModel, lay: residual_parts.Layout, got: residual_parts.Read) -> Readout:
    r = got.residual.double().numpy()
    x = r - r.mean() if lay.norm_kind == "layer" else r
    scale = float(np.sqrt((x ** 2).mean() + lay.eps))
    gamma = lay.norm.weight.detach().double().numpy()
    bias = getattr(lay.norm, "bias", None)
    beta = None if bias is None else bias.detach().double().numpy()
    mine = gamma * x / scale + (0.0 if beta is None else beta)
    theirs = got.normed.double().numpy()
    if np.abs(mine - theirs).max() > NORM_AGREE * max(1.0, np.abs(theirs).max()):
        raise Refused(f"its final norm ({type(lay.norm).__name__}) does not compute γ ⊙ r / s as read here")
    out = lm.model.get_output_embeddings()
    return Readout(out.weight, out.bias, gamma, beta, lay.norm_kind == "layer", lay.eps, scale, got.logits)


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
    ro = _readout(lm, lay, got)
    heads = np.stack([head_vectors(got.z[i], residual_parts.out_weight(p)[0], lay.heads)
                      for i, p in enumerate(lay.out_proj)])  # (L, H, C)
    c = heads.shape[-1]
    biases = np.stack([np.zeros(c) if (b := residual_parts.out_weight(p)[1]) is None else b.detach().double().numpy()
                       for p in lay.out_proj])  # (L, C)
    vec = Vectors(heads, got.mlp.double().numpy(), biases, got.embedding.double().numpy(),
                  got.residual.double().numpy())
    token_id = int(got.logits.argmax()) if token_id is None else int(token_id)
    parts = _parts(vec, ro, token_id)
    tok = lm.tokenizer

    def names(ids_: list[int]) -> list[str]:
        return list(tok.convert_ids_to_tokens(list(ids_)))

    return HeadWrites(tuple(names(list(ids[:position + 1]))), position, token_id, names([token_id])[0],
                      lay.layers, parts[0], parts[1], parts[2], parts[3], parts[4], float(got.logits[token_id]),
                      vec, ro, names, reads=None if got.reads is None else got.reads.double().numpy())
