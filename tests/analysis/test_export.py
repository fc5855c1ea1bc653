"""Export: CSV of one matrix, the whole trace as .npz (exact) and JSON (rounded)."""

import csv
import io
import json

import numpy as np
import pytest

from attention import core
from attention.analysis import export
from attention.trace import Trace, make_site

RNG = np.random.default_rng(7)


def tiny_trace() -> Trace:
    tokens = ("[CLS]", "the", "cat,", '"quoted"', "[SEP]")
    sites = []
    for layer, (kind, mask) in enumerate([("encoder", None), ("decoder", core.causal_mask(5))]):
        q, k, v = (RNG.standard_normal((2, 5, 3)).astype(np.float32) for _ in range(3))
        _, w, z = core.attention(q, k, v, mask=mask)
        sites.append(make_site(layer=layer, kind=kind, query_tokens=tokens, key_tokens=tokens, q=q, k=k, v=v,
                               scale=core.default_scale(3), mask=mask, model_weights=w, model_z=z))
    return Trace(text="the cat", model_name="tiny", tokens=tokens, sites=tuple(sites))


def test_npz_round_trips_exactly():
    tr = tiny_trace()
    data = export.load_npz(export.trace_npz(tr))
    assert data["tokens"] == list(tr.tokens)
    assert data["meta"] == {"model": "tiny", "text": "the cat", "dropped_tokens": 0}
    for site in tr.sites:
        prefix = f"layer{site.layer}_{site.kind}"
        for name in ("weights", "scores", "q", "k", "v", "z"):
            arr = data[f"{prefix}_{name}"]
            assert arr.dtype == np.float32
            np.testing.assert_array_equal(arr, getattr(site, name))
        assert data[f"{prefix}_query_tokens"] == list(site.query_tokens)
    np.testing.assert_array_equal(data["layer1_decoder_mask"], tr.sites[1].mask)
    assert export.json_numbers(tr) * 4 == sum(
        data[f"layer{s.layer}_{s.kind}_{n}"].nbytes for s in tr.sites for n in export.ARRAYS)


def test_csv_has_the_right_shape_and_labels():
    tr = tiny_trace()
    site = tr.sites[0]
    text = export.matrix_csv(site.weights[1], list(site.query_tokens), list(site.key_tokens))
    rows = list(csv.reader(io.StringIO(text)))
    assert len(rows) == 6 and all(len(r) == 6 for r in rows)
    assert rows[0][1:] == list(site.key_tokens)  # commas and quotes in tokens survive
    assert [r[0] for r in rows[1:]] == list(site.query_tokens)
    values = np.array([[np.float32(x) for x in r[1:]] for r in rows[1:]])
    np.testing.assert_array_equal(values, site.weights[1])  # float32 read back exactly
    with pytest.raises(ValueError):
        export.matrix_csv(np.zeros((2, 2)), ["a"], ["b", "c"])


def test_json_parses_and_is_rounded_to_6_significant_digits():
    tr = tiny_trace()
    doc = json.loads(export.trace_json(tr))
    assert doc["tokens"] == list(tr.tokens) and len(doc["sites"]) == 2
    site = doc["sites"][1]
    assert site["kind"] == "decoder" and site["key_tokens"] == list(tr.tokens)
    w = np.array(site["weights"])
    assert w.shape == (2, 5, 5)
    np.testing.assert_allclose(w, tr.sites[1].weights, rtol=1e-5, atol=1e-12)
    assert all(len(f"{x:.15g}".replace("-", "").replace(".", "").lstrip("0").split("e")[0]) <= 6
               for x in np.ravel(site["scores"]))


def test_json_array_handles_nan_scalars_and_empty():
    assert json.loads(export.json_array(np.array([[1.0, np.nan], [np.inf, 1 / 3]]))) == [[1, None], [None, 0.333333]]
    assert json.loads(export.json_array(np.array(2.5))) == 2.5
    assert json.loads(export.json_array(np.zeros((0, 3)))) == []


@pytest.mark.model
def test_the_real_model_trace_exports():
    import attention

    tr = attention.trace("The black cat drank the milk")
    data = export.load_npz(export.trace_npz(tr))
    assert data["tokens"] == list(tr.tokens)
    np.testing.assert_array_equal(data["layer5_encoder_weights"], tr.site(5).weights)
    assert len(json.loads(export.trace_json(tr))["sites"]) == 6


@pytest.mark.model
def test_the_translator_trace_exports_every_kind():
    import attention

    tr = attention.translate("The black cat drank the milk.").trace
    data = export.load_npz(export.trace_npz(tr))
    for kind in ("encoder", "decoder", "cross"):
        np.testing.assert_array_equal(data[f"layer1_{kind}_weights"], tr.site(1, kind).weights)
    assert data["layer1_cross_query_tokens"] == list(tr.site(1, "cross").query_tokens)  # the Spanish words
    np.testing.assert_array_equal(data["layer0_decoder_mask"], tr.site(0, "decoder").mask)
    sites = json.loads(export.trace_json(tr))["sites"]
    assert sorted({s["kind"] for s in sites}) == ["cross", "decoder", "encoder"] and len(sites) == 6
