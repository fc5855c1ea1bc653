"""See how transformer attention works: trace a text through a model and read every step.

    import attention
    tr = attention.trace("The black cat drank the milk")   # all-MiniLM-L6-v2, offline
    site = tr.sites[0]          # every attention site in model order; site.layer, site.kind
    site.weights.shape          # (heads, query_pos, key_pos)
    attention.translate("The ball is blue.").text   # "la bola es azul ." (built-in translator)
    tr.show(kind="encoder", layer=0, head=3)        # one head's S, A, Z in a notebook (offline)
    attention.save_html(tr, "trace.html")           # every head in one file that opens from disk

Importing the package is light: torch and transformers load only when `trace` or `translate` is
called, so `attention.core`, `attention.trace` and `attention.analysis` work without them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from attention.trace import KINDS, Site, Trace

if TYPE_CHECKING:
    from pathlib import Path

    from attention.translator.api import Translation


class ModelLoadError(RuntimeError):
    """A model folder that could not be read (missing, not a transformers model, unsupported)."""


def trace(text: str, model: str | None = None, target: str | None = None, **options) -> Trace:
    """Every attention site of `model` (a local Hugging Face folder; all-MiniLM-L6-v2 by default) on
    `text`; `target` is the decoder's input for encoder–decoder models. See capture/hf_model.py."""
    from attention.capture import hf_model

    return hf_model.trace(text, model=model, target=target, **options)


def save_html(trace: Trace, path: str | Path, **options) -> Path:
    """Every head of `trace` in one self-contained HTML file (pickers for kind, layer and head) that
    opens offline from disk. See attention/headview/page.py."""
    from attention.headview import save_html as _save_html

    return _save_html(trace, path, **options)


def translate(text: str) -> Translation:
    """English -> Spanish with the built-in translator; returns a Translation with .text and .trace."""
    from attention.translator import translate as _translate

    return _translate(text)


__all__ = ["KINDS", "ModelLoadError", "Site", "Trace", "save_html", "trace", "translate"]
