"""The Site contract: make_site freezes what it is given; scaled() is what the softmax saw."""

import numpy as np
import pytest

from attention import core
from attention.trace import CAPTURE_PATHS, MISSING_QKV, SITE_PROBLEMS, Site, SiteProblem, Trace, make_site

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
    assert set(CAPTURE_PATHS) == {"registry", "recorder", "recomputed", "weights"}
    assert tr.expected_layers is None and tr.site_problems == () and tr.fallback == ""


def counted(*sites: Site, expected: dict | None = None) -> Trace:
    expected = {"encoder": (0, 1), "decoder": (0, 1), "cross": (0, 1)} if expected is None else expected
    return Trace("a b c", "m", ("a", "b", "c"), sites, expected_layers=expected)


def all_sites() -> list[Site]:
    return [make_site(**fields(layer=layer, kind=kind)) for layer in (0, 1) for kind in ("encoder", "decoder", "cross")]


def test_a_trace_with_every_site_it_expects_is_faithful():
    tr = counted(*all_sites())
    assert tr.faithful and tr.site_problems == ()


def test_removing_a_captured_site_makes_the_trace_unfaithful():
    sites = all_sites()
    for i, gone in enumerate(sites):
        tr = counted(*sites[:i], *sites[i + 1:])
        assert not tr.faithful  # every site still matches the model: the trace is not the whole model
        assert tr.site_problems == (SiteProblem(gone.kind, "missing", (gone.layer,)),)
    assert counted().site_problems == tuple(SiteProblem(k, "missing", (0, 1)) for k in ("encoder", "decoder", "cross"))


def test_extra_and_mislabelled_sites_are_named():
    one = {"encoder": (0, 1)}
    enc = [make_site(**fields(layer=layer)) for layer in (0, 1, 2)]
    assert counted(*enc, expected=one).site_problems == (SiteProblem("encoder", "extra", (2,)),)
    same_layer = [enc[0], enc[0]]  # a shared module labelled by its name: every call says layer 0
    assert counted(*same_layer, expected=one).site_problems == (SiteProblem("encoder", "mislabelled", (0,)),)
    shifted = [enc[1], enc[2]]  # layers 1, 2 where the model has 0, 1
    assert counted(*shifted, expected=one).site_problems == (SiteProblem("encoder", "mislabelled", (2,)),)
    wrong_kind = [make_site(**fields(layer=layer, kind="decoder")) for layer in (0, 1)]
    problems = counted(*wrong_kind, expected=one).site_problems
    assert problems == (SiteProblem("decoder", "wrong_kind", (0, 1)),) and set(SITE_PROBLEMS) >= {
        p.reason for p in problems}


def test_a_sink_takes_its_share_of_every_row():
    sinks = np.array([0.5, 2.0])
    q, k, v = (RNG.standard_normal((2, n, 5)) for n in (3, 4, 4))
    _, weights, z = core.attention(q, k, v, scale=0.5, sinks=sinks)
    logits = q @ np.swapaxes(k, -1, -2) * 0.5
    full = np.concatenate([logits, np.broadcast_to(sinks[:, None, None], (2, 3, 1))], axis=-1)
    expected = np.exp(full) / np.exp(full).sum(-1, keepdims=True)
    np.testing.assert_allclose(weights, expected[..., :-1], atol=1e-6)
    site = make_site(**{**fields(), "q": q, "k": k, "v": v, "model_weights": weights, "model_z": z, "sinks": sinks})
    assert site.faithful
    np.testing.assert_allclose(site.sink_share, expected[..., -1], atol=1e-6)


def test_a_weights_only_site_has_the_model_weights_and_no_scores_or_z():
    weights = core.softmax(RNG.standard_normal((2, 3, 4)))
    site = make_site(layer=0, kind="encoder", query_tokens="abc", key_tokens="abcd", q=np.zeros((2, 3, 0)),
                     k=np.zeros((2, 4, 0)), v=np.zeros((2, 4, 0)), scale=1.0, model_weights=weights,
                     model_z=np.zeros((2, 3, 0)), missing_qkv="disentangled")
    assert not site.has_qkv and site.missing_qkv in MISSING_QKV
    np.testing.assert_array_equal(site.weights, weights.astype(np.float32))
    assert np.isnan(site.scores).all() and np.isnan(site.scaled(0)).all() and site.z.shape == (2, 3, 0)


def test_a_recomputation_taken_from_the_caller_is_what_the_site_reads_read_only_and_not_made_again():
    site = make_site(**fields())
    room = np.zeros((2, 6, 6), np.float32)  # rows with room past n, as lm/rows.Recomputed keeps them
    room[:, :3, :4] = 0.25
    z = np.ones((2, 6, 5), np.float32)
    site.take_recomputation(room[:, :3, :4], room[:, :3, :4], z[:, :3], weights_diff=0.5, z_diff=0.0)
    assert np.array_equal(site.weights, np.full((2, 3, 4), 0.25)) and site.z.shape == (2, 3, 5)
    assert site.weights_diff == 0.5 and not site.faithful  # the difference given is the one reported
    assert not site.weights.flags.writeable and site.weights.base is not None  # a view: not copied
