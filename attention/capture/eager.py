"""The second capture path, part two: the model's own weights, and q, k, v only where they reproduce them.

A model whose attention never calls the attention-function registry (or whose layers refuse a custom
implementation name) is loaded with eager attention and run once with output_attentions: those
weights are the model's own and every site shows them. Where a recipe (recipes.py) rebuilt the
call's q, k, v, bias and mask, the site keeps them only if core.py's recomputation from them matches
the model's weights and Z to TOLERANCE; otherwise the site holds the weights alone
(Site.missing_qkv says why) and no S or Z is ever drawn from a guess.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import torch

from attention import core
from attention.capture import checks, recipes
from attention.capture.expected import self_kind
from attention.capture.inputs import Encoded, decoder_inputs, encode, layer_inputs
from attention.capture.loaded import LoadedModel, to_numpy
from attention.trace import Site, SiteProblem, Trace, make_site


def run(lm: LoadedModel, inputs: dict[str, torch.Tensor]) -> tuple[object, list[recipes.Seen]]:
    with recipes.recording() as calls, torch.inference_mode():
        outputs = lm.model(**inputs, output_attentions=True, output_hidden_states=True)
    return outputs, calls


def _stacks(lm: LoadedModel, outputs) -> list[tuple[str, tuple[torch.Tensor, ...]]]:
    """(kind, the model's weights per layer in call order) for each kind of attention it returned."""
    if lm.is_encoder_decoder:
        named = (("encoder", "encoder_attentions"), ("decoder", "decoder_attentions"), ("cross", "cross_attentions"))
    else:
        named = ((self_kind(lm.model.config), "attentions"),)
    return [(kind, tuple(a for a in getattr(outputs, attr, None) or () if a is not None)) for kind, attr in named]


def _refused(refusals: dict[tuple[str, str], list[int]]) -> tuple[SiteProblem, ...]:
    return tuple(SiteProblem(kind, f"refused_{why}", tuple(layers)) for (kind, why), layers in refusals.items())


def _band_to_full(w: torch.Tensor, n_keys: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Longformer-style local weights (B, nh, Tq, 2·w+1), column j for key i + j − w, as a full
    (B, nh, Tq, n_keys) matrix, and (Tq, n_keys) bools: the keys each query's band covers."""
    b, nh, tq, width = w.shape
    one_sided = (width - 1) // 2
    full = torch.zeros(b, nh, tq, n_keys, dtype=w.dtype)
    covered = torch.zeros(tq, n_keys, dtype=torch.bool)
    rows = torch.arange(tq)
    for j in range(width):
        keys = rows + j - one_sided
        ok = (keys >= 0) & (keys < n_keys)
        full[:, :, rows[ok], keys[ok]] = w[:, :, rows[ok], j]
        covered[rows[ok], keys[ok]] = True
    return full, covered


def _index(real: torch.Tensor) -> slice | torch.Tensor:
    return slice(None) if bool(real.all()) else real.nonzero().flatten()


def _pick(t: torch.Tensor | None, b: int, qi, ki) -> np.ndarray | None:
    """(B or 1, …, Tq, Tk) -> (…, real queries, real keys) of batch element b."""
    if t is None:
        return None
    t = t[b] if t.shape[0] > 1 else t[0]
    return to_numpy(t[..., qi, :][..., ki])


def _weights_only(kind: str, layer: int, reason: str, weights: np.ndarray, mask: np.ndarray | None,
                  q_tokens: list[str], k_tokens: list[str], name: str) -> Site:
    nh, tq, tk = weights.shape
    empty_q, empty_k = np.zeros((nh, tq, 0), np.float32), np.zeros((nh, tk, 0), np.float32)
    return make_site(layer=layer, kind=kind, query_tokens=q_tokens, key_tokens=k_tokens, q=empty_q, k=empty_k,
                     v=empty_k, scale=1.0, model_weights=weights, model_z=empty_q, mask=mask, name=name,
                     missing_qkv=reason)


def _site(kind: str, layer: int, weights: torch.Tensor, covered: torch.Tensor | None,
          rebuilt: recipes.Rebuilt | None, reason: str, b: int, q_side: Encoded, k_side: Encoded,
          name: str) -> Site | str:
    """The site, or why its weights are refused (checks.refusal): nothing is drawn from weights that
    are not a distribution over the tokens shown."""
    qi, ki = _index(q_side.real[b]), _index(k_side.real[b])
    q_tokens, k_tokens = q_side.tokens[b], k_side.tokens[b]
    model_weights = _pick(weights, b, qi, ki)
    refusal = checks.refusal(model_weights, len(q_tokens), len(k_tokens))
    if refusal is not None:
        return refusal
    if rebuilt is not None and rebuilt.z is not None:
        n_q, n_k = weights.shape[-2:]  # Longformer pads its input to whole windows: the model's own length
        rebuilt = dataclasses.replace(rebuilt, q=rebuilt.q[..., :n_q, :], k=rebuilt.k[..., :n_k, :],
                                      v=rebuilt.v[..., :n_k, :], z=rebuilt.z[..., :n_q, :],
                                      bias=None if rebuilt.bias is None else rebuilt.bias[..., :n_q, :n_k],
                                      mask=None if rebuilt.mask is None else rebuilt.mask[..., :n_q, :n_k])
        mask = _pick(rebuilt.mask, b, qi, ki)
        site = make_site(
            layer=layer, kind=kind, query_tokens=q_tokens, key_tokens=k_tokens,
            q=to_numpy(rebuilt.q[b][:, qi]), k=to_numpy(rebuilt.k[b][:, ki]),
            v=to_numpy(rebuilt.v[b][:, ki]), scale=rebuilt.scale,
            mask=None if mask is None else mask[0], bias=_pick(rebuilt.bias, b, qi, ki),
            model_weights=model_weights, model_z=to_numpy(rebuilt.z[b][:, qi]), name=name,
        )
        if site.faithful:  # checked against the model's own weights and Z, never assumed
            return site
        reason = "not_reproduced"
    # The only mask a weights-only site claims is the band a Longformer layer never computes outside of;
    # anything else would be a guess about the model (the weights themselves show what it hid).
    mask = None if covered is None else np.where(to_numpy(covered[qi][:, ki]) > 0, 0.0, core.MASKED)
    return _weights_only(kind, layer, reason, model_weights, mask, q_tokens, k_tokens, name)


def sites_for(lm: LoadedModel, outputs, calls: list[recipes.Seen], b: int, enc: Encoded,
              dec: Encoded | None) -> tuple[tuple[Site, ...], tuple[SiteProblem, ...]]:
    """Every site of batch element b, and the sites refused with why: per kind, the i-th weights the
    model returned with the i-th call of that kind its hooks saw (layers in call order, so a shared
    module gets one label per call). Weights in a layout with no exact token × token form, or that are
    not a distribution once in that form, are refused (checks.py)."""
    rebuilt: dict[str, list[tuple[recipes.Rebuilt | None, str]]] = {}
    single = self_kind(lm.model.config)
    for seen in calls:
        r = recipes.rebuild(seen)
        kind = (r.kind if r is not None and r.kind else None) or (single if dec is None else "encoder")
        rebuilt.setdefault(kind, []).append((r, lm.module_names.get(id(seen.module), "")))
    reasons = recipes.weights_only_reasons(lm.model)
    sites, refusals = [], {}
    for kind, stack in _stacks(lm, outputs):
        q_side = dec if (dec is not None and kind in ("decoder", "cross")) else enc
        k_side = enc if kind in ("encoder", "cross") or dec is None else dec
        n_q, n_k = q_side.real.shape[1], k_side.real.shape[1]
        for layer, weights in enumerate(stack):
            weights = site = checks.token_form(weights, n_q, n_k, self_attention=kind != "cross")
            if not isinstance(site, str):
                covered = None
                if weights.shape[-1] != n_k:  # a band of local weights, not a full row
                    weights, covered = _band_to_full(weights, n_k)
                r, name = rebuilt[kind][layer] if layer < len(rebuilt.get(kind, ())) else (None, "")
                reason = reasons.get(kind, "unknown")
                site = _site(kind, layer, weights, covered, r, reason, b, q_side, k_side, name)
            if isinstance(site, str):
                refusals.setdefault((kind, site), []).append(layer)
            else:
                sites.append(site)
    return tuple(sites), _refused(refusals)


def trace_batch(lm: LoadedModel, texts: list[str], targets: list[str] | None = None) -> list[Trace]:
    enc = encode(lm, texts)
    inputs = dict(enc.inputs)
    dec = None
    if lm.is_encoder_decoder:
        dec = decoder_inputs(lm, targets if targets is not None else texts)
        inputs.update(dec.inputs)
    outputs, calls = run(lm, inputs)
    traces = []
    for b, text in enumerate(texts):
        sites, refused = sites_for(lm, outputs, calls, b, enc, dec)
        sites, expected_layers = checks.relabel_self_attention(sites, lm.expected_layers)
        path = "" if not sites else "recomputed" if all(s.has_qkv for s in sites) else "weights"
        traces.append(Trace(
            text=text, model_name=lm.name, tokens=tuple(enc.tokens[b]), sites=sites, dropped_tokens=enc.dropped[b],
            capture_path=path, fallback=lm.fallback, expected_layers=expected_layers, refused=refused,
            layer_inputs=layer_inputs(outputs, b, enc, dec),
        ))
    return traces
