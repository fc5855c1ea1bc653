"""attention/view.py: every page's view survives its link, typed; bad values are left out."""

import pytest

from attention import view
from attention.view import View

EVERY = ["explore", "lesson", "translate", "learning", "find_heads", "overview", "does_it_matter", "write", "compare", "forget", "find_needle"]


def test_every_page_is_listed_here():
    assert sorted(EVERY) == sorted(view.PARAMS)  # a new page joins EVERY (and its round trip below)


def sample(key: str) -> object:
    if key in view.BOOLS:
        return True
    if key in view.INTS:
        return 3
    if key in view.FLOATS:
        return 0.75
    return "The cat drank & <b>milk</b>?"


@pytest.mark.parametrize("page", EVERY)
def test_every_parameter_round_trips_through_the_link(page):
    values = {p: sample(k) for p, k in view.params_of(page).items()}
    back = View.from_params(page, View(page, values).to_params())
    assert back == View(page, values)
    for p, k in view.params_of(page).items():
        assert type(back.get(p)) is type(sample(k))


def test_bad_values_are_left_out_and_unknown_parameters_ignored():
    v = View.from_params("explore", {"layer": "two", "head": "-1", "q": "4", "nope": "1", "words": "0"})
    assert v.values == {"q": 4, "words": False}
    w = View.from_params("write", {"t": "nan", "top_p": "inf", "top_k": "5"})
    assert w.values == {"top_k": 5}


def test_a_view_is_frozen_and_refuses_unknown_parameters():
    v = View("explore", {"layer": 1})
    with pytest.raises(AttributeError):
        v.page = "write"  # type: ignore[misc]
    with pytest.raises(KeyError):
        View("explore", {"tr_q": 1})
    assert v.but(head=2).values == {"layer": 1, "head": 2} and v.values == {"layer": 1}


def test_switches_are_named_only_when_on_and_empty_values_not_at_all():
    assert View("explore", {"cvd": False, "text": "", "layer": 0}).to_params() == {"layer": "0"}
    assert View("explore", {"cvd": True}).to_params() == {"cvd": "1"}


def test_shared_keys_are_those_two_pages_show():
    shared, own = view.split_keys("explore")
    assert {"text", "model", "kind"} <= set(shared) and "layer" in own
    assert view.PARAMS["explore"]["layer"] not in view.shared()
