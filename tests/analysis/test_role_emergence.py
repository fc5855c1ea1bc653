"""The rule that says when a head role appears over training: hand-built curves, including the cases where
it must NOT say a role appears (pure numpy)."""

import numpy as np
import pytest

from attention.analysis import head_roles, role_emergence
from attention.analysis.role_emergence import bar, first_appearance, over_training

STEPS = [0, 10, 100, 1000, 4000]


def test_a_role_that_rises_and_stays_appears_where_it_crosses():
    assert first_appearance(STEPS, [0.05, 0.06, 0.3, 0.35, 0.4], 0.2) == 100


def test_a_role_that_rises_and_falls_back_never_appears():
    assert first_appearance(STEPS, [0.05, 0.3, 0.35, 0.1, 0.05], 0.2) is None


def test_a_role_that_dips_appears_only_from_where_it_stays():
    assert first_appearance(STEPS, [0.05, 0.3, 0.1, 0.3, 0.35], 0.2) == 1000


def test_one_point_at_the_end_is_not_a_role_that_stays():
    assert first_appearance(STEPS, [0.05, 0.06, 0.05, 0.1, 0.4], 0.2) is None


def test_no_better_than_the_untrained_model_is_not_learned():
    """Above the bar, but never above what the untrained model's best head already gave."""
    assert first_appearance(STEPS, [0.3, 0.1, 0.25, 0.28, 0.3], 0.2) is None


def test_above_the_bar_everywhere_was_there_from_the_start():
    assert first_appearance(STEPS, [0.3, 0.3, 0.31, 0.3, 0.3], 0.2) == 0


def test_the_bar_is_twice_even_and_a_clear_gap_above_it():
    assert bar(0.04) == pytest.approx(0.14)  # the gap wins on a long row
    assert bar(0.3) == pytest.approx(0.6)  # twice even wins on a short one


def roles_at(value: float, causal: bool = True, n: int = 9, start: int = 1, length: int = 4) -> head_roles.HeadRoles:
    """HeadRoles of 1 layer × 2 heads with every role's best head at `value` (the other at 0)."""
    scores = {r: np.array([[value, 0.0]]) for r in head_roles.ROLES}
    notes = {} if causal else dict(head_roles.NOT_APPLICABLE)
    if not causal:
        scores["induction"] = np.full((1, 2), np.nan)
    return head_roles.HeadRoles(scores, tuple(f"t{i}" for i in range(n)), start, length, 0, causal, notes=notes,
                                kind="decoder" if causal else "encoder")


def test_even_share_follows_the_mask():
    causal, full = roles_at(0.0), roles_at(0.0, causal=False)
    # duplicate reads rows 5..8 of a causal model: each sees i + 1 keys
    assert role_emergence.even("duplicate", causal) == pytest.approx(np.mean([1 / 6, 1 / 7, 1 / 8, 1 / 9]))
    assert role_emergence.even("sink", full) == pytest.approx(1 / 9)


def test_over_training_judges_each_role_and_skips_those_that_do_not_apply():
    values = [0.05, 0.05, 0.6, 0.7, 0.7]
    em = over_training(STEPS, [roles_at(v, causal=False) for v in values])
    assert set(em) == {"previous", "duplicate", "sink"}  # no induction without a causal mask
    e = em["sink"]
    assert e.appears == 100 and not e.from_start
    assert e.best.tolist() == values and e.best_head[-1] == (0, 0) and e.count.tolist() == [0, 0, 1, 1, 1]
    flat = over_training(STEPS, [roles_at(0.05, causal=False) for _ in STEPS])
    assert all(x.appears is None for x in flat.values())  # an even-ish head never appears


def test_steps_out_of_order_are_refused():
    with pytest.raises(ValueError):
        over_training([10, 0], [roles_at(0.1), roles_at(0.1)])
