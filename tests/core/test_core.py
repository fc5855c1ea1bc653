"""core.py against torch's own attention: scaled_dot_product_attention and nn.MultiheadAttention."""

import numpy as np
import pytest
import torch

from attention import core

RNG = np.random.default_rng(0)


def rand(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape)


def test_rows_of_weights_sum_to_one():
    _, weights, _ = core.attention(rand(3, 5, 8), rand(3, 7, 8), rand(3, 7, 8))
    np.testing.assert_allclose(weights.sum(-1), 1.0, atol=1e-12)


def test_causal_mask_gives_exact_zeros_above_the_diagonal():
    mask = core.causal_mask(6)
    _, weights, _ = core.attention(rand(2, 6, 4), rand(2, 6, 4), rand(2, 6, 4), mask=mask)
    upper = np.triu(np.ones((6, 6), dtype=bool), k=1)
    assert np.all(weights[:, upper] == 0.0)
    assert np.all(weights[:, ~upper] > 0.0)
    np.testing.assert_allclose(weights.sum(-1), 1.0, atol=1e-12)


def test_padding_mask_gives_exact_zeros_on_padded_keys():
    mask = core.padding_mask(np.array([1, 1, 1, 0, 0], dtype=bool), query_len=4)
    _, weights, _ = core.attention(rand(4, 8), rand(5, 8), rand(5, 8), mask=mask)
    assert np.all(weights[:, 3:] == 0.0)


def test_softmax_is_stable_for_huge_scores():
    w = core.softmax(np.array([[1e4, 1e4 - 1.0, -1e4]]))
    assert np.all(np.isfinite(w))
    np.testing.assert_allclose(w[0, :2], [1 / (1 + np.exp(-1)), np.exp(-1) / (1 + np.exp(-1))])


def test_fully_masked_row_is_all_zero_not_nan():
    w = core.softmax(np.array([[-np.inf, -np.inf]]))
    assert np.all(w == 0.0)


def by_hand(q: np.ndarray, k: np.ndarray, v: np.ndarray, added: np.ndarray | float = 0.0,
            temperature: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """softmax(Q·Kᵀ/(√d_k·T) + added) and its A·V, written out with exp: no function of core."""
    logits = np.einsum("...qd,...kd->...qk", q, k) / (np.sqrt(q.shape[-1]) * temperature) + added
    e = np.exp(logits - logits.max(-1, keepdims=True))
    weights = e / e.sum(-1, keepdims=True)
    return weights, np.einsum("...qk,...kd->...qd", weights, v)


def test_temperature_divides_the_scaled_scores():
    """T = 1 is the model (the default and an explicit 1.0 both match the formula), T > 1 flattens,
    T < 1 sharpens: each against the formula written out here."""
    q, k, v = rand(5, 8), rand(5, 8), rand(5, 8)
    for temperature in (1.0, 10.0, 0.5):
        _, w, _ = core.attention(q, k, v, temperature=temperature)
        np.testing.assert_allclose(w, by_hand(q, k, v, temperature=temperature)[0], atol=1e-12)
    _, w_default, _ = core.attention(q, k, v)
    np.testing.assert_allclose(w_default, by_hand(q, k, v)[0], atol=1e-12)
    _, w_hot, _ = core.attention(q, k, v, temperature=10.0)
    _, w_cold, _ = core.attention(q, k, v, temperature=0.5)
    assert w_hot.max() < w_default.max() < w_cold.max()
    np.testing.assert_allclose(core.scale_scores(np.array([3.0]), 0.5, temperature=4.0), [3.0 * 0.5 / 4.0])
    for bad in (0.0, -1.0):
        with pytest.raises(ValueError):
            core.scale_scores(np.zeros(2), 0.1, temperature=bad)


def test_dot_product_terms_and_value_terms_add_up():
    q, k, v = rand(4, 8), rand(6, 8), rand(6, 8)
    scores, weights, z = core.attention(q, k, v)
    np.testing.assert_allclose(core.dot_product_terms(q[2], k[3]).sum(), scores[2, 3], atol=1e-12)
    np.testing.assert_allclose(core.weighted_value_terms(weights[1], v).sum(0), z[1], atol=1e-12)


@pytest.mark.parametrize("causal", [False, True])
def test_equals_torch_scaled_dot_product_attention(causal):
    q, k, v = rand(2, 4, 7, 16), rand(2, 4, 7, 16), rand(2, 4, 7, 16)
    mask = core.causal_mask(7) if causal else None
    _, _, z = core.attention(q, k, v, mask=mask)
    tq, tk, tv = (torch.from_numpy(a) for a in (q, k, v))
    expected = torch.nn.functional.scaled_dot_product_attention(tq, tk, tv, is_causal=causal).numpy()
    np.testing.assert_allclose(z, expected, atol=1e-6)


def test_equals_torch_sdpa_with_padding_and_custom_scale():
    q, k, v = rand(1, 2, 5, 8), rand(1, 2, 6, 8), rand(1, 2, 6, 8)
    real = np.array([True, True, True, True, False, False])
    _, _, z = core.attention(q, k, v, scale=0.3, mask=core.padding_mask(real, 5))
    expected = torch.nn.functional.scaled_dot_product_attention(
        *(torch.from_numpy(a) for a in (q, k, v)), attn_mask=torch.from_numpy(real)[None, :], scale=0.3
    ).numpy()
    np.testing.assert_allclose(z, expected, atol=1e-6)


def test_equals_torch_multihead_attention_per_head_weights():
    torch.manual_seed(0)
    d_model, heads, t_q, t_k = 16, 4, 5, 6
    mha = torch.nn.MultiheadAttention(d_model, heads, batch_first=True, dtype=torch.float64).eval()
    x_q, x_kv = torch.randn(1, t_q, d_model, dtype=torch.float64), torch.randn(1, t_k, d_model, dtype=torch.float64)
    with torch.no_grad():
        out, ref_w = mha(x_q, x_kv, x_kv, need_weights=True, average_attn_weights=False)
    w_q, w_k, w_v = mha.in_proj_weight.detach().chunk(3)
    b_q, b_k, b_v = mha.in_proj_bias.detach().chunk(3)
    d_head = d_model // heads

    def split(x: torch.Tensor) -> np.ndarray:  # (1, T, d_model) -> (heads, T, d_head)
        return x[0].view(-1, heads, d_head).transpose(0, 1).numpy()

    q, k, v = split(x_q @ w_q.T + b_q), split(x_kv @ w_k.T + b_k), split(x_kv @ w_v.T + b_v)
    _, weights, z = core.attention(q, k, v)
    np.testing.assert_allclose(weights, ref_w[0].numpy(), atol=1e-6)
    merged = z.transpose(1, 0, 2).reshape(t_q, d_model)  # concatenate heads
    projected = merged @ mha.out_proj.weight.detach().numpy().T + mha.out_proj.bias.detach().numpy()
    np.testing.assert_allclose(projected, out[0].numpy(), atol=1e-6)


def test_combine_masks_stays_at_the_masked_floor():
    m = core.combine_masks(core.causal_mask(3), core.padding_mask(np.array([1, 1, 0], dtype=bool), 3))
    assert m.min() == core.MASKED
    assert core.combine_masks(None, None) is None


def test_blocks_of_heads_give_the_same_answer_as_sdpa(monkeypatch):
    """attention() runs a few heads at a time; blocks that split the heads unevenly change nothing."""
    monkeypatch.setattr(core, "BLOCK_ELEMENTS", 3 * 40 * 40)  # 2 × 7 = 14 matrices: blocks of 3, 3, 3, 3, 2
    q, k, v = (rand(2, 7, 40, 8).astype(np.float32) for _ in range(3))
    mask = core.causal_mask(40)
    scores, weights, z = core.attention(q, k, v, mask=mask)
    tq, tk, tv = (torch.from_numpy(a) for a in (q, k, v))
    expected_z = torch.nn.functional.scaled_dot_product_attention(tq, tk, tv, is_causal=True).numpy()
    np.testing.assert_allclose(z, expected_z, atol=1e-5)
    np.testing.assert_allclose(scores, q @ k.swapaxes(-1, -2), atol=1e-5)
    assert scores.dtype == weights.dtype == z.dtype == np.float32
    np.testing.assert_array_equal(weights[..., 0, 1:], 0.0)  # the first query sees only itself


def test_masks_and_biases_broadcast_as_before():
    """A key-padding row (1, key_pos), a per-head bias and leading batch dimensions all broadcast."""
    q, k, v = rand(3, 4, 8), rand(3, 6, 8), rand(3, 6, 8)
    bias = rand(2, 3, 4, 6)  # widens the result to a batch of 2
    key_row = np.where(np.arange(6) < 4, 0.0, core.MASKED)[None, :]
    _, weights, z = core.attention(q, k, v, bias=bias, mask=key_row)
    expected, expected_z = by_hand(q, k, v, added=bias + key_row)  # the formula, not core's own steps
    assert weights.shape == z.shape[:-1] + (6,) == (2, 3, 4, 6)
    np.testing.assert_allclose(weights, expected, atol=1e-12)
    np.testing.assert_allclose(z, expected_z, atol=1e-12)
    np.testing.assert_array_equal(weights[..., 4:], 0.0)


def test_softmax_leaves_its_input_alone_and_softmax_in_place_reuses_it():
    scores = rand(2, 5)
    before = scores.copy()
    out = core.softmax(scores)
    np.testing.assert_array_equal(scores, before)
    assert core.softmax_(scores) is scores
    np.testing.assert_allclose(scores, out, atol=1e-15)


def test_an_empty_side_gives_empty_results_not_an_error():
    scores, weights, z = core.attention(rand(2, 0, 4), rand(2, 3, 4), rand(2, 3, 5))
    assert scores.shape == weights.shape == (2, 0, 3) and z.shape == (2, 0, 5)
    scores, weights, z = core.attention(rand(0, 2, 4), rand(0, 3, 4), rand(0, 3, 5))
    assert z.shape == (0, 2, 5)


def test_logits_apply_scale_softcap_bias_and_mask_in_the_models_order():
    s, bias = rand(2, 3, 4) * 20, rand(2, 3, 4)
    mask = core.causal_mask(3, 4)
    out = core.logits(s, 0.5, softcap=4.0, bias=bias, mask=mask, temperature=2.0)
    np.testing.assert_array_equal(out, np.tanh(s * 0.25 / 4.0) * 4.0 + bias + mask)  # the cap before bias, mask last
    assert np.abs(out - bias - mask).max() <= 4.0  # only scale·S/T is capped
    np.testing.assert_array_equal(core.logits(s, 0.5), s * 0.5)
    with pytest.raises(ValueError):
        core.logits(s, 0.5, temperature=0.0)


def test_logits_into_an_array_keep_its_dtype_at_every_step():
    s = rand(3, 5).astype(np.float32)
    bias = rand(3, 5)  # float64: added in float32, as the blocks of attention() do
    out = np.empty_like(s)
    assert core.logits(s, 0.3, bias=bias, out=out) is out and out.dtype == np.float32
    np.testing.assert_array_equal(out, (s * np.float32(0.3) + bias).astype(np.float32))
    assert core.logits(s, 0.3, bias=bias).dtype == np.float64  # without out: promoted, as numpy would


def test_attention_softmaxes_exactly_the_logits():
    q, k, v, bias = rand(2, 4, 8), rand(2, 6, 8), rand(2, 6, 8), rand(2, 4, 6)
    mask = core.causal_mask(4, 6)
    scores, weights, _ = core.attention(q, k, v, scale=0.4, mask=mask, bias=bias, softcap=3.0, temperature=1.5)
    expected = core.softmax(core.logits(scores, 0.4, softcap=3.0, bias=bias, mask=mask, temperature=1.5))
    np.testing.assert_array_equal(weights, expected)


def test_cosine_is_the_angle_whatever_the_lengths():
    a = np.array([1.0, 2.0, -0.5])
    assert core.cosine(a, 3 * a) == pytest.approx(1.0)
    assert core.cosine(a, -a) == pytest.approx(-1.0)
    assert core.cosine(np.array([1.0, 0.0]), np.array([0.0, 5.0])) == 0.0
    assert core.cosine(a, np.zeros(3)) == 0.0  # no direction: no alignment, not NaN
    assert core.cosine(a.astype(np.float32), a) == pytest.approx(1.0)


def test_entropy_in_nats_per_row():
    rows = np.array([[1.0, 0.0, 0.0, 0.0], [0.25, 0.25, 0.25, 0.25], [0.5, 0.5, 0.0, 0.0]])
    np.testing.assert_allclose(core.entropy(rows), [0.0, np.log(4), np.log(2)])
    assert float(core.entropy(np.array([0.5, 0.5], dtype=np.float32))) == pytest.approx(np.log(2))
    assert core.entropy(np.zeros((2, 3, 5))).shape == (2, 3)  # 0·ln 0 = 0, never NaN
    assert not np.isnan(core.entropy(np.zeros((2, 3, 5)))).any()
