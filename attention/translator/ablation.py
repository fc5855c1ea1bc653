"""Switch translator heads off and see what changes: the new translation, and each word of the
original translation's log-probability with and without the heads (teacher-forced on the original).

    out = translate("The ball is blue.", ablate="cross.1.0,cross.1.1")
    out.text                       the translation with those heads off
    out.ablation.base_text         ... and with every head on
    out.ablation.drops             per original word: log p(word) lost
    head_effects("The ball is blue.").ranked()   every head alone, largest effect first

One-at-a-time effects run as ONE batch: row 0 has every head on, row 1 + i has head i off.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import torch

from attention import head_mask
from attention.head_mask import Switch, switched_off
from attention.analysis.effects import Ablation, HeadEffects, HeadId, parse_heads
from attention.translator import api
from attention.translator.evaluate import pad_batch, translate_batch
from attention.translator.model import Transformer
from attention.translator.vocab import BOS_ID, EOS, EOS_ID, PAD_ID, tokenize

# Sentences whose mean head outputs stand in for a head in "mean" mode (each pattern of the grammar).
REFERENCE_SENTENCES = (
    "The ball is blue.", "The black cat drank the milk.", "The dogs sleep.", "The book is on the table.",
    "The girl did not see the boy.", "The red cars are big.", "A woman reads the letters.",
    "The children ate the bread.",
)
KINDS = ("encoder", "decoder", "cross")


@dataclass(frozen=True)
class AblatedTranslation(api.Translation):
    """A Translation made with heads switched off (text, tokens and trace of the changed model), and
    what changed against the translation with every head on."""

    ablation: Ablation | None = None


def all_heads(model: Transformer) -> tuple[HeadId, ...]:
    """Every head of the model: encoder, decoder, cross; layer by layer."""
    cfg = model.cfg
    layers = {"encoder": cfg.n_encoder_layers, "decoder": cfg.n_decoder_layers, "cross": cfg.n_decoder_layers}
    return tuple((kind, layer, h) for kind in KINDS for layer in range(layers[kind]) for h in range(cfg.n_heads))


def _check(model: Transformer, heads: Iterable[HeadId], mode: str) -> None:
    head_mask.check(set(heads), all_heads(model), mode)


@lru_cache(maxsize=4)
@torch.no_grad()
def mean_outputs(model: Transformer) -> dict[tuple[str, int], np.ndarray]:
    """Per site (kind, layer), each head's mean output z over every real position of
    REFERENCE_SENTENCES (one batch, teacher-forced on the model's own translations), (nh, hs): what a
    head says "on average", for mean ablation."""
    sources = [tokenize(text) for text in REFERENCE_SENTENCES]
    targets = translate_batch(model, sources)
    src = pad_batch(model.src_vocab, sources)  # (B, S)
    tgt_in = pad_batch(model.tgt_vocab, targets, bos=True)  # (B, T)
    recorder: list = []
    model(src, tgt_in, recorder)
    out = {}
    for r in recorder:
        real = (src if r.kind == "encoder" else tgt_in) != PAD_ID  # (B, Tq) the query positions that exist
        z = r.z.double() * real[:, None, :, None]  # (B, nh, Tq, hs)
        out[(r.kind, r.layer)] = (z.sum(dim=(0, 2)) / real.sum()).numpy()
    return out


def switches(model: Transformer, rows: list[frozenset[HeadId]], mode: str = "zero") -> dict[tuple[str, int], Switch]:
    """The switches for a batch whose row b has the heads rows[b] off."""
    sites = {(kind, layer): head_mask.SiteShape((kind, layer), model.cfg.n_heads, model.cfg.d_head)
             for kind, layer, _ in all_heads(model)}
    return head_mask.build(rows, sites, mode, mean_outputs(model) if mode == "mean" else None, dtype=torch.float64)


@torch.no_grad()
def word_log_probs(model: Transformer, src: torch.Tensor, produced: list[int]) -> np.ndarray:
    """log p(word) of each produced word and the final <eos>, teacher-forced: (B, S) source ids ->
    (B, len(produced) + 1), float64."""
    B = src.shape[0]
    tgt_in = torch.tensor([[BOS_ID] + produced] * B)  # (B, T)
    targets = torch.tensor([produced + [EOS_ID]] * B)  # (B, T)
    logits = model(src, tgt_in).double()  # (B, T, V)
    return torch.log_softmax(logits, dim=-1).gather(-1, targets[..., None])[..., 0].numpy()


def _source(model: Transformer, text: str) -> torch.Tensor:
    return torch.tensor([api._source(model, text).ids])  # (1, S)


def _produced(model: Transformer, tokens: Iterable[str]) -> list[int]:
    return [model.tgt_vocab.id(w) for w in tokens]


def translate(text: str, ablate: str | Iterable | None = None, mode: str = "zero", model: Transformer | None = None,
              max_new_words: int = api.MAX_NEW_WORDS) -> AblatedTranslation:
    """The translation with the heads `ablate` switched off (zero or mean mode), and what changed."""
    model = api.load_model() if model is None else model
    heads = parse_heads(ablate)
    _check(model, heads, mode)
    base = api.translate(text, model=model, max_new_words=max_new_words)
    sw = switches(model, [heads], mode)
    with switched_off(sw):
        new = api.translate(text, model=model, max_new_words=max_new_words)
    src, produced = _source(model, text), _produced(model, base.target_tokens)
    base_lp = word_log_probs(model, src, produced)[0]
    with switched_off(sw):
        ablated_lp = word_log_probs(model, src, produced)[0]
    ablation = Ablation(heads=tuple(sorted(heads)), mode=mode, measure="log_prob", tokens=base.target_tokens + (EOS,),
                        base_log_probs=base_lp, ablated_log_probs=ablated_lp, base_text=base.text, new_text=new.text)
    fields = {f.name: getattr(new, f.name) for f in dataclasses.fields(api.Translation)}
    return AblatedTranslation(**fields, ablation=ablation)


def _texts(model: Transformer, ys: torch.Tensor) -> list[str]:
    """Greedy outputs (B, 1 + n) -> the words up to <eos>, joined as Translation.text joins them."""
    out = []
    for row in ys[:, 1:].tolist():
        words = []
        for i in row:
            if i in (EOS_ID, PAD_ID):
                break
            words.append(model.tgt_vocab.tokens[i])
        out.append(" ".join(words))
    return out


@torch.no_grad()
def head_effects(text: str, mode: str = "zero", model: Transformer | None = None, retranslate: bool = True,
                 max_new_words: int = api.MAX_NEW_WORDS) -> HeadEffects:
    """Every head switched off alone, in one batch: the drop of each original word's log-probability
    and (retranslate) the new translation with that head off."""
    model = api.load_model() if model is None else model
    _check(model, (), mode)
    heads = all_heads(model)
    rows = [frozenset()] + [frozenset({h}) for h in heads]  # row 0: every head on
    base = api.translate(text, model=model, max_new_words=max_new_words)
    src = _source(model, text).expand(len(rows), -1)  # (1 + n, S)
    produced = _produced(model, base.target_tokens)
    sw = switches(model, rows, mode)
    with switched_off(sw):
        lp = word_log_probs(model, src, produced)  # (1 + n, words)
        texts = _texts(model, model.generate(src, max_new_words)) if retranslate else None
    drops = lp[0] - lp[1:]  # (n, words)
    return HeadEffects(heads=heads, mode=mode, measure="log_prob", tokens=base.target_tokens + (EOS,),
                       effect=drops.mean(axis=1), drops=drops, base_text=base.text,
                       new_texts=None if texts is None else tuple(texts[1:]))
