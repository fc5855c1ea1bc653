"""Switching translator heads off: nothing off changes nothing; one head off changes exactly that
head's output and nothing upstream; the shipped model breaks without its cross-attention."""

import numpy as np
import pytest
import torch

import attention
from attention.translator import api, load_model
from attention.translator.ablation import all_heads, head_effects, mean_outputs, switches, translate, word_log_probs
from attention.translator.corpus import build_corpus
from attention.translator.evaluate import cross_alignment
from attention.head_mask import switched_off
from attention.translator.model import Attention, Config, Transformer
from attention.translator.vocab import Vocab

pytestmark = pytest.mark.model  # every test here reads a model (tests/lanes.py)

BALL = "The ball is blue."
CAT = "The black cat drank the milk."


def test_no_head_off_reproduces_the_translation_exactly():
    base = api.translate(BALL)
    out = attention.translate(BALL, ablate="")
    assert out.text == base.text == out.ablation.base_text and not out.ablation.changed
    np.testing.assert_array_equal(out.ablation.drops, 0.0)
    for a, b in zip(out.trace.sites, base.trace.sites, strict=True):
        np.testing.assert_array_equal(a.model_z, b.model_z)
        np.testing.assert_array_equal(a.model_weights, b.model_weights)


def test_every_cross_head_off_breaks_the_ball_is_blue():
    cross = [h for h in all_heads(load_model()) if h[0] == "cross"]
    out = attention.translate(BALL, ablate=cross)
    assert out.ablation.base_text == "la bola es azul ." and out.text != out.ablation.base_text
    assert out.ablation.drops[:-1].min() > 1.0  # every original word lost over one nat
    assert out.ablation.changed


def _tiny() -> Transformer:
    torch.manual_seed(0)
    src, tgt = Vocab.from_words(["a", "b", "c", "d"]), Vocab.from_words(["x", "y", "z"])
    cfg = Config(src_vocab_size=len(src), tgt_vocab_size=len(tgt), d_model=16, d_ff=32, n_heads=4)
    return Transformer(cfg, src, tgt).double().eval()


def _run(model: Transformer, sw: dict):
    """Every attention module's output (by forward hooks) and every recorded call."""
    outputs: dict[str, torch.Tensor] = {}
    hooks = [m.register_forward_hook(lambda mod, _in, out: outputs.__setitem__(mod.name, out.detach()))
             for m in model.modules() if isinstance(m, Attention)]
    recorder: list = []
    src, tgt_in = torch.tensor([[4, 5, 6, 7]]), torch.tensor([[2, 4, 5, 6]])
    with torch.no_grad(), switched_off(sw):
        logits = model(src, tgt_in, recorder)
    for h in hooks:
        h.remove()
    return outputs, {r.name: r for r in recorder}, logits


@pytest.mark.parametrize("mode", ["zero", "mean"])
@pytest.mark.parametrize("off", [("encoder", 1, 2), ("decoder", 0, 1), ("cross", 1, 3)])
def test_one_head_off_changes_exactly_that_heads_output(off, mode, monkeypatch):
    model = _tiny()
    means = {(k, L): np.random.default_rng(1).normal(size=(4, 4)) for k in ("encoder", "decoder", "cross")
             for L in (0, 1)}
    monkeypatch.setattr("attention.translator.ablation.mean_outputs", lambda m: means)
    base_out, base_rec, base_logits = _run(model, {})
    off_out, off_rec, off_logits = _run(model, switches(model, [frozenset({off})], mode))
    kind, layer, head = off
    name = {"encoder": f"encoder.{layer}.self_attn", "decoder": f"decoder.{layer}.self_attn",
            "cross": f"decoder.{layer}.cross_attn"}[kind]
    order = list(base_rec)
    upstream = order[: order.index(name)]
    for n in upstream:  # everything computed before the head: bit for bit the same
        torch.testing.assert_close(off_out[n], base_out[n], rtol=0, atol=0)
        torch.testing.assert_close(off_rec[n].z, base_rec[n].z, rtol=0, atol=0)
    # the head itself computed the same q, k, v, weights and z; its output was replaced
    for field in ("q", "k", "v", "weights", "z"):
        torch.testing.assert_close(getattr(off_rec[name], field), getattr(base_rec[name], field), rtol=0, atol=0)
    z = base_rec[name].z[0, head]  # (Tq, hs)
    fill = torch.zeros_like(z) if mode == "zero" else torch.from_numpy(means[(kind, layer)][head]).expand_as(z)
    W_O = dict(model.named_modules())[name].W_O[head].detach()  # (hs, C)
    expected = base_out[name][0] + (fill - z) @ W_O  # only head `head`'s term of Σ_h z_h·W_O[h] moves
    torch.testing.assert_close(off_out[name][0], expected, rtol=0, atol=1e-12)
    assert not torch.equal(off_logits, base_logits)


def test_mean_outputs_are_the_heads_average_output():
    means = mean_outputs(load_model())
    assert set(means) == {(k, L) for k in ("encoder", "decoder", "cross") for L in (0, 1)}
    assert all(m.shape == (4, 16) and np.isfinite(m).all() for m in means.values())
    out = translate(BALL, ablate="cross.1.0", mode="mean")
    assert out.ablation.mode == "mean" and np.abs(out.ablation.drops).max() > 0


def test_effect_table_has_a_row_per_head_and_agrees_with_single_runs():
    effects = attention.head_effects(BALL, model=attention.TRANSLATOR)
    model = load_model()
    assert effects.heads == all_heads(model) and len(effects.heads) == 24
    assert effects.drops.shape == (24, 6) and effects.new_texts is not None and len(effects.new_texts) == 24
    for head in (("cross", 1, 0), ("decoder", 0, 2), ("encoder", 1, 3)):
        alone = translate(BALL, ablate=[head]).ablation  # unbatched: agrees with the batched row
        np.testing.assert_allclose(effects.drops[effects.of(head)], alone.drops, atol=1e-6)


def test_largest_effect_is_on_a_well_aligned_cross_head():
    effects = head_effects(CAT)
    top = effects.ranked()[0][0]
    assert top == ("cross", 1, 0)  # measured: 0.0085 nats per word; the next is under 0.001
    alignment = cross_alignment(load_model(), build_corpus().test[:500])  # (layers, heads)
    order = np.argsort(-alignment, axis=None)
    rank = int(np.where(order == top[1] * 4 + top[2])[0][0]) + 1
    assert rank <= 4, (rank, alignment)  # among the best half of the 8 cross heads


def test_word_log_probs_match_a_direct_log_softmax():
    model = load_model()
    src = torch.tensor([api._source(model, BALL).ids])
    produced = [model.tgt_vocab.id(w) for w in "la bola es azul .".split()]
    lp = word_log_probs(model, src, produced)[0]
    with torch.no_grad():
        logits = model(src, torch.tensor([[2] + produced]))[0].double()
    for i, w in enumerate(produced + [3]):
        assert lp[i] == pytest.approx(float(logits[i, w] - torch.logsumexp(logits[i], 0)), abs=1e-9)


def test_bad_heads_and_modes_are_errors():
    with pytest.raises(ValueError):
        translate(BALL, ablate="cross.7.0")
    with pytest.raises(ValueError):
        translate(BALL, ablate="nonsense")
    with pytest.raises(ValueError):
        translate(BALL, ablate="", mode="half")
