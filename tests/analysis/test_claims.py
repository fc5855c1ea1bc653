"""The one rule for sentences written from numbers (attention/analysis/claims.py), with the cases where a
sentence must NOT be written: the numbers below are those the issue found on the pages."""

import numpy as np
import pytest

from attention import i18n
from attention.analysis import claims

# "Does it matter?", translator, cross-attention, el → the: 7 of 8 heads change nothing, the 8th 0.00004 nats
EL_THE_EFFECT = np.array([0.0, 0.0, 0.00004, 0.0, 0.0, 0.0, 0.0, 0.0])
EL_THE_WEIGHT = np.array([0.91, 0.12, 0.55, 0.33, 0.71, 0.05, 0.2, 0.64])


def test_effects_below_the_floor_are_no_head_matters_with_no_rank_and_no_rho():
    assert not claims.heads_matter(EL_THE_EFFECT)
    said = claims.ranking(EL_THE_EFFECT, EL_THE_WEIGHT, EL_THE_WEIGHT)
    assert [key for key, _ in said] == ["ablation.no_head_matters"]
    for lang in ("en", "zh"):
        text = i18n.t(said[0][0], lang, q="el", k="the", unit=i18n.t("ablation.unit_nats", lang), **said[0][1])
        assert "ρ" not in text and "4.0e-05" in text and "0.0010" in text
    # leche → milk: the largest effect 0.00006: still no claim, however well the ranks correlate
    assert not claims.heads_matter(np.array([0.00006, 0.00002, 0.0, 0.00001, 0.0, 0.00003, 0.0, 0.0]))


def test_all_tied_effects_say_nothing_even_above_the_floor():
    assert not claims.heads_matter(np.full(8, 0.5))
    assert claims.heads_matter(np.array([0.0, 0.002]))


def test_a_correlation_comes_with_its_n_and_only_when_n_and_the_spread_allow():
    assert claims.correlation([1, 2, 3, 4], [1, 2, 3, 4]) is None  # n = 4 < 5
    assert claims.correlation([0, 0, 0, 1, 1, 1], [1, 2, 3, 4, 5, 6]) is None  # two levels only
    c = claims.correlation([1, 2, 3, 4, 5, 6], [1, 3, 2, 4, 6, 5])
    assert c is not None and c.n == 6 and 0.8 < c.rho < 0.9
    said = claims.ranking(np.array([0.3, 0.1, 0.02, 0.2, 0.05, 0.01, 0.15, 0.4]), EL_THE_WEIGHT, EL_THE_WEIGHT)
    key, values = said[0]
    assert key.startswith("ablation.agree.") and values["n"] == 8
    for lang in ("en", "zh"):
        assert "8" in i18n.t(key, lang, q="el", k="the", **values)


@pytest.mark.parametrize("related, other, n, said", [
    (0.113, 0.086, 10, "neither"),  # the lesson's step 8: both near the even 0.1 — no "training did it"
    (0.9, 0.1, 10, "related"),
    (0.4, 0.35, 5, "level"),
    (0.05, 0.3, 10, "other"),
    (0.9, 1.3e-10, 10, "related"),  # far ahead, but the claim is made against 1/n, not against the 1e-10
])
def test_ahead_is_judged_against_the_even_share_with_a_margin(related, other, n, said):
    assert claims.lead(related, other, n) == said


def test_ratios_above_a_hundred_are_far_ahead_not_a_long_number():
    assert claims.times(6919438060.4) is None
    assert claims.times(float("inf")) is None
    assert claims.times(3.24) == "3.2"


def test_a_sink_that_outweighs_the_related_word_is_found():
    tokens = ["[CLS]", "the", "milk", "drank", "[SEP]"]
    assert claims.sink_over(np.array([0.358, 0.1, 0.05, 0.333, 0.159]), tokens, key=3) == 0
    assert claims.sink_over(np.array([0.2, 0.1, 0.05, 0.5, 0.15]), tokens, key=3) is None


def test_nats_keep_their_digits():
    assert claims.nats(0.00004) == "4.0e-05"
    assert claims.nats(10.779) == "10.7790"
    assert claims.nats(0.0) == "0"
