"""Attention rollout: the residual identity, renormalised rows, layers multiplied in order."""

import numpy as np
import pytest

from attention.analysis import rollout

RNG = np.random.default_rng(3)


def random_weights(heads, n):
    a = RNG.random((heads, n, n))
    return a / a.sum(-1, keepdims=True)


def test_identity_dominated_layers_roll_out_to_the_identity():
    eye = np.broadcast_to(np.eye(5), (4, 5, 5))
    np.testing.assert_allclose(rollout.rollout([eye] * 6), np.eye(5), atol=1e-12)


def test_rows_sum_to_one_and_values_stay_in_0_1():
    r = rollout.rollout([random_weights(3, 7) for _ in range(4)])
    np.testing.assert_allclose(r.sum(-1), 1.0, atol=1e-12)
    assert r.min() >= 0 and r.max() <= 1


def test_one_layer_is_half_the_mean_plus_half_the_identity():
    a = random_weights(2, 4)
    np.testing.assert_allclose(rollout.rollout([a]), 0.5 * a.mean(0) + 0.5 * np.eye(4), atol=1e-12)


def test_later_layers_multiply_on_the_left():
    a1, a2 = random_weights(2, 4), random_weights(2, 4)
    h1, h2 = rollout.residual_attention(a1), rollout.residual_attention(a2)
    np.testing.assert_allclose(rollout.rollout([a1, a2]), h2 @ h1, atol=1e-12)


def test_masked_rows_are_renormalised():
    a = np.zeros((1, 3, 3))
    a[0, 0, 0] = 1.0  # rows 1 and 2 attend nowhere (all masked)
    r = rollout.residual_attention(a)
    np.testing.assert_allclose(r.sum(-1), 1.0)
    np.testing.assert_allclose(r[1], [0, 1, 0])


def test_refuses_what_is_not_self_attention():
    with pytest.raises(ValueError):
        rollout.rollout([np.full((1, 2, 3), 1 / 3)])
    with pytest.raises(ValueError):
        rollout.rollout([])


def _site(layer: int, kind: str, n: int):
    from attention import core
    from attention.trace import make_site

    q, k, v = (RNG.standard_normal((2, n, 4)).astype(np.float32) for _ in range(3))
    mask = core.causal_mask(n) if kind == "decoder" else None
    _, weights, z = core.attention(q, k, v, mask=mask)
    tokens = tuple(f"w{i}" for i in range(n))
    return make_site(layer=layer, kind=kind, query_tokens=tokens, key_tokens=tokens, q=q, k=k, v=v,
                     scale=0.5, mask=mask, model_weights=weights, model_z=z)


def test_a_decoder_only_model_gets_a_rollout_and_a_decoder_with_cross_attention_does_not():
    from attention.analysis import overview_data
    from attention.trace import Trace

    decoder_only = Trace("t", "gpt", ("w0", "w1", "w2"), tuple(_site(i, "decoder", 3) for i in range(2)))
    v = overview_data.build(decoder_only, "decoder", merge_words=False)
    assert v.rollout is not None
    np.testing.assert_allclose(np.triu(v.rollout, 1), 0.0, atol=1e-12)  # causal all the way through
    np.testing.assert_allclose(v.rollout.sum(-1), 1.0, atol=1e-6)
    with_cross = Trace("t", "bart", ("w0", "w1", "w2"),
                       (_site(0, "encoder", 3), _site(0, "decoder", 3), _site(0, "cross", 3)))
    assert overview_data.build(with_cross, "decoder", merge_words=False).rollout is None
    assert overview_data.build(with_cross, "encoder", merge_words=False).rollout is not None
