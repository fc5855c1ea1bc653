"""The gate for "switching off a role's top heads matters": it must say yes only when the numbers show it."""

import numpy as np
import pytest

from attention.analysis import claims

DRAWS = np.array([1.70, 1.72, 1.69, 1.71, 1.73, 1.70])


def test_a_clear_rise_above_every_draw_matters():
    assert claims.role_matters(2.54, DRAWS, base=1.70)


@pytest.mark.parametrize("top, draws, base, why", [
    (1.72, DRAWS, 1.70, "inside the random spread"),
    (1.735, np.array([1.70, 1.70, 1.70, 1.70, 1.74]), 1.70, "below one draw"),
    (1.7005, np.full(6, 1.70) + np.linspace(0, 1e-5, 6), 1.70, "under the nats floor"),
    (100.5, np.full(6, 100.0) + np.linspace(0, 1e-3, 6), 100.0, "under 1 % of the base loss"),
    (2.54, DRAWS[:4], 1.70, "too few draws"),
    (float("nan"), DRAWS, 1.70, "not a number"),
])
def test_no_claim_when_the_numbers_do_not_show_it(top, draws, base, why):
    assert not claims.role_matters(top, draws, base), why


def test_first_k_is_the_smallest_that_passes_and_none_when_none_does():
    random = np.tile(DRAWS, (3, 1))
    assert claims.first_k_that_matters((1, 2, 3), [1.71, 2.0, 3.0], random, 1.70) == 2
    assert claims.first_k_that_matters((1, 2, 3), [1.71, 1.70, 1.72], random, 1.70) is None
