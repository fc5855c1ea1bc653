from attention.params.text_input import MAX_CHARS, check_text


def test_blank_text_is_refused():
    for raw in (None, "", "   ", "\n\t", "\x00\x07"):
        checked = check_text(raw)
        assert checked.text == "" and checked.cut_chars == 0


def test_control_characters_are_dropped_but_text_kept():
    assert check_text("a\x00b\x1bc d\n").text == "abc d\n"


def test_long_text_is_capped_and_the_cut_counted():
    checked = check_text("x" * (MAX_CHARS + 10))
    assert len(checked.text) == MAX_CHARS and checked.cut_chars == 10


def test_ordinary_unicode_passes_untouched():
    raw = "猫喝了牛奶 🐱 <script>alert(1)</script> \u200bzero-width \u202eRTL"
    assert check_text(raw).text == raw
