"""Tokens shown as the text they stand for; each expected label written out."""

import pytest

from attention.analysis import token_text
from attention.analysis.token_text import readable, readable_tokens


@pytest.mark.parametrize("token, shown", [
    ("Ġcat", "·cat"),  # a leading space: one thin mark
    ("cat", "cat"),
    ("Ċ", "⏎"),
    ("ĊĊ", "⏎⏎"),
    ("ĠĠĠ", "···"),  # spaces alone stay visible
    ("ĉ", "⇥"),  # a tab
    ("Ā", "␀"),  # byte 0: its control picture
    ("ä½łå¥½", "你好"),  # UTF-8 bytes read back
    ("ä½", "⟨e4⟩⟨bd⟩"),  # part of a character: its bytes
    ("Ġ<b>", "·<b>"),  # markup stays text (labels.py escapes it for plotly)
    ("ðŁĺĢ", "😀"),
])
def test_byte_level_bpe_tokens(token, shown):
    assert readable(token, "bpe") == shown


def test_the_alphabet_has_every_byte_once():
    table = token_text.byte_of_char()
    assert sorted(table.values()) == list(range(256))
    assert table["Ġ"] == 0x20 and table["Ċ"] == 0x0A and table["!"] == 0x21


@pytest.mark.parametrize("token, shown", [("▁cat", "·cat"), ("cat", "cat"), ("<0x0A>", "⏎"), ("▁", "·")])
def test_sentencepiece_tokens(token, shown):
    assert readable(token, "sentencepiece") == shown


def test_the_scheme_is_read_from_the_sequence():
    assert readable_tokens(["The", "Ġblack", "Ġcat"]) == ["The", "·black", "·cat"]
    assert readable_tokens(["ä½łå¥½", "Ċ"]) == ["你好", "⏎"]  # a shifted byte (Ċ) says byte-level
    assert readable_tokens(["[CLS]", "the", "##ing", "[SEP]"]) == ["[CLS]", "the", "##ing", "[SEP]"]
    assert readable_tokens(["<|endoftext|>", "Ġa"]) == ["<|endoftext|>", "·a"]


def test_control_characters_never_vanish():
    assert token_text.shown("a\x07b\x7f") == "a␇b␡"
    assert token_text.shown("") == ""


def test_invisible_spaces_never_show_as_a_blank_label():
    """SmolLM2's logit lens had a row whose top token was U+00A0: it read as an empty cell."""
    assert token_text.shown("\u00a0") == "⍽"
    assert token_text.shown("a\u200bb") == "a␣b"
    assert all(token_text.shown(c).strip() for c in "\u00a0\u200b\u3000\ufeff")
