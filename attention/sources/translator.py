"""The built-in English→Spanish translator as a source (weights in attention/translator/weights/)."""

from __future__ import annotations

from typing import Any

from attention.sources.base import Source


class TranslatorSource(Source):
    home = "translate"
    predicts = "translation"
    whole_words = True  # its vocabulary is whole words: nothing to merge
    working = "app.translating"
    role_kinds = ("decoder", "encoder", "cross")  # the masked decoder first: the kind induction applies to

    def __init__(self, name: str) -> None:
        self.name = name

    def label(self) -> str:
        from attention.translator.api import MODEL_NAME

        return MODEL_NAME

    def load(self) -> Any:
        from attention.translator import api

        return api.read_model()

    def run(self, model: Any, text: str):
        from attention.translator import translate

        return translate(text, model=model)  # a Translation: .text, .trace, word probabilities

    def head_effects(self, model: Any, text: str, mode: str, target: str | None = None):
        from attention.translator import ablation

        if target is not None:
            raise ValueError("the translator makes its own Spanish: it takes no target")
        return ablation.head_effects(text, mode, model=model)

    def ablated(self, model: Any, text: str, heads: str, mode: str):
        from attention.translator import ablation

        return ablation.translate(text, ablate=heads, mode=mode, model=model)

    def origin(self, model: Any, trace, site, head: int, pos: int):
        from attention.translator.origin import origin

        return origin(model, site, head, pos)

    def head_roles(self, model: Any, seed: int = 0, length: int = 12, kind: str | None = None):
        from attention.translator import roles

        kind = kind or self.role_kinds[0]
        return roles.measure(model, seed, length, (kind,))[kind]  # its own words, teacher-forced
