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

    def head_writes(self, model: Any, text: str, token: str | int | None = None, position: int = -1,
                    target: str | None = None):
        """What every decoder head writes into a Spanish word's logit (direct logit attribution): its masked
        self-attention and cross-attention heads, each feed-forward, the embedding and the output biases.

        Args:
            model: the loaded translator.
            text: the English sentence.
            token: the Spanish word explained (a word of its vocabulary or an id); None: the word it writes.
            position: the decoder position (0 reads <bos>; negative from the end).
            target: the Spanish words fed in (None: the model's own greedy translation).

        Returns:
            HeadWrites (attention/lm/writes_result.py) with kinds ("decoder", "cross", …) per row.
        """
        import torch

        from attention.lm import head_writes
        from attention.translator import api, decoder_parts

        source = api._source(model, text)
        ids = decoder_parts.target_ids(model, torch.tensor([source.ids]), target)
        got = decoder_parts.read(model, source.ids, ids, position)
        if isinstance(token, str):
            if token.strip().lower() not in model.tgt_vocab:
                raise ValueError(f"{token!r} is not a word of the translator's Spanish vocabulary")
            token = model.tgt_vocab.id(token.strip().lower())
        token_id = got.default_id if token is None else int(token)
        if not 0 <= token_id < len(model.tgt_vocab):
            raise ValueError(f"token id {token_id} is outside the translator's {len(model.tgt_vocab)} words")
        vec = head_writes.Vectors(got.heads, got.mlps, got.out_biases, got.embedding, got.residual.double().numpy())
        ro = head_writes.readout(got.norm, True, got.norm.eps, got.unembed, got.residual, got.normed, got.logits)
        vocab = model.tgt_vocab.tokens

        def names(ids_: list[int]) -> list[str]:
            return [vocab[int(i)] for i in ids_]

        return head_writes.assemble(vec, ro, token_id, got.input_tokens, got.position, got.layers, names,
                                    kinds=got.kinds, site_reads=got.reads, source_tokens=got.source_tokens)
