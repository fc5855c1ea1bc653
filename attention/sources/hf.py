"""A Hugging Face model folder as a source (all-MiniLM-L6-v2 when no folder is named)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from attention.errors import ModelLoadError
from attention.sources.base import Purpose, Source
from attention.trace import Trace


class FolderSource(Source):
    """A local folder transformers can read; `path` None is the default model shipped in a package."""

    def __init__(self, name: str, path: str | None, built_in: tuple[str, ...] = ()) -> None:
        self.name = name
        self.path = path
        self.built_in = built_in  # the registry's names, said when `path` is no folder (a mistyped name)

    def label(self) -> str:
        if self.path is None:
            from attention.capture.hf_model import DEFAULT_MODEL_NAME

            return DEFAULT_MODEL_NAME
        return os.path.basename(os.path.normpath(self.path))

    def load(self) -> Any:
        from attention.capture import hf_model

        return hf_model.read_model(self.path)

    def run(self, model: Any, text: str):
        from attention.capture import hf_model

        return _Traced(hf_model.trace_batch(model, [text])[0])

    def traces(self, model: Any, texts: list[str]):
        from attention.capture import hf_model

        return hf_model.trace_batch(model, list(texts))  # one padded batch; padding dropped per text

    def kept(self, purpose: Purpose = "trace") -> Any:
        # the capture modules' own notebook caches, so a folder is read once whichever function asks
        from attention.capture import hf_ablation, hf_model

        path = None if self.path is None else os.path.abspath(os.path.expanduser(self.path))
        if path is not None and not os.path.isdir(path):
            also = f", nor a built-in model ({', '.join(self.built_in)})" if self.built_in else ""
            raise ModelLoadError(f"Cannot load a model from '{path}': no such folder{also}.")
        if purpose == "trace":
            return hf_model.load(path)
        return hf_ablation.load(path) if purpose == "effects" else super().kept(purpose)

    def trace(self, text: str, target: str | None = None, ablate: Any = None, mode: str = "zero") -> Trace:
        from attention.capture import hf_ablation, hf_model

        if ablate is not None:
            return hf_ablation.trace(text, target=target, ablate=ablate, mode=mode, lm=self.kept("effects"))
        return hf_model.trace_batch(self.kept(), [text], None if target is None else [target])[0]

    def load_for_effects(self) -> Any | None:
        from attention.capture import hf_ablation

        return None if hf_ablation.lm_class(self.path) is None else hf_ablation.read_lm(self.path)

    def load_writer(self, progress=None) -> Any:
        from attention.lm import models

        if self.path is None:
            raise ModelLoadError(f"{self.label()} reads a sentence; it does not predict the next word.")
        return models.read(self.path)

    def switches_heads(self, trace: Trace) -> bool:
        return trace.capture_path == "registry"  # eager-path families compute attention inside their layers

    def head_effects(self, model: Any, text: str, mode: str, target: str | None = None):
        from attention.capture import hf_ablation

        return hf_ablation.head_effects(text, target=target, mode=mode, lm=model)

    def ablated(self, model: Any, text: str, heads: str, mode: str):
        from attention.capture import hf_ablation

        return hf_ablation.trace(text, ablate=heads, mode=mode, lm=model)

    def origin(self, model: Any, trace, site, head: int, pos: int):
        from attention.capture import projections

        return projections.origin(model, trace, site, head, pos)


@dataclass(frozen=True)
class _Traced:
    """A folder's output is its trace alone (a dataclass: the app's cache counts its bytes)."""

    trace: Trace
