"""What a head writes (attention/lm/head_writes.py): every part's direct share of a logit adds up to the
model's own logit; on a hand-made model each part is known by construction; a head whose output-projection
columns are zero writes exactly 0; GPT-2's Conv1D and a grouped-query Llama; a model whose output projection
is not a linear layer over the heads side by side is refused with the reason."""

import numpy as np
import pytest
import torch
from torch import nn
from transformers import AutoModelForCausalLM, Gemma2Config, LlamaConfig

import attention
from attention.capture import attention_fn, hf_ablation, hf_forward, hf_model
from attention.lm import head_writes
from attention.lm.head_writes import Refused

pytestmark = pytest.mark.model

PROMPTS = ("The black cat drank the milk because it was",
           "Anna gave the violin to her brother, and her brother gave the violin back to",
           "人类是我们的朋友，因为")


def own_logit(lm, ids, position, token_id) -> float:
    """transformers' own logits of the whole prompt (no hooks, every position), at `position`."""
    with torch.inference_mode():
        return float(lm.model(input_ids=torch.tensor([ids])).logits[0, position, token_id])


@pytest.mark.parametrize("prompt", PROMPTS)
def test_smollm2_parts_add_up_to_its_logit_at_two_positions(smollm2, prompt):
    ids = smollm2.tokenizer(prompt)["input_ids"]
    for position in (-1, 4):
        r = head_writes.writes(smollm2, ids, position=position)
        assert r.heads.shape == (30, 9) and r.mlps.shape == (30,) and r.bias == 0.0
        assert r.check <= 1e-4, (prompt, position, r.check)
        assert abs(r.logit - own_logit(smollm2, ids, position, r.token_id)) <= 1e-4
        assert r.position == position % len(ids) and len(r.tokens) == r.position + 1
        assert np.abs(r.vectors.total() - r.vectors.residual).max() <= 1e-3  # the vectors add up to r, too
        # the likeliest token by default, and the head's promoted value is its part in that token's logit
        layer, head = r.top(1)[0].head.layer, r.top(1)[0].head.head
        values = {t.token_id: t.value for t in r.promotes(layer, head, 49152)}
        assert values[r.token_id] == pytest.approx(r.part(layer, head), abs=1e-4)


def test_the_violin_sentence_one_head_writes_her_while_the_mlps_write_against_it(smollm2):
    """DESIGN.md's figure: layer 26 writes about +9.3 of a logit of 8.7; the MLPs about −7.1."""
    r = attention.head_writes(PROMPTS[1])
    assert r.token == "Ġher" and r.logit == pytest.approx(8.70, abs=0.01)
    top = r.top(1)[0]
    assert top.head.layer == 26 and top.score == pytest.approx(9.3, abs=0.1)
    assert r.mlps.sum() == pytest.approx(-7.1, abs=0.1)
    assert r.promotes(26, top.head.head, 3)[0].token == "Ġher"
    assert r.suppresses(26, top.head.head, 3)[0].value < 0
    own = r.promotes(26, top.head.head, 3, norm="own")  # normed by itself: larger numbers, not parts
    assert own[0].token == "Ġher" and own[0].value > 3 * top.score
    anna = smollm2.tokenizer(" Anna", add_special_tokens=False)["input_ids"][0]
    d = r.difference(r.token_id, anna)
    assert d.vs == anna and d.check <= 1e-4
    assert d.logit == pytest.approx(own_logit(smollm2, smollm2.tokenizer(PROMPTS[1])["input_ids"], -1, r.token_id)
                                    - own_logit(smollm2, smollm2.tokenizer(PROMPTS[1])["input_ids"], -1, anna),
                                    abs=1e-4)
    other = head_writes.writes(smollm2, smollm2.tokenizer(PROMPTS[1])["input_ids"], anna)
    assert np.allclose(d.heads, r.heads - other.heads, atol=1e-9)


def hand_made(tokenizer):
    """Two Llama layers whose every part is known without running them: values are a constant (v_proj's
    weight 0, its bias c), so each head's z is c whatever it attends to, and each MLP writes 0."""
    torch.manual_seed(1)
    config = LlamaConfig(vocab_size=len(tokenizer), hidden_size=16, intermediate_size=32, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2, attention_bias=True,
                         max_position_embeddings=64, tie_word_embeddings=False, rms_norm_eps=1e-6)
    model = AutoModelForCausalLM.from_config(config, attn_implementation=attention_fn.register())
    with torch.no_grad():
        for layer in model.model.layers:
            layer.self_attn.v_proj.weight.zero_()
            layer.self_attn.v_proj.bias.normal_()
            layer.self_attn.o_proj.bias.normal_()
            layer.mlp.down_proj.weight.zero_()
        model.model.norm.weight.uniform_(0.5, 1.5)
    return hf_model.wrap(model, tokenizer, name="hand-made")


def test_hand_made_parts_are_known_by_construction(smollm2):
    lm = hand_made(smollm2.tokenizer)
    ids = smollm2.tokenizer("the cat sat on")["input_ids"]
    r = head_writes.writes(lm, ids)
    m, d = lm.model, 4  # d_head
    with torch.no_grad():
        e = m.model.embed_tokens.weight[ids[-1]].double()
        xs = np.zeros((2, 4, 16))
        for i, layer in enumerate(m.model.layers):
            c = layer.self_attn.v_proj.bias.double().reshape(2, d)  # (kv heads, d_head)
            w = layer.self_attn.o_proj.weight.double()  # (C, 4·d)
            for h in range(4):
                xs[i, h] = (w[:, h * d:(h + 1) * d] @ c[h // 2]).numpy()  # query head h reads group h // 2
        b = np.stack([layer.self_attn.o_proj.bias.double().numpy() for layer in m.model.layers])
        r_known = e.numpy() + xs.sum((0, 1)) + b.sum(0)
        s = np.sqrt((r_known ** 2).mean() + 1e-6)
        u = m.model.norm.weight.double().numpy() * m.lm_head.weight[r.token_id].double().numpy() / s
    assert np.allclose(r.heads, xs @ u, atol=1e-9)
    assert np.allclose(r.out_biases, b @ u, atol=1e-9)
    assert r.mlps.tolist() == [0.0, 0.0] and r.bias == 0.0
    assert r.embedding == pytest.approx(float(e.numpy() @ u), abs=1e-9)
    assert r.check <= 1e-5 and r.logit == pytest.approx(float(r_known @ u), abs=1e-5)


def zero_columns(lm, layer: int, head: int) -> None:
    """Head `head` of `layer` writes nothing: its columns of W_O (Linear) or rows of Conv1D's W set to 0."""
    attn = lm.model.base_model.layers[layer].self_attn if hasattr(lm.model.base_model, "layers") \
        else lm.model.base_model.h[layer].attn
    proj = getattr(attn, "o_proj", None) or attn.c_proj
    with torch.no_grad():
        d = proj.weight.shape[1 if isinstance(proj, nn.Linear) else 0] // 4
        if isinstance(proj, nn.Linear):
            proj.weight[:, head * d:(head + 1) * d] = 0
        else:  # GPT-2's Conv1D: y = x·W, W (in, out)
            proj.weight[head * d:(head + 1) * d] = 0


@pytest.mark.parametrize("family", ["gpt2_folder", "llama_folder"])
def test_tiny_folders_add_up_and_a_head_with_zero_columns_writes_exactly_0(family, request, smollm2):
    folder = request.getfixturevalue(family)
    r = attention.head_writes("The black cat drank the milk", model=folder)  # through the registry
    assert r.heads.shape == (2, 4) and r.check <= 1e-4
    lm = hf_ablation.read_lm(folder)  # a copy of our own to change
    ids = lm.tokenizer("The black cat drank the milk")["input_ids"]
    if family == "gpt2_folder":  # LayerNorm's β and the projections' biases (0 as initialised) made to count
        with torch.no_grad():
            for p in (lm.model.transformer.ln_f.bias, *(b.attn.c_proj.bias for b in lm.model.transformer.h)):
                p.normal_()
    zero_columns(lm, 1, 2)
    z = head_writes.writes(lm, ids, r.token_id)
    if family == "gpt2_folder":
        assert z.bias != 0.0 and np.all(z.out_biases != 0.0)
    assert z.heads[1, 2] == 0.0 and np.count_nonzero(z.heads) == 7
    assert z.check <= 1e-4 and abs(z.logit - own_logit(lm, ids, -1, r.token_id)) <= 1e-4


def test_an_output_projection_that_is_not_linear_is_refused_with_the_reason(smollm2):
    lm = hand_made(smollm2.tokenizer)
    lm.model.model.layers[1].self_attn.o_proj = nn.Sequential(nn.Linear(16, 16), nn.Tanh())
    lm = hf_model.wrap(lm.model, lm.tokenizer, name="not-linear")
    with pytest.raises(Refused, match="layer 1's attention output projection \\(Sequential\\) is not a linear layer"):
        head_writes.writes(lm, [1, 2, 3])


def test_soft_capped_logits_are_refused(smollm2):
    config = Gemma2Config(vocab_size=len(smollm2.tokenizer), hidden_size=16, intermediate_size=32, num_hidden_layers=2,
                          num_attention_heads=4, num_key_value_heads=2, head_dim=4, final_logit_softcapping=30.0)
    model = AutoModelForCausalLM.from_config(config, attn_implementation=attention_fn.register())
    with pytest.raises(Refused, match="soft-capped"):
        head_writes.writes(hf_model.wrap(model, smollm2.tokenizer, name="gemma2"), [1, 2, 3])


def test_bad_positions_and_tokens_are_said(smollm2):
    with pytest.raises(ValueError, match="outside the prompt"):
        head_writes.writes(smollm2, [1, 2], position=2)
    with pytest.raises(ValueError, match="not one"):
        attention.head_writes("The cat", token=" hippopotamus-like")


def test_the_hooks_record_nothing_outside_a_reading(smollm2):
    """Installed once on the shared model; another session's forward pass is untouched and unrecorded."""
    ids = smollm2.tokenizer("The cat")["input_ids"]
    head_writes.writes(smollm2, ids)
    from attention.capture import residual_parts

    assert residual_parts._kept.get() is None
    with torch.inference_mode():
        smollm2.model(input_ids=torch.tensor([ids]))
    assert residual_parts._kept.get() is None



def test_a_long_prompt_keeps_no_n_by_n_and_reads_the_same_rows(smollm2, monkeypatch):
    """Past hf_forward.KEEP_WEIGHTS_BYTES a reading is lean (the model's SDPA, no head's n × n kept): the parts
    and what each head read (its one row, made from q and K) are the same as with every weight kept."""
    ids = smollm2.tokenizer(PROMPTS[0])["input_ids"]
    kept = head_writes.writes(smollm2, ids)
    monkeypatch.setattr(hf_forward, "KEEP_WEIGHTS_BYTES", 0)
    lean = head_writes.writes(smollm2, ids)
    assert kept.reads.shape == lean.reads.shape == (30, 9, len(ids))
    assert np.allclose(lean.reads, kept.reads, atol=1e-5) and np.allclose(lean.reads.sum(-1), 1.0, atol=1e-5)
    assert np.allclose(lean.heads, kept.heads, atol=1e-5) and lean.check <= 1e-4
