"""word_merge at its edges: the "##" rule's length, a scheme given explicitly, labels of odd pieces,
and the messages and dtypes merge_matrix promises. Expectations written out by hand.
(Found by mutation testing: python -m qa mutation.)"""

import numpy as np
import pytest

from attention.analysis import word_merge
from attention.trace import make_site


def test_a_bare_double_hash_is_a_word_not_a_piece_marker():
    assert word_merge.detect_scheme(["a", "##"]) == "none"
    assert word_merge.detect_scheme(["hello", "world"]) == "none"  # long tokens are not pieces
    assert word_merge.detect_scheme(["un", "##b"]) == "wordpiece"  # the shortest piece: "##" and one letter
    assert word_merge.word_groups(["[CLS]", "a", "##", "##b", "c"], "wordpiece") == [[0], [1], [2, 3], [4]]


def test_a_scheme_given_explicitly_wins_over_detection():
    assert word_merge.word_groups(["Ġa", "b"]) == [[0, 1]]
    assert word_merge.word_groups(["Ġa", "b"], scheme="none") == [[0], [1]]
    assert word_merge.word_labels(["un", "##b"], [[0, 1]]) == ["unb"]
    assert word_merge.word_labels(["un", "##b"], [[0, 1]], scheme="none") == ["un##b"]


@pytest.mark.parametrize("pieces, scheme, word", [
    (["a", "b"], "none", "ab"),
    (["[CLS]"], "bpe", "[CLS]"),
    (["[CLS]", "x"], "none", "[CLS]x"),  # a special alone is kept as is; with others it is spelled out
    (["Ġ"], "bpe", "Ġ"),  # a piece that is only the space mark: shown as it is, not as ""
    (["▁"], "sentencepiece", "▁"),
    (["Ġ", "Ċ"], "bpe", "ĠĊ"),  # only marks: kept whole, never joined with anything in between
    (["▁new", "▁york"], "sentencepiece", "new york"),
])
def test_word_label_spells_the_pieces(pieces, scheme, word):
    assert word_merge.word_label(pieces, scheme) == word


def test_merge_matrix_names_the_side_and_the_positions_it_wanted():
    w = np.full((3, 2), 0.5)
    with pytest.raises(ValueError, match=r"^query groups must split positions 0\.\.2 into non-empty words$"):
        word_merge.merge_matrix(w, [[0], [1]], [[0], [1]])
    with pytest.raises(ValueError, match=r"^key groups must split positions 0\.\.1 into non-empty words$"):
        word_merge.merge_matrix(w, [[0], [1], [2]], [[0, 1], []])


def test_merge_matrix_works_in_float64_whatever_it_is_given():
    w = np.array([[0.25, 0.75], [0.5, 0.5]], dtype=np.float32)
    out = word_merge.merge_matrix(w, [[0, 1]], [[0], [1]])
    assert out.dtype == np.float64
    np.testing.assert_array_equal(out, [[0.375, 0.625]])
    pieces = np.array([[0.1, 0.2]], dtype=np.float32)  # their float32 sum rounds differently from float64's
    summed = word_merge.merge_matrix(pieces, [[0]], [[0, 1]])
    assert summed[0, 0] == np.float64(np.float32(0.1)) + np.float64(np.float32(0.2)) != np.float32(0.1) + np.float32(0.2)


def test_site_weights_merges_the_sites_own_weights():
    tokens = ["[CLS]", "un", "##b", "x"]
    weights = np.array([[[0.1, 0.2, 0.3, 0.4], [0.4, 0.3, 0.2, 0.1], [0.0, 0.5, 0.5, 0.0], [0.25] * 4]])
    site = make_site(layer=0, kind="encoder", query_tokens=tokens, key_tokens=tokens, q=np.zeros((1, 4, 0)),
                     k=np.zeros((1, 4, 0)), v=np.zeros((1, 4, 0)), scale=1.0, model_weights=weights,
                     model_z=np.zeros((1, 4, 0)), missing_qkv="unknown")  # the weights as given
    merged, q_words, k_words = word_merge.site_weights(site, merge_words=True)
    assert q_words == k_words == ["[CLS]", "unb", "x"]
    np.testing.assert_allclose(merged, [[[0.1, 0.5, 0.4], [0.2, 0.75, 0.05], [0.25, 0.5, 0.25]]], atol=1e-7)
    unmerged, q_tokens, _ = word_merge.site_weights(site, merge_words=False)
    assert q_tokens == tokens and unmerged is site.weights
