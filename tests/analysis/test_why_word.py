"""Why this word, the pure part: the heads ranked by their drop, the value-weighted row, which attribution
is the reference, and when an agreement may NOT be said."""

import numpy as np

from attention.analysis import why_word

HEADS = [("decoder", 0, h) for h in range(4)]


def test_top_heads_largest_drop_first():
    top = why_word.top_heads(HEADS, np.array([0.1, 0.5, -0.2, 0.3]), 2)
    assert top == [(("decoder", 0, 1), 0.5), (("decoder", 0, 3), 0.3)]


def test_value_row_weights_by_value_norm():
    row = why_word.value_row(np.array([0.5, 0.5]), np.array([[3.0, 4.0], [0.0, 1.0]]))
    np.testing.assert_allclose(row, [5 / 6, 1 / 6])


def test_reference_falls_back_to_gradient_x_input_when_ig_misses():
    ig, gxi = np.ones(3), np.zeros(3)
    assert why_word.reference(ig, gxi, gap=0.01, delta=1.0)[0] == "integrated_gradients"
    assert why_word.reference(ig, gxi, gap=0.5, delta=1.0)[0] == "gradient_x_input"
    assert why_word.reference(ig, gxi, gap=float("nan"), delta=1.0)[0] == "gradient_x_input"


def _rows(n):
    rng = np.random.default_rng(0)
    return {h: rng.random(n) for h in HEADS}


def test_agreement_given_with_n_when_allowed():
    rows = _rows(8)
    top = why_word.top_heads(HEADS, np.array([0.4, 0.3, 0.2, 0.1]), 2)
    out = why_word.agreements(top, rows, rows, rows[HEADS[0]], np.array([0.4, 0.3, 0.2, 0.1]))
    assert out[0].attention.n == 8 and out[0].attention.rho == 1.0


def test_agreement_not_said_on_too_few_tokens_or_when_no_head_matters():
    drops = np.array([0.4, 0.3, 0.2, 0.1])
    rows = _rows(4)  # four prompt tokens: under claims.MIN_N
    top = why_word.top_heads(HEADS, drops, 2)
    assert all(a.attention is None and a.value_weighted is None
               for a in why_word.agreements(top, rows, rows, rows[HEADS[0]], drops))
    rows = _rows(8)
    flat = np.full(4, 1e-5)  # every head below the effect floor
    assert all(a.attention is None for a in why_word.agreements(top, rows, rows, rows[HEADS[0]], flat))


def test_opposite_signs_are_found_only_where_both_methods_say_something():
    ig = np.array([0.0, 0.4, -0.3, 0.2, 0.01])
    gxi = np.array([-0.5, -0.2, -0.1, 0.3, -0.3])
    assert why_word.sign_disagreements(ig, gxi) == [1]  # 0 (IG exactly 0) and 4 (IG under the floor) are not said


def test_numbers_are_written_with_one_minus_sign():
    from attention.analysis import claims

    assert claims.number(-1.5061) == "\u22121.506" and claims.number(1.5061, "+.3f") == "+1.506"
    assert claims.number(-0.454, "+.2f") == "\u22120.45"
