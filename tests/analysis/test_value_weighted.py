"""Value-weighted attention: rows sum to 1 and equal a direct computation, ‖α_ij·v_j‖ normalised."""

from dataclasses import replace

import numpy as np
import pytest

from attention.analysis.value_weighted import (
    SinkShare,
    contributions,
    first_token,
    head_value_weighted,
    row_value_weighted,
    sink_share,
    site_value_weighted,
)
from harness.random_sites import random_site


def direct(weights: np.ndarray, v: np.ndarray) -> np.ndarray:
    """The definition, one cell at a time."""
    h, nq, nk = weights.shape
    out = np.zeros((h, nq, nk))
    for a in range(h):
        for i in range(nq):
            c = [np.linalg.norm(float(weights[a, i, j]) * v[a, j].astype(np.float64)) for j in range(nk)]
            total = sum(c)
            out[a, i] = [x / total if total > 0 else 0.0 for x in c]
    return out


@pytest.mark.parametrize("causal", [False, True])
def test_rows_sum_to_one_and_equal_the_direct_computation(causal):
    site = random_site(7, kind="decoder" if causal else "encoder", heads=3, d_head=5, seed=3)
    vw = site_value_weighted(site)
    np.testing.assert_allclose(vw.sum(axis=-1), 1.0, atol=1e-12)
    np.testing.assert_allclose(vw, direct(site.weights, site.v), atol=1e-12)
    assert np.all(vw[:, site.masked] == 0)  # a hidden key adds nothing


def test_a_key_with_a_tiny_value_gets_weight_but_no_share():
    weights = np.array([[[0.8, 0.2]]])
    v = np.array([[[0.01, 0.0], [1.0, 0.0]]])
    np.testing.assert_allclose(contributions(weights, v), [[[0.008, 0.2]]])
    np.testing.assert_allclose(site_value_weighted_of(weights, v), [[[0.008 / 0.208, 0.2 / 0.208]]])


def site_value_weighted_of(weights, v):
    from attention.analysis.value_weighted import value_weighted

    return value_weighted(weights, v)


def test_sink_share_of_special_tokens():
    site = replace(random_site(4, kind="encoder", heads=2, d_head=3, seed=1), key_tokens=("[CLS]", "a", "b", "[SEP]"))
    share = sink_share(site)
    assert isinstance(share, SinkShare) and share.tokens == ("[CLS]", "[SEP]")
    assert share.weight == pytest.approx(float(site.weights[:, :, [0, 3]].sum(-1).mean()))
    vw = site_value_weighted(site)
    assert share.value_weighted == pytest.approx(float(vw[:, :, [0, 3]].sum(-1).mean()))
    assert sink_share(site, keys=[]).weight == 0.0


def test_one_row_of_one_head_is_that_row_of_every_head():
    site = random_site(6, kind="decoder", heads=3, seed=3)
    for head in range(site.n_heads):
        for query in range(len(site.query_tokens)):
            np.testing.assert_allclose(row_value_weighted(site, head, query), site_value_weighted(site)[head, query])
        np.testing.assert_allclose(head_value_weighted(site, head), site_value_weighted(site)[head])


def test_first_token_weight_beside_its_value_weighted_share():
    site = random_site(5, kind="decoder", heads=3, seed=4)
    for query in (4, 2):
        got = first_token(site, query)
        np.testing.assert_allclose(got.weight, site.weights[:, query, 0])
        np.testing.assert_allclose(got.value_weighted, direct(site.weights, site.v)[:, query, 0])
        norms = np.linalg.norm(site.v.astype(np.float64), axis=-1)
        np.testing.assert_allclose(got.value_norm, norms[:, 0] / norms[:, 1 : query + 1].mean(-1))  # causal
    assert np.isnan(first_token(site, 0).value_norm).all()  # the first row sees only the first token
