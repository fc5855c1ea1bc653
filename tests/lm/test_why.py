"""Why this word on real models: a tiny random GPT-2 folder (positions added inside: the zero baseline
is smooth, so integrated gradients must be complete) and SmolLM2. Outside checks: a head's drop equals
the log-probability computed with that head's columns of the output projection zeroed by hand."""

import numpy as np
import pytest
import torch

import attention
from attention.ids import HeadId
from attention.lm import why

pytestmark = pytest.mark.model
PROMPT = "The black cat drank the milk because it was"




def _log_prob(lm, ids, token_id) -> float:
    with torch.no_grad():
        logits = lm.model(input_ids=torch.tensor([ids])).logits[0, -1].double()
    return float(torch.log_softmax(logits, -1)[token_id])


def _by_hand(lm, ids, token_id, weight: torch.Tensor, cols: slice, dim: int) -> float:
    """log p(token) with one head's slice of the output projection zeroed, restored after."""
    kept = weight.data.clone()
    try:
        index = [slice(None)] * weight.dim()
        index[dim] = cols
        weight.data[tuple(index)] = 0.0
        return _log_prob(lm, ids, token_id)
    finally:
        weight.data.copy_(kept)


def test_gpt2_ig_is_complete_and_drops_match_a_head_zeroed_by_hand(gpt2_folder):
    w = attention.why(PROMPT, model=gpt2_folder, steps=64, top=3)
    assert len(w.heads) == 8 and w.drops.shape == (8,) and len(w.tokens) == 9
    delta = w.f_input - w.f_baseline
    assert w.completeness_gap <= 0.02 * abs(delta) + 1e-4  # Σ IG ≈ f(x) − f(0)
    assert w.reference[0] == "integrated_gradients"
    from attention import sources

    lm = sources.get(gpt2_folder).kept("writer")
    ids = lm.tokenizer(PROMPT)["input_ids"]
    assert w.f_input == pytest.approx(_log_prob(lm, ids, w.token_id), abs=1e-5)
    (_, layer, head), drop = w.top[0]
    proj = lm.model.transformer.h[layer].attn.c_proj.weight  # Conv1D (in, out): head h's inputs are rows
    d = 32 // 4
    off = _by_hand(lm, ids, w.token_id, proj, slice(head * d, (head + 1) * d), 0)
    assert drop == pytest.approx(w.f_input - off, abs=1e-5)


def test_smollm2_why_the_default_prompt(smollm2):
    w = attention.why(PROMPT, steps=16, top=5)
    assert len(w.heads) == 270 and np.isfinite(w.drops).all()
    assert w.token == "Ġthe" and w.f_input == pytest.approx(_log_prob(smollm2, smollm2.tokenizer(PROMPT)["input_ids"],
                                                                        w.token_id), abs=1e-4)
    ids = smollm2.tokenizer(PROMPT)["input_ids"]
    (_, layer, head), drop = w.top[0]
    o_proj = smollm2.model.model.layers[layer].self_attn.o_proj.weight  # Linear (out, in): columns
    off = _by_hand(smollm2, ids, w.token_id, o_proj, slice(head * 64, (head + 1) * 64), 1)
    assert drop == pytest.approx(w.f_input - off, abs=1e-4)
    assert np.isfinite(w.integrated_gradients).all()  # the midpoint rule never evaluates the gradient at 0
    assert all(a.attention is not None and a.attention.n == 9 for a in w.agreements)


def test_smollm2_heads_off_in_a_growing_batch_equal_their_o_proj_zeroed_by_hand(smollm2):
    """The batch grows layer by layer (capture.growing_batch: a row joins as it enters its head's layer): heads
    of the first, a middle and the last layer, asked out of layer order as deciding.py asks, each equal the
    log-probability with that head's columns of o_proj zeroed by hand, and come back in the order asked."""
    ids = smollm2.tokenizer(PROMPT)["input_ids"]
    token_id = smollm2.tokenizer(" the")["input_ids"][0]
    asked = (("decoder", 29, 8), ("decoder", 0, 3), ("decoder", 17, 6), ("decoder", 0, 0))
    assert why.hf_ablation.grown_layers(smollm2, sorted(map(HeadId._make, asked), key=lambda h: h.layer))  # grown
    heads, drops = why.head_drops(smollm2, ids, token_id, heads=asked)
    assert heads == asked
    on = _log_prob(smollm2, ids, token_id)
    for (_, layer, head), drop in zip(asked, drops, strict=True):
        o_proj = smollm2.model.model.layers[layer].self_attn.o_proj.weight
        assert drop == pytest.approx(on - _by_hand(smollm2, ids, token_id, o_proj, slice(head * 64, (head + 1) * 64), 1),
                                     abs=1e-4)


def test_smollm2_integrated_gradients_from_the_mean_embedding_baseline_are_complete(smollm2):
    """The baseline keeps the first token and puts the mean embedding elsewhere: the integral's sum is
    within 5 % of f(x) − f(x′) in 64 steps (from zero it was 6× off), and the first token's share is 0."""
    ids = smollm2.tokenizer(PROMPT)["input_ids"]
    token_id = smollm2.tokenizer(" the")["input_ids"][0]
    f = why.log_prob_fn(smollm2, token_id, len(ids))
    with torch.no_grad():
        x = smollm2.model.get_input_embeddings()(torch.tensor([ids])).float()
    x_base = why.baseline(smollm2, x)
    mean = smollm2.model.get_input_embeddings().weight.float().mean(0)
    assert torch.equal(x_base[0, 0], x[0, 0]) and torch.allclose(x_base[0, 1:], mean.expand(len(ids) - 1, -1))
    ig = why.integrated_gradients(f, x, x_base, 64)
    with torch.no_grad():
        delta = float(f(x)[0] - f(x_base)[0])
    assert abs(delta) > 1.0  # the baseline really moves the token's log-probability
    assert abs(ig.sum() - delta) <= 0.05 * abs(delta)
    assert ig[0] == 0.0


def test_smollm2_a_short_prompt_gets_no_agreement_sentence(smollm2):
    w = attention.why("The cat", steps=4, top=3)
    assert len(w.tokens) == 2 and all(a.attention is None and a.value_weighted is None for a in w.agreements)


def test_a_writing_step_explains_the_token_written_there(smollm2, monkeypatch):
    out = attention.generate(PROMPT, steps=2)
    asked = []
    monkeypatch.setattr(why, "explain", lambda lm, ids, token_id, *a: asked.append((len(ids), token_id)))
    why.at_step(out, 1)
    why.at_step(out, 2)  # after the last step: the likeliest next token
    assert asked == [(10, out.steps[1].token_id), (11, out.next.top_ids[0])]


def test_progress_counts_every_head_switched_off_then_the_gradients(gpt2_folder):
    """#46 item 11: "Why this word" reports each batch of heads done (the page's bar), then the gradients."""
    from attention import sources
    from attention.lm import why

    lm = sources.get(gpt2_folder).kept("writer")
    seen: list[tuple[str, int, int]] = []
    w = why.explain(lm, lm.tokenizer(PROMPT)["input_ids"], ig_steps=8, top=3,
                    progress=lambda stage, done, total: seen.append((stage, done, total)))
    heads = [(d, n) for s, d, n in seen if s == "heads"]
    assert heads and heads[-1] == (len(w.heads), len(w.heads)) == (why.head_count(lm), 8)
    assert [d for d, _ in heads] == sorted(d for d, _ in heads)
    assert seen[-1] == ("gradients", 0, 8)
