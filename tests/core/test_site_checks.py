"""The faithfulness check can fail, and `scaled` is q·k/√d_k (+ mask): both against numbers computed
here by hand from q, k, v and d_k, never through core.py."""

import numpy as np
import pytest

from attention.trace import TOLERANCE, Trace, make_site

RNG = np.random.default_rng(18)


def by_hand(q: np.ndarray, k: np.ndarray, v: np.ndarray, mask: np.ndarray | None = None):
    """(scaled, weights, z) of every head with the textbook formulas, float64, one row at a time."""
    heads, n_q, d_k = q.shape
    scaled = np.empty((heads, n_q, k.shape[1]))
    weights = np.empty_like(scaled)
    for h in range(heads):
        for i in range(n_q):
            row = np.array([sum(q[h, i, d] * k[h, j, d] for d in range(d_k)) for j in range(k.shape[1])])
            row = row / np.sqrt(d_k) + (0.0 if mask is None else mask[i])
            scaled[h, i] = row
            e = np.exp(row - row.max())
            weights[h, i] = e / e.sum()
    return scaled, weights, weights @ v


def site(mask: np.ndarray | None = None, model_weights: np.ndarray | None = None, model_z: np.ndarray | None = None):
    q, k, v = RNG.standard_normal((2, 4, 8)), RNG.standard_normal((2, 5, 8)), RNG.standard_normal((2, 5, 8))
    _, weights, z = by_hand(q, k, v, mask)
    return make_site(layer=0, kind="encoder", query_tokens="abcd", key_tokens="abcde", q=q, k=k, v=v,
                     scale=1 / np.sqrt(8), mask=mask, model_weights=weights if model_weights is None else model_weights,
                     model_z=z if model_z is None else model_z)


def test_a_site_that_matches_its_model_is_faithful():
    s = site()
    assert s.weights_diff < 1e-6 and s.z_diff < 1e-6 and s.faithful


@pytest.mark.parametrize("shift", [1e-3, 2e-5])
def test_model_weights_off_by_a_little_are_caught_and_measured(shift):
    good = site()
    off = good.model_weights.copy()
    off[1, 2, 3] += shift  # one weight of one head, as if the model had computed something else
    bad = make_site(**{**{f: getattr(good, f) for f in ("layer", "kind", "query_tokens", "key_tokens", "q", "k", "v",
                                                          "scale", "model_z")}, "model_weights": off})
    assert bad.weights_diff == pytest.approx(shift, rel=1e-2)  # the size of the shift, not 0
    assert bad.z_diff < 1e-6 and not bad.faithful
    tr = Trace("a b c d", "m", tuple("abcd"), (good, bad))
    assert tr.max_weights_diff == pytest.approx(shift, rel=1e-2) and not tr.faithful


def test_model_z_off_is_caught_too():
    good = site()
    off = good.model_z.copy()
    off[0, 0, 0] -= 1e-3
    bad = make_site(**{**{f: getattr(good, f) for f in ("layer", "kind", "query_tokens", "key_tokens", "q", "k", "v",
                                                          "scale", "model_weights")}, "model_z": off})
    assert bad.z_diff == pytest.approx(1e-3, rel=1e-2) and bad.weights_diff < 1e-6 and not bad.faithful


def test_a_difference_at_the_tolerance_is_still_faithful_and_just_above_it_is_not():
    good = site()
    for shift, faithful in ((TOLERANCE / 2, True), (TOLERANCE * 4, False)):
        off = good.model_weights.copy()
        off[0, 0, 0] += shift
        s = make_site(**{**{f: getattr(good, f) for f in ("layer", "kind", "query_tokens", "key_tokens", "q", "k",
                                                            "v", "scale", "model_z")}, "model_weights": off})
        assert s.faithful is faithful, shift


@pytest.mark.parametrize("masked", [False, True])
def test_scaled_is_q_dot_k_over_the_root_of_d_k_plus_the_mask(masked):
    mask = np.where(np.arange(5)[None, :] > np.arange(4)[:, None] + 1, -1e9, 0.0) if masked else None
    s = site(mask)
    scaled, weights, _ = by_hand(s.q.astype(np.float64), s.k.astype(np.float64), s.v.astype(np.float64), mask)
    for head in range(2):
        np.testing.assert_allclose(s.scaled(head), scaled[head], rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(s.weights[head], weights[head], atol=1e-6)
    assert s.scaled(0)[0, 0] == pytest.approx(float(s.q[0, 0].astype(np.float64) @ s.k[0, 0]) / np.sqrt(8), rel=1e-6)
