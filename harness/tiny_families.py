"""Tiny random models of many families (hidden 32, 2 layers), built from configs with no downloads:
which case of capture each one stands for, and how to build it into a folder the app can read."""

from __future__ import annotations

import inspect

import numpy as np
import torch
import transformers as tf
from transformers import AutoModel, AutoTokenizer

from attention.capture import hf_model

COMMON = {"vocab_size": 30522, "pad_token_id": 0, "bos_token_id": 101, "eos_token_id": 102}
ROBERTA = {**COMMON, "pad_token_id": 1}  # positions start after the padding index
STACK = {"hidden_size": 32, "intermediate_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
         "max_position_embeddings": 64}
SEQ2SEQ = {"d_model": 32, "encoder_layers": 2, "decoder_layers": 2, "encoder_attention_heads": 4,
           "decoder_attention_heads": 4, "encoder_ffn_dim": 64, "decoder_ffn_dim": 64}

# name -> (what the family stands for, its config)
FAMILIES = {
    # the six tested first
    "gpt2": ("registry, learned positions", lambda: tf.GPT2Config(n_embd=32, n_layer=2, n_head=4, n_positions=64,
                                                                   **COMMON)),
    "llama-gqa": ("grouped-query, rotary", lambda: tf.LlamaConfig(**STACK, num_key_value_heads=2, **COMMON)),
    "mistral-sliding": ("sliding window", lambda: tf.MistralConfig(**STACK, num_key_value_heads=2, sliding_window=3,
                                                                   **COMMON)),
    "bart": ("encoder–decoder", lambda: tf.BartConfig(**SEQ2SEQ, max_position_embeddings=64,
                                                      decoder_start_token_id=101, **COMMON)),
    "marian": ("encoder–decoder, sinusoidal", lambda: tf.MarianConfig(**SEQ2SEQ, max_position_embeddings=64,
                                                                      decoder_start_token_id=0, **COMMON)),
    "t5": ("relative position bias", lambda: tf.T5Config(
        d_model=32, d_kv=8, d_ff=64, num_layers=2, num_decoder_layers=2, num_heads=4, decoder_start_token_id=0,
        relative_attention_num_buckets=8, **COMMON)),
    # beyond them
    "bert": ("registry, encoder", lambda: tf.BertConfig(**STACK, **COMMON)),
    "roberta": ("padding offset in positions", lambda: tf.RobertaConfig(**STACK, **ROBERTA)),
    "xlm-roberta": ("padding offset in positions", lambda: tf.XLMRobertaConfig(**STACK, **ROBERTA)),
    "albert": ("one module shared by every layer", lambda: tf.AlbertConfig(embedding_size=16, **STACK, **COMMON)),
    "distilbert": ("registry, encoder", lambda: tf.DistilBertConfig(dim=32, n_layers=2, n_heads=4, hidden_dim=64,
                                                                    max_position_embeddings=64, **COMMON)),
    "deberta-v2": ("disentangled attention", lambda: tf.DebertaV2Config(
        **STACK, relative_attention=True, pos_att_type=["p2c", "c2p"], position_buckets=8, **COMMON)),
    "bloom": ("ALiBi inside the module", lambda: tf.BloomConfig(hidden_size=32, n_layer=2, n_head=4, **COMMON)),
    "mpt": ("ALiBi inside the module, max_seq_len", lambda: tf.MptConfig(
        d_model=32, n_layers=2, n_heads=4, max_seq_len=64, expansion_ratio=2, **COMMON)),
    "falcon": ("multi-query, rotary, rejects a custom name", lambda: tf.FalconConfig(
        hidden_size=32, num_hidden_layers=2, num_attention_heads=4, multi_query=True, alibi=False,
        max_position_embeddings=64, **COMMON)),
    "falcon-alibi": ("ALiBi, rejects a custom name", lambda: tf.FalconConfig(
        hidden_size=32, num_hidden_layers=2, num_attention_heads=4, alibi=True, max_position_embeddings=64,
        **COMMON)),
    "gpt-neo": ("local attention, unscaled, rejects a custom name", lambda: tf.GPTNeoConfig(
        hidden_size=32, num_layers=2, num_heads=4, attention_types=[[["global", "local"], 1]], window_size=4,
        max_position_embeddings=64, **COMMON)),
    "gpt-oss": ("attention sinks, sliding window", lambda: tf.GptOssConfig(
        **STACK, num_key_value_heads=2, head_dim=8, num_local_experts=2, num_experts_per_tok=1, sliding_window=4,
        rope_parameters={"rope_type": "default", "rope_theta": 10000.0}, **COMMON)),
    "deepseek-v3": ("multi-head latent attention", lambda: tf.DeepseekV3Config(
        **{**STACK, "num_attention_heads": 4}, moe_intermediate_size=16, num_key_value_heads=4, q_lora_rank=16,
        kv_lora_rank=16, qk_rope_head_dim=4, qk_nope_head_dim=4, v_head_dim=8, n_routed_experts=2,
        num_experts_per_tok=1, first_k_dense_replace=1, n_group=1, topk_group=1,
        rope_parameters={"rope_type": "default", "rope_theta": 10000.0}, **COMMON)),
    # DeepSeek-V3's own shape: a value head (12) narrower than the query/key head (12 + 4 rotary)
    "deepseek-v3-vdim": ("multi-head latent attention, value head unlike query/key", lambda: tf.DeepseekV3Config(
        **STACK, moe_intermediate_size=16, num_key_value_heads=4, q_lora_rank=16, kv_lora_rank=16,
        qk_rope_head_dim=4, qk_nope_head_dim=12, v_head_dim=12, n_routed_experts=2, num_experts_per_tok=1,
        first_k_dense_replace=1, n_group=1, topk_group=1,
        rope_parameters={"rope_type": "default", "rope_theta": 10000.0}, **COMMON)),
    "gemma2": ("softcap, sliding window", lambda: tf.Gemma2Config(
        **STACK, num_key_value_heads=2, head_dim=8, sliding_window=4, attn_logit_softcapping=50.0,
        query_pre_attn_scalar=8, **COMMON)),
    "qwen2": ("grouped-query, rotary", lambda: tf.Qwen2Config(**STACK, num_key_value_heads=2, **COMMON)),
    "gpt-bigcode": ("multi-query", lambda: tf.GPTBigCodeConfig(n_embd=32, n_layer=2, n_head=4, n_positions=64,
                                                               multi_query=True, **COMMON)),
    "opt": ("registry, learned positions with offset", lambda: tf.OPTConfig(
        hidden_size=32, num_hidden_layers=2, num_attention_heads=4, ffn_dim=64, max_position_embeddings=64,
        word_embed_proj_dim=32, **COMMON)),
    "led": ("Longformer local attention, encoder–decoder", lambda: tf.LEDConfig(
        **SEQ2SEQ, max_encoder_position_embeddings=64, max_decoder_position_embeddings=64, attention_window=4,
        decoder_start_token_id=101, **COMMON)),
    "squeezebert": ("returns its scores before the softmax as attentions: refused", lambda: tf.SqueezeBertConfig(
        hidden_size=32, embedding_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=64,
        max_position_embeddings=64, **COMMON)),
    "mt5": ("relative position bias, encoder–decoder", lambda: tf.MT5Config(
        d_model=32, d_kv=8, d_ff=64, num_layers=2, num_decoder_layers=2, num_heads=4, decoder_start_token_id=0,
        relative_attention_num_buckets=8, **COMMON)),
}

# One tiny family for each kind of model source the app must handle, by what the pages must cope with
# (tests/pages/test_every_model_kind.py opens every page on each): kind -> family in FAMILIES.
SOURCE_KINDS: dict[str, str] = {
    "encoder-only": "bert",
    "decoder-only": "llama-gqa",  # no encoder: masked self-attention only
    "encoder-decoder": "bart",
    "weights-only": "deberta-v2",  # its attention hands over A alone (no q, k, v): drawn as "A only"
}


# Any family by model type (bench/held_out.py, tests/capture/test_family_checks.py): its default config
# with every one of these sizes its constructor accepts (hidden 32, 2 layers, 4 heads, 64 positions).
SMALL = {
    "vocab_size": 30522, "pad_token_id": 0, "bos_token_id": 101, "eos_token_id": 102, "decoder_start_token_id": 101,
    "hidden_size": 32, "intermediate_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
    "num_key_value_heads": 2, "head_dim": 8, "max_position_embeddings": 64, "embedding_size": 32,
    "d_model": 32, "d_kv": 8, "d_ff": 64, "num_layers": 2, "num_decoder_layers": 2, "num_heads": 4,
    "encoder_layers": 2, "decoder_layers": 2, "encoder_attention_heads": 4, "decoder_attention_heads": 4,
    "encoder_ffn_dim": 64, "decoder_ffn_dim": 64, "n_embd": 32, "n_layer": 2, "n_head": 4, "n_positions": 64,
    "num_experts": 2, "num_local_experts": 2, "num_experts_per_tok": 1, "moe_intermediate_size": 16,
    "n_routed_experts": 2, "n_shared_experts": 1, "shared_expert_intermediate_size": 16,
    "kv_lora_rank": 16, "q_lora_rank": 16, "qk_rope_head_dim": 4, "qk_nope_head_dim": 4, "v_head_dim": 8,
    "n_group": 1, "topk_group": 1, "first_k_dense_replace": 1, "sliding_window": 4, "attention_window": 4,
    "max_encoder_position_embeddings": 64, "max_decoder_position_embeddings": 64, "local_radius": 2,
    "block_size": 2, "num_random_blocks": 1, "global_block_size": 2, "num_encoder_layers": 2,
    "mamba_d_ssm": 32, "mamba_n_heads": 4, "mamba_d_state": 8, "mamba_chunk_size": 8,
}
# What a family needs beyond SMALL to build at all.
EXTRA = {
    "reformer": {"axial_pos_shape": [8, 8], "axial_pos_embds_dim": [16, 16], "local_attn_chunk_length": 4,
                 "lsh_attn_chunk_length": 4, "num_buckets": 4, "attn_layers": ["local", "lsh"]},
}


def small_config(model_type: str):
    """The family's default config made tiny with SMALL (and EXTRA)."""
    cls = tf.CONFIG_MAPPING[model_type]
    accepted = set(inspect.signature(cls.__init__).parameters) | set(getattr(cls, "attribute_map", {}))
    return cls(**{k: v for k, v in SMALL.items() if k in accepted}, **EXTRA.get(model_type, {}))


def build_small(model_type: str, folder) -> None:
    """small_config's model with seeded random weights and the BERT tokenizer, saved into `folder`."""
    torch.manual_seed(0)
    AutoModel.from_config(small_config(model_type)).save_pretrained(folder)
    tokenizer().save_pretrained(folder)


def tokenizer():
    return AutoTokenizer.from_pretrained(hf_model.default_model_path())


def build(name: str, tok, folder) -> None:
    """The family's tiny model with seeded random weights and the BERT tokenizer, saved into `folder`."""
    torch.manual_seed(0)
    model = AutoModel.from_config(FAMILIES[name][1]())
    model.save_pretrained(folder)
    tok.save_pretrained(folder)


def eager_run(folder: str, enc, dec):
    """The folder's model with eager attention on the inputs a trace read: (its output, the inputs)."""
    model = AutoModel.from_pretrained(folder, attn_implementation="eager").eval()
    inputs = dict(enc.inputs) | ({} if dec is None else dec.inputs)
    with torch.inference_mode():
        return model(**inputs, output_attentions=True), inputs


def attentions_by_kind(out, lm, dec) -> dict[str, tuple[torch.Tensor, ...]]:
    """The eager model's own weights per kind of attention."""
    if dec is not None:
        return {"encoder": out.encoder_attentions, "decoder": out.decoder_attentions, "cross": out.cross_attentions}
    return {next(iter(lm.expected_layers)): out.attentions}


def band_to_full(w: np.ndarray, n_keys: int) -> np.ndarray:
    """A Longformer band (heads, queries, 2·r+1), column j for key i + j − r, as (heads, queries, keys)."""
    r = (w.shape[-1] - 1) // 2
    full = np.zeros((*w.shape[:2], n_keys), w.dtype)
    for i in range(w.shape[1]):
        for j in range(w.shape[-1]):
            if 0 <= i + j - r < n_keys:
                full[:, i, i + j - r] = w[:, i, j]
    return full
