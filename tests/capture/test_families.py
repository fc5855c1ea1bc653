"""Every family in families.py, traced from a local folder through the public API and compared site by
site (layer labels included) with transformers' eager attention on the same padded batch; the capture
path each one takes; inputs that fill each model's position limit."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import torch
from transformers import AutoModel

from attention.capture import hf_forward, hf_model
from attention.trace import SiteProblem
from harness import tiny_families as families

pytestmark = pytest.mark.model  # every test here reads a model (tests/lanes.py)

TEXTS = ["the black cat drank the milk", "a ball"]  # two lengths: the batch is padded
TARGETS = ["el gato negro bebio la leche", "una bola"]

# name -> (Trace.capture_path, Trace.fallback, kinds whose sites hold the model's weights only)
PATHS = {
    "deberta-v2": ("weights", "bypasses_registry", {"encoder"}),
    "led": ("recomputed", "bypasses_registry", set()),
    "squeezebert": ("", "bypasses_registry", set()),  # its "attentions" are scores before the softmax: refused
    "bloom": ("recomputed", "bypasses_registry", set()),
    "mpt": ("recomputed", "bypasses_registry", set()),
    "falcon": ("recomputed", "rejects_name", set()),
    "falcon-alibi": ("recomputed", "rejects_name", set()),
    "gpt-neo": ("recomputed", "rejects_name", set()),
}
REGISTRY = ("registry", "", set())
# name -> the sites refused before they are drawn (capture/checks.py), never shown
REFUSED = {"squeezebert": (SiteProblem("encoder", "refused_negative", (0, 1)),)}


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    """Each family's folder, built once for this module."""
    tok, built = families.tokenizer(), {}

    def folder(name: str) -> str:
        if name not in built:
            built[name] = tmp_path_factory.mktemp(name)
            families.build(name, tok, built[name])
        return str(built[name])

    return folder


def eager_attentions(folder: str, lm, enc, dec) -> dict[str, tuple[torch.Tensor, ...]]:
    """The eager model's own weights per kind, on the inputs our trace read; on the way, checks that
    loading through our attention function leaves the model's output unchanged."""
    out, inputs = families.eager_run(folder, enc, dec)
    ours, _ = hf_forward.run(lm, inputs)
    np.testing.assert_allclose(ours.last_hidden_state.numpy(), out.last_hidden_state.numpy(), atol=1e-5)
    return families.attentions_by_kind(out, lm, dec)


@pytest.mark.parametrize("name", list(families.FAMILIES))
def test_family_matches_eager_site_by_site(name, folders):
    folder = folders(name)
    lm = hf_model.read_model(folder)
    targets = TARGETS if lm.is_encoder_decoder else None
    traces = hf_model.trace_batch(lm, TEXTS, targets)
    enc = hf_model.encode(lm, TEXTS)
    dec = hf_model.decoder_inputs(lm, TARGETS) if lm.is_encoder_decoder else None
    reference = eager_attentions(folder, lm, enc, dec)
    path, fallback, weights_only = PATHS.get(name, REGISTRY)

    for b, tr in enumerate(traces):
        assert (tr.capture_path, tr.fallback) == (path, fallback)
        assert tr.expected_layers == {kind: tuple(range(len(stack))) for kind, stack in reference.items()}
        if name in REFUSED:  # nothing drawn from what is not attention weights, and the page says why
            assert tr.sites == () and tr.site_problems == REFUSED[name] and not tr.faithful
            assert float(reference["encoder"][0][b].min()) < 0  # eager's "attentions" there: not weights
            continue
        assert [(s.kind, s.layer) for s in tr.sites if s.kind == "encoder"] == [
            ("encoder", i) for i in range(len(reference.get("encoder", ())))]
        assert sorted((s.kind, s.layer) for s in tr.sites) == sorted(
            (kind, i) for kind, stack in reference.items() for i in range(len(stack)))
        assert tr.site_problems == () and tr.faithful
        for site in tr.sites:
            q_real = (dec if site.kind in ("decoder", "cross") and dec is not None else enc).real[b]
            k_real = (enc if site.kind in ("encoder", "cross") or dec is None else dec).real[b]
            w = reference[site.kind][site.layer][b].numpy()
            if w.shape[-1] != k_real.shape[0]:
                w = families.band_to_full(w, k_real.shape[0])
            qi, ki = q_real.nonzero().flatten().numpy(), k_real.nonzero().flatten().numpy()
            np.testing.assert_allclose(site.weights, w[:, qi][:, :, ki], atol=1e-5, err_msg=f"{site.kind} {site.layer}")
            assert site.has_qkv == (site.kind not in weights_only)
            if site.has_qkv:  # recomputed by core.py from q, k, v, and checked against the model's own
                assert site.weights_diff <= 1e-5 and site.z_diff <= 1e-5
                assert np.isfinite(site.scores).all() and site.z.shape[-1] > 0
            else:
                assert np.isnan(site.scores).all() and site.z.shape[-1] == 0 and site.d_head == 0


@pytest.mark.parametrize("name", list(families.FAMILIES))
def test_an_input_that_fills_the_position_limit_is_cut_to_it(name, folders):
    lm = hf_model.read_model(folders(name))
    long_text = " ".join(["cat"] * (lm.max_tokens + 10))
    tr = hf_model.trace_batch(lm, [long_text], [long_text] if lm.is_encoder_decoder else None)[0]
    assert len(tr.tokens) == lm.max_tokens and tr.dropped_tokens > 0  # the existing notice says so
    assert tr.site_problems == REFUSED.get(name, ()) and tr.max_weights_diff <= 1e-5
    # Z in float32 over up to 512 keys: T5's unscaled values sum to ~1e-5 apart in another order (the page
    # then says so); relative to Z's size the difference stays at float32's rounding.
    for site in tr.sites:
        assert site.z_diff <= 1e-6 * max(1.0, float(np.abs(site.model_z).max(initial=0.0))) * site.z.shape[1] ** 0.5


def test_position_limits_are_read_from_the_model(folders):
    assert hf_model.read_model(folders("roberta")).max_tokens == 64 - 2  # positions start after padding_idx 1
    assert hf_model.read_model(folders("mpt")).max_tokens == 64  # max_seq_len
    assert hf_model.read_model(folders("gpt2")).max_tokens == 64  # n_positions


def test_shared_attention_module_is_labelled_by_call_order(folders):
    lm = hf_model.read_model(folders("albert"))
    names = {s.name for s in hf_model.trace_batch(lm, TEXTS)[0].sites}
    tr = hf_model.trace_batch(lm, TEXTS)[0]
    assert len(names) == 1  # one module, called once per layer
    assert [s.layer for s in tr.sites] == [0, 1]
    assert tr.site(1, "encoder") is tr.sites[1]


def test_sinks_take_a_share_that_matches_the_model(folders):
    tr = hf_model.trace_batch(hf_model.read_model(folders("gpt-oss")), TEXTS)[0]
    for site in tr.sites:
        assert site.sinks is not None and site.sinks.shape == (site.n_heads,)
        share = site.sink_share
        assert share.shape == site.weights.shape[:2] and (share > 0).all()
        np.testing.assert_allclose(site.weights.sum(-1) + share, 1.0, atol=1e-6)
        assert site.weights_diff <= 1e-5


def test_a_value_head_narrower_than_the_query_head_is_traced_faithfully(folders):
    """DeepSeek-V3's latent attention: q and k 16 wide (12 + 4 rotary), v and z 12 (issue 45: z was viewed
    with q's width). The other deepseek-v3 family has v as wide as q, which hid it."""
    tr = hf_model.trace_batch(hf_model.read_model(folders("deepseek-v3-vdim")), TEXTS)[0]
    assert tr.capture_path == "registry" and len(tr.sites) == 2 and tr.faithful
    for site in tr.sites:
        assert site.q.shape[-1] == site.k.shape[-1] == 16 and site.v.shape[-1] == site.z.shape[-1] == 12
        assert site.weights_diff <= 1e-5 and site.z_diff <= 1e-5


def test_a_family_that_rejects_the_name_and_fails_eager_too_says_why(folders, monkeypatch):
    real = AutoModel.from_pretrained

    def refuse_eager(*args, **kwargs):
        if kwargs.get("attn_implementation") == "eager":
            raise RuntimeError("no eager today")
        return real(*args, **kwargs)

    monkeypatch.setattr(hf_model.AutoModel, "from_pretrained", refuse_eager)
    with pytest.raises(hf_model.ModelLoadError) as err:
        hf_model.read_model(folders("gpt-neo"))
    message = str(err.value)
    assert "rejects a custom attention implementation" in message and "attention_trace" in message
    assert "no eager today" in message


def test_a_rebuild_that_does_not_reproduce_the_model_is_never_shown(folders, monkeypatch):
    from attention.capture import recipes

    real = recipes.RECIPES["BloomAttention"]
    wrong = recipes.Recipe(real.projections, real.output,
                           lambda m, seen: dataclasses.replace(real.rebuild(m, seen), bias=None))  # ALiBi forgotten
    monkeypatch.setitem(recipes.RECIPES, "BloomAttention", wrong)
    lm = hf_model.read_model(folders("bloom"))
    tr = hf_model.trace_batch(lm, TEXTS)[0]
    assert tr.capture_path == "weights" and tr.faithful  # the model's own weights, and nothing else
    assert all(s.missing_qkv == "not_reproduced" and not s.has_qkv for s in tr.sites)
