"""What the needle tests share (the tiny Llama itself is tests/lm/conftest.py's `tiny`): a needle prompt, and
transformers' own eager weights as the reference."""

import numpy as np
import torch

from attention.lm.needle_prompt import NEEDLES, Prompt, build


def _prompt(tok, length=200, depth=0.5) -> Prompt:
    nd = NEEDLES[0]
    return build(tok, nd.needle, nd.question, None, length, depth)


def _eager_rows(lm, ids: list[int], first: int) -> np.ndarray:
    """(rows, layers, heads, n) transformers' own eager weights for query rows first … n − 1 of the whole text."""
    model = lm.model
    before = model.config._attn_implementation
    model.set_attn_implementation("eager")
    try:
        with torch.inference_mode():
            out = model(input_ids=torch.tensor([ids]), output_attentions=True)
    finally:
        model.set_attn_implementation(before)
    return torch.stack([a[0, :, first:] for a in out.attentions], dim=0).permute(2, 0, 1, 3).numpy()
