"""Activation patching per head for the built-in translator: the run on source A, teacher-forced on B's
translation, with one head's z replaced by the run on source B's, and the share of the change in B's
first differing word's log-probability it restores, (M_patched − M_A) / (M_B − M_A).

Both runs read the same Spanish (B's), so decoder and cross sites are patched at every position;
encoder sites at the source positions the alignment pairs. All 24 heads run in one batch (row 0
unpatched). The word: the first where the two translations differ, or, when they agree, the word whose
log-probability changed most between the sources.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import torch

from attention.analysis.alignment import Alignment
from attention.analysis.effects import HeadId
from attention.analysis.patch_result import NO_DIFFERENCE, NOTHING_TO_RESTORE, Patching
from attention.head_mask import Switch, switched_off
from attention.translator import api
from attention.translator.ablation import _produced, _source, all_heads, word_log_probs
from attention.translator.model import Transformer
from attention.translator.vocab import BOS_ID, EOS


def _z(model: Transformer, src: torch.Tensor, tgt_in: torch.Tensor) -> dict[tuple[str, int], torch.Tensor]:
    """Per (kind, layer) the z of one run, (nh, Tq, hs) float64."""
    recorder: list = []
    with torch.no_grad():
        model(src, tgt_in, recorder)
    return {(r.kind, r.layer): r.z[0] for r in recorder}


@torch.no_grad()
def patch_heads(model: Transformer, text_a: str, text_b: str, al: Alignment,
                progress: Callable[[int, int], None] | None = None, together: bool = False) -> Patching:
    """Every head alone (or all at once: `together`), from the run on B into the run on A.

    Args:
        al: the alignment of the two sources' tokens (the translations' Source.ids, as the encoder reads).
    Returns:
        Patching, `.restored` (24,) or (1,) when `together`.
    """
    src_a, src_b = _source(model, text_a), _source(model, text_b)  # (1, S_a), (1, S_b)
    if (src_a.shape[1], src_b.shape[1]) != (len(al.tokens_a), len(al.tokens_b)):
        raise ValueError("the alignment is not of these two sources' tokens")
    out_a, out_b = api.translate(text_a, model=model), api.translate(text_b, model=model)
    produced = _produced(model, out_b.target_tokens)
    lp_a, lp_b = word_log_probs(model, src_a, produced)[0], word_log_probs(model, src_b, produced)[0]  # (W + 1,)
    words = out_b.target_tokens + (EOS,)
    differ = [i for i, w in enumerate(words) if i >= len(out_a.target_tokens) or out_a.target_tokens[i] != w]
    k = differ[0] if differ else int(np.argmax(np.abs(lp_b - lp_a)))
    a_word = out_a.target_tokens[k] if k < len(out_a.target_tokens) else EOS
    tgt_in = torch.tensor([[BOS_ID] + produced])
    za, zb = _z(model, src_a, tgt_in), _z(model, src_b, tgt_in)
    ia, ib = al.index()
    heads = all_heads(model)
    rows: list[tuple[HeadId, ...]] = [heads] if together else [(h,) for h in heads]
    switches = {}
    for key, z in za.items():
        fill = zb[key].clone() if key[0] != "encoder" else z.clone()
        if key[0] == "encoder":
            fill[:, ia] = zb[key][:, ib]
        keep = torch.ones(len(rows) + 1, z.shape[0], z.shape[1], 1, dtype=z.dtype)
        for r, row in enumerate(rows, start=1):
            for kind, layer, h in row:
                if (kind, layer) == key:
                    keep[r, h, ia if kind == "encoder" else slice(None)] = 0.0
        switches[key] = Switch(keep, fill[None])
    with switched_off(switches):
        lp = word_log_probs(model, src_a.expand(len(rows) + 1, -1), produced)[:, k]  # (1 + rows,)
    if progress is not None:
        progress(len(rows), len(rows))
    diff = float(lp_b[k] - lp_a[k])
    labels = (a_word, words[k])
    ids = (model.tgt_vocab.id(a_word), model.tgt_vocab.id(words[k]))
    if al.identical or abs(diff) < NO_DIFFERENCE:
        return Patching(heads, np.full(len(rows), np.nan), float(lp_a[k]), float(lp_b[k]), ids, labels,
                        note=NOTHING_TO_RESTORE)
    return Patching(heads, (lp[1:] - lp[0]) / diff, float(lp_a[k]), float(lp_b[k]), ids, labels)
