"""What a model hands back is checked before it is drawn: weights the model returned are attention
weights in token × token form, each call is given the layer it belongs to, and a self-attention site's
kind is what its weights do (a causal mask leaves nothing above the diagonal), not what a name says.
A site that fails is refused with its reason (trace_count.REFUSALS), never drawn."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

import numpy as np
import torch
from torch import nn

from attention.trace import TOLERANCE, Site, SiteProblem

_ABOVE = 1e-7  # a weight above the diagonal larger than this: the query read a later key
_HIDDEN = -1e4  # an additive mask at or below this hides the key (old models use −10000, new ones −3.4e38)


def refusal(weights: np.ndarray, n_queries: int, n_keys: int) -> str | None:
    """Why weights of one site, (heads, query tokens, key tokens) after padding is removed, are not
    attention weights: "shape", "negative", "rows" (a row not summing to 1 ± TOLERANCE); None if they are."""
    if weights.ndim != 3 or weights.shape[1:] != (n_queries, n_keys) or weights.shape[0] == 0:
        return "shape"
    if not np.isfinite(weights).all() or (weights < 0).any():
        return "negative"
    rows = weights.astype(np.float64).sum(-1)  # (heads, queries)
    return None if np.all(np.abs(rows - 1.0) <= TOLERANCE) else "rows"


def token_form(weights: object, n_queries: int, n_keys: int, self_attention: bool) -> torch.Tensor | str:
    """The model's weights for one layer as (batch, heads, queries, keys) or a Longformer band (batch,
    heads, queries, 2·r + 1), or why they have no exact token × token form: "layout" for a dict of global
    and local weights, bucketed or chunked attention in five dimensions, or an even band; "shape" when
    the query axis is not the query tokens (several query streams stacked on it). A model that pads its
    input to whole blocks (BigBird) returns a longer square: its first rows and columns are the tokens
    (whether no weight went to the padding is checked with the rows, by refusal())."""
    if not isinstance(weights, torch.Tensor) or weights.ndim != 4:
        return "layout"
    tq, tk = weights.shape[-2:]
    if tq == n_queries and tk == n_keys:
        return weights
    if self_attention and tq == tk and tq > n_queries == n_keys:
        return weights[..., :n_queries, :n_keys]
    if tq != n_queries:
        return "shape"
    return weights if tk % 2 == 1 else "layout"


def observed_kind(weights: np.ndarray) -> str | None:
    """"decoder" when no query put weight on a later key, "encoder" when one did; None when the
    weights cannot tell (one token, or queries and keys that are not the same tokens)."""
    if weights.ndim != 3 or weights.shape[1] != weights.shape[2] or weights.shape[1] < 2:
        return None
    above = np.triu(np.ones(weights.shape[1:], dtype=bool), 1)
    return "encoder" if float(np.abs(weights[:, above]).max()) > _ABOVE else "decoder"


def causal_mask(mask: torch.Tensor | None) -> bool:
    """Whether an additive mask, (B, 1 or heads, Tq, Tk), hides every later key from every query."""
    if mask is None or mask.shape[-1] != mask.shape[-2] or mask.shape[-1] < 2:
        return False
    above = torch.triu(torch.ones(mask.shape[-2:], dtype=torch.bool), 1)
    return bool((mask[..., above] <= _HIDDEN).all())


def relabel_self_attention(sites: tuple[Site, ...], expected: dict[str, tuple[int, ...]] | None,
                           ) -> tuple[tuple[Site, ...], dict[str, tuple[int, ...]] | None]:
    """A single-stack model's self-attention labelled by what its weights do: a model listed as a causal
    LM that lets every token read every other (XLNet) is an encoder, a module that does not call itself
    causal but masks every later key (Doge) a decoder. Encoder–decoder
    models keep their kinds (their stacks say which is which); weights that disagree among layers
    change nothing (the count then says what is wrong)."""
    if expected is None or len(expected) != 1 or next(iter(expected)) not in ("encoder", "decoder"):
        return sites, expected
    said = next(iter(expected))
    seen = {observed_kind(s.model_weights) if s.model_weights is not None else ("decoder" if s.causal_offset is not None else None)
            for s in sites if s.kind != "cross"} - {None}
    if len(seen) != 1:
        return sites, expected
    kind = seen.pop()
    sites = tuple(dataclasses.replace(s, kind=kind) if s.kind not in ("cross", kind) else s for s in sites)
    return sites, {kind: expected[said]}


@dataclasses.dataclass(frozen=True)
class CallPlan:
    """Which recorded attention calls become sites, and under which layer number."""

    layers: tuple[int | None, ...]  # per call: its layer, or None when the call is not drawn
    refused: tuple[SiteProblem, ...]


def plan_calls(modules: Sequence[nn.Module], kinds: Sequence[str], named_layers: Sequence[int],
               same_weights: Callable[[int, int], bool],
               expected: dict[str, tuple[int, ...]] | None) -> CallPlan:
    """Layer numbers for calls of the attention function, in call order. A module called more than once
    is either one module shared by the layers (ALBERT: as many calls as the kind has layers, numbered
    by call order) or a layer calling its attention several times (differential attention: as many
    modules as layers): there each call is its module's layer, repeats with the same weights are
    dropped, and a layer whose calls disagree is refused."""
    layers: list[int | None] = list(named_layers)
    refused: list[SiteProblem] = []
    for kind in dict.fromkeys(kinds):
        calls = [i for i, k in enumerate(kinds) if k == kind]
        owners = list(dict.fromkeys(id(modules[i]) for i in calls))
        if len(owners) == len(calls):
            continue  # one call per module: its name says the layer
        n_layers = None if expected is None or kind not in expected else len(expected[kind])
        if len(owners) == n_layers:  # every layer its own module, some called more than once
            bad = []
            for owner in owners:
                own = [i for i in calls if id(modules[i]) == owner]
                for i in own[1:]:
                    layers[i] = None
                if not all(same_weights(own[0], i) for i in own[1:]):
                    layers[own[0]] = None
                    bad.append(named_layers[own[0]])
            if bad:
                refused.append(SiteProblem(kind, "refused_calls", tuple(sorted(bad))))
            continue
        for order, i in enumerate(calls):  # one module shared by the layers: they come in call order
            layers[i] = order
    return CallPlan(tuple(layers), tuple(refused))


def has_attention(model: nn.Module) -> bool:
    """Whether any module of the model is an attention module by its class name: FNet (Fourier mixing)
    and state-space models (Mamba, xLSTM) have none."""
    return any("attention" in type(m).__name__.lower() or "attn" in type(m).__name__.lower()
               for m in model.modules())
