"""The next-token maths, each expected value written out by hand or with plain numpy beside it."""

import math

import numpy as np
import pytest

from attention.lm import sampling

LOGITS = np.array([2.0, 1.0, 0.5, 0.0, -1.0])


def softmax_by_hand(x):
    e = [math.exp(v) for v in x]
    return np.array([v / sum(e) for v in e])


@pytest.mark.parametrize("t", [0.5, 1.0, 2.0])
def test_probabilities_are_softmax_of_logits_over_t(t):
    np.testing.assert_allclose(sampling.probabilities(LOGITS, t), softmax_by_hand(LOGITS / t), rtol=1e-12)


def test_top_k_keeps_the_k_likeliest_and_renormalises():
    p = softmax_by_hand(LOGITS)
    want = np.array([p[0], p[1], 0, 0, 0]) / (p[0] + p[1])
    np.testing.assert_allclose(sampling.distribution(LOGITS, sampling.settings(top_k=2)), want, rtol=1e-12)


def test_top_p_keeps_tokens_until_their_sum_reaches_p():
    p = softmax_by_hand(LOGITS)  # ≈ 0.53, 0.20, 0.12, 0.07, 0.03
    # p = 0.6: 0.53 is under 0.6, so the second token is needed too; then 0.73 ≥ 0.6: stop
    want = np.array([p[0], p[1], 0, 0, 0]) / (p[0] + p[1])
    np.testing.assert_allclose(sampling.distribution(LOGITS, sampling.settings(top_p=0.6)), want, rtol=1e-12)
    only = sampling.distribution(LOGITS, sampling.settings(top_p=0.1))  # never nothing: the likeliest stays
    np.testing.assert_array_equal(only, [1, 0, 0, 0, 0])


def test_temperature_then_top_k_then_top_p():
    p = softmax_by_hand(LOGITS / 2.0)
    k3 = np.array([p[0], p[1], p[2], 0, 0]) / (p[0] + p[1] + p[2])
    keep = np.cumsum(k3) - k3 < 0.5  # written out: what is ahead of each token is under p
    want = np.where(keep, k3, 0) / np.where(keep, k3, 0).sum()
    got = sampling.distribution(LOGITS, sampling.settings(temperature=2.0, top_k=3, top_p=0.5))
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_top_lists_the_likeliest_first():
    ids, ps = sampling.top(softmax_by_hand(LOGITS), n=3)
    assert ids.tolist() == [0, 1, 2]
    assert ps[0] > ps[1] > ps[2]


def test_a_seed_draws_the_same_token_and_greedy_takes_the_likeliest():
    probs = softmax_by_hand(LOGITS)
    draws = [sampling.sample(probs, np.random.default_rng((7, i))) for i in range(200)]
    assert draws == [sampling.sample(probs, np.random.default_rng((7, i))) for i in range(200)]
    counts = np.bincount(draws, minlength=5) / 200
    assert abs(counts[0] - probs[0]) < 0.12 and set(draws) >= {0, 1, 2}
    assert sampling.greedy(probs) == 0
    assert sampling.sample(np.array([0.0, 0.0, 1.0]), np.random.default_rng(0)) == 2


@pytest.mark.parametrize("given, want, clamped", [
    ({"temperature": 0}, sampling.Settings(temperature=0.05, clamped=("temperature",)), True),
    ({"temperature": 99}, sampling.Settings(temperature=5.0, clamped=("temperature",)), True),
    ({"temperature": float("nan")}, sampling.Settings(temperature=1.0, clamped=("temperature",)), True),
    ({"temperature": "hot"}, sampling.Settings(temperature=1.0, clamped=("temperature",)), True),
    ({"top_k": 0}, sampling.Settings(top_k=1, clamped=("top_k",)), True),
    ({"top_k": 10**9}, sampling.Settings(top_k=5, clamped=("top_k",)), True),
    ({"top_k": 2.5}, sampling.Settings(top_k=2, clamped=("top_k",)), True),
    ({"top_p": 0}, sampling.Settings(top_p=1e-6, clamped=("top_p",)), True),
    ({"top_p": 1.5}, sampling.Settings(top_p=1.0, clamped=("top_p",)), True),
    ({"top_p": "x"}, sampling.Settings(top_p=None, clamped=("top_p",)), True),
    ({"top_k": None, "top_p": None}, sampling.Settings(), False),
    ({"top_k": float("nan")}, sampling.Settings(top_k=None, clamped=("top_k",)), True),
    ({"temperature": 0.7, "top_k": 3, "top_p": 0.9}, sampling.Settings(0.7, 3, 0.9), False),
])
def test_out_of_range_settings_are_clamped_and_named(given, want, clamped):
    got = sampling.settings(**given, vocab=5)
    assert got == want
    assert bool(got.clamped) is clamped


def test_top_p_stops_as_soon_as_the_sum_reaches_p():
    probs = np.array([0.5, 0.25, 0.25])  # exact in binary: the sums land on p exactly
    assert sampling.top_p_keep(probs, 0.5).tolist() == [True, False, False]  # 0.5 ≥ 0.5: enough
    assert sampling.top_p_keep(probs, 0.6).tolist() == [True, True, False]
    assert sampling.top_p_keep(probs, 1.0).tolist() == [True, True, True]


def test_top_breaks_ties_by_index_as_top_k_does():
    probs = np.array([0.2, 0.2, 0.3, 0.3])
    ids, ps = sampling.top(probs, n=3)
    assert ids.tolist() == [2, 3, 0] and ps.tolist() == [0.3, 0.3, 0.2]
    assert set(ids.tolist()) == set(np.flatnonzero(sampling.top_k_keep(probs, 3)).tolist())
    assert sampling.top(probs, n=10)[0].tolist() == [2, 3, 0, 1]  # n past the vocabulary: all of it


def test_rank_is_the_place_by_the_models_logits_whatever_the_settings_cut():
    assert [sampling.rank(LOGITS, i) for i in range(5)] == [1, 2, 3, 4, 5]
    assert sampling.rank(np.array([1.0, 3.0, 3.0, 0.0]), 2) == 1  # equals share the first place
    cut = sampling.distribution(LOGITS, sampling.settings(top_k=2))
    assert cut[4] == 0 and sampling.rank(LOGITS, 4) == 5  # cut to probability 0, its place still said


def test_the_cut_lists_the_likeliest_before_it_and_what_it_removed():
    logits = LOGITS[[3, 0, 4, 1, 2]]  # the likeliest at index 1, then 3, 4, 0, 2
    order = [1, 3, 4, 0]
    before = softmax_by_hand(logits)
    c = sampling.cut(logits, sampling.settings(top_k=2), n=4)
    assert c.cuts and c.kept == 2 and c.vocab == 5
    assert c.ids.tolist() == order  # the likeliest before the cut, never the zeros after it by index (0, 2)
    np.testing.assert_allclose(c.before, before[order], rtol=1e-12)
    kept = before[order[:2]].sum()
    np.testing.assert_allclose(c.after, [before[1] / kept, before[3] / kept, 0, 0], rtol=1e-12)
    assert c.removed == pytest.approx(1 - kept, rel=1e-12)


def test_settings_that_remove_nothing_make_no_cut():
    assert not sampling.cut(LOGITS, sampling.settings(top_k=5)).cuts
    assert not sampling.cut(LOGITS, sampling.settings(top_p=1.0)).cuts
    assert not sampling.cut(LOGITS, sampling.Settings()).cuts
