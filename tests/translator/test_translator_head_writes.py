"""What a head writes, on the translator's decoder (attention/translator/decoder_parts.py through its source):
the parts (masked self-attention and cross-attention heads, feed-forwards, token + position embedding, output
biases, the final LayerNorm's β) add up to the logit of the model's own forward pass at several sentences and
positions; a head whose W_O is zeroed writes exactly 0; the target, the token and the position are read as a
learner means them, and bad ones are said."""

import copy

import numpy as np
import pytest
import torch

import attention
from attention.sources.translator import TranslatorSource
from attention.translator import api, load_model
from attention.translator.vocab import BOS_ID

pytestmark = pytest.mark.model  # every test here reads the translator (tests/lanes.py)

SENTENCES = ("The black cat drank the milk.", "The ball is blue.", "My sister reads a long book in the garden.",
             "the old man sees a small dog")


def own_logits(model, text: str, words: list[str]) -> torch.Tensor:
    """(T, V) the model's own forward pass, the whole batch at once, nothing replayed."""
    src = torch.tensor([api._source(model, text).ids])
    tgt = torch.tensor([[BOS_ID, *(model.tgt_vocab.id(w) for w in words)]])
    with torch.no_grad():
        return model(src, tgt)[0]


@pytest.mark.parametrize("text", SENTENCES)
def test_the_parts_add_up_to_the_models_own_logit_at_every_position(text):
    model = load_model()
    words = list(api.translate(text).target_tokens)
    logits = own_logits(model, text, words)
    for position in range(len(words) + 1):
        r = attention.head_writes(text, model="translator", position=position)
        assert r.heads.shape == (4, 4) and r.kinds == ("decoder", "cross", "decoder", "cross")
        assert r.layers == (0, 0, 1, 1) and r.mlps.shape == (2,) and r.out_biases.shape == (4,)
        assert r.check <= 1e-4, (text, position, r.check)
        assert abs(r.logit - float(logits[position, r.token_id])) <= 1e-4
        assert abs(r.total - float(logits[position, r.token_id])) <= 1e-4
        expected = words[position] if position < len(words) else "<eos>"  # the word it writes there, by default
        assert r.token == expected and r.tokens == ("<bos>", *words[:position])
        assert np.abs(r.vectors.total() - r.vectors.residual).max() <= 1e-4
        assert r.bias != 0.0 and np.all(r.out_biases != 0.0)  # LayerNorm's β and the trained b_O count


def test_a_head_with_zero_w_o_writes_exactly_0_for_each_kind():
    text = SENTENCES[0]
    for kind, layer, head in (("cross", 1, 3), ("decoder", 0, 2)):
        model = copy.deepcopy(load_model())  # our own copy to change
        site = model.decoder[layer].cross_attn if kind == "cross" else model.decoder[layer].self_attn
        with torch.no_grad():
            site.W_O[head] = 0.0
        r = TranslatorSource("translator").head_writes(model, text, "leche", position=5,
                                                       target="el gato negro bebió la leche .")
        assert r.part(layer, head, kind) == 0.0 and np.count_nonzero(r.heads) == 15
        assert r.check <= 1e-4
        assert abs(r.logit - float(own_logits(model, text, "el gato negro bebió la leche .".split())[5, r.token_id])) \
            <= 1e-4


def test_leche_is_written_by_the_cross_heads_that_read_milk():
    r = attention.head_writes(SENTENCES[0], model="translator", target="el gato negro bebió la")
    assert r.position == 5 and r.token == "leche"  # the last position writes the word after the target
    top = r.top(1)[0]
    assert top.head.kind == "cross" and top.head.layer == 1
    keys, weights = r.read(1, top.head.head, "cross")
    assert keys == r.source_tokens and keys[int(np.argmax(weights))] == "milk"
    assert weights.sum() == pytest.approx(1.0, abs=1e-6)
    keys, weights = r.read(0, 0, "decoder")  # a masked self-attention head reads the Spanish fed so far
    assert keys == r.tokens and weights.shape == (6,)
    assert r.grid("cross").shape == r.grid("decoder").shape == (2, 4)
    values = {t.token_id: t.value for t in r.promotes(1, top.head.head, 732, kind="cross")}
    assert values[r.token_id] == pytest.approx(top.score, abs=1e-5)  # a promoted value is its part in that logit
    rank, size = r.rank(1, top.head.head, kind="cross")
    assert size == 732 and [t.token_id for t in r.promotes(1, top.head.head, rank, kind="cross")][-1] == r.token_id
    with pytest.raises(ValueError, match="layer 1 has cross and decoder heads: name the kind"):
        r.part(1, 0)
    by_word = attention.head_writes(SENTENCES[0], model="translator", token="queso", target="el gato negro bebió la")
    d = r.difference(r.token_id, by_word.token_id)
    assert d.check <= 1e-4 and np.allclose(d.heads, r.heads - by_word.heads, atol=1e-9)


def test_bad_targets_tokens_and_positions_are_said():
    with pytest.raises(ValueError, match="Spanish vocabulary has no 'perrito'"):
        attention.head_writes("The dog", model="translator", target="el perrito")
    with pytest.raises(ValueError, match="not a word of the translator's Spanish vocabulary"):
        attention.head_writes("The dog", model="translator", token="dog")
    with pytest.raises(ValueError, match="outside the decoder's 3 positions"):
        attention.head_writes("The dog", model="translator", target="el perro", position=3)
    with pytest.raises(ValueError, match="target= is the translator's"):
        attention.head_writes("The dog", model="smollm2", target="el perro")  # refused before any model is read
