"""Capture every attention call of a Hugging Face model, exactly as the model computes it.

transformers lets a model be loaded with `attn_implementation=<name>` where <name> is a function
registered in its `AttentionInterface`. Ours receives the per-head query, key and value after every
projection (and RoPE, and the cache), the additive mask and the scale — the very tensors the model
uses — computes eager attention from them, and, when a recorder is active in the current context,
keeps a copy. Nothing is attached to the model per request, so one loaded model serves every
Streamlit session; the recorder lives in a ContextVar, so threads never see each other's records.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import inspect
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass

import torch
from torch import nn
from transformers import AttentionInterface
from transformers.masking_utils import AttentionMaskInterface, eager_mask, sdpa_mask

from attention import head_mask

IMPLEMENTATION = "attention_trace"


@dataclass(frozen=True)
class CallRecord:
    """One attention call, batched, as torch tensors on the CPU."""

    module: nn.Module
    q: torch.Tensor  # (B, nh, Tq, hs)
    shared_k: torch.Tensor  # (B, n_kv, Tk, hs) as the model handed them: grouped-query heads share these
    shared_v: torch.Tensor  # (B, n_kv, Tk, hs)
    mask: torch.Tensor | None  # (B, 1, Tq, Tk) additive, or None
    bias: torch.Tensor | None  # (B or 1, nh, Tq, Tk) additive position bias (T5), or None
    scale: float
    softcap: float | None
    weights: torch.Tensor | None  # (B, nh, Tq, Tk) the weights the model used; None: a lean call (SDPA)
    sinks: torch.Tensor | None  # (nh,) sink logits (GPT-OSS s_aux), or None
    z: torch.Tensor  # (B, nh, Tq, hs) the output the model used, before heads are merged
    unread: tuple[str, ...] = ()  # tensor arguments this function does not apply (e.g. Inkling's per-token sinks)
    causal: bool = False  # a lean call with no mask tensor: torch's is_causal rule (key j ≤ query i + Tk − Tq)

    @functools.cached_property
    def k(self) -> torch.Tensor:
        """(B, nh, Tk, hs) the key each query head read (key/value heads repeated, made on first use)."""
        return _repeat_kv(self.shared_k, self.q.shape[1] // self.shared_k.shape[1])

    @functools.cached_property
    def v(self) -> torch.Tensor:
        """(B, nh, Tk, hs) the value each query head read."""
        return _repeat_kv(self.shared_v, self.q.shape[1] // self.shared_v.shape[1])


# What this function applies; a tensor the model hands it under another name that the model's own eager
# function names as a parameter (Inkling's per-token `sinks`) changes the numbers: the call says so.
# Names no eager function reads (HY-V4's `indices`, for a flash kernel) change nothing.
_APPLIED = frozenset({"module", "query", "key", "value", "attention_mask", "scaling", "dropout", "softcap",
                      "position_bias", "s_aux"})


@functools.cache
def _eager_parameters(module_name: str) -> frozenset[str]:
    """The parameters of the eager attention function in the model's own file (none: the shared one)."""
    eager = getattr(sys.modules.get(module_name), "eager_attention_forward", None)
    try:
        return frozenset(inspect.signature(eager).parameters) - _APPLIED if eager is not None else frozenset()
    except (TypeError, ValueError):
        return frozenset()

_recorder: contextvars.ContextVar[list[CallRecord] | None] = contextvars.ContextVar("attention_recorder", default=None)
# Lean: the model's fast attention (torch's scaled_dot_product_attention) computes z, and no call makes or
# keeps the n × n weights of every head; the mask builder then gives None for a plain causal mask.
_lean: contextvars.ContextVar[bool] = contextvars.ContextVar("attention_lean", default=False)
# Keys hidden per key/value head (KV-cache eviction, attention/lm/evict.py): layer -> an additive float mask
# (B, n_kv, Tq, Tk), 0 where a key is kept, the dtype's lowest where it was evicted; a group's query heads share it.
_key_masks: contextvars.ContextVar[dict[int, torch.Tensor] | None] = contextvars.ContextVar("attention_key_masks",
                                                                                           default=None)


@contextlib.contextmanager
def recording(lean: bool = False) -> Iterator[list[CallRecord]]:
    """Within this block, every attention call in this thread/context is appended to the list. `lean`:
    the calls run torch's SDPA and record q, k, v and z without weights (long texts)."""
    records: list[CallRecord] = []
    token, lean_token = _recorder.set(records), _lean.set(lean)
    try:
        yield records
    finally:
        _recorder.reset(token)
        _lean.reset(lean_token)


@contextlib.contextmanager
def fast() -> Iterator[None]:
    """Within this block, calls run torch's SDPA as in a lean recording, and nothing is recorded (a long prompt
    read in one pass with no n × n made: what a recording would keep of every layer's q and z is not kept)."""
    token = _lean.set(True)
    try:
        yield
    finally:
        _lean.reset(token)


@contextlib.contextmanager
def hiding_keys(masks: dict[int, torch.Tensor]) -> Iterator[None]:
    """Within this block, layer L's calls add masks[L] (B, n_kv, Tq, Tk) to every query head of each key/value
    group (eager attention: the weights come out 0 on hidden keys). A layer not named is left as it is."""
    token = _key_masks.set(masks)
    try:
        yield
    finally:
        _key_masks.reset(token)


def _hidden_keys(module: nn.Module) -> torch.Tensor | None:
    masks = _key_masks.get()
    return None if masks is None else masks.get(getattr(module, "layer_idx", -1))


def _mask(*args, **kwargs):
    """The mask this implementation's calls receive: eager's additive 4-D mask, or in a lean recording
    SDPA's (None for a plain causal mask, so no n × n is made: 256 MiB at 8,192 tokens)."""
    return sdpa_mask(*args, **kwargs) if _lean.get() else eager_mask(*args, **kwargs)


def _explicit_mask(module: nn.Module, query: torch.Tensor, key: torch.Tensor,
                   mask: torch.Tensor | None) -> torch.Tensor | None:
    """SDPA's mask as eager's: a boolean mask additive, and None with a causal module the causal mask."""
    low = torch.finfo(query.dtype).min
    if mask is not None:
        return mask if mask.dtype != torch.bool else torch.zeros(mask.shape, dtype=query.dtype).masked_fill_(~mask, low)
    tq, tk = query.shape[2], key.shape[2]
    if tq < 2 or not getattr(module, "is_causal", False):
        return None
    hidden = torch.ones(tq, tk, dtype=torch.bool).triu(tk - tq + 1)
    return torch.zeros(1, 1, tq, tk, dtype=query.dtype).masked_fill_(hidden, low)


def _lean_attention(module: nn.Module, query: torch.Tensor, key: torch.Tensor, value: torch.Tensor,
                    attention_mask: torch.Tensor | None, scale: float) -> tuple[torch.Tensor, torch.Tensor | None, bool]:
    """z (B, nh, Tq, hs_v) by torch's SDPA, the model's fast attention, with transformers' own rule for
    is_causal; and the mask as an additive float (None when the causal rule stands for it)."""
    mask = None if attention_mask is None else attention_mask[:, :, :, : key.shape[-2]]
    causal = mask is None and query.shape[2] > 1 and bool(getattr(module, "is_causal", False))
    z = nn.functional.scaled_dot_product_attention(query, key, value, attn_mask=mask, is_causal=causal,
                                                   scale=scale, enable_gqa=key.shape[1] != query.shape[1])
    if mask is not None and mask.dtype == torch.bool:  # SDPA's boolean mask (True: seen) as the additive one
        mask = torch.zeros(mask.shape, dtype=query.dtype).masked_fill_(~mask, torch.finfo(query.dtype).min)
    return z, mask, causal


def _repeat_kv(x: torch.Tensor, n_rep: int) -> torch.Tensor:
    """(B, n_kv, T, hs) -> (B, n_kv·n_rep, T, hs): grouped-query heads share one key/value head."""
    return x if n_rep == 1 else torch.repeat_interleave(x, n_rep, dim=1)


def capturing_attention(
    module: nn.Module,
    query: torch.Tensor,
    key: torch.Tensor,
    value: torch.Tensor,
    attention_mask: torch.Tensor | None,
    scaling: float | None = None,
    dropout: float = 0.0,
    softcap: float | None = None,
    position_bias: torch.Tensor | None = None,
    s_aux: torch.Tensor | None = None,
    **kwargs,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Eager attention, step by step, as transformers' own eager functions do it. Grouped-query heads
    are multiplied by their shared key and value as one group rather than by repeated copies: the same
    products, without copying the whole cache (9 × 1,024 keys a layer) for every written token.
    In a lean recording, torch's SDPA instead (no weights made), unless the call needs what SDPA does
    not apply (a softcap, a position bias, sink logits): then eager, with the mask SDPA's builder left
    implicit made explicit."""
    (b, nh, tq, hs), n_kv = query.shape, key.shape[1]
    scale = hs ** -0.5 if scaling is None else float(scaling)
    hidden = _hidden_keys(module)
    if _lean.get():
        if hidden is None and softcap is None and position_bias is None and s_aux is None and not module.training:
            z, mask, causal = _lean_attention(module, query, key, value, attention_mask, scale)
            _record(module, query, key, value, mask, None, scale, None, None, None, z, kwargs, causal)
            z = head_mask.apply(id(module), z)
            return z.transpose(1, 2).contiguous(), None
        attention_mask = _explicit_mask(module, query, key, attention_mask)
    grouped = query.reshape(b, n_kv, nh // n_kv * tq, hs)  # query head h reads key/value head h // (nh / n_kv)

    scores = torch.matmul(grouped, key.transpose(2, 3)).view(b, nh, tq, -1)  # (B, nh, Tq, Tk)  S = Q·Kᵀ
    scaled = scores * scale
    if softcap is not None:
        scaled = torch.tanh(scaled / softcap) * softcap
    if position_bias is not None:
        scaled = scaled + position_bias
    mask = None
    if attention_mask is not None:
        mask = attention_mask[:, :, :, : key.shape[-2]]
        scaled = scaled + mask
    if hidden is not None:  # (B, n_kv, Tq, Tk): the same keys hidden from every query head of a group
        scaled = (scaled.view(b, n_kv, nh // n_kv, tq, -1) + hidden[:, :, None]).view(b, nh, tq, -1)
    if s_aux is not None:  # attention sinks: an extra logit per head that takes weight but has no value
        sinks = s_aux.reshape(1, -1, 1, 1).expand(query.shape[0], -1, query.shape[-2], -1)
        full = torch.cat([scaled, sinks], dim=-1)
        full = full - full.max(dim=-1, keepdim=True).values
        weights = nn.functional.softmax(full, dim=-1, dtype=full.dtype)[..., :-1]
    else:
        weights = nn.functional.softmax(scaled, dim=-1, dtype=torch.float32).to(query.dtype)
    weights = nn.functional.dropout(weights, p=dropout, training=module.training)
    z = torch.matmul(weights.reshape(b, n_kv, -1, weights.shape[-1]), value).view(b, nh, tq, value.shape[-1])  # Z = A·V
    _record(module, query, key, value, mask, position_bias, scale, softcap, weights, s_aux, z, kwargs)
    z = head_mask.apply(id(module), z)  # heads switched off (ablation, attention/head_mask.py); recorded as computed
    return z.transpose(1, 2).contiguous(), weights  # (B, Tq, nh, hs)


def _record(module: nn.Module, query: torch.Tensor, key: torch.Tensor, value: torch.Tensor,
            mask: torch.Tensor | None, bias: torch.Tensor | None, scale: float, softcap: float | None,
            weights: torch.Tensor | None, s_aux: torch.Tensor | None, z: torch.Tensor, kwargs: dict,
            causal: bool = False) -> None:
    records = _recorder.get()
    if records is None:
        return
    records.append(CallRecord(
        module=module, q=query.detach(), shared_k=key.detach(), shared_v=value.detach(),
        mask=None if mask is None else mask.detach(), bias=None if bias is None else bias.detach(),
        scale=scale, softcap=softcap, weights=None if weights is None else weights.detach(),
        sinks=None if s_aux is None else s_aux.detach().reshape(-1).expand(query.shape[1]).clone(),
        z=z.detach(),
        unread=tuple(sorted(k for k, x in kwargs.items() if isinstance(x, torch.Tensor)
                            and k in _eager_parameters(type(module).__module__))),
        causal=causal,
    ))


def register() -> str:
    """Register the function and its mask builder under IMPLEMENTATION (idempotent).

    The mask builder matters: transformers builds masks per implementation, and without the
    eager one a decoder silently gets no causal mask at all.
    """
    AttentionInterface.register(IMPLEMENTATION, capturing_attention)
    AttentionMaskInterface.register(IMPLEMENTATION, _mask)
    return IMPLEMENTATION


def call_kind(module: nn.Module) -> str:
    """"encoder", "decoder" or "cross", read from the attention module itself."""
    if getattr(module, "is_cross_attention", False) or "Cross" in type(module).__name__:
        return "cross"
    if getattr(module, "is_causal", False):
        return "decoder"
    if getattr(module, "is_decoder", False):
        return "cross"
    return "encoder"


_LAYER_IN_NAME = re.compile(r"\.(\d+)\.")


def call_layer(module: nn.Module, qualified_name: str) -> int:
    """The layer number: from the module's qualified name (".layers.3."), else its layer_idx."""
    m = _LAYER_IN_NAME.search(f".{qualified_name}.")
    if m:
        return int(m.group(1))
    idx = getattr(module, "layer_idx", None)
    return int(idx) if idx is not None else 0
