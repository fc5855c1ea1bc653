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


@pytest.mark.parametrize("token, shown", [
    ("Ġcat", "·cat"),  # byte-level BPE (GPT-2, Llama 3, SmolLM2): the leading space as a thin mark
    ("Ċ", "⏎"),
    ("Ġ<b>", "·&lt;b&gt;"),  # read as text first, then escaped
    ("▁cat", "·cat"),  # SentencePiece
])
def test_label_shows_bpe_tokens_as_the_text_they_stand_for(token, shown):
    assert labels.label(token) == shown


def test_token_labels_read_the_scheme_from_the_whole_side():
    assert labels.token_labels(["ä½łå¥½", "Ġcat", ""]) == ["你好", "·cat", "∅"]
    assert labels.token_labels(["[CLS]", "un", "##able", " "]) == ["[CLS]", "un", "##able", " "]


def test_matrices_label_their_axes_with_readable_tokens():
    import numpy as np

    from attention.trace import make_site

    q = np.ones((1, 2, 2), np.float32)
    site = make_site(layer=0, kind="decoder", query_tokens=("The", "Ġcat"), key_tokens=("The", "Ġcat"), q=q, k=q, v=q,
                     scale=1.0, model_weights=np.full((1, 2, 2), 0.5, np.float32), model_z=q)
    assert heatmaps._labels(site) == (["The", "·cat"], ["The", "·cat"])
