"""When the needle page may say the retrieval heads matter (attention/analysis/needle_claims.py): the top k off
against random draws of k, judged against every draw; cases where it must not be said."""

import numpy as np

from attention import i18n
from attention.analysis import needle_claims

KS = (1, 2, 4, 8, 16)


def test_said_at_the_smallest_k_where_the_top_heads_break_it_and_no_draw_does():
    top = np.array([1.0, 1.0, 0.0, 0.0, 0.0])
    rand = np.ones((5, 3))
    key, fields = needle_claims.heads_matter(KS, top, rand, counted=3)
    assert key == "nd.curve.matter" and fields["k"] == 4 and fields["gap"] == "100%" and fields["worst"] == "100%"
    for lang in ("en", "zh"):
        assert "4" in i18n.t(key, lang, **fields)


def test_not_said_when_one_random_draw_breaks_it_too():
    top = np.array([1.0, 1.0, 0.0, 0.0, 0.0])
    rand = np.ones((5, 3))
    rand[2:, 1] = 0.0  # one draw of 4, 8 and 16 random heads also loses the answer: the gap may be luck
    assert needle_claims.heads_matter(KS, top, rand, counted=1)[0] == "nd.curve.not"


def test_not_said_when_the_top_heads_do_not_break_it():
    assert needle_claims.heads_matter(KS, np.ones(5), np.ones((5, 3)), counted=2)[0] == "nd.curve.not"


def test_not_said_with_one_draw_or_nothing_right_to_begin_with():
    top, rand = np.zeros(5), np.ones((5, 1))
    assert needle_claims.heads_matter(KS, top, rand, counted=1)[0] == "nd.curve.too_few"
    assert needle_claims.heads_matter(KS, np.full(5, np.nan), np.full((5, 3), np.nan), counted=0)[0] == \
        "nd.curve.no_right"
