"""Details of a few tiny families (built by families.py, no downloads): what the trace keeps of a
sliding window, T5's position bias and grouped-query heads. Every family is compared with eager
attention, site by site, in test_families.py."""

import numpy as np
import pytest

import attention
from harness import tiny_families as families

pytestmark = pytest.mark.model  # every test here reads a model (tests/lanes.py)


@pytest.fixture(scope="module")
def tokenizer():
    return families.tokenizer()


def build(name: str, tokenizer, folder) -> None:
    families.build(name, tokenizer, folder)


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
