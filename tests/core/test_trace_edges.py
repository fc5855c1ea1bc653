"""The Site / Trace contract at its edges: the faithfulness check does detect a mismatch, scaled() is
the formula, and the small accessors say exactly what they claim. Expectations are written out here
from q, k and d_k, not computed with core. (Found by mutation testing: python -m qa mutation.)"""

import dataclasses
import importlib

import numpy as np
import pytest

from attention import core, site_rows
from attention.trace import TOLERANCE, Site, Trace, make_site

site_make = importlib.import_module("attention.site_make")
RNG = np.random.default_rng(11)
H, NQ, NK, D = 2, 3, 4, 8


def site(**extra) -> Site:
    q, k, v = (RNG.standard_normal((H, n, D)).astype(np.float32) for n in (NQ, NK, NK))
    mask = extra.get("mask")
    _, weights, z = core.attention(q, k, v, scale=1 / np.sqrt(D), mask=mask)
    values = {"layer": 0, "kind": "encoder", "query_tokens": "abc", "key_tokens": "abcd", "q": q, "k": k, "v": v,
              "scale": 1 / np.sqrt(D), "model_weights": weights, "model_z": z}
    return make_site(**{**values, **extra})


def given(s: Site, **changed) -> Site:
    """The site made again from the same fields, some changed."""
    return make_site(**{**{f.name: getattr(s, f.name) for f in dataclasses.fields(Site)}, **changed})


def test_a_perturbed_model_weight_is_measured_and_makes_the_site_unfaithful():
    good = site()
    assert good.weights_diff < 1e-6 and good.z_diff < 1e-6 and good.faithful
    weights = good.model_weights.copy()
    weights[1, 2, 3] += 1e-3
    bad = given(good, model_weights=weights)
    assert bad.weights_diff == pytest.approx(1e-3, rel=1e-3) and bad.z_diff < 1e-6
    assert not bad.faithful
    z = good.model_z.copy()
    z[0, 0, 0] -= 1e-3
    bad_z = given(good, model_z=z)
    assert bad_z.z_diff == pytest.approx(1e-3, rel=1e-3) and bad_z.weights_diff < 1e-6 and not bad_z.faithful


def test_faithful_is_within_the_tolerance_inclusive():
    good = site()
    near = good.model_weights.copy()
    near[0, 0, 0] += TOLERANCE / 2
    assert given(good, model_weights=near).faithful
    far = good.model_weights.copy()
    far[0, 0, 0] += TOLERANCE * 4
    assert not given(good, model_weights=far).faithful


def test_max_abs_diff_finds_the_worst_cell_in_any_block(monkeypatch):
    monkeypatch.setattr(core, "BLOCK_ELEMENTS", 10)  # rows of 4: blocks of 2 rows, the last one short
    a = RNG.standard_normal((3, 5, 4)).astype(np.float32)
    for where in [(0, 0, 0), (1, 2, 3), (2, 4, 1)]:  # the first block, a middle one, the last (short) one
        b = a.copy()
        b[where] -= 0.25
        assert site_rows.max_abs_diff(a, b) == pytest.approx(0.25)
        assert site_rows.max_abs_diff(b, a) == pytest.approx(0.25)  # absolute
    monkeypatch.setattr(core, "BLOCK_ELEMENTS", 16)  # blocks of 4 rows: 4, 4, 4, 3
    b = a.copy()
    b[2, 4, 0] += 0.5
    assert site_rows.max_abs_diff(a, b) == pytest.approx(0.5)
    assert site_rows.max_abs_diff(a, a) == 0.0
    assert site_rows.max_abs_diff(np.zeros((2, 0, 3)), np.zeros((2, 0, 3))) == 0.0
    assert site_rows.max_abs_diff(np.zeros(5), np.full(5, 0.5)) == 0.5  # one row


def test_scaled_is_q_dot_k_over_root_d_k_plus_the_mask():
    mask = np.where(np.arange(NK)[None, :] <= np.arange(NQ)[:, None], 0.0, core.MASKED)  # written out, not core's
    s = site(mask=mask)
    for head in range(H):
        by_hand = s.q[head].astype(np.float64) @ s.k[head].astype(np.float64).T / np.sqrt(D) + mask
        np.testing.assert_allclose(s.scaled(head), by_hand, rtol=1e-6, atol=1e-6)
        assert s.scaled(head).dtype == np.float64
    np.testing.assert_array_equal(s.masked, mask < 0)
    assert s.n_heads == H and s.d_head == D and s.sink_share is None


def test_scaled_adds_the_bias_of_its_own_head():
    bias = RNG.standard_normal((H, NQ, NK))
    s = site(bias=bias)
    for head in range(H):
        by_hand = s.q[head].astype(np.float64) @ s.k[head].astype(np.float64).T / np.sqrt(D) + s.bias[head]
        np.testing.assert_allclose(s.scaled(head), by_hand, rtol=1e-6, atol=1e-6)


def test_a_weights_only_site_is_nan_shaped_like_one_head():
    weights = np.full((H, NQ, NK), 1 / NK)
    s = make_site(layer=0, kind="encoder", query_tokens="abc", key_tokens="abcd", q=np.zeros((H, NQ, 0)),
                  k=np.zeros((H, NK, 0)), v=np.zeros((H, NK, 0)), scale=1.0, model_weights=weights,
                  model_z=np.zeros((H, NQ, 0)), missing_qkv="local")
    assert s.scaled(1).shape == (NQ, NK) and np.isnan(s.scaled(1)).all()
    assert not s.masked.any() and s.masked.shape == (NQ, NK)


def test_make_site_converts_each_field_by_its_annotation():
    s = site(input_tokens=["x", "y", "z"], query_inputs=[[1, 2]], scale=1)
    assert s.query_tokens == ("a", "b", "c") and s.key_tokens == ("a", "b", "c", "d")
    assert s.input_tokens == ("x", "y", "z") and type(s.scale) is float
    assert s.query_inputs.dtype == np.float32 and not s.query_inputs.flags.writeable
    assert site(input_tokens=None).input_tokens is None and s.key_inputs is None
    conv = site_make._conversion
    assert conv(tuple[str, ...])(["a"]) == ("a",) and conv(tuple[str, ...] | None)(None) is None
    assert conv(tuple[str, ...] | None)("ab") == ("a", "b")
    frozen = conv(np.ndarray | None)([1, 2])
    assert frozen.dtype == np.float32 and not frozen.flags.writeable and conv(np.ndarray | None)(None) is None
    assert conv(np.ndarray)([3]).tolist() == [3.0]
    assert type(conv(float)(np.float64(2))) is float and conv(float)(3) == 3.0 and type(conv(float)(3)) is float
    marker = object()
    assert conv(str)(marker) is marker and conv(int)(marker) is marker and conv(float | None)(marker) is marker


def trace_of(*sites: Site, **extra) -> Trace:
    return Trace("a b c", "m", ("a", "b", "c"), sites, **extra)


def test_trace_finds_sites_by_layer_and_kind():
    enc0, enc1, dec0 = site(layer=0), site(layer=1), site(layer=0, kind="decoder")
    tr = trace_of(enc0, dec0, enc1)
    assert tr.layers("encoder") == (0, 1) and tr.layers("decoder") == (0,) and tr.layers("cross") == ()
    assert tr.kinds == ("encoder", "decoder")
    assert tr.site(1) is enc1 and tr.site(0, "encoder") is enc0 and tr.site(0, "decoder") is dec0
    with pytest.raises(KeyError, match="layer 0 has encoder, decoder attention: name the kind"):
        tr.site(0)  # two kinds at layer 0: never a guess
    with pytest.raises(KeyError, match="no decoder attention at layer 1"):
        tr.site(1, "decoder")
    with pytest.raises(KeyError, match="no cross attention at layer 0"):
        tr.site(0, "cross")


def test_nbytes_counts_every_array_and_the_recomputed_ones():
    a, b = site(mask=np.zeros((NQ, NK))), site(layer=1, bias=np.zeros((H, NQ, NK)), query_inputs=np.zeros((NQ, 6)))
    stream = {"encoder": (np.zeros((3, 6), np.float32), np.zeros((3, 6), np.float32))}
    tr = trace_of(a, b, layer_inputs=stream)
    held = sum(x.nbytes for s in (a, b) for x in (s.q, s.k, s.v, s.model_weights, s.model_z))
    held += a.mask.nbytes + b.bias.nbytes + b.query_inputs.nbytes + 2 * 3 * 6 * 4
    recomputed = 2 * (2 * H * NQ * NK * 4 + H * NQ * D * 4)  # scores and weights, and z, of both sites
    assert tr.nbytes() == held + recomputed


def test_trace_diffs_are_the_worst_site_and_zero_without_sites():
    good = site()
    weights = good.model_weights.copy()
    weights[0, 1, 1] += 2e-3
    bad = given(good, layer=1, model_weights=weights)
    tr = trace_of(good, bad)
    assert tr.max_weights_diff == pytest.approx(2e-3, rel=1e-3) and tr.max_z_diff == max(good.z_diff, bad.z_diff)
    assert not tr.faithful and trace_of(good).faithful
    assert trace_of().max_weights_diff == 0.0 and trace_of().max_z_diff == 0.0


def test_show_and_save_html_hand_everything_to_the_head_view(monkeypatch, tmp_path):
    import attention.headview as headview

    calls = []
    monkeypatch.setattr(headview, "show", lambda *a, **kw: calls.append(("show", a, kw)) or "shown")
    monkeypatch.setattr(headview, "save_html", lambda *a, **kw: calls.append(("save", a, kw)) or "saved")
    tr = trace_of(site())
    assert tr.show() == "shown" and tr.show("encoder", 0, 1, height=300) == "shown"
    assert tr.save_html(tmp_path / "x.html", heads=[0]) == "saved"
    assert calls == [("show", (tr,), {"kind": None, "layer": None, "head": 0}),
                     ("show", (tr,), {"kind": "encoder", "layer": 0, "head": 1, "height": 300}),
                     ("save", (tr, tmp_path / "x.html"), {"heads": [0]})]


def test_max_abs_diff_of_one_element_and_of_float64_rows():
    assert site_rows.max_abs_diff(np.zeros(1), np.ones(1)) == 1.0
    assert site_rows.max_abs_diff(np.zeros((1, 1)), np.full((1, 1), -2.0)) == 2.0


def test_a_weights_only_site_compares_nothing_and_is_faithful():
    weights = np.full((H, NQ, NK), 1 / NK)
    s = make_site(layer=0, kind="encoder", query_tokens="abc", key_tokens="abcd", q=np.zeros((H, NQ, 0)),
                  k=np.zeros((H, NK, 0)), v=np.zeros((H, NK, 0)), scale=1.0, model_weights=weights,
                  model_z=np.zeros((H, NQ, 0)), missing_qkv="unknown")
    assert (s.weights_diff, s.z_diff) == (0.0, 0.0) and s.faithful
    assert s.scores.dtype == np.float32 and s.scores.shape == (H, NQ, NK)


def test_z_is_the_weights_times_v():
    s = site()
    np.testing.assert_allclose(s.z, s.weights.astype(np.float64) @ s.v.astype(np.float64), atol=1e-6)
    assert s.z.shape == (H, NQ, D) and not s.z.flags.writeable


def test_unknown_fields_are_all_named():
    with pytest.raises(TypeError, match=r"unexpected fields: heds, wieghts$"):
        site(wieghts=1, heds=2)
