"""Switching heads of Hugging Face models off: a hand-made tiny BERT with hooks shows exactly one
head's z changes and nothing upstream; a tiny GPT-2 with its LM head is scored by log-probabilities
that match the eager model's own; MiniLM by cosines."""

import numpy as np
import pytest
import torch
import transformers as tf
from transformers import AutoModel, AutoTokenizer

import attention
from attention.capture import attention_fn, hf_forward, hf_model
from attention.capture import hf_ablation as ablation
from attention.head_mask import switched_off

pytestmark = pytest.mark.model  # every test here reads a model (tests/lanes.py)

TEXT = "the black cat drank the milk"


@pytest.fixture(scope="module")
def tokenizer():
    return AutoTokenizer.from_pretrained(hf_model.default_model_path())


def tiny_bert(tokenizer):
    torch.manual_seed(0)
    config = tf.BertConfig(vocab_size=30522, hidden_size=32, num_hidden_layers=3, num_attention_heads=4,
                           intermediate_size=64, max_position_embeddings=64)
    model = AutoModel.from_config(config, attn_implementation=attention_fn.register())
    return hf_model.wrap(model, tokenizer, name="tiny-bert")


def run_with_hooks(lm, sw):
    """Each layer's merged z (the input of its output projection, by forward pre-hooks) and records."""
    merged = {}
    hooks = [layer.attention.output.dense.register_forward_pre_hook(
        lambda mod, args, i=i: merged.__setitem__(i, args[0].detach().clone()))
        for i, layer in enumerate(lm.model.encoder.layer)]
    enc = hf_model.encode(lm, [TEXT])
    with switched_off(sw):
        out, records = hf_forward.run(lm, enc.inputs)
    for h in hooks:
        h.remove()
    return merged, records, out.last_hidden_state


@pytest.mark.parametrize("mode", ["zero", "mean"])
def test_one_head_off_changes_exactly_its_z_and_nothing_upstream(tokenizer, mode):
    lm = tiny_bert(tokenizer)
    base_z, base_rec, base_out = run_with_hooks(lm, {})
    off_z, off_rec, off_out = run_with_hooks(lm, ablation.switches(lm, [frozenset({("encoder", 1, 2)})], mode))
    hs = 8
    torch.testing.assert_close(off_z[0], base_z[0], rtol=0, atol=0)  # layer 0: upstream, untouched
    for field in ("q", "k", "v", "weights", "z"):  # layer 1 computed exactly what it did before
        for layer in (0, 1):
            torch.testing.assert_close(getattr(off_rec[layer], field), getattr(base_rec[layer], field), rtol=0, atol=0)
    others = [c for c in range(32) if not 2 * hs <= c < 3 * hs]
    torch.testing.assert_close(off_z[1][..., others], base_z[1][..., others], rtol=0, atol=0)
    head2 = off_z[1][..., 2 * hs: 3 * hs]  # (1, T, hs)
    if mode == "zero":
        assert torch.all(head2 == 0)
    else:
        mean = torch.from_numpy(ablation.mean_outputs(lm)[("encoder", 1)][2]).float()
        torch.testing.assert_close(head2[0], mean.expand_as(head2[0]), rtol=0, atol=1e-7)
        assert not torch.equal(base_z[1][..., 2 * hs: 3 * hs], head2)
    assert not torch.equal(off_z[2], base_z[2]) and not torch.equal(off_out, base_out)  # downstream moves


def test_no_head_off_reproduces_minilm_exactly():
    base = attention.trace(TEXT)
    out = attention.trace(TEXT, ablate="")
    assert out.ablation.measure == "cosine"
    np.testing.assert_allclose(out.ablation.hidden_cosine, 1.0, atol=1e-12)
    assert out.ablation.pooled_cosine == pytest.approx(1.0, abs=1e-12) and out.ablation.effect == pytest.approx(0, abs=1e-12)
    for a, b in zip(out.sites, base.sites, strict=True):
        np.testing.assert_array_equal(a.model_z, b.model_z)


def test_minilm_effect_table_and_one_head_off():
    effects = attention.head_effects(TEXT)
    assert len(effects.heads) == 72 and effects.measure == "cosine"
    assert np.all(effects.effect >= -1e-9) and effects.effect.max() > 0.01
    top = effects.ranked()[0][0]
    alone = attention.trace(TEXT, ablate=[top])
    assert alone.ablation.effect == pytest.approx(float(effects.effect[effects.of(top)]), abs=1e-5)
    later = alone.site(top[1] + 1, "encoder") if top[1] < 5 else None
    if later is not None:  # the next layer sees the change
        assert not np.array_equal(later.model_z, attention.trace(TEXT).site(top[1] + 1, "encoder").model_z)


def test_a_causal_lm_is_scored_by_its_next_token_log_probs(tokenizer, tmp_path):
    torch.manual_seed(0)
    config = tf.GPT2Config(n_embd=32, n_layer=2, n_head=4, n_positions=64, vocab_size=30522, pad_token_id=0,
                           bos_token_id=101, eos_token_id=102)
    tf.GPT2LMHeadModel(config).save_pretrained(tmp_path)
    tokenizer.save_pretrained(tmp_path)
    lm = ablation.read_lm(str(tmp_path))
    assert lm is not None and ablation.has_lm_head(lm)
    out = attention.trace(TEXT, model=str(tmp_path), ablate="decoder.1.3")
    ab = out.ablation
    assert ab.measure == "log_prob" and len(ab.tokens) == len(out.tokens) - 1
    eager = tf.GPT2LMHeadModel.from_pretrained(tmp_path, attn_implementation="eager").eval()
    ids = torch.tensor([tokenizer.convert_tokens_to_ids(list(out.tokens))])
    with torch.no_grad():
        lp = torch.log_softmax(eager(ids).logits[0, :-1].double(), -1)
    expected = lp.gather(-1, ids[0, 1:, None])[:, 0].numpy()
    np.testing.assert_allclose(ab.base_log_probs, expected, atol=1e-5)  # the outside reference
    assert np.abs(ab.drops).max() > 0
    effects = attention.head_effects(TEXT, model=str(tmp_path))
    assert effects.measure == "log_prob" and effects.drops.shape == (8, len(ab.tokens))
    np.testing.assert_allclose(effects.drops[effects.of(("decoder", 1, 3))], ab.drops, atol=1e-5)


def test_a_folder_without_an_lm_head_has_none(tokenizer, tmp_path):
    tiny_bert(tokenizer).model.save_pretrained(tmp_path)
    assert ablation.read_lm(str(tmp_path)) is None


def test_a_seq2seq_lm_is_scored_by_the_targets_log_probs(tokenizer, tmp_path):
    torch.manual_seed(0)
    config = tf.BartConfig(d_model=32, encoder_layers=2, decoder_layers=2, encoder_attention_heads=4,
                           decoder_attention_heads=4, encoder_ffn_dim=64, decoder_ffn_dim=64, max_position_embeddings=64,
                           decoder_start_token_id=101, vocab_size=30522, pad_token_id=0, bos_token_id=101,
                           eos_token_id=102)
    tf.BartForConditionalGeneration(config).save_pretrained(tmp_path)
    tokenizer.save_pretrained(tmp_path)
    target = "el gato negro"
    out = attention.trace(TEXT, model=str(tmp_path), target=target, ablate="cross.1.2")
    ab = out.ablation
    assert ab.measure == "log_prob" and ab.tokens == ("[CLS]", "el", "ga", "##to", "negro", "[SEP]")
    lm = ablation.load(str(tmp_path))
    enc, dec = hf_model.encode(lm, [TEXT]), hf_model.decoder_inputs(lm, [target])
    labels = hf_model.encode(lm, [target]).inputs["input_ids"]
    eager = tf.BartForConditionalGeneration.from_pretrained(tmp_path, attn_implementation="eager").eval()
    with torch.no_grad():
        logits = eager(**enc.inputs, **dec.inputs).logits[0].double()
    expected = torch.log_softmax(logits, -1).gather(-1, labels[0, :, None])[:, 0].numpy()
    np.testing.assert_allclose(ab.base_log_probs, expected, atol=1e-5)
    assert np.abs(ab.drops).max() > 0


def test_an_encoder_decoder_without_an_lm_head_is_compared_by_its_decoder_states(tmp_path):
    """A bare BartModel folder has nothing to score words with: one value per head (a cosine), as for an
    encoder, over the decoder's positions (it was a (heads, d_model) table that the page could not rank)."""
    from harness import tiny_families

    tiny_families.build("bart", tiny_families.tokenizer(), tmp_path)
    lm = ablation.load(str(tmp_path))
    effects = ablation.head_effects(TEXT, lm=lm)
    assert effects.measure == "cosine" and effects.drops is None
    assert effects.effect.shape == (len(effects.heads),) and np.isfinite(effects.effect).all()
    assert effects.tokens == tuple(hf_model.decoder_inputs(lm, [TEXT]).tokens[0])
    assert attention.trace(TEXT, model=str(tmp_path), ablate="cross.1.2").ablation.measure == "cosine"


def test_a_long_input_is_split_into_batches_with_the_same_effects(monkeypatch):
    whole = attention.head_effects(TEXT)
    monkeypatch.setattr(ablation, "BATCH_ELEMENTS", 12 * 10 * 10 * 8)  # 7 heads off per batch: 11 batches
    split = attention.head_effects(TEXT)
    assert split.heads == whole.heads
    np.testing.assert_allclose(split.effect, whole.effect, atol=1e-6)
