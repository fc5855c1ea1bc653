"""Clicks and links at the first and the last word: position 0 is a word like any other, position n is none."""

import pytest

from attention.params.selection import Selection, click_to_selection, from_params, selection_from_event

N = 8  # [CLS] the black cat drank the milk [SEP]


def event(*customdata):
    return {"selection": {"points": [{"curve_number": 2, "point_index": 0, "customdata": list(c)} for c in customdata]}}


@pytest.mark.parametrize("query, key", [(0, 0), (0, N - 1), (N - 1, 0), (N - 1, N - 1)])
def test_a_cell_at_either_end_is_selected(query, key):
    assert click_to_selection(Selection(3, 3), [query, key]) == Selection(query, key)
    assert selection_from_event(Selection(3, 3), event([query, key])) == Selection(query, key)


@pytest.mark.parametrize("pos", [0, N - 1])
def test_a_word_at_either_end_is_selected_and_keeps_the_other_half(pos):
    assert click_to_selection(Selection(3, 4), [pos, -1]) == Selection(pos, 4)
    assert click_to_selection(Selection(3, 4), [-1, pos]) == Selection(3, pos)
    assert selection_from_event(Selection(), event([5, 5], [pos, -1])) == Selection(pos, None)  # the last point wins


def test_a_click_that_names_nothing_changes_nothing():
    assert click_to_selection(Selection(3, 4), [-1, -1]) == Selection(3, 4)
    assert click_to_selection(Selection(3, 4), "x") == Selection(3, 4)
    assert selection_from_event(Selection(3, 4), {"selection": {"points": []}}) == Selection(3, 4)


def test_clamp_keeps_the_last_position_and_drops_the_one_past_it():
    assert Selection(N - 1, N - 1).clamp(N, N) == Selection(N - 1, N - 1)
    assert Selection(0, 0).clamp(N, N) == Selection(0, 0)
    assert Selection(N, N).clamp(N, N) == Selection(None, None)
    assert Selection(N, 2).clamp(N, N) == Selection(None, 2) and Selection(2, N).clamp(N, N) == Selection(2, None)
    assert Selection(3, 5).clamp(6, 5) == Selection(3, None)  # cross-attention: query and key counts differ
    assert Selection(-1, -1).clamp(N, N) == Selection(None, None)


def test_a_link_at_position_zero_is_a_selection():
    assert from_params({"q": "0", "k": "0"}) == Selection(0, 0)
    assert from_params({"q": "x"}) == Selection(None, None)
