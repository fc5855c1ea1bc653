"""Where one word's q, k and v come from in the built-in translator: x·W + b, per head.

The model records the stream each attention call projected (x, after the layer's LayerNorm), so
q = x·W_Q[h] + b_Q[h] can be rebuilt and checked against the q the call used. Self-attention only:
in cross-attention a word's query and the keys come from different sentences.
"""

from __future__ import annotations

import math

import numpy as np
import torch

from attention.analysis.qkv_origin import AGREE, Embedding, Origin
from attention.trace import Site
from attention.translator.model import Attention, Transformer


def origin(model: Transformer, site: Site, head: int, pos: int) -> Origin | None:
    if site.kind == "cross" or site.query_inputs is None:
        return None
    module = dict(model.named_modules()).get(site.name)
    if not isinstance(module, Attention):
        return None
    x = site.query_inputs[pos].astype(np.float32)  # (C,)
    weights, biases, recomputed = {}, {}, {}
    with torch.no_grad():
        for name, w, b in (("q", module.W_Q, module.b_Q), ("k", module.W_K, module.b_K), ("v", module.W_V, module.b_V)):
            w_h = w[head].numpy().T.astype(np.float32)  # (hs, C): this head's rows, as x·W = W_hᵀ·x
            b_h = b[head].numpy().astype(np.float32)
            weights[name], biases[name], recomputed[name] = w_h, b_h, w_h @ x + b_h
    from_model = {"q": site.q[head, pos], "k": site.head_k(head)[pos], "v": site.head_v(head)[pos]}
    embedding = None
    if site.kind == "encoder" and site.layer == 0 and model.src_vocab is not None:
        with torch.no_grad():
            token_id = model.src_vocab.id(site.query_tokens[pos])
            embedding = Embedding(
                token=(model.src_embed.weight[token_id] * math.sqrt(model.cfg.d_model)).numpy().copy(),
                position=model.positions[pos].numpy().copy(),
                segment=None,
            )
    found = Origin(pos, x, weights, biases, recomputed, from_model, embedding)
    return found if found.max_diff <= AGREE else None
