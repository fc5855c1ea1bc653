"""The q·k chart's data (attention/headview/dot.py) on the real MiniLM: what dot.js draws is the head's
own q, k and terms, in the order asked, and fits in a few kilobytes."""

import json

import numpy as np
import pytest

import attention
from attention.analysis import anatomy
from attention.headview.dot import dot_data

pytestmark = pytest.mark.model

MILK, DRANK = 6, 4


@pytest.fixture(scope="module")
def site():
    return attention.trace("The black cat drank the milk").site(layer=2, kind="encoder")


@pytest.mark.parametrize("sort", [False, True])
def test_bars_are_the_heads_q_k_and_terms_in_the_order_asked(site, sort):
    an = anatomy.dot_anatomy(site, 3, MILK, DRANK)
    data = dot_data(an, sort, "q (milk)", "k (drank)", "Σ", "q and k", "terms", "dimension")
    order = np.array(data["dims"])
    assert sorted(order) == list(range(site.d_head))
    np.testing.assert_allclose(data["q"], site.q[3, MILK, order], atol=5e-5)
    np.testing.assert_allclose(data["k"], site.head_k(3)[DRANK, order], atol=5e-5)
    np.testing.assert_allclose(data["terms"], (site.q[3, MILK] * site.head_k(3)[DRANK])[order], atol=5e-5)
    assert (np.diff(data["terms"]) <= 0).all() == sort  # sorted: the largest term first
    lo, hi = data["range"]
    assert lo <= min(data["terms"]) and hi >= max(data["terms"]) and lo <= 0 <= hi
    assert len(json.dumps(data)) < 4_000  # a click sends this, not a figure


def test_a_shared_range_is_kept_for_two_charts_side_by_side(site):
    an = anatomy.dot_anatomy(site, 3, MILK, DRANK)
    assert dot_data(an, False, "q", "k", "Σ", "", "", "", terms_range=(-9.0, 9.0))["range"] == [-9.0, 9.0]
