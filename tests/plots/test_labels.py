"""Labels escaped before plotly sees them: each expected form written out by hand."""

import pytest

from attention.plots import heatmaps, labels


@pytest.mark.parametrize("token, shown", [
    ("<b>x</b>", "&lt;b&gt;x&lt;/b&gt;"),
    ("a<br>b", "a&lt;br&gt;b"),
    ('<a href="u">', '&lt;a href="u"&gt;'),  # quotes stay: plotly does not read them
    ("AT&T", "AT&amp;T"),
    ("&lt;", "&amp;lt;"),  # an entity already written is shown as typed, not decoded
    ("##ing", "##ing"),
    ("猫", "猫"),
    ("", "∅"),  # an empty token still gets a visible label
    (" ", " "),
])
def test_label_shows_the_token_as_typed(token, shown):
    assert labels.label(token) == shown


def test_escape_names_only_the_three_characters():
    assert labels.escape("<query> & 'key'") == "&lt;query&gt; &amp; 'key'"
    assert labels.escape("") == ""


def test_every_figure_module_uses_the_same_label():
    assert heatmaps.label is labels.label
