"""The real all-MiniLM-L6-v2: our trace against the model's own eager attention."""

import numpy as np
import pytest
import torch
from transformers import AutoModel

import attention
from attention.capture import hf_forward, hf_model

pytestmark = pytest.mark.model  # every test here reads a model (tests/lanes.py)

TEXTS = ["The black cat drank the milk", "The ball is blue, and the ball rolled away under the old table."]


@pytest.fixture(scope="module")
def eager():
    model = AutoModel.from_pretrained(hf_model.default_model_path(), attn_implementation="eager")
    return model.eval()


def test_default_model_is_the_real_minilm():
    lm = hf_model.load()
    assert lm.name == "all-MiniLM-L6-v2"
    assert lm.model.config.num_hidden_layers == 6 and lm.model.config.num_attention_heads == 12
    assert lm.max_tokens == 512


def test_public_api_shapes():
    tr = attention.trace("The black cat drank the milk")
    assert tr.tokens == ("[CLS]", "the", "black", "cat", "drank", "the", "milk", "[SEP]")
    assert [(s.layer, s.kind) for s in tr.sites] == [(i, "encoder") for i in range(6)]
    site = tr.sites[0]
    assert site.weights.shape == (12, 8, 8) and site.scores.shape == (12, 8, 8)
    assert site.q.shape == site.k.shape == site.v.shape == (12, 8, 32)
    assert site.z.shape == (12, 8, 32)
    assert site.query_tokens == site.key_tokens == tr.tokens
    assert site.scale == pytest.approx(32**-0.5)
    assert not site.weights.flags.writeable


def test_weights_equal_eager_output_attentions_and_hidden_states_unchanged(eager):
    lm = hf_model.load()
    traces = hf_model.trace_batch(lm, TEXTS)  # a padded batch of two lengths
    enc = hf_model.encode(lm, TEXTS)
    with torch.inference_mode():
        ref = eager(**enc.inputs, output_attentions=True)
        ours, _ = hf_forward.run(lm, enc.inputs)
    np.testing.assert_array_equal(ours.last_hidden_state.numpy(), ref.last_hidden_state.numpy())
    worst = 0.0
    for b, tr in enumerate(traces):
        real = enc.real[b].nonzero().flatten()
        for site in tr.sites:
            expected = ref.attentions[site.layer][b][:, real][:, :, real].numpy()
            worst = max(worst, float(np.abs(site.weights - expected).max()))
            assert site.weights_diff <= 1e-5 and site.z_diff <= 1e-5
    assert worst <= 1e-5
    assert traces[0].faithful and traces[1].faithful


def test_recomputed_z_matches_context_layer_before_the_output_projection(eager):
    """z of every head, concatenated, is what the attention block's output projection reads."""
    lm = hf_model.load()
    tr = attention.trace(TEXTS[0])
    enc = hf_model.encode(lm, TEXTS[:1])
    captured = {}
    layer = eager.encoder.layer[2].attention.output.dense
    handle = layer.register_forward_hook(lambda m, i, o: captured.setdefault("x", i[0]))
    with torch.inference_mode():
        eager(**enc.inputs)
    handle.remove()
    z = tr.site(2).z  # (heads, pos, d_head)
    merged = z.transpose(1, 0, 2).reshape(z.shape[1], -1)
    np.testing.assert_allclose(merged, captured["x"][0].numpy(), atol=1e-5)


def test_long_text_is_truncated_with_a_count():
    tr = attention.trace("word " * 700)
    assert len(tr.tokens) == 512 and tr.tokens[-1] == "[SEP]"
    assert tr.dropped_tokens == 700 + 2 - 512


def test_the_trace_names_its_capture_path():
    tr = attention.trace("the cat")
    assert tr.capture_path == "registry" and tr.dropped_tokens == 0
    assert (tr.unknown_words, tr.decoding_capped, tr.teacher_forced) == ((), False, False)


def test_chinese_emoji_and_markup_survive_as_tokens():
    tr = attention.trace("猫喝了牛奶 🐱 <b>x</b> <script>")
    assert "[UNK]" in tr.tokens  # the emoji is unknown to this vocabulary
    assert "<" in tr.tokens and "script" in tr.tokens
    assert tr.faithful


def test_unreadable_model_folder_names_the_folder(tmp_path):
    (tmp_path / "config.json").write_text("{ not json")
    with pytest.raises(attention.ModelLoadError, match=str(tmp_path)):
        attention.trace("hello", model=str(tmp_path))
    with pytest.raises(attention.ModelLoadError, match="no such folder"):
        attention.trace("hello", model=str(tmp_path / "missing"))
