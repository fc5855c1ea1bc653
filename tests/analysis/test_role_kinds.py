"""Cross-attention's roles and the translator's probe words on hand-built cases (pure numpy)."""

import numpy as np
import pytest

from attention.analysis import head_roles, role_kinds


def test_cross_attention_gets_sink_and_broad_only():
    T, S = 3, 4
    w = np.zeros((1, 2, T, S))
    w[0, 0, :, 0] = 1.0  # head 0: every Spanish query on the first English token
    w[0, 1] = 1.0 / S  # head 1: even over the source
    r = role_kinds.cross_roles(w, ("the", "a", "b", "c"), 1, 1, seed=0, kind="cross")
    assert r.scores["sink"][0].tolist() == pytest.approx([1.0, 0.25])
    assert r.scores["broad"][0].tolist() == pytest.approx([0.0, 1.0])
    for role in ("previous", "duplicate", "induction", "local"):
        assert np.isnan(r.scores[role]).all() and not r.applies(role) and r.top(role) == []
    assert r.applies("sink") and r.applies("broad") and r.top("sink", 1) == [(("cross", 0, 0), 1.0)]
    assert set(r.notes) == set(head_roles.ROLES) - set(role_kinds.CROSS_ROLES)


def test_cross_scores_refuse_a_single_key():
    with pytest.raises(ValueError):
        role_kinds.cross_scores(np.ones((1, 1, 3, 1)))


def test_probe_words_are_the_vocabularys_own_words_seeded():
    vocab = ("<pad>", "<unk>", "<bos>", "<eos>", ".", "the", "cat", "dog", "milk", "ball", "red")
    a = role_kinds.probe_words(vocab, seed=0, length=4, leave_out=("the",))
    assert a == role_kinds.probe_words(vocab, seed=0, length=4, leave_out=("the",))
    assert len(set(a)) == 4 and set(a) <= {"cat", "dog", "milk", "ball", "red"}
    with pytest.raises(ValueError):
        role_kinds.probe_words(vocab, seed=0, length=6, leave_out=("the",))  # only 5 words are left
