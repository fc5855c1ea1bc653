"""The logit lens: the output row equals the model's own distribution (≤ 1e-5, the model's forward pass as
the outside reference), on SmolLM2 and on a tiny GPT-2; every row is a distribution; and a lens that
skips the final norm or normalises the last layer twice is caught."""

import numpy as np
import pytest
import torch
import transformers as tf

from attention.lm import lens as L

PROMPT = "The black cat drank the milk because it was"


def check_output_row(model, tok, ids: list[int], position: int) -> list[L.LensRow]:
    rows = L.lens_of_model(model, tok, ids, position, k=5)
    reference = L.output_probs(model, ids[: position + 1])  # the model's own forward, not the lens's maths
    last = rows[-1]
    assert list(last.ids) == list(np.argsort(-reference, kind="stable")[:5])
    np.testing.assert_allclose(last.probs, reference[list(last.ids)], atol=1e-5)
    assert last.output_prob == last.probs[0]
    for row in rows:
        assert all(a >= b for a, b in zip(row.probs, row.probs[1:], strict=False)) and 0 < sum(row.probs) <= 1 + 1e-9
    return rows


@pytest.fixture(scope="module")
def tiny_gpt2():
    """A tiny GPT-2 language model with seeded random weights (no download) and the project's tokenizer."""
    from harness.tiny_families import tokenizer

    tok = tokenizer()
    torch.manual_seed(0)
    cfg = tf.GPT2Config(n_embd=32, n_layer=2, n_head=4, n_positions=64, vocab_size=len(tok),
                        bos_token_id=tok.cls_token_id, eos_token_id=tok.sep_token_id)
    model = tf.GPT2LMHeadModel(cfg).eval()
    with torch.no_grad():  # a norm that is not the identity: normalising twice then differs from once
        model.transformer.ln_f.weight.uniform_(0.5, 2.0)
        model.transformer.ln_f.bias.normal_(0.0, 0.5)
    return model, tok


@pytest.mark.model
def test_tiny_gpt2_rows_and_output(tiny_gpt2):
    model, tok = tiny_gpt2
    ids = tok("the cat sat on the mat")["input_ids"]
    rows = check_output_row(model, tok, ids, position=3)
    assert [r.layer for r in rows] == [L.EMBEDDING, 0, 1]  # embedding, then each layer (the last: the output)
    assert L.final_norm(model) is model.transformer.ln_f


@pytest.mark.model
def test_smollm2_output_row_is_the_models_distribution(smollm2):
    ids = smollm2.tokenizer(PROMPT)["input_ids"]
    rows = check_output_row(smollm2.model, smollm2.tokenizer, ids, len(ids) - 1)
    assert len(rows) == 31 and rows[-1].layer == 29
    assert rows[-1].labels[0] == "·the"  # greedy writes " the" after the prompt (test_writer)
    assert rows[0].labels[0] == "·was"  # tied embeddings: the embedding row reads back the token itself
    assert L.settles_at(rows) in range(L.EMBEDDING, 30)
    for row in rows:  # the output token's probability at each layer: its top probability where it leads
        assert row.output_prob <= row.probs[0] + 1e-12 and (row.ids[0] != rows[-1].ids[0] or row.output_prob == row.probs[0])
    earlier = check_output_row(smollm2.model, smollm2.tokenizer, ids, 2)  # a position inside the prompt too
    assert earlier[-1].layer == 29


@pytest.mark.model
@pytest.mark.parametrize("broken", ["norm skipped", "last layer normalised twice"])
def test_a_broken_lens_is_caught(tiny_gpt2, monkeypatch, broken):
    model, tok = tiny_gpt2
    ids = tok("the cat sat on the mat")["input_ids"]
    if broken == "norm skipped":
        monkeypatch.setattr(L, "unembed", lambda m, x: m.get_output_embeddings()(x))
    else:
        def normed_last(m, ids):  # hidden_states[-1] taken as it comes: already through the norm
            with torch.inference_mode():
                out = m(input_ids=torch.tensor([ids]), output_hidden_states=True)
            return torch.stack([h[0] for h in out.hidden_states]), out.logits[0]
        monkeypatch.setattr(L, "residuals", normed_last)
    with pytest.raises(AssertionError):
        check_output_row(model, tok, ids, position=3)


def test_settles_at():
    def row(layer: int, top: int) -> L.LensRow:
        return L.LensRow(layer, (top,), (0.5,), ("x",), ("x",))

    assert L.settles_at([row(-1, 1), row(0, 2), row(1, 1), row(2, 1)]) == 1
    assert L.settles_at([row(-1, 1), row(0, 1)]) == L.EMBEDDING
    assert L.settles_at([row(-1, 2), row(0, 1)]) == 0
