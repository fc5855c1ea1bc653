"""The lesson's deciding heads, pure: candidates by estimate, confirmed by measured drop, and what the
numbers earn in words (claims.py's rule)."""

import numpy as np

from attention.analysis import claims
from attention.analysis import deciding_heads as dh

HEADS = tuple(("decoder", layer, h) for layer in range(3) for h in range(3))


def test_candidates_are_the_largest_estimates_largest_first_ties_in_model_order():
    est = np.array([0.1, 0.5, 0.5, -0.2, 0.3, 0.0, 0.9, 0.05, 0.3])
    assert dh.candidates(est, 4).tolist() == [6, 1, 2, 4]
    assert dh.candidates(est, 100).tolist()[:2] == [6, 1] and len(dh.candidates(est, 100)) == 9
    assert dh.candidates(est, 0).tolist() == []


def test_confirmed_ranks_the_picked_heads_by_their_measured_drop():
    picked = np.array([6, 1, 2])
    drops = np.array([0.05, 0.4, 0.4])
    assert dh.confirmed(HEADS, picked, drops) == [(HEADS[1], 0.4), (HEADS[2], 0.4), (HEADS[6], 0.05)]


def test_decides_only_when_a_measured_drop_reaches_the_floor_and_drops_are_not_tied():
    assert dh.decides(np.array([0.02, dh.DECIDES, 0.0]))
    assert not dh.decides(np.array([0.02, dh.DECIDES * 0.99, 0.0]))  # under the floor: not said
    assert not dh.decides(np.array([0.5, 0.5, 0.5]))  # all tied: claims.heads_matter refuses
    assert not dh.decides(np.array([]))


def test_the_estimate_agreement_is_given_only_where_claims_allow_one():
    est = np.array([0.5, 0.4, 0.3, 0.2, 0.1, 0.05])
    drops = np.array([0.6, 0.3, 0.35, 0.1, 0.05, 0.01])
    got = dh.estimate_agreement(est, drops)
    assert got is not None and got.n == 6 and got.rho == claims.correlation(est, drops).rho
    assert dh.estimate_agreement(est[:4], drops[:4]) is None  # n < MIN_N
    assert dh.estimate_agreement(est, np.zeros(6)) is None  # no head matters: no ranking said


def test_a_head_reads_only_words_clearly_above_the_even_share_and_the_sink_is_named():
    row = np.array([0.5, 0.05, 0.3, 0.15])  # even share 0.25; above even means ≥ 0.375
    got = dh.reads(row)
    assert got.words == () and got.sink == 0  # 0.3 is above 1/n but not clearly; the first token leads
    row = np.array([0.1, 0.05, 0.7, 0.15])
    assert dh.reads(row) == dh.Reading((2,), None)
    row = np.array([0.02, 0.45, 0.05, 0.46, 0.02])  # even 0.2: two words clearly above it, heaviest first
    assert dh.reads(row).words == (3, 1)
    assert dh.reads(np.ones(8) / 8).words == ()


def test_probability_after_a_head_is_switched_off():
    assert np.isclose(dh.probability_after(np.log(0.2), np.log(2.0)), 0.1)
