"""The parts of a causal language model's final residual at one position, read from the real model.

    r = e + Σ_l ( Σ_h z_lh · W_O[:, h's columns]ᵀ + b_O,l ) + Σ_l mlp_l        (pre-norm residual models)

One forward pass over the prompt up to the position (a causal model's output there reads nothing later), with
hooks that keep the last position only: the input of layer 0 (the embedding e), the input of each layer's
attention output projection (every head's z side by side, after the model's own merge), each MLP's output, and
the final norm's input r and output. The hooks are installed once per model and record only inside
`reading()` in this thread (a ContextVar, as attention_fn's recorder): one loaded model serves every session.

A model is refused, with the reason, when its attention output projection is not a linear layer (nn.Linear,
GPT-2's Conv1D) over the heads side by side, when a layer has no MLP module or the model no final RMSNorm /
LayerNorm, or when its logits are soft-capped (then no part adds up). Whether the rest adds up (a norm after
attention, as Gemma 2 has, breaks the sum) is not refused here: the result's check says it.
"""

from __future__ import annotations

import contextlib
import contextvars
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

import torch
from torch import nn

from attention.capture import attention_fn, hf_ablation, hf_forward
from attention.capture.loaded import LoadedModel

OUT_NAMES = ("o_proj", "c_proj", "out_proj", "dense", "o", "wo")  # the attention output projection
MLP_NAMES = ("mlp", "feed_forward", "ffn")
NORM_NAMES = ("norm", "ln_f", "final_layernorm", "final_layer_norm", "norm_f")
Z_AGREE = 1e-5  # the projection's input against the z our attention function handed back


class Refused(ValueError):
    """This model's logit does not split into heads this way; the message says why."""


@dataclass(frozen=True, eq=False)
class Layout:
    """Where the parts are in one model (found once per model)."""

    layers: tuple[int, ...]  # the decoder layers, in order
    attention: tuple[nn.Module, ...]  # per layer, the attention module
    out_proj: tuple[nn.Module, ...]  # per layer, its output projection (Linear or Conv1D)
    mlp: tuple[nn.Module, ...]  # per layer
    first: nn.Module  # layer 0 (its input is the embedding)
    norm: nn.Module  # the final norm
    heads: int
    d_head: int  # the width of one head's z (the value head)
    norm_kind: str  # "rms" or "layer" (centred)
    eps: float


@dataclass(frozen=True, eq=False)
class Read:
    """One position's parts as the model computed them, float32 torch tensors."""

    z: torch.Tensor  # (L, H·d_head) each layer's projection input: heads side by side
    mlp: torch.Tensor  # (L, C)
    embedding: torch.Tensor  # (C,) the residual entering layer 0
    residual: torch.Tensor  # (C,) r, the final norm's input
    normed: torch.Tensor  # (C,) the final norm's output
    logits: torch.Tensor  # (V,) the model's own logits at the position
    z_gap: float  # max |projection input − our attention function's z|: 0 when heads are side by side
    reads: torch.Tensor | None  # (L, H, T) each head's attention from the position: what it read


def _weight_of(proj: nn.Module) -> torch.Tensor | None:
    """W_O as (C_out, H·d_head): Linear's weight, Conv1D's transposed; None for any other module."""
    if isinstance(proj, nn.Linear):
        return proj.weight
    if type(proj).__name__ == "Conv1D" and hasattr(proj, "nf"):  # GPT-2: y = x·W + b, W (in, out)
        return proj.weight.T
    return None


def out_weight(proj: nn.Module) -> tuple[torch.Tensor, torch.Tensor | None]:
    """(W_O (C, H·d_head), b_O (C,) or None) of an output projection the layout accepted."""
    w = _weight_of(proj)
    assert w is not None
    return w, proj.bias


def _child(module: nn.Module, names: tuple[str, ...]) -> tuple[str, nn.Module] | None:
    for name in names:
        found = getattr(module, name, None)
        if isinstance(found, nn.Module):
            return name, found
    return None


def _parent(lm: LoadedModel, module: nn.Module) -> nn.Module:
    name = lm.module_names.get(id(module), "")
    return lm.model.get_submodule(name.rsplit(".", 1)[0]) if "." in name else lm.model


def _final_norm(lm: LoadedModel) -> nn.Module:
    base = getattr(lm.model, "base_model", lm.model)
    found = _child(base, NORM_NAMES) or _child(getattr(base, "decoder", base), NORM_NAMES)
    if found is None:
        raise Refused("no final norm found (looked for " + ", ".join(NORM_NAMES) + ")")
    return found[1]


def _norm_kind(norm: nn.Module) -> tuple[str, float]:
    name = type(norm).__name__
    eps = getattr(norm, "variance_epsilon", getattr(norm, "eps", None))
    if eps is None or getattr(norm, "weight", None) is None:
        raise Refused(f"its final norm ({name}) has no weight and epsilon to read")
    if "Gemma" in name:  # Gemma's norms scale by 1 + γ
        raise Refused(f"its final norm ({name}) scales by 1 + γ, not γ")
    if isinstance(norm, nn.LayerNorm) or ("LayerNorm" in name and "RMS" not in name):
        return "layer", float(eps)
    if "RMSNorm" in name:
        return "rms", float(eps)
    raise Refused(f"its final norm ({name}) is neither an RMSNorm nor a LayerNorm")


@lru_cache(maxsize=4)
def layout(lm: LoadedModel) -> Layout:
    """Where the parts are; raises Refused with the reason when the logit does not split into heads."""
    out = getattr(lm.model, "get_output_embeddings", lambda: None)()
    if lm.is_encoder_decoder or out is None or not isinstance(out, nn.Linear):
        raise Refused("it is not a causal language model with a linear unembedding")
    config = getattr(lm.model.config, "get_text_config", lambda: lm.model.config)()
    if getattr(config, "final_logit_softcapping", None):
        raise Refused("its logits are soft-capped (tanh): no part of a logit adds up")
    sites = sorted((layer, module, nh) for (kind, layer), (module, nh, _) in hf_ablation._sites(lm).items()
                   if kind == "decoder")
    if not sites:
        raise Refused("it has no masked self-attention")
    attention, projections, mlps, widths = [], [], [], set()
    for layer, module, nh in sites:
        found = _child(module, OUT_NAMES)
        if found is None:
            raise Refused(f"layer {layer}'s attention ({type(module).__name__}) has no output projection named "
                          + " or ".join(OUT_NAMES))
        w = _weight_of(found[1])
        if w is None or w.shape[1] % nh:
            raise Refused(f"layer {layer}'s attention output projection ({type(found[1]).__name__}) is not a linear "
                          f"layer over its {nh} heads side by side")
        mlp = _child(_parent(lm, module), MLP_NAMES)
        if mlp is None:
            raise Refused(f"layer {layer} has no MLP module named " + " or ".join(MLP_NAMES))
        attention.append(module)
        projections.append(found[1])
        mlps.append(mlp[1])
        widths.add((nh, w.shape[1] // nh))
    if len(widths) != 1:
        raise Refused("its layers have different numbers or widths of heads")
    (heads, d_head), = widths
    norm = _final_norm(lm)
    kind, eps = _norm_kind(norm)
    return Layout(tuple(s[0] for s in sites), tuple(attention), tuple(projections), tuple(mlps),
                  _parent(lm, sites[0][1]), norm, heads, d_head, kind, eps)


# --- the hooks: installed once per model, recording only inside reading() ---------------------------------

_kept: contextvars.ContextVar[dict | None] = contextvars.ContextVar("residual_parts", default=None)
_lock = threading.Lock()


def _last(x: torch.Tensor) -> torch.Tensor:
    return x[0, -1].detach().clone()  # (C,) batch element 0, the last position


def _hidden(args: tuple, kwargs: dict) -> torch.Tensor:
    return args[0] if args else kwargs["hidden_states"]


def _output(out) -> torch.Tensor:
    return out[0] if isinstance(out, tuple) else out


def _install(lay: Layout) -> None:
    """Hooks that copy the last position into the active reading (none active: they do nothing)."""
    with _lock:
        if getattr(lay.norm, "_residual_parts_hooked", False):  # once per model, whatever the layout's cache
            return

        def keep(name: str, index: int | None = None):
            def hook(module, args, kwargs, out=None):
                kept = _kept.get()
                if kept is None:
                    return
                x = _last(_hidden(args, kwargs) if out is None else _output(out))
                if index is None:
                    kept[name] = x
                else:
                    kept.setdefault(name, {})[index] = x
            return hook

        def after(fn):
            return lambda module, args, kwargs, out: fn(module, args, kwargs, out)

        lay.first.register_forward_pre_hook(keep("embedding"), with_kwargs=True)
        lay.norm.register_forward_pre_hook(keep("residual"), with_kwargs=True)
        lay.norm.register_forward_hook(after(keep("normed")), with_kwargs=True)
        for i, (proj, mlp) in enumerate(zip(lay.out_proj, lay.mlp, strict=True)):
            proj.register_forward_pre_hook(keep("z", i), with_kwargs=True)
            mlp.register_forward_hook(after(keep("mlp", i)), with_kwargs=True)
        lay.norm._residual_parts_hooked = True


@contextlib.contextmanager
def _reading() -> Iterator[dict]:
    kept: dict = {}
    token = _kept.set(kept)
    try:
        yield kept
    finally:
        _kept.reset(token)


def _last_row(rec: attention_fn.CallRecord) -> torch.Tensor | None:
    """(H, T) every head's attention from the last position: the model's own weights, or (a lean call, which
    keeps none and has no softcap, bias or sinks) softmax(q·Kᵀ·scale + mask) of that one row."""
    if rec.weights is not None:
        return rec.weights[0, :, -1]
    s = torch.einsum("hd,htd->ht", rec.q[0, :, -1], rec.k[0]) * rec.scale  # (H, T)
    if rec.mask is not None:
        s = s + rec.mask[0, 0, -1]
    return torch.softmax(s.float(), dim=-1)


def read(lm: LoadedModel, ids: list[int]) -> Read:
    """One forward pass over `ids` (the prompt up to the position), the parts at its last position."""
    lay = layout(lm)
    _install(lay)
    t = torch.tensor([list(ids)])
    inputs = {"input_ids": t, "attention_mask": torch.ones_like(t), "use_cache": False}
    lean = not hf_forward.keeps_weights(lm, len(ids))  # long: no n × n of every head kept (SDPA), rows made below
    with _reading() as kept, attention_fn.recording(lean=lean) as records, torch.inference_mode():
        out = lm.model(**inputs, logits_to_keep=1)
    n = len(lay.layers)
    if len(kept.get("z", {})) != n or len(kept.get("mlp", {})) != n or "residual" not in kept:
        raise Refused("its forward pass did not run every hooked part once")
    z = torch.stack([kept["z"][i] for i in range(n)])  # (L, H·d_head)
    by_module = {id(r.module): r for r in records}
    gap, reads = 0.0, []
    for i, module in enumerate(lay.attention):  # our function's z, heads side by side, against the projection's input
        rec = by_module.get(id(module))
        if rec is not None:
            mine = rec.z[0, :, -1].reshape(-1)  # (H·d_head,)
            gap = max(gap, float((mine - z[i]).abs().max()) if mine.shape == z[i].shape else float("inf"))
        reads.append(None if rec is None else _last_row(rec))  # (H, T)
    if gap > Z_AGREE:
        raise Refused(f"its output projection does not read the heads' outputs side by side (differs by {gap:.1e})")
    return Read(z, torch.stack([kept["mlp"][i] for i in range(n)]), kept["embedding"], kept["residual"],
                kept["normed"], out.logits[0, -1].detach().clone(), gap,
                None if any(r is None for r in reads) else torch.stack(reads).clone())
