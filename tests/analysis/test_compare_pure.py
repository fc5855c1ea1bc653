"""Two inputs compared: the edit alignment and the attention changes (pure numpy, no model)."""

import numpy as np
import pytest

from attention.analysis.alignment import align, positions, shared_after_change
from attention.analysis.attention_change import head_changes, js_distance
from attention.analysis.patch_result import measure_key


def test_one_word_replaced_is_aligned_around_it():
    al = align("The cat was thirsty .".split(), "The cat was sour .".split())
    assert al.ok and al.pairs == ((0, 0), (1, 1), (2, 2), (4, 4))
    assert [(s.a, s.b) for s in al.changed] == [((3, 4), (3, 4))]


def test_an_inserted_word_shifts_the_rest():
    al = align("the cat sat".split(), "the black cat sat".split())
    assert al.ok and al.pairs == ((0, 0), (1, 2), (2, 3)) and al.changed[0].a == (1, 1)


def test_identical_inputs_match_everywhere():
    toks = ["a", "b", "a"]
    al = align(toks, toks)
    assert al.ok and al.identical and al.pairs == ((0, 0), (1, 1), (2, 2)) and al.changed == ()


@pytest.mark.parametrize(("a", "b", "reason"), [
    ([], ["x"], "no tokens"),
    (["a", "b"], list("abcdefgh"), "lengths are too different"),
    (list("abcd"), list("wxyz"), "too little in common"),
])
def test_inputs_that_cannot_be_aligned_are_refused_with_a_reason(a, b, reason):
    assert reason in align(a, b).refusal


def test_hostile_tokens_align_as_strings():
    a = ["<b>", "猫", "🐱", "</b>"]
    al = align(a, ["<b>", "狗", "🐱", "</b>"])
    assert al.ok and al.pairs == ((0, 0), (2, 2), (3, 3))


def test_js_distance_by_hand():
    p, q = np.array([1.0, 0.0]), np.array([0.5, 0.5])
    # m = (0.75, 0.25); KL(p‖m) = log2(4/3); KL(q‖m) = ½log2(2/3) + ½log2(2)
    by_hand = np.sqrt((np.log2(4 / 3) + 0.5 * np.log2(2 / 3) + 0.5) / 2)
    assert js_distance(p, q) == pytest.approx(by_hand, abs=1e-12)
    assert js_distance(np.array([1.0, 0]), np.array([0, 1.0])) == pytest.approx(1.0)
    row = np.array([0.2, 0.3, 0.5, 0.0])
    assert js_distance(row, row) == 0.0


def _weights(rng, nh, t):
    w = rng.random((nh, t, t))
    return w / w.sum(-1, keepdims=True)


def test_identical_weights_change_exactly_zero():
    w = _weights(np.random.default_rng(0), 3, 5)
    idx = (list(range(5)), list(range(5)))
    max_abs, js = head_changes(w, w.copy(), idx, idx)
    assert (max_abs == 0).all() and (js == 0).all()


def test_only_the_changed_head_changes():
    rng = np.random.default_rng(1)
    wa = _weights(rng, 2, 4)
    wb = wa.copy()
    wb[1] = _weights(rng, 1, 4)[0]
    idx = (list(range(4)), list(range(4)))
    max_abs, js = head_changes(wa, wb, idx, idx)
    assert max_abs[0] == 0 and js[0] == 0 and max_abs[1] > 0 and js[1] > 0
    assert max_abs[1] == pytest.approx(np.abs(wb[1] - wa[1]).max())


def test_weight_moved_onto_an_unaligned_key_counts():
    wa = np.array([[[1.0, 0.0]]])  # one head, one row, keys (shared, changed)
    wb = np.array([[[0.0, 1.0]]])
    max_abs, js = head_changes(wa, wb, ([0], [0]), ([0], [0]))
    assert max_abs[0] == 1.0 and js[0] == pytest.approx(1.0)


@pytest.mark.parametrize(("n_a", "n_b", "shared", "why"), [
    (0, 3, 0, "empty"), (2, 5, 2, "lengths"), (4, 4, 1, "shared"), (4, 5, 3, ""), (4, 8, 4, ""),
])
def test_the_rule_that_refuses_is_named(n_a, n_b, shared, why):
    from attention.analysis.alignment import why_refused

    assert why_refused(n_a, n_b, shared) == why


def test_the_difference_of_one_head_sums_to_zero_per_row_and_moves_onto_the_new_word():
    from attention.analysis.attention_change import difference

    wa = np.array([[1.0, 0.0, 0.0], [0.5, 0.5, 0.0], [0.2, 0.2, 0.6]])  # A: x y z
    wb = np.array([[1.0, 0.0, 0.0], [0.5, 0.5, 0.0], [0.1, 0.8, 0.1]])  # B: x w z (y -> w)
    rows = cols = ([0, 2], [0, 2])
    d = difference(wa, wb, rows, cols)
    assert d.shape == (2, 3) and np.allclose(d.sum(axis=1), 0.0)
    assert d[1].tolist() == pytest.approx([-0.1, -0.5, 0.6])  # z's weight moved off x and z onto the new word
    assert (difference(wa, wa.copy(), rows, cols) == 0).all()


@pytest.mark.parametrize(("a", "b", "after"), [
    ("the book to her", "the book to him", False),  # the change last: nothing shared comes after it
    ("the book to her", "the book to", False),  # deleted at the end
    ("the book to her", "a book to her", True),  # changed first: every later token can see it
    ("the cat sat", "the black cat sat", True),  # inserted: A's "cat" follows it
    ("the cat", "the cat", False),  # nothing changed
])
def test_a_shared_token_after_the_change_is_what_a_causal_model_can_show(a, b, after):
    assert shared_after_change(align(a.split(), b.split())) is after


def test_the_measure_is_worded_as_b_s_likeliest_only_when_it_is():
    assert measure_key((30, 44), top_b=44) == "tops"
    assert measure_key((30, 198), top_b=30) == "rose"  # both runs put token 30 first: 198 is followed instead


def test_positions_are_counted_as_a_reader_counts_them():
    assert positions((9, 10)) == "9" and positions((9, 12)) == "9–11" and positions((3, 3)) == ""
