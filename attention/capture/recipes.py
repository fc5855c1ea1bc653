"""The second capture path, part one: q, k, v of attention written inside the module (never calling the
attention-function registry), read back faithfully.

Hooks installed once when such a model is loaded record, while a recorder is active in this context,
each attention call's arguments (ALiBi, the mask, rotary cos/sin), the outputs of its projection
layers, and the input of its output projection (the heads' Z as the model computed it). A recipe per
attention class then rebuilds q, k, v, the scale, the bias and the mask exactly as that class's forward
does, calling the module's own helpers where it has them. Whether the rebuild is faithful is not
assumed: eager.py checks every site against the model's own weights (output_attentions) and keeps
q, k, v only where they reproduce them to TOLERANCE.
"""

from __future__ import annotations

import contextlib
import contextvars
import inspect
import math
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import torch
from torch import nn

from attention import core


@dataclass
class Seen:
    """One call of an attention module: its arguments by name and what its projections returned."""

    module: nn.Module
    args: dict[str, Any]
    projections: dict[str, torch.Tensor] = field(default_factory=dict)
    context: torch.Tensor | None = None  # (B, Tq, nh·hs) the input of the output projection


@dataclass(frozen=True)
class Rebuilt:
    """What one call's softmax saw, batched: q (B, nh, Tq, hs), k and v (B, nh, Tk, hs) with key/value
    heads repeated, bias and mask additive (B, nh or 1, Tq, Tk) or None, and Z (B, nh, Tq, hs)."""

    kind: str | None  # "decoder" or "cross" when the call says so (encoder–decoder), else None
    q: torch.Tensor
    k: torch.Tensor
    v: torch.Tensor
    scale: float
    bias: torch.Tensor | None
    mask: torch.Tensor | None
    z: torch.Tensor | None


@dataclass(frozen=True)
class Recipe:
    projections: tuple[str, ...]  # attribute names of the projection layers whose outputs are read
    output: str  # attribute name of the output projection (its input is Z); "": the module's own output
    rebuild: Callable[[nn.Module, Seen], Rebuilt | None]  # None: this call cannot be rebuilt


_seen: contextvars.ContextVar[list[Seen] | None] = contextvars.ContextVar("eager_attention_calls", default=None)


@contextlib.contextmanager
def recording() -> Iterator[list[Seen]]:
    calls: list[Seen] = []
    token = _seen.set(calls)
    try:
        yield calls
    finally:
        _seen.reset(token)


def _heads(x: torch.Tensor, n_heads: int) -> torch.Tensor:
    """(B, T, nh·hs) -> (B, nh, T, hs)."""
    b, t, _ = x.shape
    return x.reshape(b, t, n_heads, -1).transpose(1, 2)


def _repeat(x: torch.Tensor, n_heads: int) -> torch.Tensor:
    return x if x.shape[1] == n_heads else torch.repeat_interleave(x, n_heads // x.shape[1], dim=1)


def _additive(mask: torch.Tensor | None, hidden_where: bool) -> torch.Tensor | None:
    """A boolean mask (True where `hidden_where`) as the additive mask core.py uses; floats pass."""
    if mask is None or mask.dtype != torch.bool:
        return mask
    hide = mask if hidden_where else ~mask
    return torch.where(hide, core.MASKED, 0.0).to(torch.float32)


def _z(m: nn.Module, seen: Seen) -> torch.Tensor | None:
    return None if seen.context is None else _heads(seen.context, m.num_heads)


def _bloom(m: nn.Module, seen: Seen) -> Rebuilt:
    q, k, v = m._reshape(seen.projections["query_key_value"])  # (B, nh, T, hs) each
    b, nh, tq, tk = q.shape[0], m.num_heads, q.shape[2], k.shape[2]
    alibi = seen.args["alibi"].reshape(b, nh, 1, -1)[..., -tk:].expand(b, nh, tq, tk)  # added after the scale
    return Rebuilt(None, q, k, v, float(m.inv_norm_factor), alibi, seen.args.get("attention_mask"), _z(m, seen))


def _mpt(m: nn.Module, seen: Seen) -> Rebuilt:
    mixed = seen.projections["Wqkv"]
    if m.clip_qkv:
        mixed = mixed.clamp(min=-m.clip_qkv, max=m.clip_qkv)
    q, k, v = (_heads(x, m.n_heads) for x in mixed.chunk(3, dim=2))
    b, nh, tq, tk = q.shape[0], m.n_heads, q.shape[2], k.shape[2]
    bias = seen.args.get("position_bias")
    if bias is not None:  # (nh, 1, max_seq_len): the last Tk columns, the same for every query
        bias = bias[:, max(0, bias.shape[1] - tq):, max(0, bias.shape[2] - tk):].expand(nh, tq, tk)
        bias = bias.unsqueeze(0).expand(b, nh, tq, tk)
    mask = _additive(seen.args.get("attention_mask"), hidden_where=True)  # MPT fills where True
    z = None if seen.context is None else _heads(seen.context, m.n_heads)
    return Rebuilt(None, q, k, v, float(m.softmax_scale), bias, mask, z)


def _falcon(m: nn.Module, seen: Seen) -> Rebuilt:
    q, k, v = m._split_heads(seen.projections["query_key_value"])  # (B, T, heads, hs)
    n_kv = m.num_heads if m.new_decoder_architecture else m.num_kv_heads
    b, t = q.shape[:2]
    q = q.transpose(1, 2).reshape(b, m.num_heads, t, m.head_dim)
    k = k.transpose(1, 2).reshape(b, n_kv, t, m.head_dim)
    v = v.transpose(1, 2).reshape(b, n_kv, t, m.head_dim)
    alibi = seen.args.get("alibi")
    mask = seen.args.get("attention_mask")
    if alibi is None:  # rotary positions, with the module's own function
        cos, sin = seen.args["position_embeddings"]
        q, k = sys.modules[type(m).__module__].apply_rotary_pos_emb(q, k, cos, sin)
        return Rebuilt(None, q, _repeat(k, m.num_heads), _repeat(v, m.num_heads), 1 / math.sqrt(m.head_dim),
                       None, mask, _z(m, seen))
    # Falcon adds ALiBi before scaling, (S + alibi)·scale = S·scale + alibi·scale, and its model has put
    # alibi/√d into the per-head mask as well (MASKED where hidden): both are the bias, the rest the mask.
    bias = (alibi.reshape(b, m.num_heads, 1, -1) * m.inv_norm_factor).expand(b, m.num_heads, t, k.shape[2])
    if mask is not None and mask.dtype != torch.bool and mask.shape[1] == m.num_heads:
        hidden = mask <= core.MASKED / 2
        bias = bias + torch.where(hidden, 0.0, mask)
        mask = torch.where(hidden[:, :1], core.MASKED, 0.0)
    return Rebuilt(None, q, _repeat(k, m.num_heads), _repeat(v, m.num_heads), float(m.inv_norm_factor), bias,
                   _additive(mask, hidden_where=False), _z(m, seen))


def _gpt_neo(m: nn.Module, seen: Seen) -> Rebuilt:
    q, k, v = (_heads(seen.projections[p], m.num_heads) for p in ("q_proj", "k_proj", "v_proj"))
    tq, tk = q.shape[2], k.shape[2]
    causal = _additive(m.bias[:, :, tk - tq: tk, :tk], hidden_where=False)  # global or local (windowed) causal
    mask = seen.args.get("attention_mask")
    mask = causal if mask is None else torch.clamp(causal + mask, min=core.MASKED)
    return Rebuilt(None, q, k, v, 1.0, None, mask, _z(m, seen))  # GPT-Neo does not scale its scores


def _led_decoder(m: nn.Module, seen: Seen) -> Rebuilt:
    cross = seen.args.get("key_value_states") is not None
    q, k, v = (_heads(seen.projections[p], m.num_heads) for p in ("q_proj", "k_proj", "v_proj"))
    return Rebuilt("cross" if cross else "decoder", q, k, v, float(m.scaling), None,
                   seen.args.get("attention_mask"), _z(m, seen))


def _led_encoder(m: nn.Module, seen: Seen) -> Rebuilt | None:
    """Longformer's local attention: each query sees the keys within one_sided positions of itself (the
    band the model computes in overlapping chunks), as a full matrix with the rest masked."""
    if seen.args.get("is_global_attn"):  # global tokens take another route through the layer
        return None
    q, k, v = (_heads(seen.projections[p].transpose(0, 1), m.num_heads) for p in ("query", "key", "value"))
    t = q.shape[2]
    pos = torch.arange(t)
    outside = (pos[None, :] - pos[:, None]).abs() > m.one_sided_attn_window_size  # (T, T)
    padded = seen.args["attention_mask"] != 0  # (B, T): −10000 where the model hides the key
    hidden = outside[None, None] | padded[:, None, None, :]
    mask = torch.where(hidden, core.MASKED, 0.0)
    return Rebuilt("encoder", q, k, v, 1 / math.sqrt(m.head_dim), None, mask, _z(m, seen))


RECIPES: dict[str, Recipe] = {
    "BloomAttention": Recipe(("query_key_value",), "dense", _bloom),
    "MptAttention": Recipe(("Wqkv",), "out_proj", _mpt),
    "FalconAttention": Recipe(("query_key_value",), "dense", _falcon),
    "GPTNeoSelfAttention": Recipe(("q_proj", "k_proj", "v_proj"), "out_proj", _gpt_neo),
    "LEDDecoderAttention": Recipe(("q_proj", "k_proj", "v_proj"), "out_proj", _led_decoder),
    "LEDEncoderSelfAttention": Recipe(("query", "key", "value"), "", _led_encoder),
}

# Attention classes whose q·k we do not rebuild, with the kind of site they make and why.
WEIGHTS_ONLY: dict[str, tuple[str, str]] = {
    "DisentangledSelfAttention": ("encoder", "disentangled"),  # DeBERTa: content and position terms
    "LEDEncoderSelfAttention": ("encoder", "local"),  # Longformer with global tokens
}


def _current(module: nn.Module) -> Seen | None:
    calls = _seen.get()
    if calls is None:
        return None
    for seen in reversed(calls):
        if seen.module is module:
            return seen
    return None


def _on_call(module: nn.Module, args: tuple, kwargs: dict) -> None:
    calls = _seen.get()
    if calls is not None:
        bound = inspect.signature(module.forward).bind_partial(*args, **kwargs).arguments
        calls.append(Seen(module, {**bound.pop("kwargs", {}), **bound}))


def _on_projection(owner: nn.Module, name: str, _module: nn.Module, _args: tuple, output: torch.Tensor) -> None:
    seen = _current(owner)
    if seen is not None:
        seen.projections[name] = output.detach().clone()  # a copy: Longformer divides its query in place


def _on_output(owner: nn.Module, _module: nn.Module, args: tuple) -> None:
    seen = _current(owner)
    if seen is not None:
        seen.context = args[0].detach()


def _on_own_output(module: nn.Module, _args: tuple, output: tuple) -> None:
    seen = _current(module)
    if seen is not None:
        seen.context = output[0].detach()


def install(model: nn.Module) -> int:
    """Hook every attention module that has a recipe (once, when the model is loaded; the hooks only
    record inside recording()). Returns how many modules were hooked."""
    hooked = 0
    for module in model.modules():
        recipe = RECIPES.get(type(module).__name__)
        if recipe is None:
            continue
        module.register_forward_pre_hook(_on_call, with_kwargs=True)
        for name in recipe.projections:
            getattr(module, name).register_forward_hook(partial(_on_projection, module, name))
        if recipe.output:
            getattr(module, recipe.output).register_forward_pre_hook(partial(_on_output, module))
        else:
            module.register_forward_hook(_on_own_output)
        hooked += 1
    return hooked


def rebuild(seen: Seen) -> Rebuilt | None:
    """The call's q, k, v, … per its class's recipe; None when the projections were not all seen."""
    recipe = RECIPES[type(seen.module).__name__]
    if any(p not in seen.projections for p in recipe.projections):
        return None
    return recipe.rebuild(seen.module, seen)


def weights_only_reasons(model: nn.Module) -> dict[str, str]:
    """Per kind, why this model's sites of that kind hold weights only (from its attention classes)."""
    return dict(WEIGHTS_ONLY[type(m).__name__] for m in model.modules() if type(m).__name__ in WEIGHTS_ONLY)
