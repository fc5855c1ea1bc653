"""Two inputs A and B through one model: what changed in every head, in the output, and which heads
carry the change (activation patching). attention.compare() is the notebook's door to this module.

Each site's rows and columns are aligned by its own tokens (attention/analysis/alignment.py): for
self-attention these are the input's tokens; the translator's decoder and cross sites align the two
translations' words. The model is the source's (attention/sources): a causal language model is read
with its next-token head, the translator and sentence encoders as they trace.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from attention.analysis.alignment import Alignment, align, shared_after_change
from attention.analysis.attention_change import head_changes, js_distance
from attention.sources.base import Output, Purpose, Source
from attention.ids import HeadId, TopHead, TopRows
from attention.trace import Trace

Measure = Literal["max_abs", "js"]
TOP = 5  # tokens listed per run


@dataclass(frozen=True)
class SiteChange:
    """One site's change. max_abs, js: (nh,) per head (NaN when the site has no aligned rows)."""

    kind: str
    layer: int
    max_abs: np.ndarray
    js: np.ndarray
    rows: Alignment  # of the query tokens
    cols: Alignment  # of the key tokens


@dataclass(frozen=True)
class OutputChange:
    """What the output did. kind "next_token": top_a, top_b [(raw token, probability)] of each run, probs_a,
    probs_b (vocab,) their whole next-token distributions and js their Jensen–Shannon distance (base 2);
    "translation": text_a, text_b; "embedding": cosine of the mean-pooled sentence embeddings."""

    kind: Literal["next_token", "translation", "embedding"]
    top_a: tuple[tuple[str, float], ...] = ()
    top_b: tuple[tuple[str, float], ...] = ()
    text_a: str = ""
    text_b: str = ""
    cosine: float | None = None
    probs_a: np.ndarray | None = field(default=None, repr=False, compare=False)
    probs_b: np.ndarray | None = field(default=None, repr=False, compare=False)
    js: float | None = None

    def probability(self, which: str, token: int) -> float | None:
        """Run A's or B's next-token probability of one token id (None when not kept)."""
        probs = self.probs_a if which == "A" else self.probs_b
        return None if probs is None or not 0 <= token < len(probs) else float(probs[token])


@dataclass(frozen=True, eq=False)
class Comparison:
    """A against B. `alignment` of the input tokens; `sites` in model order; `output` the output's
    change; `identical`: A and B read the same tokens (every change is then exactly 0)."""

    text_a: str
    text_b: str
    model: str
    alignment: Alignment
    sites: tuple[SiteChange, ...]
    output: OutputChange
    trace_a: Trace
    trace_b: Trace
    _patch: Callable[[Callable[[int, int], None] | None, bool], Any] | None = field(default=None, repr=False)
    patch_missing: str = ""  # why patching is not offered: "switch" (heads cannot be switched in this
    # model), "encoder_decoder" (a folder's encoder–decoder without a language-model head); "" when it is

    @property
    def can_patch(self) -> bool:
        return self._patch is not None

    @property
    def identical(self) -> bool:
        return self.alignment.identical

    @property
    def causal(self) -> bool:
        """Every site is masked decoder self-attention: a token sees only the tokens before it."""
        return bool(self.sites) and all(s.kind == "decoder" for s in self.sites)

    @property
    def change_unseen(self) -> bool:
        """A causal model and no shared token after the change: no shared row can differ, nothing can be
        patched, and only the next token (read at the changed last position) shows the change."""
        return self.causal and not self.identical and not shared_after_change(self.alignment)

    def grid(self, measure: Measure = "js") -> np.ndarray:
        """(sites, heads) the measure per head, NaN where a site has fewer heads than the widest."""
        width = max((len(s.js) for s in self.sites), default=0)
        out = np.full((len(self.sites), width), np.nan)
        for i, s in enumerate(self.sites):
            out[i, :len(s.js)] = getattr(s, measure)
        return out

    def ranked(self, measure: Measure = "js") -> TopRows[TopHead]:
        """Heads by how much their attention changed, largest first (NaN last): [TopHead(HeadId, value), …]."""
        rows = [TopHead(HeadId(s.kind, s.layer, h), float(v)) for s in self.sites
                for h, v in enumerate(getattr(s, measure))]
        return TopRows(sorted(rows, key=lambda r: (np.isnan(r[1]), -np.nan_to_num(r[1]))))

    def top(self, k: int = 5, measure: Measure = "js") -> list[TopHead]:
        """The k heads whose attention changed most by `measure`, largest first."""
        return self.ranked(measure)(k)

    def patching(self, progress: Callable[[int, int], None] | None = None, together: bool = False):
        """Every head patched alone from B into A (capture/hf_patching.py, translator/head_patching.py,
        capture/embedding_patching.py): a Patching whose `.ranked()` lists (head, restored share), largest
        first, and `.note` says when there is nothing to restore. progress(done, total) is called after
        each batch. `together`: every head at once, one share (1 when the patching reaches all of B)."""
        if self._patch is None:
            why = {"switch": "its heads cannot be switched (attention computed inside its layers)",
                   "encoder_decoder": "an encoder-decoder without a language-model head"}.get(self.patch_missing, "")
            raise NotImplementedError(f"patching is not built for {self.model}: {why}")
        return self._patch(progress, together)


def output_kind(src: Source) -> Literal["next_token", "translation", "embedding"]:
    """What the source's output is, for comparing: a causal language model's next token (a folder
    with a next-token head too), a translation, or else a sentence embedding."""
    if src.predicts in ("translation", "next_token"):
        return src.predicts
    path = getattr(src, "path", None)
    path = None if path is None else os.path.expanduser(path)
    if path is not None and os.path.isdir(path):  # no folder: loading it says so, in the registry's words
        from transformers import AutoModelForCausalLM

        from attention.capture import hf_ablation

        if hf_ablation.lm_class(path) is AutoModelForCausalLM:
            return "next_token"
    return "embedding"


def purpose(kind: str) -> Purpose:
    """Which of the source's models the comparison needs: the one with the next-token head, or its own."""
    return "writer" if kind == "next_token" else "trace"


def site_changes(trace_a: Trace, trace_b: Trace) -> tuple[SiteChange, ...]:
    """Every site both traces have, its rows and columns aligned by its own tokens."""
    b_sites = {(s.kind, s.layer): s for s in trace_b.sites}
    out = []
    for sa in trace_a.sites:
        sb = b_sites.get((sa.kind, sa.layer))
        if sb is None:
            continue
        rows = align(sa.query_tokens, sb.query_tokens, refuse=False)
        cols = align(sa.key_tokens, sb.key_tokens, refuse=False)
        max_abs, js = head_changes(sa.model_weights, sb.model_weights, rows.index(), cols.index())
        out.append(SiteChange(sa.kind, sa.layer, max_abs, js, rows, cols))
    return tuple(out)


def _softmax(logits: np.ndarray) -> np.ndarray:
    p = np.exp(logits - logits.max())
    return p / p.sum()


def _top(p: np.ndarray, tokenizer) -> tuple[tuple[str, float], ...]:
    """The TOP likeliest as (raw token, probability): decoded one by one, a Chinese character's byte piece
    would be "�"; raw, a page reads it after the text (token_text.candidate_labels)."""
    ids = [int(i) for i in np.argsort(-p)[:TOP]]
    return tuple(zip(tokenizer.convert_ids_to_tokens(ids), (float(p[i]) for i in ids), strict=True))


def next_token_change(logits_a: np.ndarray, logits_b: np.ndarray, tokenizer) -> OutputChange:
    """Both runs' next-token distributions at their last position, their top tokens and how far apart
    they are (Jensen–Shannon distance: 0 the same, 1 nothing in common)."""
    pa, pb = _softmax(logits_a), _softmax(logits_b)
    return OutputChange("next_token", _top(pa, tokenizer), _top(pb, tokenizer), probs_a=pa.astype(np.float32),
                        probs_b=pb.astype(np.float32), js=float(js_distance(pa, pb)))


def _embedding_cosine(model, text_a: str, text_b: str) -> float:
    """Cosine of the two mean-pooled final hidden states (all-MiniLM-L6-v2's sentence embedding)."""
    import torch

    from attention.capture import hf_model

    pooled = []
    for text in (text_a, text_b):
        enc = hf_model.encode(model, [text])
        with torch.inference_mode():
            out = model.model(**enc.inputs)
        h = getattr(out, "last_hidden_state", None)
        if h is None:
            return float("nan")
        mask = enc.inputs["attention_mask"][..., None].to(h.dtype)
        pooled.append(((h * mask).sum(1) / mask.sum(1))[0].double().numpy())
    a, b = pooled
    return float(a @ b / max(np.linalg.norm(a) * np.linalg.norm(b), 1e-30))


def compare(text_a: str, text_b: str, model: str | None = None, *, loaded: Any = None,
            outputs: tuple[Output, Output] | None = None) -> Comparison:
    """A and B through `model` (see attention.compare). Raises ValueError, with the reason, for an
    empty input or two inputs the alignment refuses.

    loaded: the source's model for purpose(output_kind(source)), when the caller keeps it (the app's
        cache); default the notebook's (Source.kept). outputs: A's and B's run (Source.run), when kept.
    """
    from attention import sources

    for name, text in (("A", text_a), ("B", text_b)):
        if not isinstance(text, str) or not text.strip():
            raise ValueError(f"sentence {name} is empty")
    src = sources.get(model)
    role = output_kind(src)
    loaded = src.kept(purpose(role)) if loaded is None else loaded
    out_a, out_b = outputs if outputs is not None else (src.run(loaded, text_a), src.run(loaded, text_b))
    tr_a, tr_b = out_a.trace, out_b.trace
    alignment = align(tr_a.tokens, tr_b.tokens)
    if not alignment.ok:
        raise ValueError(f"cannot compare these two inputs: {alignment.refusal}")
    patch, missing = None, ""
    if role == "next_token":
        from attention.capture import hf_patching

        run_a, run_b = hf_patching.run(loaded, text_a), hf_patching.run(loaded, text_b)
        output = next_token_change(run_a.logits, run_b.logits, loaded.tokenizer)

        def patch(progress, together):
            return hf_patching.patch_heads(loaded, run_a, run_b, alignment, progress=progress, together=together)
        if loaded.capture != "registry":  # the switch rides on our attention function
            patch, missing = None, "switch"
    elif role == "translation":
        from attention.translator import head_patching

        output = OutputChange("translation", text_a=out_a.text, text_b=out_b.text)

        def patch(progress, together):
            return head_patching.patch_heads(loaded, text_a, text_b, alignment, progress=progress, together=together)
    else:
        from attention.capture import embedding_patching

        output = OutputChange("embedding", cosine=_embedding_cosine(loaded, text_a, text_b))
        if embedding_patching.can_patch(loaded):
            run_a, run_b = embedding_patching.run(loaded, text_a), embedding_patching.run(loaded, text_b)

            def patch(progress, together):
                return embedding_patching.patch_heads(loaded, run_a, run_b, alignment, progress=progress,
                                                      together=together)
        else:
            missing = "switch" if loaded.capture != "registry" else "encoder_decoder"
    return Comparison(text_a, text_b, src.label(), alignment, site_changes(tr_a, tr_b), output, tr_a, tr_b, patch,
                      missing)
