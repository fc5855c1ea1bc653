"""Wu et al.'s retrieval score on hand-made attention patterns, the right-answer rule, and when the needle page
may call a head a retrieval head (attention/analysis/retrieval.py, claims.retrieval_head)."""

import numpy as np

from attention.analysis import claims, retrieval

# a prompt of 10 tokens; the needle is positions 4..7 (ids 40, 41, 42, 43); token 41 also sits at position 1
IDS = [1, 41, 2, 3, 40, 41, 42, 43, 5, 6]
SPAN = (4, 8)


def top_keys_from_pattern(weights: np.ndarray) -> np.ndarray:
    """(steps, layers, heads) argmax of hand-made rows (steps, layers, heads, n)."""
    return weights.argmax(axis=-1)


def test_the_score_counts_top1_on_the_very_token_inside_the_needle():
    written = [40, 41, 42, 99]  # the model copies three needle tokens, then writes something else
    w = np.full((4, 1, 3, 10), 0.01)
    for t, pos in enumerate([4, 5, 6, 7]):
        w[t, 0, 0, pos] = 0.9  # head 0: top-1 on the needle token being written (the last step: 43 ≠ 99)
        w[t, 0, 1, 0] = 0.9  # head 1: the sink, always
    w[:, 0, 2, 1] = 0.9  # head 2: token 41 OUTSIDE the needle (position 1)
    s = retrieval.scores(top_keys_from_pattern(w), written, IDS, SPAN)
    assert s.shape == (1, 3)
    assert s[0, 0] == 3 / 4  # 3 copies over a needle of 4 tokens
    assert s[0, 1] == 0.0  # looks at the sink
    assert s[0, 2] == 0.0  # the right token, but not in the needle
    assert retrieval.copyable(written, IDS, SPAN) == 3
    assert retrieval.above(s) == [(0, 0, 0.75)]
    assert retrieval.sink_share(top_keys_from_pattern(w), [(0, 1)]) == 1.0


def test_top1_in_the_needle_on_another_token_does_not_count():
    top = np.array([[[5]]])  # position 5 holds 41
    assert not retrieval.copies(top[0], 42, IDS, SPAN).any()
    assert retrieval.copies(top[0], 41, IDS, SPAN).all()


def test_a_right_answer():
    needle = "The secret ingredient is green honey."
    assert retrieval.is_right("It is green honey.", needle, "green honey")
    assert not retrieval.is_right("It is honey.", needle, "green honey")
    assert retrieval.is_right("The secret ingredient is green honey", needle)  # ROUGE-1 recall 1.0
    assert not retrieval.is_right("I do not know the soup.", needle)
    assert retrieval.rouge1_recall("green green", "green honey") == 0.5
    assert retrieval.is_right("Her favourite number is 47.", "…forty-seven.", "forty-seven|47")
    assert retrieval.is_right("It is forty-seven", "…forty-seven.", "forty-seven|47")
    assert not retrieval.is_right("It is 470.", "…forty-seven.", "forty-seven|47")  # whole words only


def test_mean_over_right_runs_only():
    a, b = np.ones((2, 2)), np.zeros((2, 2))
    assert np.array_equal(retrieval.mean_over_right([a, b], [True, False]), a)
    assert retrieval.mean_over_right([a], [False]) is None


def test_a_retrieval_head_is_named_only_above_the_threshold_over_enough_copies():
    assert claims.retrieval_head(0.5, 30, 3)[0] == "nd.claim.retrieval"
    assert claims.retrieval_head(0.09, 30, 3)[0] == "nd.claim.not"
    # must NOT be said: a high score from a handful of copied tokens, or from runs that were all wrong
    assert claims.retrieval_head(0.9, 3, 1)[0] == "nd.claim.too_few"
    assert claims.retrieval_head(0.9, 40, 0)[0] == "nd.claim.no_right"
    assert claims.retrieval_head(0.1, 40, 2)[0] == "nd.claim.not"  # exactly 0.1 is not above it
