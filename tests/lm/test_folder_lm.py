"""Any causal language model folder writes too: a tiny random GPT-2 with SmolLM2's byte-level BPE
tokenizer (saved into a temporary folder; nothing downloaded), its tokens shown as text."""

import pytest

import attention
from attention import ModelLoadError

pytestmark = pytest.mark.model




def test_a_gpt2_folder_writes_step_by_step_and_reads_well(gpt2_folder):
    out = attention.generate("The black cat drank", steps=3, model=gpt2_folder, seed=3)
    assert len(out.steps) == 3 and out.steps[0].rows[1].q.shape == (4, 1, 8)
    assert out.tokens[1] == "Ġblack" and out.scheme == "bpe"
    tr = out.trace()
    assert tr.faithful and tr.site(1, "decoder").weights.shape == (4, out.n, out.n)
    assert all(not lab.startswith("Ġ") for lab in out.next.top_labels)


def test_a_folder_that_is_not_a_language_model_is_refused(tmp_path):
    with pytest.raises(ModelLoadError, match="no such folder"):
        attention.next_token("hello", model=str(tmp_path / "nowhere"))
    from attention.capture.hf_model import default_model_path

    with pytest.raises(ModelLoadError, match="not a causal language model"):
        attention.next_token("hello", model=default_model_path())  # MiniLM: a sentence encoder
