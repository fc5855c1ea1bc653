"""One tiny random model per way a family went wrong on the held-out set (bench/held_out.py): what it hands
back is checked before it is drawn, and what is drawn is transformers' eager attention on the same weights
and ids. Only the public path is used, so the file also runs against the code before the checks."""

from __future__ import annotations

import numpy as np
import pytest

from attention.capture import hf_model
from attention.trace import SiteProblem, Trace
from harness import tiny_families as families

pytestmark = pytest.mark.model  # each test builds and reads a tiny model folder

TEXT = "the black cat drank the milk"
LONG = "the black cat drank the milk while the small dog slept by the warm fire"  # > 14 tokens: block-sparse
TARGET = "el gato negro bebio la leche"


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    """Each family's tiny folder (harness small_config), built once for this module."""
    built = {}

    def folder(model_type: str) -> str:
        if model_type not in built:
            built[model_type] = tmp_path_factory.mktemp(model_type)
            families.build_small(model_type, built[model_type])
        return str(built[model_type])

    return folder


def traced(folder: str, text: str = TEXT) -> tuple[Trace, dict]:
    """The trace through the public path, and eager's own weights per kind on the same ids."""
    lm = hf_model.read_model(folder)
    tr = hf_model.trace_batch(lm, [text], [TARGET] if lm.is_encoder_decoder else None)[0]
    enc = hf_model.encode(lm, [text])
    dec = hf_model.decoder_inputs(lm, [TARGET]) if lm.is_encoder_decoder else None
    out, _ = families.eager_run(folder, enc, dec)
    named = {"encoder": "encoder_attentions", "decoder": "decoder_attentions", "cross": "cross_attentions"}
    ref = {k: getattr(out, a, None) for k, a in named.items()} if dec is not None else {"self": out.attentions}
    return tr, ref


def assert_matches_eager(tr: Trace, ref: dict, layers: dict[str, tuple[int, ...]] | None = None) -> None:
    """Every drawn site is eager's weights for its layer (a hybrid's eager entries are its attention layers)."""
    for site in tr.sites:
        stack = ref["self" if "self" in ref else site.kind]
        index = site.layer if layers is None else layers[site.kind].index(site.layer)
        np.testing.assert_allclose(site.weights, stack[index][0].numpy(), atol=1e-5, err_msg=f"{site.kind} {site.layer}")


def test_hybrid_layers_are_attention_layers(folders):  # Falcon-H1: layer_types "hybrid"
    tr, ref = traced(folders("falcon_h1"))
    assert tr.site_problems == () and tr.faithful and len(tr.sites) == 2
    assert_matches_eager(tr, ref)


def test_a_model_with_no_attention_says_so(folders):  # FNet: Fourier mixing
    tr, _ = traced(folders("fnet"))
    assert tr.sites == () and tr.capture_path == ""
    assert tr.site_problems == (SiteProblem("encoder", "no_attention", ()),)


def test_block_sparse_rows_that_do_not_sum_to_one_are_not_drawn(folders):  # BigBird in eval
    tr, ref = traced(folders("big_bird"), LONG)
    sums = [a[0].sum(-1) for a in ref["self"]]
    assert any(float((s - 1).abs().max()) > 0.1 for s in sums)  # eager's own rows: not a distribution
    assert tr.sites == () and not tr.faithful
    assert tr.site_problems == (SiteProblem("encoder", "refused_rows", (0, 1)),)


def test_differential_attention_keeps_each_layer_its_own_weights(folders):  # DiffLlama: two calls per layer
    tr, ref = traced(folders("diffllama"))
    assert [(s.kind, s.layer) for s in tr.sites] == [("decoder", 0), ("decoder", 1)]
    assert tr.site_problems == () and tr.faithful
    assert_matches_eager(tr, ref)


def test_a_bidirectional_model_in_the_causal_lm_mapping_is_an_encoder(folders):  # XLNet
    tr, ref = traced(folders("xlnet"))
    assert {s.kind for s in tr.sites} == {"encoder"} and tr.expected_layers == {"encoder": (0, 1)}
    assert tr.site_problems == () and tr.faithful
    assert_matches_eager(tr, ref)


def test_a_decoder_self_attention_that_calls_itself_cross_is_a_decoder(folders):  # NLLB-MoE
    tr, ref = traced(folders("nllb-moe"))
    assert sorted((s.kind, s.layer) for s in tr.sites) == sorted(
        (k, i) for k in ("encoder", "decoder", "cross") for i in (0, 1))
    assert tr.site_problems == () and tr.faithful
    assert_matches_eager(tr, ref)


@pytest.mark.parametrize(("model_type", "kind"), [("reformer", "encoder"), ("longt5", "encoder"),
                                                  ("pegasus_x", "encoder")])
def test_bucketed_chunked_or_global_local_weights_are_refused(folders, model_type, kind):
    """Reformer (LSH buckets), LongT5 (chunks, 5-D), PEGASUS-X (a dict of global and local weights)."""
    tr, ref = traced(folders(model_type))
    refused = [p for p in tr.site_problems if p.reason.startswith("refused_")]
    assert refused == [SiteProblem(kind if model_type != "reformer" else refused[0].kind, "refused_layout", (0, 1))]
    assert not any(s.kind == refused[0].kind for s in tr.sites)
    assert_matches_eager(tr, ref)  # what is drawn (decoder, cross) is eager's own


def test_scores_before_the_softmax_and_stacked_query_streams_are_refused(folders):  # ProphetNet
    tr, ref = traced(folders("prophetnet"))
    reasons = {p.kind: p.reason for p in tr.site_problems}
    assert reasons["encoder"] == "refused_negative" and reasons["cross"] == "refused_shape"
    assert float(ref["encoder"][0].min()) < 0  # eager's "attentions" there are not weights
    assert_matches_eager(tr, ref)


def test_arguments_the_function_would_leave_out_send_the_model_to_the_eager_path(folders):  # Inkling's sinks
    lm = hf_model.read_model(folders("inkling2_text"))
    assert (lm.capture, lm.fallback) == ("eager", "unread_arguments")
    tr, ref = traced(folders("inkling2_text"))
    assert tr.sites == () and {p.reason for p in tr.site_problems} == {"refused_rows"}  # a sink takes a share


def test_a_quantised_position_table_is_not_overrun(folders):  # I-BERT: positions after padding_idx
    lm = hf_model.read_model(folders("ibert"))
    assert lm.max_tokens == 64 - 1 - lm.model.config.pad_token_id
    tr = hf_model.trace_batch(lm, [" ".join(["cat"] * 80)])[0]
    assert len(tr.tokens) == lm.max_tokens and tr.dropped_tokens > 0
