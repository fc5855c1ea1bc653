"""Tiny random models of several families, built here with no downloads, traced through the public
API from a local folder and compared with the same weights run by transformers' eager attention."""

import numpy as np
import pytest
import torch
import transformers as tf
from transformers import AutoModel, AutoTokenizer

import attention
from attention.capture import hf_model

TEXTS = ["the black cat drank the milk", "a ball"]  # two lengths: the batch is padded
TARGETS = ["el gato negro bebio la leche", "una bola"]
COMMON = {"vocab_size": 30522, "pad_token_id": 0, "bos_token_id": 101, "eos_token_id": 102}

CONFIGS = {
    "gpt2": lambda: tf.GPT2Config(n_embd=32, n_layer=2, n_head=4, n_positions=64, **COMMON),
    "llama-gqa": lambda: tf.LlamaConfig(
        hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
        max_position_embeddings=64, **COMMON),
    "mistral-sliding": lambda: tf.MistralConfig(
        hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
        max_position_embeddings=64, sliding_window=3, **COMMON),
    "bart": lambda: tf.BartConfig(
        d_model=32, encoder_layers=2, decoder_layers=2, encoder_attention_heads=4, decoder_attention_heads=4,
        encoder_ffn_dim=64, decoder_ffn_dim=64, max_position_embeddings=64, decoder_start_token_id=101, **COMMON),
    "marian": lambda: tf.MarianConfig(
        d_model=32, encoder_layers=2, decoder_layers=2, encoder_attention_heads=4, decoder_attention_heads=4,
        encoder_ffn_dim=64, decoder_ffn_dim=64, max_position_embeddings=64, decoder_start_token_id=0, **COMMON),
    "t5": lambda: tf.T5Config(
        d_model=32, d_kv=8, d_ff=64, num_layers=2, num_decoder_layers=2, num_heads=4, decoder_start_token_id=0,
        relative_attention_num_buckets=8, **COMMON),
}


@pytest.fixture(scope="module")
def tokenizer():
    return AutoTokenizer.from_pretrained(hf_model.default_model_path())


def build(name: str, tokenizer, folder) -> None:
    torch.manual_seed(0)
    config = CONFIGS[name]()
    model = AutoModel.from_config(config)
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)


def reference(folder, lm, texts, targets):
    """The eager model on the same padded batch: its attentions and last hidden state."""
    eager = AutoModel.from_pretrained(folder, attn_implementation="eager").eval()
    enc = hf_model.encode(lm, texts)
    inputs = dict(enc.inputs)
    dec = None
    if lm.is_encoder_decoder:
        dec = hf_model.decoder_inputs(lm, targets)
        inputs.update(dec.inputs)
    with torch.inference_mode():
        ref = eager(**inputs, output_attentions=True)
        ours, _ = hf_model.run(lm, inputs)
    return ref, ours, enc, dec


def expected_weights(ref, site, b, enc, dec):
    if site.kind == "encoder" or dec is None:
        stack = ref.encoder_attentions if dec is not None else ref.attentions
        q_real = k_real = enc.real[b]
    elif site.kind == "decoder":
        stack, q_real, k_real = ref.decoder_attentions, dec.real[b], dec.real[b]
    else:
        stack, q_real, k_real = ref.cross_attentions, dec.real[b], enc.real[b]
    qi, ki = q_real.nonzero().flatten(), k_real.nonzero().flatten()
    return stack[site.layer][b][:, qi][:, :, ki].numpy()


@pytest.mark.parametrize("name", list(CONFIGS))
def test_tiny_model_matches_eager(name, tokenizer, tmp_path):
    build(name, tokenizer, tmp_path)
    lm = hf_model.load(str(tmp_path))
    is_seq2seq = lm.is_encoder_decoder
    traces = hf_model.trace_batch(lm, TEXTS, TARGETS if is_seq2seq else None)
    ref, ours, enc, dec = reference(str(tmp_path), lm, TEXTS, TARGETS)

    hidden_ours = ours.last_hidden_state.numpy()
    hidden_ref = ref.last_hidden_state.numpy()
    np.testing.assert_allclose(hidden_ours, hidden_ref, atol=1e-6)  # the model's output is unchanged

    expected_kinds = {"encoder", "decoder", "cross"} if is_seq2seq else {"decoder"}
    for b, tr in enumerate(traces):
        assert set(tr.kinds) == expected_kinds
        assert len(tr.sites) == 2 * len(expected_kinds)
        for site in tr.sites:
            np.testing.assert_allclose(site.weights, expected_weights(ref, site, b, enc, dec), atol=1e-5)
            assert site.faithful
            np.testing.assert_allclose(site.weights.sum(-1), 1.0, atol=1e-5)
            if site.kind == "decoder":  # causal: nothing above the diagonal
                upper = np.triu(np.ones(site.weights.shape[1:], dtype=bool), k=1)
                assert np.all(site.weights[:, upper] == 0.0) and site.masked[upper].all()


def test_mistral_sliding_window_is_in_the_mask(tokenizer, tmp_path):
    build("mistral-sliding", tokenizer, tmp_path)
    site = attention.trace("one two three four five six", model=str(tmp_path)).sites[0]
    n = len(site.query_tokens)
    assert site.masked[n - 1, 0]  # the last word is out of the window of 3
    assert np.all(site.weights[:, n - 1, : n - 3] == 0.0)


def test_t5_position_bias_is_kept_and_used(tokenizer, tmp_path):
    build("t5", tokenizer, tmp_path)
    tr = attention.trace("the black cat", model=str(tmp_path), target="el gato")
    enc0 = tr.site(0, "encoder")
    assert enc0.scale == 1.0 and enc0.bias is not None and np.abs(enc0.bias).max() > 0
    assert tr.site(0, "cross").query_tokens[0] == "[PAD]"  # decoder start token, then the target
    assert tr.faithful


def test_llama_grouped_query_heads_are_expanded(tokenizer, tmp_path):
    build("llama-gqa", tokenizer, tmp_path)
    site = attention.trace("one two three", model=str(tmp_path)).sites[0]
    assert site.n_heads == 4
    np.testing.assert_array_equal(site.k[0], site.k[1])  # heads 0 and 1 share a key/value head
    assert not np.array_equal(site.k[0], site.k[2])
