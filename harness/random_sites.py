"""Random attention sites and traces for the head view's tests, harness app and benchmark (no model)."""

from __future__ import annotations

import numpy as np

from attention import core
from attention.trace import Kind, Site, Trace, make_site

# repeated words and a token that looks like markup: each must stay itself
WORDS = ("the", "cat", "<b>x</b>", "drank", "the", "milk", "&amp;", "é", "the", "end")


def tokens(n: int, prefix: str = "") -> tuple[str, ...]:
    return tuple(prefix + WORDS[i % len(WORDS)] for i in range(n))


def random_site(n_query: int, n_key: int | None = None, *, kind: Kind = "decoder", heads: int = 2,
                d_head: int = 16, seed: int = 0, layer: int = 0, spread: float = 1.5,
                bias: bool = False, softcap: float | None = None) -> Site:
    """q, k, v ~ N(0, spread²) (heads, pos, d_head); decoder sites causal, cross sites with their own
    key words. `bias` adds a T5-like per-head bias, `softcap` Gemma-2's capping."""
    rng = np.random.default_rng(seed)
    n_key = n_query if n_key is None else n_key
    q = (rng.normal(size=(heads, n_query, d_head)) * spread).astype(np.float32)
    k = (rng.normal(size=(heads, n_key, d_head)) * spread).astype(np.float32)
    v = rng.normal(size=(heads, n_key, d_head)).astype(np.float32)
    mask = core.causal_mask(n_query, n_key) if kind == "decoder" else None
    b = (rng.normal(size=(heads, n_query, n_key)) * 2).astype(np.float32) if bias else None
    scale = core.default_scale(d_head)
    _, weights, z = core.attention(q, k, v, scale=scale, mask=mask, bias=b, softcap=softcap)
    return make_site(layer=layer, kind=kind, query_tokens=tokens(n_query),
                     key_tokens=tokens(n_key, "k:" if kind == "cross" else ""), q=q, k=k, v=v, scale=scale,
                     mask=mask, model_weights=weights, model_z=z, bias=b, softcap=softcap)


def random_trace(n: int = 128, layers: int = 6, heads: int = 12, d_head: int = 32) -> Trace:
    """Shaped like all-MiniLM-L6-v2 (6 layers × 12 heads, d_head 32), encoder only."""
    sites = tuple(random_site(n, kind="encoder", heads=heads, d_head=d_head, seed=layer, layer=layer, spread=1.0)
                  for layer in range(layers))
    return Trace(text=" ".join(tokens(n)), model_name="random MiniLM-shaped", tokens=tokens(n), sites=sites)
