"""See how transformer attention works: trace a text through a model and read every step.

    import attention
    tr = attention.trace("The black cat drank the milk")   # all-MiniLM-L6-v2, offline
    site = tr.sites[0]          # every attention site in model order; site.layer, site.kind
    site.weights.shape          # (heads, query_pos, key_pos)
    attention.translate("The ball is blue.").text   # "la bola es azul ." (built-in translator)
    tr.show(kind="encoder", layer=0, head=3)        # one head's S, A, Z in a notebook (offline);
                                                    # attention.show(tr, ...) is the same
    attention.save_html(tr, "trace.html")           # every head in one file that opens from disk
    attention.translate("The ball is blue.", ablate="cross.1.0,cross.1.1").ablation.drops  # heads off
    attention.head_effects("The ball is blue.", model="translator").ranked()  # every head off, one at a time

Importing the package is light: torch and transformers load only when `trace` or `translate` is
called, so `attention.core`, `attention.trace` and `attention.analysis` work without them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from attention.errors import ModelLoadError
from attention.trace import KINDS, Kind, Site, Trace

if TYPE_CHECKING:
    from pathlib import Path

    from attention.capture.hf_ablation import HeadEffects
    from attention.headview import HeadView
    from attention.translator.api import Translation


def trace(text: str, model: str | None = None, target: str | None = None, ablate=None, mode: str = "zero",
          **options) -> Trace:
    """Every attention site of `model` (a local Hugging Face folder; all-MiniLM-L6-v2 by default) on
    `text`; `target` is the decoder's input for encoder–decoder models. See capture/hf_model.py.

    `ablate`: heads to switch off, "kind.layer.head" separated by commas or (kind, layer, head)
    tuples; their output is set to zero (mode="zero") or to the head's mean output over reference
    sentences (mode="mean"). The result's `.ablation` says what changed (capture/hf_ablation.py)."""
    if ablate is not None:
        from attention.capture import hf_ablation

        return hf_ablation.trace(text, model=model, target=target, ablate=ablate, mode=mode)
    from attention.capture import hf_model

    return hf_model.trace(text, model=model, target=target, **options)


def save_html(trace: Trace, path: str | Path, **options) -> Path:
    """Every head of `trace` in one self-contained HTML file (pickers for kind, layer and head) that
    opens offline from disk. See attention/headview/page.py."""
    from attention.headview import save_html as _save_html

    return _save_html(trace, path, **options)


def show(trace: Trace | Site, kind: Kind | None = None, layer: int | None = None, head: int = 0,
         **options) -> HeadView:
    """One head's S, A, Z and lines in a notebook (offline: no CDN): `show(tr, kind="encoder", layer=3,
    head=7)`, or `show(site, head=7)`. See attention/headview/page.py."""
    from attention.headview import show as _show

    return _show(trace, kind=kind, layer=layer, head=head, **options)


# tr.show(...) and tr.save_html(path), the notebook's spelling. The head view sits above the contract,
# so trace.py cannot import it; the package sits above both and hands Trace these two functions. Any
# import of attention.trace runs this file first, so a Trace always has them.
Trace.show = show
Trace.save_html = save_html


def translate(text: str, ablate=None, mode: str = "zero") -> Translation:
    """English -> Spanish with the built-in translator; returns a Translation with .text and .trace.
    `ablate` (as for trace()): the translation with those heads off; `.ablation` holds the translation
    with every head on and each of its words' log-probability with and without the heads."""
    if ablate is not None:
        from attention.translator import ablation

        return ablation.translate(text, ablate=ablate, mode=mode)
    from attention.translator import translate as _translate

    return _translate(text)


TRANSLATOR = "translator"  # head_effects(model=TRANSLATOR): the built-in translator (attention/sources)


def head_effects(text: str, model: str | None = None, mode: str = "zero", target: str | None = None) -> HeadEffects:
    """Every head switched off alone (the runs batched), with one effect per head: the mean drop of the
    output words' log-probability (the translator, a language model) or 1 − the cosine of the pooled
    embedding (a sentence encoder).

    Args:
        text: the input sentence.
        model: a model folder, None for all-MiniLM-L6-v2, or "translator".
        mode: "zero" (an off head outputs zeros) or "mean" (its mean output over reference sentences).
        target: the decoder's input for an encoder–decoder folder (default: the text itself).
    Returns:
        HeadEffects: `.heads` (kind, layer, head) in model order, `.effect` (n_heads,), `.ranked()`.
    """
    from attention import sources

    src = sources.get(model)
    return src.head_effects(src.kept_model(for_effects=True), text, mode, target=target)


__all__ = ["KINDS", "TRANSLATOR", "ModelLoadError", "Site", "Trace", "head_effects", "save_html", "show", "trace",
           "translate"]
