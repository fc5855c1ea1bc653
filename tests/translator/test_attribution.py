"""Attribution on torch autograd: integrated gradients are complete, gradient × input is the
directional derivative a finite difference measures, and the shipped model's rows line up."""

import numpy as np
import pytest
import torch

from attention.analysis import attribution_compare as compare
from attention.translator import api
from attention.translator.attribution import (
    attribute,
    attribute_ids,
    gradient_x_input,
    source_embeddings,
    word_log_prob,
)
from attention.translator.model import Config, Transformer
from attention.translator.vocab import Vocab

pytestmark = pytest.mark.model  # every test here reads a model (tests/lanes.py)


def tiny() -> Transformer:
    torch.manual_seed(0)
    src, tgt = Vocab.from_words(["a", "b", "c", "d"]), Vocab.from_words(["x", "y", "z"])
    cfg = Config(src_vocab_size=len(src), tgt_vocab_size=len(tgt), d_model=16, d_ff=32, n_heads=4)
    return Transformer(cfg, src, tgt).double().eval()


def test_integrated_gradients_are_complete():
    model = tiny()
    for position in range(3):
        _, ig, fx, fb = attribute_ids(model, [4, 5, 6, 7], [4, 5], position, steps=400)
        assert abs(ig.sum() - (fx - fb)) < 1e-3, (ig.sum(), fx - fb)
        assert abs(fx - fb) > 1e-3  # not trivially complete


def test_gradient_x_input_matches_finite_differences():
    model = tiny()
    src, tgt_in = torch.tensor([[4, 5, 6, 7]]), torch.tensor([[2, 4, 5]])
    f = word_log_prob(model, src, tgt_in, 2, 6)
    x = source_embeddings(model, src).detach()
    gxi = gradient_x_input(f, x)
    eps = 1e-5
    for i in range(4):  # Σ_d x_id ∂f/∂x_id is the derivative along x_i: scale word i's embedding
        up, down = x.clone(), x.clone()
        up[0, i] *= 1 + eps
        down[0, i] *= 1 - eps
        with torch.no_grad():
            fd = (float(f(up)[0]) - float(f(down)[0])) / (2 * eps)
        assert gxi[i] == pytest.approx(fd, rel=1e-5, abs=1e-8)


def test_the_shipped_model_attributes_the_words_it_translates():
    text = "The black cat drank the milk."
    out = api.translate(text)
    a = attribute(text, 5)  # "leche"
    assert a.word == "leche" and a.gradient_x_input.shape == (7,) and np.isfinite(a.integrated_gradients).all()
    measures = {"cross": compare.cross_row(out.trace, 5), "rollout": compare.rollout_row(out.trace, 5),
                "gxi": a.gradient_x_input, "ig": a.integrated_gradients}
    assert all(out.source_tokens[compare.top_word(v)] == "milk" for v in measures.values())
    np.testing.assert_allclose(measures["rollout"].sum(), 1.0, atol=1e-9)
    table = compare.agreement_table(measures)
    assert set(table) == {("cross", "rollout"), ("cross", "gxi"), ("cross", "ig"), ("rollout", "gxi"),
                          ("rollout", "ig"), ("gxi", "ig")}
    with pytest.raises(ValueError):
        attribute(text, 99)


def test_disagreements_name_the_measures_that_rank_differently():
    measures = {"cross": np.array([0.7, 0.2, 0.1]), "same": np.array([0.5, 0.3, 0.2]),
                "other": np.array([0.1, 0.2, 0.9])}
    assert compare.disagreements(measures, "cross") == ["other"]


def test_integrated_gradients_of_a_smooth_function_equal_its_closed_form():
    """f(x) = Σ x³ from baseline 0: the exact attribution of word i is Σ_d x_id³ (the trapezoid rule
    is off by under 1e-3 relative at 32 steps; equal weights on all 33 points would be ~3 % off)."""
    from attention.translator.attribution import integrated_gradients

    x = torch.randn(1, 5, 8, dtype=torch.float64, generator=torch.Generator().manual_seed(0))
    ig = integrated_gradients(lambda e: (e**3).sum(dim=(1, 2)), x, torch.zeros_like(x), steps=32)
    np.testing.assert_allclose(ig, (x**3).sum(-1)[0].numpy(), rtol=1e-3)
