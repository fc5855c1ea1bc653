"""SmolLM2 traced at its whole context, 8,192 tokens, nothing cut: rows of A equal rows rebuilt from
transformers' own hidden states (the layer's input norm, q_proj, k_proj, its rotary embedding, a causal
softmax in float64), for a few layers, heads of every key/value group, and rows at both ends."""

from __future__ import annotations

import numpy as np
import pytest
import torch

pytestmark = pytest.mark.model

LAYERS = (0, 17, 29)
HEADS = (0, 4, 8)  # key/value groups 0, 1 and 2
WORDS = ("the cat sat on a mat and then it went home to sleep because it was tired of the long day in "
         "spring when every bird sang over green hills near an old river").split()


def _text_of(lm, n: int) -> str:
    """A text of exactly n tokens (random words, numpy seed 0)."""
    words = " ".join(np.random.default_rng(0).choice(WORDS, size=2 * n))
    ids = lm.tokenizer(words, add_special_tokens=False)["input_ids"][:n]
    text = lm.tokenizer.decode(ids)
    assert len(lm.tokenizer(text)["input_ids"]) == n
    return text


def _reference_rows(lm, hidden: torch.Tensor, layer: int, head: int, rows: np.ndarray) -> np.ndarray:
    """A's rows of one head from the residual stream entering `layer`, with the model's own modules."""
    from transformers.models.llama.modeling_llama import apply_rotary_pos_emb

    block = lm.model.model.layers[layer]
    attn, n = block.self_attn, hidden.shape[1]
    d, n_heads, n_kv = attn.head_dim, lm.model.config.num_attention_heads, lm.model.config.num_key_value_heads
    with torch.inference_mode():
        x = block.input_layernorm(hidden)
        q = attn.q_proj(x).view(1, n, n_heads, d).transpose(1, 2)
        k = attn.k_proj(x).view(1, n, n_kv, d).transpose(1, 2)
        cos, sin = lm.model.model.rotary_emb(x, torch.arange(n)[None])
        q, k = apply_rotary_pos_emb(q, k, cos, sin)
        s = q[0, head, rows].double() @ k[0, head * n_kv // n_heads].double().T * attn.scaling
        s = s.masked_fill(torch.arange(n)[None, :] > torch.as_tensor(rows)[:, None], float("-inf"))
        return torch.softmax(s, dim=-1).numpy()


def test_rows_of_a_at_8192_tokens_equal_transformers_own(smollm2):
    from attention import sources

    n = smollm2.max_tokens
    assert n == 8192
    text = _text_of(smollm2, n)
    hidden: dict[int, torch.Tensor] = {}

    def keep(layer: int):
        def hook(module, args, kwargs):
            hidden[layer] = (args[0] if args else kwargs["hidden_states"]).detach().clone()
        return hook

    handles = [smollm2.model.model.layers[layer].register_forward_pre_hook(keep(layer), with_kwargs=True)
               for layer in LAYERS]
    try:
        tr = sources.get(sources.SMOLLM2).run(smollm2, text).trace
    finally:
        for h in handles:
            h.remove()
    assert len(tr.tokens) == n and tr.dropped_tokens == 0
    rows = np.array([0, 1, 2, 1_000, 4_095, 8_190, 8_191])
    worst = 0.0
    for layer in LAYERS:
        site = tr.site(layer, "decoder")
        assert site.is_long and site.model_weights is None and site.k.shape[0] == 3  # k, v once per group
        for head in HEADS:
            ours = site.pattern(head, rows)
            want = _reference_rows(smollm2, hidden[layer], layer, head, rows)
            assert ours.shape == (len(rows), n)
            worst = max(worst, float(np.abs(ours - want).max()))
    assert worst < 1e-5, worst
    site = tr.site(17, "decoder")
    assert site.faithful and site.check_diff < 1e-5  # every head's z against the model's SDPA output
