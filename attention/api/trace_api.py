"""Traces in a notebook: trace, show, save_html, translate, head_effects and compare. `model=` is "minilm"
(all-MiniLM-L6-v2, the default), "translator", "smollm2" or a Hugging Face model folder."""

from __future__ import annotations

from typing import TYPE_CHECKING

from attention.api.model_names import MINILM, TRANSLATOR, named
from attention.trace import Kind, Site, Trace

if TYPE_CHECKING:
    from pathlib import Path

    from attention.capture.hf_ablation import HeadEffects
    from attention.headview import HeadView
    from attention.sources.comparison import Comparison
    from attention.translator.api import Translation


def trace(text: str, model: str = MINILM, target: str | None = None, ablate=None, mode: str = "zero") -> Trace:
    """Every attention site of a model on `text`. See capture/hf_model.py.

    Args:
        text: the input sentence.
        model: "minilm" for all-MiniLM-L6-v2, "translator", "smollm2", or a Hugging Face model folder: the
            names every function taking `model=` reads (attention/sources/registry.py).
        target: the decoder's input for an encoder–decoder folder (the translator writes its own).
        ablate: heads to switch off, "kind.layer.head" separated by commas or (kind, layer, head) tuples.
        mode: an off head outputs zeros ("zero") or its mean output over reference sentences ("mean").

    Returns:
        Trace: `.sites` in model order, each with q, k, v (heads, pos, d_head) and weights (heads,
        query_pos, key_pos); with `ablate`, `.ablation` says what changed (capture/hf_ablation.py).

    Raises:
        ModelLoadError: no such folder, or one transformers cannot read.
    """
    from attention import sources

    return sources.get(named(model, MINILM, "trace")).trace(text, target=target, ablate=ablate, mode=mode)


def save_html(trace: Trace, path: str | Path, **options) -> Path:
    """Every head of `trace` in one self-contained HTML file that opens offline from disk.

    Args:
        trace: what trace(), translate().trace or a Writing's .trace() returned.
        path: the file to write.
        **options: as attention/headview/page.py's save_html (decimals, colours).

    Returns:
        Path: the file written (pickers for kind, layer and head inside it).
    """
    from attention.headview import save_html as _save_html

    return _save_html(trace, path, **options)


def show(trace: Trace | Site, kind: Kind | None = None, layer: int | None = None, head: int = 0,
         **options) -> HeadView:
    """One head's S, A, Z and lines in a notebook (offline: no CDN).

    Args:
        trace: a Trace, or one Site (then kind and layer are its own).
        kind: "encoder", "decoder" or "cross"; None: the only kind the trace has.
        layer: the layer; None: the first.
        head: the head.
        **options: as attention/headview/page.py's show.

    Returns:
        HeadView: displayed by Jupyter (hover, click, zoom, keyboard).
    """
    from attention.headview import show as _show

    return _show(trace, kind=kind, layer=layer, head=head, **options)


def translate(text: str, model: str = TRANSLATOR, ablate=None, mode: str = "zero") -> Translation:
    """English -> Spanish with the built-in translator (or a folder of its weights).

    Args:
        text: the English sentence.
        model: "translator", or a folder holding the translator's model.pt (what
            `python -m attention.translator.train` writes). Other models do not translate: trace them with
            trace(text, model=folder, target=...).
        ablate: heads to switch off, as for trace(); then `.ablation` holds the translation with every head
            on and each of its words' log-probability with and without the heads.
        mode: "zero" or "mean", as for trace().

    Returns:
        Translation: `.text`, `.trace` (encoder, decoder and cross sites), `.word_probs`, `.unknown_words`.

    Raises:
        ValueError: `model` names a built-in model that is not the translator.
    """
    from pathlib import Path

    from attention import sources
    from attention.translator import api, checkpoint

    src = sources.get(named(model, TRANSLATOR, "translate"))
    if src.predicts == "translation":
        loaded = src.kept()
    elif (Path(model) / checkpoint.MODEL_FILE).is_file():  # a folder of the translator's own weights
        loaded = api.read_model(model)
    else:
        raise ValueError(f"translate() reads the built-in translator or a folder of its weights, not {model!r}: "
                         "use attention.trace(text, model=...) or attention.generate(...)")
    if ablate is not None:
        from attention.translator import ablation

        return ablation.translate(text, ablate=ablate, mode=mode, model=loaded)
    return api.translate(text, model=loaded)


def head_effects(text: str, model: str = MINILM, mode: str = "zero", target: str | None = None) -> HeadEffects:
    """Every head switched off alone (the runs batched), with one effect per head.

    The effect is the mean drop of the output words' log-probability (the translator, a language model) or
    1 − the cosine of the pooled embedding (a sentence encoder).

    Args:
        text: the input sentence.
        model: "minilm", "translator", "smollm2" or a model folder.
        mode: "zero" (an off head outputs zeros) or "mean" (its mean output over reference sentences).
        target: the decoder's input for an encoder–decoder folder (default: the text itself).

    Returns:
        HeadEffects: `.heads` HeadId(kind, layer, head) in model order, `.effect` (n_heads,), `.ranked()`
        [TopHead(head, effect), …] largest first, `.top(k)` its first k.
    """
    from attention import sources

    src = sources.get(named(model, MINILM, "head_effects"))
    return src.head_effects(src.kept("effects"), text, mode, target=target)


def compare(text_a: str, text_b: str, model: str = MINILM) -> Comparison:
    """Change one word: A and B through the same model, what changed in every head, in the output, and
    (`.patching()`) which heads carry the change. See attention/sources/comparison.py.

    Args:
        text_a: the first input (not empty). The two inputs' tokens are aligned by an edit alignment;
            lengths more than 2× apart, or less than half of the shorter one's tokens shared, are refused.
        text_b: the second input, as text_a.
        model: "minilm", "translator", "smollm2", or a model folder.

    Returns:
        Comparison: `.alignment` (`.pairs` [(i in A, j in B)], `.changed` spans); `.sites`, per site
        `.max_abs` and `.js` (heads,): the largest |A_B − A_A| and the mean Jensen–Shannon distance of
        the aligned rows; `.grid("js")` (sites, heads); `.ranked("js")` [TopHead(head, value), …] and
        `.top(k, "js")`; `.identical` (every change then exactly 0); `.output` the output's change
        (next-token tops of both runs and `.js` the distance of their whole distributions, both
        translations, or the embeddings' cosine); `.change_unseen`: a causal model whose change comes after
        every shared token, so no head can show it; `.patching(progress)` (causal language models): every
        head's z in run A replaced by B's at aligned positions, one at a time, batched; its `.ranked()`
        [TopHead(head, restored share)], share = (LD_patched − LD_A) / (LD_B − LD_A) with LD the logit
        difference of the two runs' top next tokens; `.note` says when there is no difference to restore.

    Raises:
        ValueError: an empty input, or two inputs the alignment refuses (the reason is in the message).
    """
    from attention.sources import comparison as _compare

    return _compare.compare(text_a, text_b, named(model, MINILM, "compare"))
