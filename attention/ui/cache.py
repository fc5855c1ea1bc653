"""The app's one cache: models, traces, translations, snapshot traces and overviews, by bytes.

Everything the app keeps between clicks lives on one least-recently-used shelf shared by every
session, within one memory budget (ui/settings.py, ATTENTION_CACHE_MB). The package itself keeps
nothing for the app: its functions are uncached here and take the model they should use.

What is kept is shared, not copied per rerun: every array in a trace is read-only and the dataclasses
are frozen, so sessions may share them, and a 512-token trace is not pickled on every click. Each
entry counts at least 1/MAX_ENTRIES of the budget, so however short, at most that many are kept.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
import streamlit as st
from cachetools import LRUCache

from attention.analysis.overview_data import Overview
from attention.analysis.overview_data import build as build_overview
from attention import sources
from attention.sources import Output, Source
from attention.lm.smollm2 import Progress
from attention.trace import Trace
from attention.ui import admission, memory, settings
from attention.ui.lang import t

if TYPE_CHECKING:  # torch, transformers and the translator load only when a page asks for them
    from attention.analysis.effects import HeadEffects
    from attention.analysis.head_roles import HeadRoles
    from attention.analysis.learning_curves import SnapshotTraces
    from attention.translator.attribution import Attribution
    from attention.translator.api import Translation
    from attention.translator.model import Transformer

MAX_ENTRIES = 64
MAX_MODELS = 4  # models kept outside the byte budget when they do not fit in it
# Loaded once per process and shared read-only (the alignment is a few bytes, costly to make again).
KEPT_WHEN_SHEDDING = ("model", "lm_model", "snapshots", "alignment")
T = TypeVar("T")
log = logging.getLogger(__name__)


def nbytes(value: Any) -> int:
    """Bytes a kept value holds: arrays, traces (once recomputed), models' parameters, and what
    dataclasses, tuples and dicts of them hold."""
    if isinstance(value, np.ndarray):
        return value.nbytes
    if isinstance(value, Trace):
        return value.nbytes()
    if hasattr(value, "parameters"):  # a torch module
        return sum(p.numel() * p.element_size() for p in value.parameters())
    if hasattr(value, "model") and hasattr(value.model, "parameters"):  # capture's LoadedModel
        return nbytes(value.model)
    if isinstance(value, dict):
        return sum(nbytes(v) for v in value.values())
    if isinstance(value, (tuple, list)):
        return sum(nbytes(v) for v in value)
    if hasattr(value, "__dataclass_fields__"):
        return sum(nbytes(getattr(value, name)) for name in value.__dataclass_fields__)
    return 0


class Shelf:
    """A least-recently-used cache by bytes, shared by every session (sessions run in threads, so it
    locks). One make per key at a time: two sessions asking for the same model load it once.
    What is missing is made under a spinner in the chosen language; a hit draws nothing and starts
    nothing (st.spinner starts a timer thread on every call)."""

    def __init__(self, budget: int, max_entries: int = MAX_ENTRIES, rss_budget: int = 0) -> None:
        self.floor = budget // max_entries if max_entries else 0
        self.rss_budget = rss_budget  # 0: never shed
        self.sheds = 0
        self._cache = LRUCache(maxsize=budget, getsizeof=self.cost)
        # A model larger than the whole budget (SmolLM2's 538 MB against a hosted replica's 256 MB) is
        # still kept, here, by count: loading it again on every rerun would cost far more than it holds.
        self._models: LRUCache = LRUCache(maxsize=MAX_MODELS)
        self._lock = threading.Lock()
        self._making: dict[Hashable, threading.Lock] = {}

    def cost(self, value: Any) -> int:
        return max(nbytes(value), self.floor)

    def get(self, key: Hashable, make: Callable[[], T], spinner: str, queued: bool = False) -> T:
        """The value kept under key, or make() it (queued: wait for a turn first, admission.py).
        The turn is taken before the key's lock: a run holding a turn may wait for a key's lock (its
        holder has a turn and is computing), never the other way round, so the two cannot deadlock."""
        with self._lock:
            kept = self._lookup(key)
            if kept is not None:
                return kept
        with admission.turn() if queued else contextlib.nullcontext():
            with self._lock:
                making = self._making.setdefault(key, threading.Lock())
            with making:
                with self._lock:  # made by another session while this one waited
                    kept = self._lookup(key)
                if kept is None:
                    self.shed_if_over_budget()
                    with st.spinner(t(spinner)):
                        kept = make()
                    if queued:  # a computation's temporaries are freed now: hand their pages back
                        memory.trim()
                    with self._lock:
                        try:
                            self._cache[key] = kept
                        except ValueError:  # larger than the whole budget: served to this click, not kept
                            if isinstance(key, tuple) and key and key[0] in KEPT_WHEN_SHEDDING:
                                self._models[key] = kept  # … unless it is a model
            with self._lock:
                self._making.pop(key, None)
        return kept

    def shed_if_over_budget(self) -> bool:
        """Over the memory budget, drop every kept result but the models (they are shared and would
        only be loaded again) and hand the memory back, so the process sheds instead of being killed."""
        if not self.rss_budget or memory.rss_bytes() <= self.rss_budget:
            return False
        with self._lock:
            dropped = [k for k in self._cache if not (isinstance(k, tuple) and k and k[0] in KEPT_WHEN_SHEDDING)]
            for k in dropped:
                self._cache.pop(k, None)
        if not dropped:
            return False
        self.sheds += 1
        memory.release()
        log.warning("resident memory over %d MB: shed %d cached results, now %d MB", self.rss_budget >> 20,
                    len(dropped), memory.rss_bytes() >> 20)
        return True

    def _lookup(self, key: Hashable) -> Any:
        kept = self._cache.get(key)
        return self._models.get(key) if kept is None else kept

    def __len__(self) -> int:
        with self._lock:
            return len(self._cache) + len(self._models)

    def keys(self) -> list[Hashable]:
        with self._lock:
            return [*self._cache.keys(), *self._models.keys()]

    def usage(self) -> tuple[int, int]:
        """(bytes kept, the budget)."""
        with self._lock:
            return int(self._cache.currsize), int(self._cache.maxsize)


shelf = Shelf(settings.cache_bytes(), rss_budget=settings.rss_budget_bytes())


def source(name: str | None) -> Source:
    """The source a name stands for (the registry; a source is cheap, its model is what is kept)."""
    return sources.get(name)


def model(name: str | None) -> Any:
    """The source's model, loaded once per process and shared by every session."""
    src = source(name)
    return shelf.get(("model", src.name), src.load, "app.loading_model")


def language_model(progress: Progress | None = None) -> Any:
    """The built-in language model with its next-token head (attention/lm), expanded on first use
    (`progress` gets the expansion's stages)."""
    src = source(sources.SMOLLM2)
    return shelf.get(("model", src.name), lambda: src.load(progress), "write.loading")


def deciding(text: str) -> Any:
    """The next word after `text` on the built-in language model and the heads that decide it
    (attention/lm/deciding.py: one backward pass and the best heads switched off, a second or two)."""
    from attention.lm import deciding as lm_deciding

    src = source(sources.SMOLLM2)
    lm = language_model()
    return shelf.get(("deciding", src.name, text), lambda: lm_deciding.decide(lm, text),
                     "lesson.predict_word.running", queued=True)


def output(name: str | None, text: str) -> Output:
    """The text through the source: its output (a translation, or the trace alone) and its trace."""
    src = source(name)
    loaded = model(src.name)
    return shelf.get(("output", src.name, text), lambda: src.run(loaded, text), src.working, queued=True)


def trace(name: str | None, text: str) -> Trace:
    """The trace of text by the source (a model folder, None for the default model), from the cache
    when another click or session made it."""
    return output(name, text).trace


def translator() -> Transformer:
    return model(sources.TRANSLATOR)


def translator_snapshots() -> tuple[tuple[int, Transformer], ...]:
    from attention.translator import api

    return shelf.get(("snapshots",), api.read_snapshots, "app.loading_model")


def translation(text: str) -> Translation:
    """The built-in translator's output and trace."""
    return output(sources.TRANSLATOR, text)


def overview(name: str | None, text: str, kind: str, merge: bool) -> Overview:
    """What the Overview draws for one sentence of one source."""
    src = source(name)
    return shelf.get(("overview", src.name, text, kind, merge), lambda: build_overview(trace(src.name, text), kind, merge),
                     "overview.measuring", queued=True)


def head_roles(name: str | None, kind: str | None = None) -> HeadRoles:
    """What each head of the source does on the probe (seed 0, 12 words); `kind` for a source that
    measures several kinds apart (Source.role_kinds)."""
    src = source(name)
    loaded = model(name)
    return shelf.get(("roles", src.name, kind), lambda: src.head_roles(loaded, kind=kind), "roles.measuring",
                     queued=True)


def snapshot_roles(step: int) -> dict[str, HeadRoles]:
    """kind -> the roles of every head of the translator's training snapshot at `step` (its probe, seed 0)."""
    from attention.translator import roles

    snaps = dict(translator_snapshots())
    if step not in snaps:
        raise ValueError(f"the translator has no training snapshot at step {step}")
    return shelf.get(("snapshot_roles", step), lambda: roles.measure(snaps[step]), "learning.roles_measuring",
                     queued=True)


def snapshot_traces(text: str) -> SnapshotTraces:
    """The sentence through every training snapshot of the translator (the Learning page)."""
    from attention.translator import snapshots

    final, snaps = translator(), translator_snapshots()
    return shelf.get(("snapshot_traces", text), lambda: snapshots.snapshot_traces(text, final, snaps),
                     "learning.tracing", queued=True)


def alignment_over_training() -> tuple[tuple[int, ...], np.ndarray]:
    """Per snapshot and cross-attention head, the share of words aligned to their source word."""
    from attention.translator import snapshots

    snaps = translator_snapshots()

    def make() -> tuple[tuple[int, ...], np.ndarray]:
        from attention.translator.corpus import build_corpus

        # Read from alignment.json beside the weights; measured only when that is missing or stale,
        # 50 pairs per pass: the same figures as 300 at once, ~20 MB at its peak instead of ~85 MB
        made = snapshots.alignment_over_training(snaps, batch_size=50)
        build_corpus.cache_clear()  # the 80,000 generated pairs (~33 MB) served only to pick these 300
        return made

    return shelf.get(("alignment",), make, "learning.measuring", queued=True)


def effects_model(name: str | None) -> Any:
    """The model ablation runs on: a folder with a language-model head is loaded with it (then scored
    by log-probabilities), else the very model the other pages use (scored by cosines)."""
    src = source(name)
    kept = shelf.get(("lm_model", src.name), lambda: src.load_for_effects() or _SAME, "app.loading_model")
    return model(src.name) if kept is _SAME else kept


_SAME = "same"  # kept for a source whose effects run on its one model (a shelf keeps no None)


def head_effects(name: str | None, text: str, mode: str) -> HeadEffects:
    """Every head of the source switched off alone."""
    src = source(name)
    lm = effects_model(src.name)
    return shelf.get(("effects", src.name, text, mode), lambda: src.head_effects(lm, text, mode),
                     "ablation.measuring", queued=True)


def ablated(name: str | None, text: str, heads: str, mode: str):
    """The source's output with `heads` switched off, and what changed."""
    src = source(name)
    lm = effects_model(src.name)
    return shelf.get(("ablated", src.name, text, heads, mode), lambda: src.ablated(lm, text, heads, mode),
                     "ablation.measuring", queued=True)


def origin(name: str | None, tr: Trace, site, head: int, pos: int):
    """Where a word's q, k and v come from, rebuilt from the source's own weights (None: it cannot be)."""
    src = source(name)
    return src.origin(model(src.name), tr, site, head, pos)


def attribution(text: str, position: int) -> Attribution:
    """Gradient × input and integrated gradients of the translator's word at `position`."""
    from attention.translator import attribution as attr

    tm = translator()
    return shelf.get(("attribution", text, position), lambda: attr.attribute(text, position, model=tm),
                     "ablation.attributing", queued=True)


def role_proof(name: str | None, role: str, progress=None):
    """The proof's curve for one role of a causal language model (capture/role_proof.PAGE settings)."""
    from attention.capture import role_proof as rp

    src = source(name)
    roles, lm = head_roles(src.name), effects_model(src.name)
    return shelf.get(("role_proof", src.name, role), lambda: rp.prove(lm, roles, role, progress=progress, **rp.PAGE),
                     "roles.proving", queued=True)
