"""The app's one cache: models, traces, translations, snapshot traces and overviews, by bytes.

Everything the app keeps between clicks lives on one least-recently-used shelf shared by every
session, within one memory budget (ui/hosting/settings.py, ATTENTION_CACHE_MB). The package itself keeps
nothing for the app: its functions are uncached here and take the model they should use.

What is kept is shared, not copied per rerun: every array in a trace is read-only and the dataclasses
are frozen, so sessions may share them, and a 512-token trace is not pickled on every click. Each
entry counts at least 1/MAX_ENTRIES of the budget, so however short, at most that many are kept.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
import streamlit as st

from attention.analysis.overview_data import Overview
from attention.analysis.overview_data import build as build_overview
from attention import sources
from attention.sources import Output, Source
from attention.lm.smollm2 import Progress
from attention.trace import Trace
from attention.ui.hosting import admission, settings
from attention.blas import one_torch_thread
from attention.ui.hosting.shelf import Shelf
from attention.ui.lang import t

if TYPE_CHECKING:  # torch, transformers and the translator load only when a page asks for them
    from attention.analysis.atlas import Atlas
    from attention.lm.atlas_corpus import Corpus
    from attention.analysis.effects import HeadEffects
    from attention.analysis.head_roles import HeadRoles
    from attention.analysis.learning_curves import SnapshotTraces
    from attention.translator.attribution import Attribution
    from attention.translator.api import Translation
    from attention.translator.model import Transformer


T = TypeVar("T")
MODEL_SHELF = "model"  # the first part of a model's key on the shelf

shelf = Shelf(settings.cache_bytes(), rss_budget=settings.rss_budget_bytes(),
              busy=lambda what: st.spinner(t(what)))  # what a person sees while a missing value is made
admission.gate.relievers.append(shelf.shed_if_over_budget)  # over memory with nothing running: results go first


def source(name: str | None) -> Source:
    """The source a name stands for (the registry; a source is cheap, its model is what is kept)."""
    return sources.get(name)


def model(name: str | None) -> Any:
    """The source's model, loaded once per process and shared by every session."""
    src = source(name)
    return shelf.get((MODEL_SHELF, src.name), src.load, "app.loading_model")


def language_model(progress: Progress | None = None) -> Any:
    """The built-in language model with its next-token head (attention/lm), expanded on first use
    (`progress` gets the expansion's stages)."""
    src = source(sources.SMOLLM2)
    return shelf.get((MODEL_SHELF, src.name), lambda: src.load(progress), "write.loading")


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

    return shelf.get(("snapshots",), _one_torch_thread(api.read_snapshots), "app.loading_model")


def loss_history() -> tuple[float, ...]:
    """The translator's training loss at every step, read alone: not a second copy of every snapshot."""
    from attention.translator import api

    return shelf.get(("loss",), api.read_loss, "app.loading_model")


def _one_torch_thread(make: Callable[[], T]) -> Callable[[], T]:
    """make() on one torch thread: the translator's operations are too small to share between two, and
    two threads waiting on each other made Learning's first visit seconds slower (blas.one_torch_thread)."""
    def made() -> T:
        with one_torch_thread():
            return make()
    return made


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


def atlas_corpus() -> Corpus:
    """The built-in corpus: the lesson's and translator's sentences and the model-written texts."""
    from attention.sources import atlas_run

    return shelf.get(("atlas_corpus",), atlas_run.builtin_corpus, "atlas.measuring")


def atlas(name: str | None, corpus: Corpus, progress: Callable[[int, int], None] | None = None) -> Atlas:
    """Every head of the source over the corpus (one pass), kept per source and corpus (its texts are the key)."""
    from attention.sources import atlas_run

    src = source(name)
    loaded = model(src.name)
    return shelf.get(("atlas", src.name, corpus.texts),
                     _one_torch_thread(lambda: atlas_run.run(src, loaded, corpus.texts, progress)),
                     "atlas.measuring", queued=True)


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
    return shelf.get(("snapshot_traces", text), _one_torch_thread(lambda: snapshots.snapshot_traces(text, final, snaps)),
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


def models_loaded() -> list[str]:
    """The names of the models the cache holds now (the replica's warm-up and /metrics report them)."""
    return [key[1] for key in shelf.keys() if key[0] == MODEL_SHELF]
