"""The gate for "head X carries most of the change": said only when the patching numbers show it."""

import numpy as np
import pytest

from attention.analysis import claims


def test_one_head_that_restores_most_carries_the_change():
    key, values = claims.carrier([0.05, 0.8, 0.1, 0.02], difference=2.0)
    assert key == "compare.claim.carrier" and values["i"] == 1 and values["share"] == "80%"


@pytest.mark.parametrize("restored, difference, wanted, why", [
    ([0.45, 0.3, 0.1, 0.05], 2.0, "compare.claim.largest", "under half"),
    ([0.6, 0.35, 0.0, 0.0], 2.0, "compare.claim.largest", "not twice the next head"),
    ([0.02] * 10 + [0.05], 2.0, "compare.claim.spread", "nobody above the even share"),
    ([0.9, 0.0, 0.0], 5e-4, "compare.claim.none", "a difference under the floor"),
    ([np.nan, np.nan], 2.0, "compare.claim.none", "nothing measured"),
    ([0.9, 0.0], np.nan, "compare.claim.none", "no difference measured"),
])
def test_carrier_is_not_said_when_the_numbers_do_not_show_it(restored, difference, wanted, why):
    key, _ = claims.carrier(restored, difference)
    assert key == wanted, why
    assert key != "compare.claim.carrier"


def test_nan_shares_are_skipped_and_the_index_is_the_heads_own():
    key, values = claims.carrier([np.nan, 0.1, 0.7], difference=-1.0)
    assert key == "compare.claim.carrier" and values["i"] == 2


def test_every_claim_key_is_in_both_languages():
    from attention import i18n

    for key in ("compare.claim.none", "compare.claim.carrier", "compare.claim.largest", "compare.claim.spread"):
        assert set(i18n.STRINGS[key]) == {"en", "zh"}


def test_two_shares_over_the_whole_change_are_said_to_overlap():
    assert claims.overlapping([0.6, np.nan, 0.5, 0.1]) == {"first": "60.0%", "second": "50.0%", "sum": "110.0%"}
    assert claims.overlapping([0.6, 0.3, 0.3]) is None  # 90 %: nothing to explain
    assert claims.overlapping([0.9]) is None
