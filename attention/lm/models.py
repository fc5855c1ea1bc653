"""Reading a causal language model folder with the project's capture (GPT-2, Llama, the expanded
SmolLM2). Which folder a name means is the source registry's business (attention/sources): here a
folder is a folder. Loading goes through capture/hf_ablation.read_lm, the one place a model is read
with its language-model head.
"""

from __future__ import annotations

import dataclasses
import os

from attention.errors import ModelLoadError


def read(path: str, label: str | None = None):
    """The causal language model in folder `path`, with its head and our capture, uncached (the app
    keeps it on its cache shelf); `label`: the name it is shown by. Raises ModelLoadError for a
    missing folder or one without a next-token head."""
    from transformers import AutoModelForCausalLM

    from attention.capture import hf_ablation

    path = os.path.abspath(os.path.expanduser(path))
    if not os.path.isdir(path):
        raise ModelLoadError(f"Cannot load a language model from '{path}': no such folder.")
    if hf_ablation.lm_class(path) is not AutoModelForCausalLM:
        raise ModelLoadError(f"'{path}' is not a causal language model (it has no next-token head).")
    lm = hf_ablation.read_lm(path)
    if lm is None:  # lm_class said yes; read_lm agrees unless the folder changed in between
        raise ModelLoadError(f"'{path}' is not a causal language model.")
    return lm if label is None else dataclasses.replace(lm, name=label)
