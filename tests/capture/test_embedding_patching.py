"""Patching per head on a sentence encoder (capture/embedding_patching.py): the real MiniLM, and a tiny
BERT folder built so that one head carries the whole difference (random weights, nothing downloaded)."""

import numpy as np
import pytest
import torch

import attention
from attention.analysis.alignment import align
from attention.capture import embedding_patching, hf_ablation, hf_model

pytestmark = pytest.mark.model

A = "The cat drank the milk because it was thirsty"
B = "The cat drank the milk because it was sour"


@pytest.fixture(scope="module")
def minilm():
    return hf_model.load()


@pytest.fixture(scope="module")
def one_head_bert(tmp_path_factory):
    """One layer, four heads; the output projection reads head 0 only: heads 1–3 never reach the output."""
    from transformers import BertConfig, BertModel

    from harness import tiny_families

    tok = tiny_families.tokenizer()
    folder = tmp_path_factory.mktemp("one-head-bert")
    torch.manual_seed(0)
    model = BertModel(BertConfig(vocab_size=len(tok), hidden_size=32, num_hidden_layers=1, num_attention_heads=4,
                                 intermediate_size=64, max_position_embeddings=64, initializer_range=0.3))
    with torch.no_grad():
        for layer in model.encoder.layer:
            layer.attention.output.dense.weight[:, 8:] = 0.0  # columns 8: read heads 1–3's z (d_head 8)
    model.save_pretrained(folder)
    tok.save_pretrained(folder)
    return hf_model.read_model(str(folder))


def _runs(lm, a=A, b=B):
    ra, rb = embedding_patching.run(lm, a), embedding_patching.run(lm, b)
    tok = lm.tokenizer.convert_ids_to_tokens
    return ra, rb, align(tok(ra.inputs["input_ids"][0].tolist()), tok(rb.inputs["input_ids"][0].tolist()))


def test_minilm_every_head_at_once_restores_the_whole_change(minilm):
    """Same length, one token replaced: every head's z at every shared position patched makes each shared
    position's final state B's, so the embedding over the shared positions is B's."""
    a, b, al = _runs(minilm)
    assert len(al.changed) == 1
    together = embedding_patching.patch_heads(minilm, a, b, al, together=True)
    assert together.note == "" and together.ld_a > 0.01
    assert together.restored[0] == pytest.approx(1.0, abs=1e-4)


def test_minilm_patching_with_a_own_z_restores_nothing(minilm):
    a, b, al = _runs(minilm)
    heads = hf_ablation.all_heads(minilm)[::7]
    own = embedding_patching.patch_heads(minilm, a, b, al, heads=heads, fill={k: v[None] for k, v in a.z.items()})
    assert np.abs(own.restored).max() < 1e-4


def test_minilm_patches_all_72_heads_in_batches_with_progress(minilm):
    a, b, al = _runs(minilm)
    seen = []
    p = embedding_patching.patch_heads(minilm, a, b, al, progress=lambda done, total: seen.append((done, total)))
    assert len(p.restored) == 72 and np.isfinite(p.restored).all()
    assert seen[-1] == (72, 72) and len(seen) == -(-72 // embedding_patching.ROWS_PER_BATCH)
    assert p.ranked()[0][1] == p.restored.max() > 0.05


def test_the_one_head_that_reaches_the_output_restores_all_of_it(one_head_bert):
    a, b, al = _runs(one_head_bert, "the cat is here", "the dog is here")
    ranked = dict(embedding_patching.patch_heads(one_head_bert, a, b, al).ranked())
    assert ranked[("encoder", 0, 0)] == pytest.approx(1.0, abs=1e-4)
    assert all(abs(ranked[("encoder", 0, h)]) < 1e-4 for h in (1, 2, 3)), ranked


def test_identical_inputs_leave_nothing_to_restore(minilm):
    a, b, al = _runs(minilm, A, A)
    p = embedding_patching.patch_heads(minilm, a, b, al)
    assert "no difference" in p.note and p.ranked() == [] and np.isnan(p.restored).all()


def test_attention_compare_offers_patching_on_minilm():
    cmp = attention.compare("The cat was thirsty.", "The cat was sour.")
    assert cmp.can_patch and cmp.patch_missing == ""
    assert cmp.patching(together=True).restored[0] == pytest.approx(1.0, abs=1e-4)


def test_an_encoder_decoder_folder_says_why_it_is_not_patched(tmp_path):
    from harness import tiny_families

    folder = tmp_path / "tiny-bart"
    tiny_families.build("bart", tiny_families.tokenizer(), folder)
    cmp = attention.compare("the cat is here", "the dog is here", model=str(folder))
    assert not cmp.can_patch and cmp.patch_missing == "encoder_decoder"
    with pytest.raises(NotImplementedError, match="encoder-decoder"):
        cmp.patching()
