"""Switch heads of a Hugging Face model off and measure what changes.

- A folder whose model has a language-model head (a causal LM, or a seq2seq LM) is loaded with it,
  and the measure is the log-probability of the input's own next tokens (causal) or of the target's
  tokens (seq2seq, teacher-forced), with and without the heads.
- Any other model (a sentence encoder such as all-MiniLM-L6-v2): the cosine between the final hidden
  states with and without, per position, and between the mean-pooled sentence embeddings.

One-at-a-time effects for every head run as one batch: row 0 every head on, row 1 + i head i off.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import torch
from cachetools import LRUCache
from transformers import AutoConfig, AutoModelForCausalLM, AutoModelForSeq2SeqLM

from attention import head_mask
from attention.analysis.effects import Ablation, HeadEffects, HeadId, parse_heads
from attention.capture import attention_fn, growing_batch, hf_forward, hf_model
from attention.errors import ModelLoadError
from attention.head_mask import Switch, switched_off
from attention.trace import Trace

REFERENCE_SENTENCES = (  # whose mean head outputs stand in for a head in "mean" mode
    "The black cat drank the milk.", "The ball is blue.", "A woman reads the letters on the table.",
    "Where did the children go after school?", "Prices rose sharply in the spring.",
    "She said that the train would be late.",
)
_KIND_ORDER = {"encoder": 0, "decoder": 1, "cross": 2}


@dataclass(frozen=True, eq=False)
class AblatedTrace(Trace):
    """The trace of a run with heads switched off (downstream sites see the change; an off head's own
    q, k, v and weights are as it computed them, only its output is replaced), and what changed."""

    ablation: Ablation | None = None


def lm_class(path: str | None):
    """The Auto class of the folder's language-model head, or None when it has none."""
    path = os.path.abspath(path) if path else hf_model.default_model_path()
    config = AutoConfig.from_pretrained(path, local_files_only=True)
    names = " ".join(getattr(config, "architectures", None) or [])
    if getattr(config, "is_encoder_decoder", False) and "ForConditionalGeneration" in names:
        return AutoModelForSeq2SeqLM
    if "ForCausalLM" in names or "LMHeadModel" in names:
        return AutoModelForCausalLM
    return None


def read_lm(path: str | None) -> hf_model.LoadedModel | None:
    """The model in `path` WITH its language-model head, uncached; None when the folder has none."""
    path = os.path.abspath(path) if path else hf_model.default_model_path()
    try:
        cls = lm_class(path)
        if cls is None:
            return None
        tokenizer = hf_model.AutoTokenizer.from_pretrained(path, local_files_only=True)
        model = cls.from_pretrained(path, local_files_only=True, attn_implementation=attention_fn.register(),
                                    dtype=torch.float32)
    except Exception as exc:  # one clear message, as hf_model.read_model gives
        raise ModelLoadError(f"Cannot load a model from '{path}': {type(exc).__name__}: {exc}") from exc
    return hf_model.wrap(model, tokenizer, name=os.path.basename(os.path.normpath(path)), path=path)


_notebook_models: LRUCache = LRUCache(maxsize=2)
_lock = threading.Lock()


def load(path: str | None = None) -> hf_model.LoadedModel:
    """For a notebook: the LM-headed model when the folder has one, else the plain model, kept."""
    key = os.path.abspath(path) if path else hf_model.default_model_path()
    with _lock:
        if key not in _notebook_models:
            _notebook_models[key] = read_lm(key) or hf_model.load(key)
        return _notebook_models[key]


def has_lm_head(lm: hf_model.LoadedModel) -> bool:
    get = getattr(lm.model, "get_output_embeddings", None)
    return get is not None and get() is not None and lm_class(lm.path or hf_model.default_model_path()) is not None


@lru_cache(maxsize=4)
def _sites(lm: hf_model.LoadedModel) -> dict[tuple[str, int], tuple[torch.nn.Module, int, int]]:
    """(kind, layer) -> (attention module, heads, d_head), read from one probe run."""
    enc = hf_model.encode(lm, ["a"])
    inputs = dict(enc.inputs)
    if lm.is_encoder_decoder:
        inputs.update(hf_model.decoder_inputs(lm, ["a"]).inputs)
    _, records = hf_forward.run(lm, inputs)
    out = {}
    for rec in records:
        key = (attention_fn.call_kind(rec.module), attention_fn.call_layer(rec.module, lm.module_names.get(id(rec.module), "")))
        out[key] = (rec.module, rec.q.shape[1], rec.q.shape[-1])
    return out


def all_heads(lm: hf_model.LoadedModel) -> tuple[HeadId, ...]:
    sites = sorted(_sites(lm).items(), key=lambda kv: (_KIND_ORDER[kv[0][0]], kv[0][1]))
    return tuple((kind, layer, h) for (kind, layer), (_, nh, _) in sites for h in range(nh))


@lru_cache(maxsize=4)
def mean_outputs(lm: hf_model.LoadedModel) -> dict[tuple[str, int], np.ndarray]:
    """Per site, each head's mean output z over every real position of REFERENCE_SENTENCES, (nh, hs)."""
    targets = list(REFERENCE_SENTENCES) if lm.is_encoder_decoder else None
    sums: dict[tuple[str, int], np.ndarray] = {}
    counts: dict[tuple[str, int], int] = {}
    for tr in hf_model.trace_batch(lm, list(REFERENCE_SENTENCES), targets):
        for site in tr.sites:
            key = (site.kind, site.layer)
            sums[key] = sums.get(key, 0.0) + site.model_z.astype(np.float64).sum(axis=1)
            counts[key] = counts.get(key, 0) + site.model_z.shape[1]
    return {key: sums[key] / counts[key] for key in sums}


def switches(lm: hf_model.LoadedModel, rows: list[frozenset[HeadId]], mode: str = "zero") -> dict[int, Switch]:
    head_mask.check({h for row in rows for h in row}, all_heads(lm), mode)
    sites = {key: head_mask.SiteShape(id(module), nh, hs) for key, (module, nh, hs) in _sites(lm).items()}
    return head_mask.build(rows, sites, mode, mean_outputs(lm) if mode == "mean" else None)


def _batch(lm: hf_model.LoadedModel, text: str, target: str | None, rows: int):
    """The inputs repeated `rows` times, the tokens scored or compared, and how to score them."""
    enc = hf_model.encode(lm, [text])
    inputs = dict(enc.inputs)
    labels, tokens = None, tuple(enc.tokens[0])
    if lm.is_encoder_decoder:
        target = text if target is None else target
        dec = hf_model.decoder_inputs(lm, [target])
        inputs.update(dec.inputs)
        if has_lm_head(lm):
            labels = hf_model.encode(lm, [target]).inputs["input_ids"]  # (1, Td) the words each position should say
            tokens = tuple(lm.tokenizer.convert_ids_to_tokens(labels[0].tolist()))
        else:  # no head to score words with: the decoder's final states are compared, position by position
            tokens = tuple(dec.tokens[0])
    elif has_lm_head(lm):
        labels = inputs["input_ids"][:, 1:]  # the next token at each position
        tokens = tokens[1:]
    inputs = {k: v.expand(rows, *v.shape[1:]).contiguous() for k, v in inputs.items()}
    return inputs, labels, tokens


def _measure(lm: hf_model.LoadedModel, inputs: dict, labels: torch.Tensor | None) -> np.ndarray:
    """(B, words) log-probabilities of the labels, or (B, T, C) final hidden states (no LM head)."""
    with torch.inference_mode():
        out = lm.model(**inputs)
    if labels is not None and hasattr(out, "logits"):
        logits = out.logits.double()
        if not lm.is_encoder_decoder:
            logits = logits[:, :-1]
        lp = torch.log_softmax(logits, dim=-1)
        return lp.gather(-1, labels.expand(lp.shape[0], -1)[..., None])[..., 0].numpy()
    return out.last_hidden_state.double().numpy()


def _cosine(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (a * b).sum(-1) / np.maximum(np.linalg.norm(a, axis=-1) * np.linalg.norm(b, axis=-1), 1e-30)


def _ablation(heads, mode, tokens, base: np.ndarray, off: np.ndarray, lm_measure: bool) -> Ablation:
    if lm_measure:
        return Ablation(tuple(sorted(heads)), mode, "log_prob", tokens, base_log_probs=base, ablated_log_probs=off)
    return Ablation(tuple(sorted(heads)), mode, "cosine", tokens, hidden_cosine=_cosine(base, off),
                    pooled_cosine=float(_cosine(base.mean(axis=0), off.mean(axis=0))))


def trace(text: str, model: str | None = None, target: str | None = None, ablate: str | Iterable | None = None,
          mode: str = "zero", lm: hf_model.LoadedModel | None = None) -> AblatedTrace:
    """The trace with the heads `ablate` switched off, and what changed (log-probs or cosines)."""
    lm = load(model) if lm is None else lm
    heads = parse_heads(ablate)
    rows = [frozenset(), heads]  # every head on, then the heads off: one batch
    sw = switches(lm, rows, mode)
    inputs, labels, tokens = _batch(lm, text, target, 2)
    with switched_off(sw):
        measured = _measure(lm, inputs, labels)
    one = {k: v for k, v in switches(lm, [heads], mode).items()}
    with switched_off(one):
        tr = hf_model.trace_batch(lm, [text], None if target is None else [target])[0]
    ablation = _ablation(heads, mode, tokens, measured[0], measured[1], labels is not None)
    fields = {name: getattr(tr, name) for name in Trace.__dataclass_fields__}
    return AblatedTrace(**fields, ablation=ablation)


def grown_layers(lm: hf_model.LoadedModel, heads: Sequence[HeadId]) -> torch.nn.ModuleList | None:
    """The decoder layers when a batch of these heads off (in this order) can grow layer by layer
    (capture/growing_batch.py: the rows below a head's layer are row 0's, computed once); None otherwise."""
    if lm.is_encoder_decoder:
        return None
    return growing_batch.layers_for(lm.model, heads, {key: module for key, (module, _, _) in _sites(lm).items()})


BATCH_ELEMENTS = 1 << 25  # rows × heads × T² weights per attention call (128 MB of float32) at most per batch


def head_effects(text: str, model: str | None = None, target: str | None = None, mode: str = "zero",
                 lm: hf_model.LoadedModel | None = None) -> HeadEffects:
    """Every head switched off alone, in batches: each batch's row 0 has every head on and is the
    reference for its other rows (a long input is split so no batch's weights exceed BATCH_ELEMENTS)."""
    lm = load(model) if lm is None else lm
    heads = all_heads(lm)
    _, labels, tokens = _batch(lm, text, target, 1)
    n_pos = max(len(tokens), 1) + 2
    n_heads = max(nh for _, nh, _ in _sites(lm).values())
    per_batch = max(1, min(len(heads), BATCH_ELEMENTS // (n_heads * n_pos * n_pos) - 1))
    layers = grown_layers(lm, heads)
    results = []
    for start in range(0, len(heads), per_batch):
        chunk = heads[start:start + per_batch]
        rows = [frozenset()] + [frozenset({h}) for h in chunk]
        with switched_off(switches(lm, rows, mode)):
            if layers is None:
                inputs, labels, tokens = _batch(lm, text, target, len(rows))
                measured = _measure(lm, inputs, labels)
            else:  # row 0 alone, the others joining at their head's layer (growing_batch)
                inputs, labels, tokens = _batch(lm, text, target, 1)
                with growing_batch.growing(layers, growing_batch.counts(chunk, layers)):
                    measured = _measure(lm, inputs, labels)
        if labels is not None:
            results.append(measured[0] - measured[1:])  # (rows − 1, words) drops
        else:
            results.append(_cosine(measured[0].mean(axis=0)[None], measured[1:].mean(axis=1)))  # pooled cosines
    if labels is not None:
        drops = np.concatenate(results)
        return HeadEffects(heads, mode, "log_prob", tokens, effect=drops.mean(axis=1), drops=drops)
    pooled = np.concatenate(results)
    return HeadEffects(heads, mode, "cosine", tokens, effect=1.0 - pooled, pooled_cosine=pooled)
