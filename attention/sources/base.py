"""What every model the app can show offers, whatever computes it (the registry picks the class)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal, Protocol

if TYPE_CHECKING:
    from attention.analysis.head_roles import HeadRoles
    from attention.analysis.effects import HeadEffects
    from attention.analysis.qkv_origin import Origin
    from attention.trace import Site, Trace

Predicts = Literal["nothing", "translation", "next_token"]
Purpose = Literal["trace", "effects", "writer"]


class Output(Protocol):
    """What one run on a text gives: always its trace; a Translation also has the Spanish words."""

    trace: Trace


class Source(ABC):
    """One model the app can show.

    name: what a link carries (`model=`), and what the registry reads back into this source.
    home: the page that shows one of its heads in full ("explore" or "translate").
    predicts: what its output is for a learner: nothing (a sentence embedding), a translation, or the
        next token.
    whole_words: its tokens are whole words already (merging word pieces does not apply).
    The heavy model is loaded by `load()` once and kept by the caller (the app's cache, a notebook):
    every other method takes it, so a source itself holds no weights and is cheap to make.
    """

    name: str
    home: str = "explore"
    predicts: Predicts = "nothing"
    whole_words: bool = False
    working: str = "app.tracing"  # what a page says while it runs (an i18n key)
    # the kinds of attention whose head roles are measured apart (a model with several, the first the
    # default); () = its one kind of self-attention
    role_kinds: tuple[str, ...] = ()

    @abstractmethod
    def label(self) -> str:
        """The model's name as a person reads it."""

    @abstractmethod
    def load(self) -> Any:
        """The model, read from disk (seconds): the caller keeps it."""

    @abstractmethod
    def run(self, model: Any, text: str) -> Output:
        """The text through the model: the output and its trace."""

    def traces(self, model: Any, texts: list[str]) -> list[Trace]:
        """Several texts through the model (a source that can batch them does); one trace per text, in order."""
        return [self.run(model, text).trace for text in texts]

    def trace(self, text: str, target: str | None = None, ablate: Any = None, mode: str = "zero") -> Trace:
        """attention.trace() on this source, the model kept for a notebook; with `ablate` (heads off) the
        trace carries `.ablation`. A source that makes its own output takes no `target`."""
        if target is not None:
            raise ValueError(f"{self.label()} makes its own output from the text: it takes no target")
        if ablate is None:
            return self.run(self.kept(), text).trace
        from attention.capture.hf_ablation import AblatedTrace
        from attention.trace import Trace

        out = self.ablated(self.kept("effects"), text, ablate, mode)
        fields = {name: getattr(out.trace, name) for name in Trace.__dataclass_fields__}
        return AblatedTrace(**fields, ablation=out.ablation)

    def load_for_effects(self) -> Any | None:
        """The model head effects and ablation run on, when it is not `load()`'s (a folder with a
        language-model head is scored by its log-probabilities); None: the same model."""
        return None

    def switches_heads(self, trace: Trace) -> bool:
        """Whether heads can be switched off in the run that made `trace`."""
        return True

    @abstractmethod
    def head_effects(self, model: Any, text: str, mode: str, target: str | None = None) -> HeadEffects:
        """Every head switched off alone (one batch), with one effect per head; `target`: the decoder's
        input, for the sources that take one."""

    @abstractmethod
    def ablated(self, model: Any, text: str, heads: str, mode: str) -> Any:
        """The run with `heads` ("kind.layer.head,…") switched off; `.ablation` says what changed."""

    @abstractmethod
    def origin(self, model: Any, trace: Trace, site: Site, head: int, pos: int) -> Origin | None:
        """Where the word at `pos` got its q, k and v (x·W + b); None where it cannot be rebuilt."""

    def head_roles(self, model: Any, seed: int = 0, length: int = 12, kind: str | None = None) -> HeadRoles:
        """Every head's roles on the probe of `seed` and `length` words (attention/analysis/head_roles.py);
        `kind`: one of role_kinds (None: the first), for a source that has some."""
        from attention.analysis import role_probes

        if kind is not None and kind not in self.role_kinds:
            raise ValueError(f"{self.label()} measures its heads' roles on its self-attention only, not '{kind}'")
        return role_probes.measure(lambda text: self.run(model, text).trace, seed, length, model=self.label())

    def load_writer(self, progress: Any = None) -> Any:
        """The model with its next-token head, for writing word by word (attention/lm); a source that
        predicts no next word raises ModelLoadError."""
        from attention.errors import ModelLoadError

        raise ModelLoadError(f"{self.label()} does not predict the next word.")

    def kept(self, purpose: Purpose = "trace") -> Any:
        """For a notebook: the model loaded once per process (the last four kept); the app keeps its
        own in its cache instead. `purpose`: "trace" (load), "effects" (the model head effects run on)
        or "writer" (the model with its next-token head)."""
        return _kept(self, purpose)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Source) and type(other) is type(self) and other.name == self.name

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.name))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


@lru_cache(maxsize=4)
def _kept(source: Source, purpose: Purpose) -> Any:
    if purpose == "writer":
        return source.load_writer()
    return (source.load_for_effects() if purpose == "effects" else None) or source.load()
