from attention.params.selection import Selection, click_to_selection, from_params, selection_from_event, to_params


def test_cell_click_selects_both_words():
    assert click_to_selection(Selection(), [3, 5]) == Selection(3, 5)


def test_label_clicks_change_one_side_only():
    assert click_to_selection(Selection(1, 2), [4, -1]) == Selection(4, 2)
    assert click_to_selection(Selection(1, 2), [-1, 0]) == Selection(1, 0)


def test_bad_customdata_keeps_the_selection():
    for junk in (None, [], ["a", "b"], {"0": 1}, [-1, -1]):
        assert click_to_selection(Selection(1, 1), junk) == Selection(1, 1)


def test_streamlit_event_last_point_wins_and_empty_event_keeps_state():
    event = {"selection": {"points": [{"customdata": [0, 1]}, {"customdata": [2, 3], "x": 3}]}}
    assert selection_from_event(Selection(), event) == Selection(2, 3)
    assert selection_from_event(Selection(1, 1), {"selection": {"points": []}}) == Selection(1, 1)
    assert selection_from_event(Selection(1, 1), None) == Selection(1, 1)


def test_clamp_drops_positions_that_no_longer_exist():
    assert Selection(7, 2).clamp(5, 5) == Selection(None, 2)
    assert Selection(1, 2).clamp(5, 5).cell == (1, 2)


def test_url_round_trip():
    sel = Selection(4, 0)
    assert from_params(to_params(sel)) == sel
    assert from_params({"q": "x", "k": "2"}) == Selection(None, 2)
