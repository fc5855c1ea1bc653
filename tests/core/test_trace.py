"""The Site contract: make_site freezes what it is given; scaled() is what the softmax saw."""

import numpy as np
import pytest

from attention import core
from attention.trace import CAPTURE_PATHS, Site, Trace, make_site

RNG = np.random.default_rng(1)


def fields(heads: int = 2, n_q: int = 3, n_k: int = 4, d: int = 5, **extra) -> dict:
    q, k, v = RNG.standard_normal((heads, n_q, d)), RNG.standard_normal((heads, n_k, d)), RNG.standard_normal(
        (heads, n_k, d))
    scores, weights, z = core.attention(q, k, v, scale=0.5)
    return {"layer": 1, "kind": "encoder", "query_tokens": ["a", "b", "c"][:n_q],
            "key_tokens": ["a", "b", "c", "d"][:n_k], "q": q, "k": k, "v": v, "scale": np.float64(0.5), "mask": None,
            "model_weights": weights, "model_z": z, **extra}


def test_make_site_freezes_arrays_and_makes_token_lists_tuples():
    site = make_site(**fields(bias=RNG.standard_normal((2, 3, 4)), input_tokens=["x", "y", "z"],
                              query_inputs=RNG.standard_normal((3, 7))))
    arrays = ("q", "k", "v", "model_weights", "model_z", "bias", "query_inputs")
    for name in arrays:
        a = getattr(site, name)
        assert a.dtype == np.float32 and not a.flags.writeable and a.flags.c_contiguous, name
    assert site.query_tokens == ("a", "b", "c") and site.input_tokens == ("x", "y", "z")
    assert type(site.scale) is float and site.mask is None and site.key_inputs is None
    assert make_site(**fields()).faithful  # recomputed from the frozen q, k, v: the model's own numbers


def test_make_site_leaves_what_it_need_not_convert_and_refuses_unknown_fields():
    site = make_site(**fields(softcap=np.float64(30.0), name="encoder.layer.1"))
    assert type(site.softcap) is np.float64 and site.name == "encoder.layer.1"  # the model's value, untouched
    with pytest.raises(TypeError, match="weigths"):
        make_site(**fields(weigths=np.zeros((2, 3, 4))))
    with pytest.raises(TypeError):
        make_site(layer=0)  # the required fields are Site's own


def test_scaled_is_what_the_softmax_saw():
    mask = core.causal_mask(3, 4)
    site = make_site(**fields(mask=mask, bias=RNG.standard_normal((2, 3, 4)), softcap=2.0))
    for head in range(site.n_heads):
        np.testing.assert_allclose(core.softmax(site.scaled(head)), site.weights[head], atol=1e-6)
        expected = np.tanh(site.scores[head].astype(np.float64) * 0.5 / 2.0) * 2.0 + site.bias[head] + site.mask
        np.testing.assert_array_equal(site.scaled(head), expected)


def test_trace_fields_say_how_the_trace_was_made():
    site = make_site(**fields())
    tr = Trace("a b c", "m", ("a", "b", "c"), (site,))
    assert (tr.dropped_tokens, tr.unknown_words, tr.unknown_target_words) == (0, (), ())
    assert (tr.decoding_capped, tr.teacher_forced, tr.capture_path) == (False, False, "")
    assert not hasattr(tr, "notes") and not hasattr(Site, "title")
    assert set(CAPTURE_PATHS) == {"registry", "recorder"}
