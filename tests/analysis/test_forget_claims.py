"""What the Forget page may say from its numbers (issue 52): the KL's meaning in words, and "forgotten" only
when the full cache is sure of a word that stands earlier in the text at keys this query cannot see."""

import numpy as np
import pytest

from attention.analysis import claims


@pytest.mark.parametrize(("kl", "band", "ratio"), [(0.03, "same", 1.03), (0.3, "small", 1.35), (3.0, "large", 20.1),
                                                   (10.0, "lost", 22026.5)])
def test_the_kl_scale_in_words(kl, band, ratio):
    got_band, got_ratio = claims.kl_band(kl)
    assert got_band == band and got_ratio == pytest.approx(ratio, rel=1e-3)


def test_exp_kl_is_the_full_weighted_geometric_mean_of_the_probability_ratio():
    rng = np.random.default_rng(0)
    full, evicted = rng.dirichlet(np.ones(50)), rng.dirichlet(np.ones(50))
    kl = float(np.sum(full * np.log(full / evicted)))
    assert claims.kl_band(kl)[1] == pytest.approx(np.exp(np.sum(full * np.log(full / evicted))))


def dist(top: int, p: float, n: int = 10) -> np.ndarray:
    x = np.full(n, (1 - p) / (n - 1))
    x[top] = p
    return x


IDS = [0, 5, 7, 3, 2, 8, 1]  # word 7 stands at position 2 only


def test_a_sure_word_held_only_at_hidden_keys_and_dropped_is_forgotten():
    visible = np.array([1, 0, 0, 0, 1, 1, 1], bool)
    got = claims.forgot_fact(dist(7, 0.8), dist(4, 0.5), IDS, visible)
    assert got is not None and got.token_id == 7 and got.positions == (2,)


@pytest.mark.parametrize(("full", "evicted", "visible", "why"), [
    (dist(7, 0.8), dist(4, 0.5), np.array([1, 0, 1, 0, 1, 1, 1], bool), "the word is still seen"),
    (dist(7, 0.3), dist(4, 0.5), np.array([1, 0, 0, 0, 1, 1, 1], bool), "the full cache is not sure"),
    (dist(7, 0.8), dist(7, 0.5), np.array([1, 0, 0, 0, 1, 1, 1], bool), "the evicted cache writes it too"),
    (dist(9, 0.8), dist(4, 0.5), np.array([1, 0, 0, 0, 1, 1, 1], bool), "the word is not in the text"),
])
def test_nothing_is_said_otherwise(full, evicted, visible, why):
    assert claims.forgot_fact(full, evicted, IDS, visible) is None, why


def test_a_word_kept_at_a_tenth_of_its_probability_is_not_forgotten():
    evicted = dist(4, 0.5)
    evicted[7] = 0.09  # above 0.8 / 10
    assert claims.forgot_fact(dist(7, 0.8), evicted / evicted.sum(), IDS, np.array([1, 0, 0, 0, 1, 1, 1], bool)) is None


def test_a_map_is_trusted_only_with_a_correlation_of_half_or_more():
    assert claims.map_trusted(claims.Correlation(0.72, 400))
    assert not claims.map_trusted(claims.Correlation(0.05, 400))  # issue 52: L15H0's own map
    assert not claims.map_trusted(None)
