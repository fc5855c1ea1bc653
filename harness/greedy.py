"""transformers' own greedy continuation of a prompt on SmolLM2: what every word the Write page writes by
default must be (the load benchmark's and the replica-fault test's "wrong" check)."""

from __future__ import annotations

_LM = None


def greedy_ids(prompt: str, words: int) -> list[int]:
    """The ids of the `words` tokens transformers' generate() writes greedily after `prompt` (cut as hosted).

    Args:
        prompt: the Write page's prompt.
        words: how many tokens to write.

    Returns:
        The written token ids, `words` of them (fewer if the model ends the text).
    """
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from attention.lm import smollm2
    from attention.lm.written import HOSTED

    global _LM
    if _LM is None:
        folder = smollm2.folder_path()
        _LM = (AutoTokenizer.from_pretrained(folder), AutoModelForCausalLM.from_pretrained(folder, dtype=torch.float32))
    tok, model = _LM
    ids = tok(prompt, return_tensors="pt")["input_ids"][:, :HOSTED.prompt]  # the hosted prompt cap
    with torch.inference_mode():
        out = model.generate(ids, max_new_tokens=words, do_sample=False)
    return [int(i) for i in out[0, ids.shape[1]:]]
