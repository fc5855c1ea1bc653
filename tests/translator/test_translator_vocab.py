"""Tokenizing and word <-> id."""

import pytest

from attention.translator.vocab import BOS_ID, EOS_ID, PAD_ID, SPECIALS, UNK, UNK_ID, Vocab, tokenize


def test_tokenize_lowercases_and_splits_punctuation():
    assert tokenize("The black cat drank the milk.") == ["the", "black", "cat", "drank", "the", "milk", "."]
    assert tokenize("  Hello,   World! ") == ["hello", ",", "world", "!"]
    assert tokenize("") == []


def test_encode_reports_unknown_words_once_in_order():
    v = Vocab.from_words(["the", "cat", "."])
    ids, unknown = v.encode(["the", "zebra", "cat", "zebra", "flew", "."], bos=True, eos=True)
    assert ids[0] == BOS_ID and ids[-1] == EOS_ID
    assert ids[2] == UNK_ID and ids[4] == UNK_ID and ids[5] == UNK_ID
    assert unknown == ["zebra", "flew"]
    assert v.decode(ids, strip=False)[2] == UNK
    assert v.decode(ids) == ["the", UNK, "cat", UNK, UNK, "."]


def test_decode_stops_at_eos_and_pad():
    v = Vocab.from_words(["la", "bola"])
    assert v.decode([BOS_ID, v.id("la"), v.id("bola"), EOS_ID, v.id("la")]) == ["la", "bola"]
    assert v.decode([v.id("la"), PAD_ID, PAD_ID]) == ["la"]


def test_specials_come_first_and_order_is_sorted():
    v = Vocab.from_words(["b", "a", "<eos>"])
    assert v.tokens == SPECIALS + ("a", "b")
    with pytest.raises(ValueError):
        Vocab(("a", "b"))
