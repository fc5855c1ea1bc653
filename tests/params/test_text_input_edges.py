"""The edges of check_text: the exact cap, surrogates, and what counts as white space.
(Found by mutation testing: python -m qa mutation.)"""

from attention.params.text_input import CheckedText, check_text


def test_text_at_the_cap_is_not_cut_and_one_over_is_cut_by_one():
    assert check_text("abc", max_chars=3) == CheckedText("abc", 0)
    assert check_text("abcd", max_chars=3) == CheckedText("abc", 1)
    assert check_text("ab", max_chars=3) == CheckedText("ab", 0)


def test_lone_surrogates_are_dropped():
    assert check_text("a\ud800b\udfffc").text == "abc"  # half a UTF-16 pair cannot be encoded for the model


def test_tab_newline_and_space_stay_other_controls_go():
    assert check_text("a\tb\nc d\re\x0bf\x85g").text == "a\tb\nc defg"  # \r, VT and NEL are controls too


def test_the_cap_counts_after_control_characters_are_dropped():
    assert check_text("\x00" * 10 + "abcd", max_chars=4) == CheckedText("abcd", 0)
