"""Where one word's q, k and v come from: its input vector x and the learned W_Q, W_K, W_V.

For a word at position `pos` in a self-attention site, q = x·W_Qᵀ + b_Q restricted to the head's
slice (and the same for k, v), where x is the residual stream entering the layer. We recompute
them and compare with the q, k, v the model handed its attention function: the view is shown only
where they agree (post-norm models such as BERT; pre-norm or rotary models transform x first).
"""

from __future__ import annotations

import numpy as np
import torch

from attention.analysis.qkv_origin import AGREE, Embedding, Origin
from attention.capture.hf_model import LoadedModel
from attention.trace import Site, Trace

PROJECTION_NAMES = (("query", "key", "value"), ("q_proj", "k_proj", "v_proj"), ("q", "k", "v"))
def _projections(module: torch.nn.Module) -> tuple[torch.nn.Linear, ...] | None:
    for names in PROJECTION_NAMES:
        layers = tuple(getattr(module, n, None) for n in names)
        if all(isinstance(layer, torch.nn.Linear) for layer in layers):
            return layers
    return None


def _embedding(lm: LoadedModel, tr: Trace, pos: int) -> Embedding | None:
    emb = getattr(lm.model, "embeddings", None)
    words, positions = getattr(emb, "word_embeddings", None), getattr(emb, "position_embeddings", None)
    if words is None or positions is None:
        return None
    token_id = lm.tokenizer.convert_tokens_to_ids(tr.tokens[pos])
    types = getattr(emb, "token_type_embeddings", None)
    with torch.no_grad():
        return Embedding(
            token=words.weight[token_id].numpy().copy(),
            position=positions.weight[pos].numpy().copy(),
            segment=None if types is None else types.weight[0].numpy().copy(),
        )


def origin(lm: LoadedModel, tr: Trace, site: Site, head: int, pos: int) -> Origin | None:
    """q, k, v of the word at `pos` rebuilt from x and W; None when this model or site is not supported
    (cross-attention, fused projections, or x transformed before the projection)."""
    if site.kind == "cross" or not site.has_qkv:
        return None
    side = "decoder" if site.kind == "decoder" and "decoder" in tr.layer_inputs else "encoder"
    inputs = tr.layer_inputs.get(side, ())
    module = dict(lm.model.named_modules()).get(site.name)
    layers = None if module is None else _projections(module)
    if layers is None or site.layer >= len(inputs):
        return None
    x = inputs[site.layer][pos].astype(np.float32)  # (d_model,)
    d = site.d_head
    # grouped-query attention (Llama): W_K and W_V hold fewer heads; query head h reads group h·n_kv // n_q
    n_q, n_kv = layers[0].weight.shape[0] // d, layers[1].weight.shape[0] // d
    group = head * n_kv // n_q if n_q and n_kv else head
    weights, biases, recomputed = {}, {}, {}
    with torch.no_grad():
        for name, layer in zip("qkv", layers, strict=True):
            h = head if name == "q" else group
            rows = slice(h * d, (h + 1) * d)
            w = layer.weight[rows].numpy().astype(np.float32)  # (d_head, d_model)
            if w.shape[0] != d:  # fused or otherwise shaped projections: not this recipe
                return None
            b = np.zeros(d, np.float32) if layer.bias is None else layer.bias[rows].numpy().astype(np.float32)
            weights[name], biases[name], recomputed[name] = w, b, w @ x + b
    from_model = {"q": site.q[head, pos], "k": site.head_k(head)[pos], "v": site.head_v(head)[pos]}
    found = Origin(pos, x, weights, biases, recomputed, from_model,
                   _embedding(lm, tr, pos) if site.layer == 0 and site.kind == "encoder" else None)
    return found if found.max_diff <= AGREE else None
