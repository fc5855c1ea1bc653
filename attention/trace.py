"""The trace: the one contract between the models and every page.

A `Trace` holds one frozen `Site` per attention call (attention/site.py: the arrays, their shapes, and how
each is checked against the model's own numbers), in model order, and says how they were captured.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np

from attention.site import KINDS, MISSING_QKV, TOLERANCE, Kind, Site  # noqa: F401 - part of the contract
from attention.site_make import make_site  # noqa: F401 - part of the contract
from attention.trace_count import SITE_PROBLEMS, SiteProblem, count_sites  # noqa: F401 - part of the contract

# How q, k, v were captured (Trace.capture_path): "registry", through transformers' attention-function
# registry (attention/capture/); "recorder", recorded by the built-in translator's own attention layers;
# "recomputed", the model's own weights (eager attention) with q, k, v read from its projections and
# q·k recomputed, checked against those weights; "weights", the model's own weights where q·k could not
# be recomputed for at least one site (Site.missing_qkv says why).
CAPTURE_PATHS: tuple[str, ...] = ("registry", "recorder", "recomputed", "weights")
# Why a model was not traced through the registry (Trace.fallback): "rejects_name", its layers look the
# implementation name up in their own table; "bypasses_registry", its attention never calls the registry;
# "unread_arguments", it hands the attention function arguments ours does not apply (per-token sinks).
FALLBACKS: tuple[str, ...] = ("rejects_name", "bypasses_registry", "unread_arguments")


@dataclass(frozen=True, eq=False)
class Trace:
    """Every attention site of one forward pass over one text, in model order."""

    text: str
    model_name: str  # a short name for display (not a `model=` argument: that names a source)
    tokens: tuple[str, ...]  # the tokens the model read (after truncation)
    sites: tuple[Site, ...]
    dropped_tokens: int = 0  # how many tokens were cut off to fit the model's maximum length
    unknown_words: tuple[str, ...] = ()  # words of the text not in the vocabulary, read as <unk>
    unknown_target_words: tuple[str, ...] = ()  # the same for a given decoder target (teacher forcing)
    decoding_capped: bool = False  # greedy decoding stopped at its word limit, without an end token
    teacher_forced: bool = False  # the decoder read a given target, not the model's own output
    capture_path: str = ""  # how q, k, v were captured: one of CAPTURE_PATHS ("" when not said)
    fallback: str = ""  # why the registry was not used: one of FALLBACKS ("" when it was, or not said)
    # per kind, the layers the model has (from its config): what the sites are counted against;
    # None when the builder did not count
    expected_layers: dict[str, tuple[int, ...]] | None = None
    # sites the builder refused to draw (checked and found not to be attention weights), with the reason
    refused: tuple[SiteProblem, ...] = ()
    # per side ("encoder"/"decoder"): the residual stream entering each layer, (pos, d_model)
    layer_inputs: dict[str, tuple[np.ndarray, ...]] = field(default_factory=dict)

    @property
    def model(self) -> str:
        """Deprecated: `model_name` (`model=` is a source's name or folder everywhere else)."""
        warnings.warn("Trace.model is now Trace.model_name", DeprecationWarning, stacklevel=2)
        return self.model_name

    @property
    def kinds(self) -> tuple[Kind, ...]:
        return tuple(k for k in KINDS if any(s.kind == k for s in self.sites))

    def layers(self, kind: Kind) -> tuple[int, ...]:
        return tuple(s.layer for s in self.sites if s.kind == kind)

    def site(self, layer: int, kind: Kind | None = None) -> Site:
        """The site of `kind` at `layer`; kind None: the only kind that layer has (a decoder-only model's
        "decoder", an encoder's "encoder"), a KeyError naming the kinds when it has several."""
        if kind is None:
            kinds = [s.kind for s in self.sites if s.layer == layer]
            if len(kinds) > 1:
                raise KeyError(f"layer {layer} has {', '.join(kinds)} attention: name the kind")
            kind = kinds[0] if kinds else "encoder"
        for s in self.sites:
            if s.layer == layer and s.kind == kind:
                return s
        raise KeyError(f"no {kind} attention at layer {layer}")

    def nbytes(self) -> int:
        """Bytes of every array the trace holds once all its sites are recomputed (scores and weights
        come to twice the model's weights): what a cache of traces should count."""
        arrays = [a for s in self.sites for a in (s.q, s.k, s.v, s.model_weights, s.model_z, s.mask, s.bias,
                                                  s.query_inputs, s.key_inputs) if a is not None]
        arrays += [a for per_side in self.layer_inputs.values() for a in per_side]
        # a long site's S, A and Z live in head_cache's budget, counted there
        recomputed = sum(2 * s.model_weights.nbytes + s.model_z.nbytes for s in self.sites if s.model_weights is not None)
        return sum(a.nbytes for a in arrays) + recomputed

    @property
    def max_weights_diff(self) -> float:
        """Over the sites whose weights were compared (a long site compares z alone)."""
        return max((s.weights_diff for s in self.sites if s.weights_compared), default=0.0)

    @property
    def max_z_diff(self) -> float:
        return max((s.z_diff for s in self.sites), default=0.0)

    @property
    def site_problems(self) -> tuple[SiteProblem, ...]:
        """Sites missing, extra or mislabelled against expected_layers, and sites refused (Trace.refused)."""
        if self.expected_layers is None:
            return self.refused
        return count_sites(self.expected_layers, [(s.kind, s.layer) for s in self.sites], self.refused)

    @property
    def faithful(self) -> bool:
        """Every site matches the model's own numbers, and every site the model has was captured."""
        return all(s.faithful for s in self.sites) and not self.site_problems

    # tr.show(kind, layer, head) draws one head in a notebook and tr.save_html(path) writes every head to
    # one file: the head view's attention.show and attention.save_html, set on Trace by attention/__init__.py
    # (the head view draws traces, so the contract cannot import it: tests/test_import_cycles.py). Not
    # annotated here: a ClassVar would appear in __dataclass_fields__, which callers read as the data.
