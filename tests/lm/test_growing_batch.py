"""Every head off alone in a batch that grows layer by layer (attention/capture/growing_batch.py) on a Llama:
each row equals the model with that head's columns of o_proj zeroed by hand (the outside reference), for every
position's log-probability (hf_ablation.head_effects) on a tiny random Llama, and the plain batch is what a
model whose layers the check does not know gets."""

import numpy as np
import pytest
import torch

from attention.capture import growing_batch, hf_ablation

pytestmark = pytest.mark.model
TEXT = "The black cat drank the milk because it was"


def _label_log_probs(lm, ids: list[int]) -> np.ndarray:
    """(words,) log p of each next token, every head on (or as the weights stand)."""
    with torch.no_grad():
        logits = lm.model(input_ids=torch.tensor([ids])).logits[0, :-1].double()
    return torch.log_softmax(logits, -1).gather(-1, torch.tensor(ids[1:])[:, None])[:, 0].numpy()


def test_every_heads_row_in_the_grown_batch_is_its_o_proj_zeroed_by_hand(tiny):
    heads = hf_ablation.all_heads(tiny)
    assert hf_ablation.grown_layers(tiny, heads) is not None  # a Llama: the batch grows
    fx = hf_ablation.head_effects(TEXT, lm=tiny)
    ids = tiny.tokenizer(TEXT)["input_ids"]
    on = _label_log_probs(tiny, ids)
    d = tiny.model.config.hidden_size // tiny.model.config.num_attention_heads
    for (_, layer, head), drops in zip(fx.heads, fx.drops, strict=True):
        weight = tiny.model.model.layers[layer].self_attn.o_proj.weight  # (out, in): head h's inputs are columns
        kept = weight.data.clone()
        try:
            weight.data[:, head * d:(head + 1) * d] = 0.0
            off = _label_log_probs(tiny, ids)
        finally:
            weight.data.copy_(kept)
        np.testing.assert_allclose(drops, on - off, atol=1e-5)


def test_heads_out_of_layer_order_or_outside_the_layers_take_the_plain_batch(tiny):
    heads = hf_ablation.all_heads(tiny)
    assert hf_ablation.grown_layers(tiny, heads[::-1]) is None  # rows must join in layer order
    modules = {key: module for key, (module, _, _) in hf_ablation._sites(tiny).items()}
    elsewhere = {key: tiny.model.lm_head for key in modules}  # an attention module outside the layers
    assert growing_batch.layers_for(tiny.model, heads, elsewhere) is None
    assert growing_batch.layers_for(tiny.model.lm_head, heads, modules) is None  # no model.layers at all
    layers = growing_batch.layers_for(tiny.model, heads, modules)
    assert growing_batch.counts(heads, layers) == [4, 4, 4]
    with pytest.raises(ValueError, match="one count per layer"):
        with growing_batch.growing(layers, [1, 2]):
            pass
