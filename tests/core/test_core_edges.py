"""core.py at its edges: masks read back, dtypes kept, the axis honoured, rows far apart in scale.
Each expectation is written out here, not computed with core. (Found by mutation testing:
python -m qa mutation.)"""

import numpy as np
import pytest

from attention import core

RNG = np.random.default_rng(5)


def test_add_mask_adds_and_none_adds_nothing():
    s, m = RNG.standard_normal((2, 3)), np.array([[0.0, core.MASKED, 0.0]])
    assert core.add_mask(s, None) is s
    np.testing.assert_array_equal(core.add_mask(s, m), s + m)


def test_is_masked_reads_half_of_masked_and_below_as_hidden():
    assert core.is_masked(None, (2, 3)).dtype == bool
    np.testing.assert_array_equal(core.is_masked(None, (2, 3)), np.zeros((2, 3), dtype=bool))
    row = np.array([0.0, core.MASKED, core.MASKED / 2, core.MASKED * 0.45, -1e30])
    np.testing.assert_array_equal(core.is_masked(row, (2, 5)), [[False, True, True, False, False]] * 2)
    assert core.is_masked(core.causal_mask(3), (2, 3, 3)).sum() == 2 * 3  # above the diagonal, per head


def test_softmax_computes_in_at_least_float32_along_the_axis_asked():
    half = np.array([[1.0, 2.0], [3.0, 5.0]], dtype=np.float16)
    assert core.softmax(half).dtype == np.float32
    assert core.softmax(np.array([[1, 2], [3, 5]])).dtype == np.float64  # integers: float64, as numpy promotes
    np.testing.assert_allclose(core.softmax(np.array([[1, 2], [3, 5]])), [[1 / (1 + np.e), np.e / (1 + np.e)],
                                                                           [1 / (1 + np.e**2), np.e**2 / (1 + np.e**2)]])
    cols = core.softmax(np.array([[0.0, 1.0], [np.log(3.0), 1.0]]), axis=0)
    np.testing.assert_allclose(cols, [[0.25, 0.5], [0.75, 0.5]])


def test_sink_takes_its_share_in_rows_of_very_different_scale():
    scores = np.array([[1000.0, 999.0], [0.0, 0.0]])
    out = core.softmax_with_sink_(scores.copy(), np.array([999.0, 0.0]))
    e = np.exp(-1.0)
    np.testing.assert_allclose(out, [[1 / (1 + 2 * e), e / (1 + 2 * e)], [1 / 3, 1 / 3]])


def test_cosine_is_computed_in_float64_on_either_side():
    a32, a64 = np.array([1.0, 2.0, 3.0], dtype=np.float32), np.array([1.0, 2.0, 3.0])
    assert abs(core.cosine(a32, a64) - 1.0) < 1e-12  # a float32 norm would be off by ~3e-8
    assert abs(core.cosine(a64, a32) - 1.0) < 1e-12
    big = np.array([3 * 10**9, 4 * 10**9])  # int64 dot products of these overflow
    assert core.cosine(big, big) == pytest.approx(1.0, abs=1e-12)


def test_entropy_is_float64_and_never_reads_the_log_of_zero():
    rows32 = np.array([[0.5, 0.5, 0.0, 0.0]], dtype=np.float32)
    out = core.entropy(rows32)
    assert out.dtype == np.float64
    np.testing.assert_allclose(out, [np.log(2)], rtol=1e-15)
    rows = np.array([[1.0] + [0.0] * 15] * 2)
    for _ in range(20):  # freed memory full of NaN: a log left unwritten at a = 0 would read it
        junk = np.full(rows.shape, np.nan)
        del junk
        assert np.isfinite(core.entropy(rows)).all()


def test_masks_hold_exactly_zero_and_masked():
    m = core.MASKED
    np.testing.assert_array_equal(core.causal_mask(3), [[0, m, m], [0, 0, m], [0, 0, 0]])
    # keys longer than queries (a cache): the queries are the last positions
    np.testing.assert_array_equal(core.causal_mask(2, 4), [[0, 0, 0, m], [0, 0, 0, 0]])
    np.testing.assert_array_equal(core.padding_mask(np.array([True, False, True]), 2), [[0, m, 0]] * 2)


def test_scale_scores_defaults_to_the_models_temperature():
    np.testing.assert_array_equal(core.scale_scores(np.array([3.0, -1.0]), 0.5), [1.5, -0.5])


def test_temperature_must_be_positive_in_attention_too():
    q = RNG.standard_normal((2, 4))
    for bad in (0.0, -2.0):
        with pytest.raises(ValueError, match="temperature must be positive, got"):
            core.attention(q, q, q, temperature=bad)
        with pytest.raises(ValueError, match="temperature must be positive, got"):
            core.scale_scores(q, 1.0, temperature=bad)
        with pytest.raises(ValueError, match="temperature must be positive, got"):  # even with no heads to scale
            core.attention(np.zeros((0, 2, 4)), np.zeros((0, 2, 4)), np.zeros((0, 2, 4)), temperature=bad)


@pytest.mark.parametrize("dq, dk, dv, scores_dtype, z_dtype", [
    (np.float64, np.float32, np.float32, np.float64, np.float64),
    (np.float32, np.float64, np.float32, np.float64, np.float64),
    (np.float16, np.float16, np.float16, np.float32, np.float32),
    (np.float32, np.float32, np.float64, np.float32, np.float64),
    (np.float32, np.float32, np.float32, np.float32, np.float32),
])
def test_attention_computes_in_the_widest_input_type_and_at_least_float32(dq, dk, dv, scores_dtype, z_dtype):
    q, k, v = (RNG.standard_normal((2, 3, 4)).astype(t) for t in (dq, dk, dv))
    scores, weights, z = core.attention(q, k, v)
    assert scores.dtype == weights.dtype == scores_dtype and z.dtype == z_dtype


def test_attention_works_on_blocks_of_at_most_block_elements_scores(monkeypatch):
    """attention() claims to hold one block of score matrices at a time: watch the blocks it computes."""
    seen = []
    raw = core.raw_scores
    monkeypatch.setattr(core, "raw_scores", lambda q, k: seen.append(q.shape[0]) or raw(q, k))
    q = RNG.standard_normal((2, 7, 5, 3))  # 14 matrices of 5 × 5
    monkeypatch.setattr(core, "BLOCK_ELEMENTS", 3 * 25)
    _, weights, _ = core.attention(q, q, q)
    assert seen == [3, 3, 3, 3, 2]
    np.testing.assert_allclose(weights.sum(-1), 1.0)
    seen.clear()
    monkeypatch.setattr(core, "BLOCK_ELEMENTS", 10)  # smaller than one matrix: one matrix at a time
    core.attention(q, q, q)
    assert seen == [1] * 14
    seen.clear()
    monkeypatch.setattr(core, "BLOCK_ELEMENTS", 3)
    one = RNG.standard_normal((7, 1, 2))  # 1 × 1 matrices: three per block
    core.attention(one, one, one)
    assert seen == [3, 3, 1]
