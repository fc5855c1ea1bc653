"""Which recorded attention calls are sites, of which kind, under which layer: the kind from the module,
unless its mask says otherwise; calls over something else than the tokens left out; one module shared
by the layers told apart from a layer that calls its attention twice (checks.plan_calls)."""

from __future__ import annotations

import torch

from attention.capture import attention_fn, checks
from attention.capture.inputs import Encoded


def record_kind(rec: attention_fn.CallRecord) -> str:
    """The call's kind from its module (attention_fn.call_kind), unless its mask says otherwise: a mask
    that hides every later key is a decoder's self-attention, whatever the module calls itself
    (NLLB-MoE's decoder self-attention says is_decoder and not is_causal)."""
    kind = attention_fn.call_kind(rec.module)
    return "decoder" if kind != "decoder" and checks.causal_mask(rec.mask) else kind


def _over_tokens(rec: attention_fn.CallRecord, enc: Encoded, dec: Encoded | None) -> bool:
    """Whether the call attends between the tokens shown: (batch, heads, query tokens, key tokens)."""
    kind = record_kind(rec)
    q_side = dec if (dec is not None and kind in ("decoder", "cross")) else enc
    k_side = enc if kind in ("encoder", "cross") or dec is None else dec
    b, _, tq, _ = rec.q.shape
    tk = rec.shared_k.shape[2]
    return b in (1, q_side.real.shape[0]) and (tq, tk) == (q_side.real.shape[1], k_side.real.shape[1])


def over_tokens(records: list[attention_fn.CallRecord], enc: Encoded,
                dec: Encoded | None) -> list[attention_fn.CallRecord]:
    """The calls between the tokens shown. A call over something else (Inkling mixes each token's layer
    outputs through the same function) is no token attention, and is not drawn as one."""
    return [r for r in records if _over_tokens(r, enc, dec)]


def plan(records: list[attention_fn.CallRecord], module_names: dict[int, str],
         expected: dict[str, tuple[int, ...]] | None) -> checks.CallPlan:
    """Each call's layer (checks.plan_calls): one module shared by the layers (ALBERT) numbered by call
    order; a layer calling its attention twice (DiffLlama) one site, or refused if the calls disagree."""
    kinds = [record_kind(r) for r in records]
    named = [attention_fn.call_layer(r.module, module_names.get(id(r.module), "")) for r in records]

    def same_weights(i: int, j: int) -> bool:
        a, b = records[i].weights, records[j].weights
        if a is None or b is None:  # lean calls: their outputs say the same
            a, b = records[i].z, records[j].z
        return a.shape == b.shape and bool(torch.allclose(a, b, atol=1e-6, rtol=0))

    return checks.plan_calls([r.module for r in records], kinds, named, same_weights, expected)
