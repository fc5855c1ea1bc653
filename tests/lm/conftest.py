"""The tiny causal language model folder the lm tests share (one per session)."""

import pytest
import torch

from tests.lanes import loads_model


@pytest.fixture(scope="session")
@loads_model
def gpt2_folder(smollm2, tmp_path_factory):
    """A 2-layer GPT-2 with random weights and SmolLM2's tokenizer, saved once."""
    from transformers import GPT2Config, GPT2LMHeadModel

    folder = tmp_path_factory.mktemp("tiny-gpt2")
    torch.manual_seed(0)
    config = GPT2Config(vocab_size=len(smollm2.tokenizer), n_embd=32, n_layer=2, n_head=4, n_positions=64,
                        bos_token_id=smollm2.tokenizer.bos_token_id, eos_token_id=smollm2.tokenizer.eos_token_id)
    GPT2LMHeadModel(config).save_pretrained(folder)
    smollm2.tokenizer.save_pretrained(folder)
    return str(folder)


@pytest.fixture(scope="session")
@loads_model
def llama_folder(smollm2, tmp_path_factory):
    """A 2-layer Llama (grouped-query: 4 query heads over 2 key/value heads, rotary) with random weights and
    SmolLM2's tokenizer, saved once."""
    from transformers import LlamaConfig, LlamaForCausalLM

    folder = tmp_path_factory.mktemp("tiny-llama")
    torch.manual_seed(0)
    config = LlamaConfig(vocab_size=len(smollm2.tokenizer), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64,
                         bos_token_id=smollm2.tokenizer.bos_token_id, eos_token_id=smollm2.tokenizer.eos_token_id)
    LlamaForCausalLM(config).save_pretrained(folder)
    smollm2.tokenizer.save_pretrained(folder)
    return str(folder)


@pytest.fixture(scope="session")
@loads_model
def tiny(smollm2, tmp_path_factory):
    """A 3-layer Llama (4 query heads over 2 key/value heads) with random weights, read through the registry."""
    from transformers import LlamaConfig, LlamaForCausalLM

    from attention.lm import models

    folder = tmp_path_factory.mktemp("tiny-llama")
    torch.manual_seed(0)
    config = LlamaConfig(vocab_size=len(smollm2.tokenizer), hidden_size=64, intermediate_size=128, num_hidden_layers=3,
                         num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=512,
                         eos_token_id=smollm2.tokenizer.eos_token_id, tie_word_embeddings=True)
    LlamaForCausalLM(config).save_pretrained(folder)
    smollm2.tokenizer.save_pretrained(folder)
    return models.read(str(folder))


@pytest.fixture(scope="module")
def one_torch_thread():
    """torch on one thread for a whole test module (the app's setting), given back after it."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)
