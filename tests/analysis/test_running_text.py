"""The atlas's examples read as running text (issue 52): no space inside a word split over tokens, none lost
between words, and a marked space is visible."""

from attention.analysis.running_text import SPACE_MARK, marked_body, running_pieces
from attention.ui.pages.atlas_section import example_markdown


def joined(tokens):
    return "".join(before + body for before, body in running_pieces(tokens))


def test_byte_level_pieces_join_into_words_and_keep_their_spaces():
    assert joined(["The", "Ġman", "Ġwas", "Ġnam", "ed", "Ġto", "Ġco", "mmunicate", "."]) == \
        "The man was named to communicate."


def test_a_token_of_spaces_alone_reads_as_a_space():
    assert joined(["On", "Ġthe", "Ġ", "2", "nd", ",", "Ġ", "3", ")"]) == "On the 2nd, 3)"


def test_wordpiece_pieces_join_and_words_stand_apart():
    assert joined(["[CLS]", "the", "dog", "was", "nam", "##ed", "rex", ".", "[SEP]"]) == \
        "[CLS] the dog was named rex . [SEP]"


def test_a_marked_space_is_visible_and_the_markdown_keeps_words_whole():
    assert marked_body(" ") == SPACE_MARK and marked_body("cat") == "cat"
    md = example_markdown(["The", "Ġcat", "Ġnam", "ed", "Ġ", "Ġhere"], query=4, key=2)
    assert md == f"The cat :orange-background[nam]ed:blue-background[{SPACE_MARK}] here"  # the space token is the space
