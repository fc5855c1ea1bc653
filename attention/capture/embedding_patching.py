"""Activation patching per head for a sentence encoder (all-MiniLM-L6-v2, or any folder read without a
next-token head): run A with one head's output z replaced by run B's at the aligned positions, and
measure the share of the embedding change that one head restores.

The embedding is the mean of the final hidden states over the positions A and B share (the aligned
ones), so the measure compares like with like: D(x) = 1 − cos(e_x, e_B), and a head's restored share is
(D_A − D_patched) / D_A: 1 when the patched run's embedding is B's, 0 when nothing moved toward it.
With every head patched at once each aligned position's residual stream becomes B's (token embeddings,
layer norms and feed-forward layers are per position), so the share is 1 up to rounding when A and B
hold their shared tokens at the same positions; an insertion shifts the absolute positions of a BERT-like
model, and the share of all heads together is then below 1 (compute it: `together=True`).

Every head is patched alone, ROWS_PER_BATCH rows per forward pass: row 0 of each batch is A unpatched,
row r patches head r (attention/head_mask.py: keep (R, nh, T_A, 1) 0 only at head r's aligned
positions, fill (1, nh, T_A, hs) holding B's z moved to A's positions).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch

from attention.analysis.alignment import Alignment
from attention.analysis.effects import HeadId
from attention.analysis.patch_result import NO_DIFFERENCE, NOTHING_TO_RESTORE, Patching
from attention.capture import attention_fn, hf_ablation, hf_model, hf_patching
from attention.head_mask import Switch, switched_off

Progress = Callable[[int, int], None]  # (heads done, heads in all)
ROWS_PER_BATCH = 24  # patched rows per forward pass (a sentence encoder keeps every position's state)


@dataclass(frozen=True)
class Run:
    """One input through the encoder: its inputs, each site's z and the final hidden states."""

    inputs: dict[str, torch.Tensor]  # each (1, T)
    z: dict[tuple[str, int], torch.Tensor]  # (kind, layer) -> (nh, T, hs), as computed
    hidden: np.ndarray  # (T, d_model) float64


def can_patch(lm: hf_model.LoadedModel) -> bool:
    """Heads can be patched here: the registry path (our function computes z) and no decoder to feed."""
    return lm.capture == "registry" and not lm.is_encoder_decoder


def run(lm: hf_model.LoadedModel, text: str) -> Run:
    """A's or B's unpatched run, alone (batch of 1, no padding)."""
    enc = hf_model.encode(lm, [text])
    inputs = dict(enc.inputs)
    with attention_fn.recording() as records, torch.inference_mode():
        out = lm.model(**inputs)
    keyed = {id(module): key for key, (module, _, _) in hf_ablation._sites(lm).items()}
    z = {keyed[id(rec.module)]: rec.z[0] for rec in records if id(rec.module) in keyed}
    return Run(inputs, z, out.last_hidden_state[0].double().numpy())


def pooled(hidden: np.ndarray, positions: list[int]) -> np.ndarray:
    """(..., T, d) -> (..., d): the mean over `positions`."""
    return hidden[..., positions, :].mean(axis=-2)


def distance(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """1 − cos(x, y) along the last axis; 0 for the same direction."""
    norm = np.maximum(np.linalg.norm(x, axis=-1) * np.linalg.norm(y, axis=-1), 1e-30)
    return 1.0 - (x * y).sum(-1) / norm


def _fill(a: Run, b: Run, al: Alignment) -> dict[tuple[str, int], torch.Tensor]:
    return hf_patching.aligned_z(a.z, b.z, al)


def patch_heads(lm: hf_model.LoadedModel, a: Run, b: Run, al: Alignment, heads: tuple[HeadId, ...] | None = None,
                fill: dict[tuple[str, int], torch.Tensor] | None = None, progress: Progress | None = None,
                together: bool = False) -> Patching:
    """Patch each of `heads` (default: all) alone, or all of them at once (`together`: one row).

    Args:
        a, b: run(lm, A) and run(lm, B); al: the alignment of their tokens.
        fill: per (kind, layer) the z a patched head outputs, (1, nh, T_A, hs); default B's at aligned
            positions (a test passes A's own z: nothing may change).
    Returns:
        Patching: `.restored` (n_heads,) or (1,); ld_a = D_A, ld_b = 0 (B against itself); tokens (-1, -1).
    Raises:
        ValueError: the alignment is not of these runs, or the model's heads cannot be patched (can_patch).
    """
    t_a, t_b = a.inputs["input_ids"].shape[1], b.inputs["input_ids"].shape[1]
    if (len(al.tokens_a), len(al.tokens_b)) != (t_a, t_b):
        raise ValueError("the alignment is not of these two runs' tokens")
    if not can_patch(lm):
        raise ValueError("heads cannot be patched in this model (its attention does not run through our function, "
                         "or it is an encoder–decoder)")
    sites = hf_ablation._sites(lm)
    heads = hf_ablation.all_heads(lm) if heads is None else tuple(heads)
    fill = _fill(a, b, al) if fill is None else fill
    ia, ib = al.index()
    e_b = pooled(b.hidden, ib)
    d_a = float(distance(pooled(a.hidden, ia), e_b))
    rows: list[tuple[HeadId, ...]] = [heads] if together else [(h,) for h in heads]
    shares = []
    for start in range(0, len(rows), ROWS_PER_BATCH):
        chunk = rows[start:start + ROWS_PER_BATCH]
        n = len(chunk) + 1
        switches = {}
        for key in {(k, L) for row in chunk for (k, L, _) in row}:
            module, nh, _ = sites[key]
            keep = torch.ones(n, nh, t_a, 1)
            for r, row in enumerate(chunk, start=1):
                for k, L, h in row:
                    if (k, L) == key:
                        keep[r, h, ia] = 0.0
            switches[id(module)] = Switch(keep, fill[key])
        inputs = {k: v.expand(n, *v.shape[1:]) for k, v in a.inputs.items()}
        with switched_off(switches), torch.inference_mode():
            hidden = lm.model(**inputs).last_hidden_state.double().numpy()  # (n, T_A, d)
        d = distance(pooled(hidden, ia), e_b)  # (n,)
        shares.append((d[0] - d[1:]) / d[0] if d[0] >= NO_DIFFERENCE else np.full(n - 1, np.nan))
        if progress is not None:
            progress(min(start + len(chunk), len(rows)), len(rows))
    if al.identical or d_a < NO_DIFFERENCE:
        return Patching(heads, np.full(len(rows), np.nan), d_a, 0.0, (-1, -1), ("", ""), note=NOTHING_TO_RESTORE)
    return Patching(heads, np.concatenate(shares), d_a, 0.0, (-1, -1), ("", ""))
