"""Whole words from subword pieces; merged attention keeps rows summing to 1."""

import numpy as np
import pytest

from attention.analysis import word_merge
from attention.analysis.word_merge import merge_matrix, word_groups, word_labels

BERT = ["[CLS]", "it", "was", "un", "##bel", "##ie", "##va", "##ble", "[SEP]"]


def test_bert_unbelievable_split_into_pieces_is_one_word():
    groups = word_groups(BERT)
    assert groups == [[0], [1], [2], [3, 4, 5, 6, 7], [8]]
    assert word_labels(BERT, groups) == ["[CLS]", "it", "was", "unbelievable", "[SEP]"]


@pytest.mark.model
def test_the_real_bert_tokenizer_pieces_merge_back():
    from attention.capture import hf_model

    tok = hf_model.load().tokenizer
    tokens = tok.convert_ids_to_tokens(tok("antidisestablishmentarianism is unbelievably hard")["input_ids"])
    assert len(tokens) > 6  # really split into pieces
    assert word_labels(tokens, word_groups(tokens)) == ["[CLS]", "antidisestablishmentarianism", "is",
                                                        "unbelievably", "hard", "[SEP]"]


def test_gpt2_byte_bpe_and_sentencepiece():
    gpt2 = ["The", "Ġun", "bel", "iev", "able", "Ġcat", ".", "<|endoftext|>", "Hi"]
    groups = word_groups(gpt2)
    assert groups == [[0], [1, 2, 3, 4], [5, 6], [7], [8]]
    assert word_labels(gpt2, groups) == ["The", "unbelievable", "cat.", "<|endoftext|>", "Hi"]
    sp = ["▁The", "▁un", "bel", "iev", "able", "▁cat", "</s>"]
    groups = word_groups(sp)
    assert groups == [[0], [1, 2, 3, 4], [5], [6]]
    assert word_labels(sp, groups) == ["The", "unbelievable", "cat", "</s>"]


def test_plain_words_stay_as_they_are_and_specials_never_join():
    assert word_groups(["la", "bola", "es", "azul"]) == [[0], [1], [2], [3]]
    assert word_groups(["[CLS]", "##x", "y"]) == [[0], [1], [2]]


def test_sums_into_merged_keys_and_averages_over_merged_queries():
    a = np.array([
        [0.1, 0.2, 0.3, 0.4],
        [0.4, 0.3, 0.2, 0.1],
        [0.25, 0.25, 0.25, 0.25],
        [1.0, 0.0, 0.0, 0.0],
    ])
    groups = [[0], [1, 2], [3]]
    m = merge_matrix(a, groups, groups)
    expected = np.array([
        [0.1, 0.5, 0.4],
        [(0.4 + 0.25) / 2, (0.5 + 0.5) / 2, (0.1 + 0.25) / 2],
        [1.0, 0.0, 0.0],
    ])
    np.testing.assert_allclose(m, expected)
    np.testing.assert_allclose(m.sum(-1), 1.0)


def test_merged_rows_still_sum_to_one_with_heads_and_different_sides():
    rng = np.random.default_rng(0)
    a = rng.random((3, 5, 7))
    a /= a.sum(-1, keepdims=True)
    m = merge_matrix(a, [[0, 1], [2], [3, 4]], [[0], [1, 2, 3], [4], [5, 6]])
    assert m.shape == (3, 3, 4)
    np.testing.assert_allclose(m.sum(-1), 1.0)


def test_groups_must_cover_every_position_once():
    with pytest.raises(ValueError):
        merge_matrix(np.eye(3), [[0], [1]], [[0], [1], [2]])
    with pytest.raises(ValueError):
        merge_matrix(np.eye(3), [[0], [1], [2]], [[0, 1], [1, 2]])


@pytest.mark.model
def test_merged_weights_of_a_real_site():
    import attention

    tr = attention.trace("the unbelievably black cat")
    site = tr.sites[0]
    weights, q_words, k_words = word_merge.merged_weights(site)
    assert q_words == k_words == ["[CLS]", "the", "unbelievably", "black", "cat", "[SEP]"]
    assert weights.shape == (site.n_heads, 6, 6) and weights.dtype == np.float32
    np.testing.assert_allclose(weights.sum(-1), 1.0, atol=1e-5)
    same, q_tok, _ = word_merge.site_weights(site, merge_words=False)
    assert same is site.weights and q_tok == list(site.query_tokens)


def test_rows_map_token_positions_to_drawn_rows_and_back():
    tokens = ["[CLS]", "un", "##bel", "##ie", "cat", "[SEP]"]
    words = word_merge.Rows.of(tokens, merge=True)
    assert words.labels == ["[CLS]", "unbelie", "cat", "[SEP]"]
    assert [words.row_of(i) for i in range(6)] == [0, 1, 1, 1, 2, 3]
    assert words.first_token(1) == 1 and words.first_token(2) == 4
    assert words.row_of(None) is None and words.row_of(-1) is None and words.row_of(6) is None
    pieces = word_merge.Rows.of(tokens, merge=False)
    assert pieces.labels == tokens and pieces.row_of(3) == 3 and pieces.first_token(3) == 3
