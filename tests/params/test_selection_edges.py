"""The edges of click → selection: index 0 and n − 1 are words like any other, n is not, and a click
that names one side keeps the other. (Found by mutation testing: python -m qa mutation.)"""

import pytest

from attention.params.selection import Selection, click_to_selection, from_params, selection_from_event, to_params

N = 4  # words on each side below


@pytest.mark.parametrize("q, k", [(0, 0), (0, N - 1), (N - 1, 0), (N - 1, N - 1)])
def test_a_cell_at_either_end_is_selected(q, k):
    assert click_to_selection(Selection(1, 2), [q, k]) == Selection(q, k)


@pytest.mark.parametrize("end", [0, N - 1])
def test_a_word_at_either_end_selects_its_side_and_keeps_the_other(end):
    assert click_to_selection(Selection(1, 2), [end, -1]) == Selection(end, 2)
    assert click_to_selection(Selection(1, 2), [-1, end]) == Selection(1, end)
    assert click_to_selection(Selection(), [end, -1]) == Selection(end, None)
    assert click_to_selection(Selection(), [-1, end]) == Selection(None, end)


def test_only_the_first_two_numbers_of_customdata_count():
    assert click_to_selection(Selection(), [1, 2, 99]) == Selection(1, 2)
    assert click_to_selection(Selection(), ("0", "3")) == Selection(0, 3)  # strings of numbers parse


@pytest.mark.parametrize("before, after", [
    (Selection(0, 0), Selection(0, 0)),
    (Selection(N - 1, N - 1), Selection(N - 1, N - 1)),
    (Selection(N, N), Selection(None, None)),
    (Selection(-1, -1), Selection(None, None)),
    (Selection(None, 2), Selection(None, 2)),
    (Selection(2, None), Selection(2, None)),
    (Selection(0, N), Selection(0, None)),
    (Selection(N, 0), Selection(None, 0)),
])
def test_clamp_keeps_0_to_n_minus_1_and_drops_the_rest(before, after):
    assert before.clamp(N, N) == after


def test_clamp_reads_each_side_against_its_own_length():
    assert Selection(3, 3).clamp(4, 2) == Selection(3, None)
    assert Selection(3, 3).clamp(2, 4) == Selection(None, 3)


def test_an_event_with_one_word_keeps_the_other_side():
    event = {"selection": {"points": [{"customdata": [-1, 0]}]}}
    assert selection_from_event(Selection(2, 3), event) == Selection(2, 0)


def test_points_without_customdata_or_not_dicts_are_passed_over():
    event = {"selection": {"points": [{"customdata": [1, 2]}, "junk", {"x": 1}]}}
    assert selection_from_event(Selection(), event) == Selection(1, 2)
    assert selection_from_event(Selection(3, 3), {"selection": {"points": ["junk"]}}) == Selection(3, 3)
    assert selection_from_event(Selection(3, 3), {"selection": {"points": None}}) == Selection(3, 3)
    assert selection_from_event(Selection(3, 3), {"selection": {}}) == Selection(3, 3)


def test_url_parameters_missing_or_zero():
    assert from_params({}) == Selection()
    assert from_params({"q": "0"}) == Selection(0, None)
    assert from_params({"k": "0"}) == Selection(None, 0)
    assert to_params(Selection(0, 0)) == {"q": "0", "k": "0"}
    assert to_params(Selection()) == {}
    assert to_params(Selection(None, 5)) == {"k": "5"}


def test_cell_needs_both_sides():
    assert Selection(0, 0).cell == (0, 0)
    assert Selection(0, None).cell is None and Selection(None, 0).cell is None
