"""Change one word: attention.compare and per-head patching on SmolLM2 and a tiny GPT-2 folder built so
that one head carries the whole difference (random weights, SmolLM2's tokenizer; nothing downloaded)."""

import numpy as np
import pytest
import torch

import attention
from attention.analysis.alignment import align
from attention.capture import hf_ablation, hf_patching

pytestmark = pytest.mark.model

A = "The cat drank the milk because it was thirsty and the"
B = "The cat drank the milk because it was sour and the"
TINY = ("the cat is", "the dog is")  # a pair whose logit difference is far above float32 rounding there


@pytest.fixture(scope="module")
def one_head_folder(smollm2, tmp_path_factory):
    """One layer, four heads, and W_O reads head 0 only: heads 1–3 never reach the residual stream."""
    from transformers import GPT2Config, GPT2LMHeadModel

    folder = tmp_path_factory.mktemp("one-head-gpt2")
    torch.manual_seed(0)
    config = GPT2Config(vocab_size=len(smollm2.tokenizer), n_embd=32, n_layer=1, n_head=4, n_positions=64, initializer_range=0.3,
                        bos_token_id=smollm2.tokenizer.bos_token_id, eos_token_id=smollm2.tokenizer.eos_token_id)
    model = GPT2LMHeadModel(config)
    with torch.no_grad():
        model.transformer.h[0].attn.c_proj.weight[8:] = 0.0  # rows 8: are heads 1–3's z (d_head 8)
    model.save_pretrained(folder)
    smollm2.tokenizer.save_pretrained(folder)
    return str(folder)


def _runs(lm, a=A, b=B):
    ra, rb = hf_patching.run(lm, a), hf_patching.run(lm, b)
    tok = lm.tokenizer.convert_ids_to_tokens
    return ra, rb, align(tok(ra.ids[0].tolist()), tok(rb.ids[0].tolist()))


def test_the_one_head_that_reaches_the_output_restores_all_of_it(one_head_folder):
    cmp = attention.compare(*TINY, model=one_head_folder)
    seen = []
    p = cmp.patching(progress=lambda done, total: seen.append((done, total)))
    assert p.note == "" and seen[-1] == (4, 4)
    ranked = dict(p.ranked())
    assert ranked[("decoder", 0, 0)] == pytest.approx(1.0, abs=1e-4)
    assert all(abs(ranked[("decoder", 0, h)]) < 1e-4 for h in (1, 2, 3)), p.ranked()
    assert p.ranked()[0][0] == ("decoder", 0, 0)


def test_identical_inputs_change_nothing_and_leave_nothing_to_restore(one_head_folder):
    cmp = attention.compare(A, A, model=one_head_folder)
    assert cmp.identical and (cmp.grid("js") == 0).all() and (cmp.grid("max_abs") == 0).all()
    assert cmp.output.top_a == cmp.output.top_b
    p = cmp.patching()
    assert "no difference to restore" in p.note and p.ranked() == [] and np.isnan(p.restored).all()


@pytest.mark.parametrize(("a", "b", "reason"), [
    ("", "The cat", "empty"),
    ("Hi", "The cat drank the milk because it was thirsty and the dog barked at it all night", "too different"),
])
def test_inputs_that_cannot_be_compared_say_why(one_head_folder, a, b, reason):
    with pytest.raises(ValueError, match=reason):
        attention.compare(a, b, model=one_head_folder)


@pytest.mark.parametrize("b", ["<b>猫</b> 🐱 drank the milk", "<b>狗</b> 🐱 drank the milk"])
def test_hostile_text_is_compared(one_head_folder, b):
    cmp = attention.compare("<b>猫</b> 🐱 drank the milk", b, model=one_head_folder)
    assert cmp.alignment.ok and len(cmp.sites) == 1 and np.isfinite(cmp.grid()).all()


def test_smollm2_every_head_at_once_restores_the_whole_difference(smollm2):
    """Same length, one token replaced: patching every head's z at every aligned position makes each
    aligned position's residual stream B's (embeddings and MLPs are per position), so the last
    position's logits are B's: the restored share is 1 up to rounding."""
    a, b, al = _runs(smollm2)
    assert len(al.tokens_a) == len(al.tokens_b) and len(al.changed) == 1
    together = hf_patching.patch_heads(smollm2, a, b, al, together=True)
    assert together.restored[0] == pytest.approx(1.0, abs=1e-3)


def test_smollm2_patching_with_a_own_z_restores_nothing(smollm2):
    a, b, al = _runs(smollm2)
    heads = hf_ablation.all_heads(smollm2)[::15]
    own = hf_patching.patch_heads(smollm2, a, b, al, heads=heads, fill={k: v[None] for k, v in a.z.items()})
    # 0 up to float32 rounding: A's z from its run alone vs the same z computed inside a batch
    assert own.note == "" and np.abs(own.restored).max() < 1e-4


def test_smollm2_ranking_is_the_same_on_a_second_run(smollm2):
    a, b, al = _runs(smollm2)
    heads = tuple(h for h in hf_ablation.all_heads(smollm2) if h[1] >= 24)
    first = hf_patching.patch_heads(smollm2, a, b, al, heads=heads)
    second = hf_patching.patch_heads(smollm2, *_runs(smollm2)[:2], al, heads=heads)
    assert [h for h, _ in first.ranked()] == [h for h, _ in second.ranked()]
    assert np.abs(first.restored).max() > 0.01


def test_smollm2_compare_reads_both_next_tokens(smollm2):
    cmp = attention.compare(A, B, model="smollm2")
    assert cmp.output.kind == "next_token" and len(cmp.output.top_a) == 5
    assert cmp.alignment.changed[0].a == cmp.alignment.changed[0].b
    assert cmp.grid().shape == (30, 9) and (cmp.grid() >= 0).all() and cmp.grid().max() > 0
    assert cmp.ranked()[0][1] == np.nanmax(cmp.grid())


def test_minilm_gives_the_embedding_cosine_and_patches_its_72_heads():
    cmp = attention.compare("The cat was thirsty.", "The cat was sour.")
    assert cmp.output.kind == "embedding" and 0 < cmp.output.cosine < 1
    assert cmp.grid().shape == (6, 12)
    assert cmp.can_patch and len(cmp.patching().restored) == 72  # tests/capture/test_embedding_patching.py


def test_minilm_texts_read_as_the_same_tokens_are_identical():
    """Chinese the vocabulary lacks reads as the same unknown tokens: said so, every change exactly 0."""
    cmp = attention.compare("猫喝牛奶", "狗喝牛奶")
    if cmp.alignment.tokens_a == cmp.alignment.tokens_b:
        assert cmp.identical and (cmp.grid() == 0).all() and cmp.output.cosine == pytest.approx(1.0)
    else:
        assert cmp.alignment.changed and np.isfinite(cmp.grid()).all()


def test_the_measures_tokens_are_labelled_as_the_charts_label_them(smollm2):
    """#46 item 7: the tokens the patching follows are named as each run's chart names its candidates
    (token_text.candidate_labels after that run's text): a byte piece that starts a character is its
    bytes ("⟨e6⟩⟨88⟩"), never "\ufffd" (the piece decoded alone); " by" is "·by" as on the chart."""
    from attention.analysis.token_text import candidate_labels

    ra, rb, al = _runs(smollm2, "我喜欢猫，因为", "我喜欢狗，因为")
    p = hf_patching.patch_heads(smollm2, ra, rb, al, heads=(("decoder", 0, 0),))
    raw = smollm2.tokenizer.convert_ids_to_tokens(list(p.tokens))
    assert p.labels == (candidate_labels(raw[:1], al.tokens_a)[0], candidate_labels(raw[1:], al.tokens_b)[0])
    assert "\ufffd" not in "".join(p.labels) and all(p.labels), p.labels
