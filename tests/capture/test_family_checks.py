"""The checks that stand between what a model hands back and the page (capture/checks.py, trace_count.py),
on hand-made arrays; one tiny model per case is in test_held_out_cases.py."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import torch
from transformers import PretrainedConfig

from attention.capture import checks, expected
from attention.i18n import STRINGS
from attention.trace import SiteProblem
from attention.trace_count import count_sites


def softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(-1, keepdims=True))
    return (e / e.sum(-1, keepdims=True)).astype(np.float32)


def test_weights_that_are_not_a_distribution_over_the_tokens_are_refused():
    w = softmax(np.random.default_rng(0).standard_normal((2, 3, 4)))
    assert checks.refusal(w, 3, 4) is None
    assert checks.refusal(w * 0.75, 3, 4) == "rows"  # block-sparse blocks overwriting each other
    assert checks.refusal(w - 0.2, 3, 4) == "negative"  # scores before the softmax
    assert checks.refusal(w, 4, 4) == "shape" and checks.refusal(w[0], 3, 4) == "shape"
    nan = w.copy()
    nan[0, 0, 0] = np.nan
    assert checks.refusal(nan, 3, 4) == "negative"


def test_weights_with_no_exact_token_form_are_refused_and_padding_blocks_are_cut():
    full = torch.rand(1, 2, 5, 5)
    assert checks.token_form(full, 5, 5, True) is full
    assert checks.token_form({"global": full, "local": full}, 5, 5, True) == "layout"
    assert checks.token_form(torch.rand(1, 3, 2, 2, 6), 5, 5, True) == "layout"  # chunked (LongT5)
    assert checks.token_form(torch.rand(1, 2, 10, 5), 5, 5, False) == "shape"  # query streams stacked
    assert checks.token_form(torch.rand(1, 2, 5, 4), 5, 5, True) == "layout"  # an even band
    assert checks.token_form(torch.rand(1, 2, 5, 3), 5, 5, True).shape == (1, 2, 5, 3)  # band of radius 1
    padded = torch.rand(1, 2, 8, 8)  # BigBird pads to whole blocks
    assert torch.equal(checks.token_form(padded, 5, 5, True), padded[..., :5, :5])


def test_two_calls_per_layer_are_told_from_one_module_shared_by_the_layers():
    a, b = torch.nn.Linear(1, 1), torch.nn.Linear(1, 1)
    shared = checks.plan_calls([a, a], ["encoder"] * 2, [0, 0], lambda i, j: False, {"encoder": (0, 1)})
    assert shared.layers == (0, 1) and shared.refused == ()  # ALBERT: call order
    same = checks.plan_calls([a, a, b, b], ["decoder"] * 4, [0, 0, 1, 1], lambda i, j: True, {"decoder": (0, 1)})
    assert same.layers == (0, None, 1, None) and same.refused == ()  # DiffLlama: one site per layer
    differ = checks.plan_calls([a, a, b, b], ["decoder"] * 4, [0, 0, 1, 1], lambda i, j: i != 2,
                               {"decoder": (0, 1)})
    assert differ.layers == (0, None, None, None)
    assert differ.refused == (SiteProblem("decoder", "refused_calls", (1,)),)


def test_refused_sites_count_as_found_and_a_model_without_attention_says_so():
    refused = (SiteProblem("encoder", "refused_rows", (0, 1)),)
    assert count_sites({"encoder": (0, 1)}, [], refused) == refused  # not also "missing"
    assert count_sites({}, []) == (SiteProblem("encoder", "no_attention", ()),)
    assert count_sites({"encoder": (0, 1)}, [("decoder", 0), ("decoder", 1)]) == (
        SiteProblem("decoder", "wrong_kind", (0, 1)),)
    for key in ("problem.no_attention", "problem.wrong_kind", "problem.refused_rows", "fallback.unread_arguments"):
        assert set(STRINGS[key]) == {"en", "zh"}


def test_layer_types_and_sub_configs_are_counted():
    hybrid = PretrainedConfig(num_hidden_layers=4, layer_types=["hybrid", "linear_attention", "full_attention",
                                                                "conv"])
    assert expected.expected_layers(hybrid) == {"encoder": (0, 2)}
    mlp_pattern = SimpleNamespace(num_hidden_layers=2, layer_types=["dense", "sparse"])  # says nothing of attention
    assert expected.expected_layers(mlp_pattern) == {"encoder": (0, 1)}
    seq2seq = PretrainedConfig(is_encoder_decoder=True, encoder=PretrainedConfig(num_hidden_layers=3),
                               decoder=PretrainedConfig(num_hidden_layers=2))
    assert expected.expected_layers(seq2seq) == {"encoder": (0, 1, 2), "decoder": (0, 1), "cross": (0, 1)}


def test_the_kind_is_what_the_weights_do():
    causal = np.tril(np.ones((2, 3, 3), np.float32))
    assert checks.observed_kind(causal) == "decoder" and checks.observed_kind(np.ones((2, 3, 3))) == "encoder"
    assert checks.observed_kind(np.ones((2, 1, 1))) is None and checks.observed_kind(np.ones((2, 2, 3))) is None
    mask = torch.triu(torch.full((3, 3), -1e9), 1)[None, None]
    assert checks.causal_mask(mask) and not checks.causal_mask(torch.zeros(1, 1, 3, 3))


