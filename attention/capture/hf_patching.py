"""Activation patching per head for a Hugging Face causal language model: run A with one head's output
z replaced by run B's z at the aligned positions, and measure the share of the output difference that
one head restores.

The output difference is the logit difference between the two runs' top next tokens,
LD = logit(t_B) − logit(t_A) at the last position, and a head's restored share is
(LD_patched − LD_A) / (LD_B − LD_A): 1 when the head alone carries A's prediction over to B's, 0 when
it changes nothing. Every head is patched alone, many per forward pass: row 0 of each batch is A
unpatched (the batch's own LD_A) and row r patches head r. The switch (attention/head_mask.py) takes a
keep of (R, nh, T_A, 1), 0 only at head r's aligned positions, and one fill (1, nh, T_A, hs) holding B's
z moved to A's positions. The tokens before the first change are the same in A and B, so (causal
attention) is every head's z there: they run once, and each batch starts from their kept keys and values.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch

from attention.analysis.alignment import Alignment
from attention.analysis.effects import HeadId
from attention.analysis.token_text import candidate_labels
from attention.analysis.patch_result import NO_DIFFERENCE, NOTHING_TO_RESTORE, Patching
from attention.capture import attention_fn, hf_ablation, hf_model
from attention.head_mask import Switch, switched_off

Progress = Callable[[int, int], None]  # (heads done, heads in all)
ROWS_PER_BATCH = 32  # patched rows per forward pass (each keeps T × vocab logits only at the last position)


@dataclass(frozen=True)
class Run:
    """One input through the model: its token ids, each site's z and the last position's logits."""

    ids: torch.Tensor  # (1, T)
    z: dict[tuple[str, int], torch.Tensor]  # (kind, layer) -> (nh, T, hs), as computed (before any switch)
    logits: np.ndarray  # (vocab,) float64 at the last position


def run(lm: hf_model.LoadedModel, text: str) -> Run:
    """A's or B's unpatched run, alone (batch of 1, no padding)."""
    enc = hf_model.encode(lm, [text])
    inputs = {k: v for k, v in enc.inputs.items() if k in ("input_ids", "attention_mask")}
    with attention_fn.recording() as records, torch.inference_mode():
        out = lm.model(**inputs, logits_to_keep=1)
    keyed = {id(module): key for key, (module, _, _) in hf_ablation._sites(lm).items()}
    z = {keyed[id(rec.module)]: rec.z[0] for rec in records if id(rec.module) in keyed}
    return Run(inputs["input_ids"], z, out.logits[0, -1].double().numpy())


def contrast(a: Run, b: Run) -> tuple[int, int]:
    """(t_A, t_B): the two runs' top next tokens; when they agree, t_B is instead the token among B's ten
    likeliest whose logit rose most from A to B, so there is still a difference to follow."""
    t_a, t_b = int(np.argmax(a.logits)), int(np.argmax(b.logits))
    if t_a == t_b:
        top = np.argsort(-b.logits)[1:10]
        rise = (b.logits - a.logits)[top]
        if rise.size:
            t_b = int(top[np.argmax(rise)])
    return t_a, t_b


def aligned_z(z_a: dict[tuple[str, int], torch.Tensor], z_b: dict[tuple[str, int], torch.Tensor],
              al: Alignment) -> dict[tuple[str, int], torch.Tensor]:
    """Per site, B's z moved to A's aligned positions, (1, nh, T_A, hs); A's own z elsewhere (also
    embedding_patching's)."""
    ia, ib = al.index()
    out = {}
    for key, za in z_a.items():
        f = za.clone()
        f[:, ia] = z_b[key][:, ib]
        out[key] = f[None]
    return out


def _fill(a: Run, b: Run, al: Alignment) -> dict[tuple[str, int], torch.Tensor]:
    return aligned_z(a.z, b.z, al)


def shared_prefix(al: Alignment) -> int:
    """How many leading tokens A and B share at the same positions, at most all but A's last."""
    n = 0
    for i, j in al.pairs:
        if i != n or j != n:
            break
        n += 1
    return min(n, max(len(al.tokens_a) - 1, 0))


def patch_heads(lm: hf_model.LoadedModel, a: Run, b: Run, al: Alignment, heads: tuple[HeadId, ...] | None = None,
                fill: dict[tuple[str, int], torch.Tensor] | None = None, progress: Progress | None = None,
                together: bool = False, reuse_prefix: bool = True) -> Patching:
    """Patch each of `heads` (default: all) alone, or all of them at once (`together`: one row).

    Args:
        a, b: run(lm, A) and run(lm, B); al: the alignment of their tokens.
        fill: per (kind, layer) the z a patched head outputs, (1, nh, T_A, hs); default B's at aligned
            positions (a test passes A's own z: nothing may change).
    Returns:
        Patching with `.restored` (n_heads,), or (1,) when `together`.
    """
    if len(al.tokens_a) != a.ids.shape[1] or len(al.tokens_b) != b.ids.shape[1]:
        raise ValueError("the alignment is not of these two runs' tokens")
    sites = hf_ablation._sites(lm)
    heads = hf_ablation.all_heads(lm) if heads is None else tuple(heads)
    fill = _fill(a, b, al) if fill is None else fill
    t_a, t_b = contrast(a, b)
    # each as the page's charts show it, read after its run's text: " by" -> "·by", a Chinese piece -> "…人"
    raw_a, raw_b = lm.tokenizer.convert_ids_to_tokens([t_a, t_b])
    labels = (candidate_labels([raw_a], al.tokens_a)[0], candidate_labels([raw_b], al.tokens_b)[0])
    ld_b = float(b.logits[t_b] - b.logits[t_a])
    ld_a = float(a.logits[t_b] - a.logits[t_a])
    rows: list[tuple[HeadId, ...]] = [heads] if together else [(h,) for h in heads]
    ia, _ = al.index()
    start_at = shared_prefix(al) if reuse_prefix else 0  # False: the cost of a change at the first token
    prefix = None
    if start_at:
        with torch.inference_mode():
            prefix = lm.model(input_ids=a.ids[:, :start_at], use_cache=True).cache
    ids = a.ids[:, start_at:]
    mask = torch.ones(1, a.ids.shape[1], dtype=torch.long)
    shifts = []
    for start in range(0, len(rows), ROWS_PER_BATCH):
        chunk = rows[start:start + ROWS_PER_BATCH]
        switches = {}
        for key in {(k, L) for row in chunk for (k, L, _) in row}:
            module, nh, _ = sites[key]
            keep = torch.ones(len(chunk) + 1, nh, a.ids.shape[1], 1)
            for r, row in enumerate(chunk, start=1):
                for k, L, h in row:
                    if (k, L) == key:
                        keep[r, h, ia] = 0.0
            switches[id(module)] = Switch(keep[:, :, start_at:], fill[key][:, :, start_at:])
        n = len(chunk) + 1
        cache = None
        if prefix is not None:
            cache = copy.deepcopy(prefix)  # each forward appends to the cache it is given
            cache.batch_repeat_interleave(n)
        with switched_off(switches), torch.inference_mode():
            logits = lm.model(input_ids=ids.expand(n, -1), attention_mask=mask.expand(n, -1), cache=cache,
                              use_cache=cache is not None, logits_to_keep=1).logits[:, -1]
        ld = (logits[:, t_b] - logits[:, t_a]).double().numpy()
        shifts.append(ld[1:] - ld[0])  # LD_patched − LD_A, against the batch's own unpatched row
        if progress is not None:
            progress(min(start + len(chunk), len(rows)), len(rows))
    shift = np.concatenate(shifts)
    diff = ld_b - ld_a  # both from runs alone: exactly 0 for the same tokens
    if al.identical or abs(diff) < NO_DIFFERENCE:
        return Patching(heads, np.full(len(rows), np.nan), ld_a, ld_b, (t_a, t_b), labels,
                        note=NOTHING_TO_RESTORE)
    return Patching(heads, shift / diff, ld_a, ld_b, (t_a, t_b), labels)
