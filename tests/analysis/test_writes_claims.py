"""When a page may say that a head writes a word (writes_claims.writes) and what its direct part and the cost of
switching it off say together (writes_claims.direct_and_cost): earned by numbers, and not said where they do not."""

import numpy as np

from attention.analysis import writes_claims


def test_a_head_far_out_of_the_others_spread_writes_the_word():
    rng = np.random.default_rng(0)
    parts = rng.normal(0.0, 0.05, 270)
    parts[100] = 9.3  # DESIGN.md's violin sentence: one head +9.3 among parts of a few hundredths
    assert writes_claims.writes(parts, 100)
    centre, spread = writes_claims.others_spread(parts, 100)
    assert abs(centre) < 0.02 and 0.03 < spread < 0.07


def test_the_largest_of_an_even_spread_is_not_said_to_write_it():
    """Every head writes a little (a normal spread of sd 1): the largest of 270 is about 3 sd out, not 5, and is
    not "the head that writes it", however large in logits."""
    rng = np.random.default_rng(1)
    parts = rng.normal(0.0, 1.0, 270)
    i = int(np.argmax(np.abs(parts)))
    assert abs(parts[i]) >= writes_claims.WRITES_FLOOR  # large enough in logits: the spread alone decides
    assert not writes_claims.writes(parts, i)


def test_a_standout_among_near_zero_parts_below_the_floor_is_not_said():
    parts = np.full(270, 1e-4)
    parts[3] = 0.2  # far out in spreads, but a fifth of a logit
    assert not writes_claims.writes(parts, 3)
    assert not writes_claims.writes(np.array([5.0, 0.0, 0.1]), 0)  # too few others to judge a spread


def test_direct_part_and_cost_are_said_together_only_when_the_numbers_show_it():
    assert writes_claims.direct_and_cost(9.3, 0.4, stands_out=True) == "compensated"  # writes much, costs little
    assert writes_claims.direct_and_cost(9.3, 6.0, stands_out=True) is None  # writes much, costs much: they agree
    assert writes_claims.direct_and_cost(9.3, 0.4, stands_out=False) is None  # not said to write it at all
    assert writes_claims.direct_and_cost(-2.0, 0.0, stands_out=True) is None  # writes against it: nothing to make up
    assert writes_claims.direct_and_cost(0.05, 1.2, stands_out=False) == "indirect"  # costs much, writes little
    assert writes_claims.direct_and_cost(0.05, 0.3, stands_out=False) is None  # a small cost says nothing


def test_two_heads_of_one_size_are_not_said_to_write_it_alone():
    """The learner's case: +0.68 beside −0.55 among near-zero parts is far out of the spread, yet another head
    writes nearly as much (against it): neither is "the head that writes it"."""
    parts = np.zeros(270)
    parts[100], parts[200] = 0.682, -0.546
    parts[:100] = np.linspace(-0.05, 0.05, 100)
    assert not writes_claims.writes(parts, 100)
    assert writes_claims.largest_other(parts, 100) == (200, -0.546)
    parts[200] = -0.3  # now 2.3 times smaller: the first writes it
    assert writes_claims.writes(parts, 100)


def test_a_part_and_a_cost_pointing_opposite_ways_are_said_only_when_both_are_clear():
    assert writes_claims.direct_and_cost(-0.546, 0.164, stands_out=False) == "opposite"  # writes against, yet helps
    assert writes_claims.direct_and_cost(0.341, -0.2, stands_out=False) == "opposite"  # writes for, yet off helps
    assert writes_claims.direct_and_cost(-0.05, 0.164, stands_out=False) is None  # a part too small to set against
    assert writes_claims.direct_and_cost(-0.546, 0.03, stands_out=False) is None  # a cost too small
    assert writes_claims.direct_and_cost(0.546, 0.164, stands_out=False) is None  # the same way: nothing to say


def test_the_refusal_names_the_test_that_failed_and_the_translators_el_fails_on_the_spread():
    """writes_claims.refusal: the first failed test, so the page can say against what it judged."""
    assert writes_claims.refusal(np.array([5.0, 0.0, 0.1]), 0) == "few"
    assert writes_claims.refusal(np.r_[0.3, np.zeros(15)], 0) == "small"
    assert writes_claims.refusal(np.r_[6.0, 5.0, np.zeros(14)], 0) == "lead"  # 1.2× the next: not alone
    # the translator's 16 parts for "el" (position 0): +7.10 is 2.0× the next (+3.63), but only 4.0 spreads out
    el = np.array([0.654, 1.813, 0.269, -0.957, 1.952, 1.277, 2.026, -0.428, 0.085, 0.739, -0.094, -1.306, 3.177,
                   3.63, 1.389, 7.098])
    assert writes_claims.refusal(el, 15) == "spread" and 3.9 < writes_claims.spreads_away(el, 15) < 4.1
    parts = np.r_[9.3, np.random.default_rng(0).normal(0.0, 0.05, 15)]
    assert writes_claims.refusal(parts, 0) is None and writes_claims.writes(parts, 0)
