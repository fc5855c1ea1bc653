"""The Write page's "text so far" under a long prompt: the prompt's end, then every written word."""

from attention.params.text_tail import TAIL_CHARS, text_tail


def test_a_short_prompt_is_shown_whole():
    assert text_tail("The cat sat on the mat", " on the mat") == ("The cat sat on the mat", 0)


def test_a_long_prompt_shows_its_end_from_a_word_and_every_written_word():
    prompt = " ".join(f"word{i}" for i in range(400))
    written = " and then it stopped"
    shown, hidden = text_tail(prompt + written, written)
    assert shown.startswith("…word") and shown.endswith(written)
    assert prompt.endswith(shown[1:-len(written)])  # the prompt's own end, cut at a word's start
    assert hidden == len(prompt) - len(shown[1:-len(written)]) and hidden > 0
    assert TAIL_CHARS - TAIL_CHARS // 4 <= len(shown) - len(written) - 1 <= TAIL_CHARS


def test_nothing_is_dropped_when_the_text_does_not_end_with_the_written_words():
    text = "x" * 1000  # e.g. a prompt cut to the cap and decoded again: the prompt part is not known apart
    shown, hidden = text_tail(text, "yy")
    assert shown.endswith("x" * TAIL_CHARS) and hidden == 1000 - TAIL_CHARS
