"""The logit lens (nostalgebraist, 2020): what each layer's residual stream would predict if the model
stopped there. Each layer's output at one position goes through the model's OWN final norm and the
unembedding (lm_head), exactly as the last layer's output does, and the softmax says which token leads.

    rows = lens(lm, ids, position=len(ids) - 1)
    rows[0].layer, rows[0].labels[0]          # -1 "embedding": the token's own embedding read back
    rows[-1].probs[0]                         # the output: the model's own distribution (≤ 1e-5)

Why a hook: `output_hidden_states` gives the embedding output and every layer's output, but in
Hugging Face the LAST entry already has the final norm applied (Llama, GPT-2 alike). Normalising it
again would distort the output row; so the last layer's raw output is read at the norm's input (a
forward pre-hook) and every row, the last included, goes through the norm once.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np
import torch

from attention.analysis.token_text import readable, scheme_of
from attention.ids import TopRows, TopToken

FINAL_NORMS = ("norm", "ln_f", "final_layer_norm", "final_layernorm", "norm_f")  # per family's base model
EMBEDDING = -1  # the layer number of the embedding row


@dataclass(frozen=True)
class LensRow:
    """One row of the lens: what `layer`'s output (EMBEDDING: the embeddings) predicts at the position."""

    layer: int  # EMBEDDING, 0 … L-1; the last row is the model's output (layer L-1 through the norm)
    ids: tuple[int, ...]  # the k likeliest token ids, likeliest first
    probs: tuple[float, ...]
    tokens: tuple[str, ...]  # raw ("Ġthe")
    labels: tuple[str, ...]  # as labels show them ("·the")
    output_prob: float = float("nan")  # this row's probability of the output row's top token

    @property
    def top(self) -> TopRows[TopToken]:
        """[TopToken(token as text, probability, token id), …] this row's k likeliest: `.top[0]` the first,
        `.top(3)` the first three."""
        return TopRows(TopToken(lab, p, i) for lab, p, i in zip(self.labels, self.probs, self.ids, strict=True))


def final_norm(model: torch.nn.Module) -> torch.nn.Module:
    """The causal LM's final norm (the module between the last layer and the unembedding)."""
    base = getattr(model, "base_model", model)
    for name in FINAL_NORMS:
        norm = getattr(base, name, None)
        if isinstance(norm, torch.nn.Module):
            return norm
    raise ValueError(f"{type(model).__name__}: no final norm found (looked for {', '.join(FINAL_NORMS)})")


def residuals(model: torch.nn.Module, ids: list[int]) -> tuple[torch.Tensor, torch.Tensor]:
    """(layers + 1, n, d) the residual stream before the final norm (embedding output, then each layer's
    output) and (n, vocab) the model's own logits, from one forward pass."""
    norm = final_norm(model)
    seen: list[torch.Tensor] = []
    me = threading.get_ident()  # the model is shared between sessions: keep only this thread's call

    def keep(_module, args) -> None:
        if threading.get_ident() == me:
            seen.append(args[0])

    hook = norm.register_forward_pre_hook(keep)
    try:
        with torch.inference_mode():
            out = model(input_ids=torch.tensor([ids]), output_hidden_states=True, use_cache=False)
    finally:
        hook.remove()
    raw_last = seen[-1][0]  # (n, d): the last layer's output, before the norm
    stream = torch.stack([h[0] for h in out.hidden_states[:-1]] + [raw_last])  # hidden_states[-1] is normed
    return stream, out.logits[0]


def unembed(model: torch.nn.Module, x: torch.Tensor) -> torch.Tensor:
    """(…, d) residual stream -> (…, vocab) logits: the final norm, then the unembedding."""
    return model.get_output_embeddings()(final_norm(model)(x))


def lens_of_model(model: torch.nn.Module, tokenizer, ids: list[int], position: int, k: int = 5) -> list[LensRow]:
    """The lens at `position` (0 … len(ids)-1): one row per layer, embedding first, output last."""
    if not 0 <= position < len(ids):
        raise ValueError(f"position {position} outside 0 … {len(ids) - 1}")
    stream, _ = residuals(model, ids[: position + 1])  # causal: later tokens change nothing here
    with torch.inference_mode():
        logits = unembed(model, stream[:, -1])  # (layers + 1, vocab)
        probs = torch.softmax(logits.double(), dim=-1)
        top_p, top_i = probs.topk(k, dim=-1)  # (layers + 1, k)
        output = probs[:, top_i[-1, 0]].tolist()  # (layers + 1,) each row's probability of the output's token
    scheme = scheme_of(tokenizer.convert_ids_to_tokens(tokenizer(" a b\n", add_special_tokens=False)["input_ids"]))
    rows = []
    for layer, (ps, js, out) in enumerate(zip(top_p.tolist(), top_i.tolist(), output, strict=True)):
        raw = tokenizer.convert_ids_to_tokens(js)
        rows.append(LensRow(layer - 1, tuple(js), tuple(ps), tuple(raw), tuple(readable(t, scheme) for t in raw), out))
    return rows


def lens(lm, ids: list[int], position: int, k: int = 5) -> list[LensRow]:
    """The lens of a loaded language model (capture's LoadedModel: `.model` a causal LM, `.tokenizer`)."""
    return lens_of_model(lm.model, lm.tokenizer, ids, position, k)


def settles_at(rows: list[LensRow]) -> int:
    """The first layer from which every row's top token is the output's (EMBEDDING if all of them)."""
    final = rows[-1].ids[0]
    first = len(rows) - 1
    while first > 0 and rows[first - 1].ids[0] == final:
        first -= 1
    return rows[first].layer


def output_probs(model: torch.nn.Module, ids: list[int]) -> np.ndarray:
    """The model's own next-token distribution after ids, (vocab,) float64: the lens's outside reference."""
    with torch.inference_mode():
        logits = model(input_ids=torch.tensor([ids]), use_cache=False).logits[0, -1]
    return torch.softmax(logits.double(), dim=-1).numpy()
