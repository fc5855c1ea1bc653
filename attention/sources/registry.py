"""The one place a model's name becomes a source: `get(name)`.

Names a link may carry (`model=`): nothing or "minilm" for the default model (all-MiniLM-L6-v2),
"translator" for the built-in translator, "smollm2" for the built-in language model, or the path of a
local Hugging Face folder. Built-in names
are matched here and nowhere else; every other module asks the source it is given.
"""

from __future__ import annotations

from collections.abc import Callable

from attention.sources.base import Source
from attention.sources.hf import FolderSource
from attention.sources.language_model import LanguageModelSource
from attention.sources.translator import TranslatorSource

DEFAULT = "minilm"
TRANSLATOR = "translator"
SMOLLM2 = "smollm2"

_BUILT_IN: dict[str, Callable[[str], Source]] = {
    DEFAULT: lambda name: FolderSource(name, None),
    TRANSLATOR: TranslatorSource,
    SMOLLM2: LanguageModelSource,
}


def names() -> tuple[str, ...]:
    """The built-in sources' names, the default first."""
    return tuple(_BUILT_IN)


def get(name: str | None) -> Source:
    """The source a name stands for: a built-in one, else a model folder at that path."""
    key = (name or "").strip()
    if not key:
        key = DEFAULT
    make = _BUILT_IN.get(key.lower())
    return make(key.lower()) if make is not None else FolderSource(key, key, names())
