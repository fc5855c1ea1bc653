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
    assert needle_claims.heads_matter(KS, top, rand, counted=3)[0] == "nd.curve.not"


def test_not_said_when_the_top_heads_do_not_break_it():
    assert needle_claims.heads_matter(KS, np.ones(5), np.ones((5, 3)), counted=3)[0] == "nd.curve.not"


def test_not_said_with_one_draw_or_nothing_right_to_begin_with():
    top, rand = np.zeros(5), np.ones((5, 1))
    assert needle_claims.heads_matter(KS, top, rand, counted=3)[0] == "nd.curve.too_few"
    assert needle_claims.heads_matter(KS, np.full(5, np.nan), np.full((5, 3), np.nan), counted=0)[0] == \
        "nd.curve.no_right"


def test_one_heads_sentence_says_the_scores_own_numerator_and_denominator():
    # 10 copies of a 14-token needle (0.71), while 13 written tokens occur in the needle: the sentence must let a
    # reader recompute 0.71 from what it says (10 ÷ 14), not from the 13
    key, fields = needle_claims.one_head(10 / 14, 14, 13, 1)
    assert key == "nd.claim.retrieval" and (fields["hits"], fields["length"], fields["score"]) == (10, 14, "0.71")
    for lang in ("en", "zh"):
        said = i18n.t(key, lang, layer=17, head=3, **fields)
        assert "10 ÷ 14 = 0.71" in said and "13" in said
    key, fields = needle_claims.one_head(1 / 14, 14, 13, 1)
    assert key == "nd.claim.not" and "1 ÷ 14 = 0.07" in i18n.t(key, "zh", layer=1, head=2, **fields)


def test_not_said_from_one_prompt_or_two_draws_even_with_a_full_gap():
    # the reviewer's case: 1 prompt, 2 draws, top 1 off breaks it, every draw keeps it: "a gap of 100%" unearned
    top, rand = np.zeros(5), np.ones((5, 2))
    assert needle_claims.heads_matter(KS, top, rand, counted=1)[0] == "nd.curve.too_few"
    assert needle_claims.heads_matter(KS, top, np.ones((5, 3)), counted=2)[0] == "nd.curve.too_few"
    assert needle_claims.heads_matter(KS, top, rand, counted=3)[0] == "nd.curve.too_few"
    key, fields = needle_claims.heads_matter(KS, top, np.ones((5, 3)), counted=1)
    for lang in ("en", "zh"):
        said = i18n.t(key, lang, **fields)
        assert "1" in said and "3" in said and "100%" not in said


def test_random_draws_that_break_answers_too_are_said_not_hidden():
    top = np.array([1.0, 0.0, 0.0, 0.0, 0.0])
    rand = np.ones((5, 3))
    rand[3, 2] = 2 / 3  # one draw of 8 random heads lost one of 3 answers: the top 2 still earn it, said with this
    key, fields = needle_claims.heads_matter(KS, top, rand, counted=3)
    assert key == "nd.curve.matter_but" and fields["k"] == 2 and fields["broke"] == "8"
    for lang in ("en", "zh"):
        assert "k = 8" in i18n.t(key, lang, **fields)
