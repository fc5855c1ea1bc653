"""The proof that a role matters: switch off the k heads that have it most against k heads drawn at random,
and measure a causal language model's loss on the repeated half of fresh probes.

If induction heads do what their score says, a model without them can no longer copy the second copy
from the first: its loss there rises far more than with as many random heads off. Heads are switched
off with hf_ablation's switches (zero mode): every row of one batch has its own set off, row 0 none.

The loss is −mean log p(token) over the second copy's tokens after its first (the first cannot be
guessed from the earlier copy: it follows the first copy's last word). The heads are ranked on the probe
of `seed`; the loss is measured on probes of other seeds, so the ranking is not judged on its own data.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from attention.analysis import head_roles, role_probes
from attention.analysis.effects import HeadId
from attention.capture import hf_ablation, hf_forward, hf_model
from attention.head_mask import switched_off

HeadRoles = head_roles.HeadRoles  # what attention.head_roles() returns (the package reaches analysis through here)
measure = role_probes.measure
PAGE = {"ks": (1, 2, 3, 4, 5), "draws": 6, "probes": 2}  # the page's settings: one curve in well under 60 s
PROVABLE = ("induction", "previous", "duplicate")  # roles whose heads the page offers to switch off


@dataclass(frozen=True)
class RoleProof:
    role: str
    ranked: tuple[HeadId, ...]  # the role's top heads, best first; the first k are switched off for k
    ks: tuple[int, ...]
    base_loss: float  # every head on (nats per token, mean over the probes)
    top_loss: np.ndarray  # (len(ks),) the top-k heads off
    random_loss: np.ndarray  # (len(ks), draws) k random heads off, one column per draw
    random_heads: tuple[tuple[tuple[HeadId, ...], ...], ...]  # [k index][draw] the heads drawn
    seeds: tuple[int, ...]  # the probes the loss was measured on
    length: int

    def spread(self) -> tuple[np.ndarray, np.ndarray]:
        """(len(ks),) mean and standard deviation of the random draws' losses."""
        return self.random_loss.mean(axis=1), self.random_loss.std(axis=1, ddof=1)

    def z(self) -> np.ndarray:
        """(len(ks),) how many of the random draws' standard deviations the top heads' loss lies above their mean."""
        mean, std = self.spread()
        return (self.top_loss - mean) / np.maximum(std, 1e-12)

    def rows(self) -> list[dict]:
        """The curve as plain rows: k, the top heads' loss, the random draws' mean, sd, min and max."""
        mean, std = self.spread()
        return [{"k": k, "top": float(self.top_loss[i]), "random_mean": float(mean[i]), "random_sd": float(std[i]),
                 "random_min": float(self.random_loss[i].min()), "random_max": float(self.random_loss[i].max())}
                for i, k in enumerate(self.ks)]


def _repeat_losses(lm: hf_model.LoadedModel, text: str, n_words: int, rows: list[frozenset[HeadId]]) -> np.ndarray:
    """(len(rows),) the loss on the probe's repeated half with each row's heads off."""
    where = role_probes.layout(tuple(hf_model.encode(lm, [text]).tokens[0]), n_words)
    inputs, labels, _ = hf_ablation._batch(lm, text, None, len(rows))
    second = np.arange(where.start + where.length + 1, where.start + 2 * where.length)  # guessable tokens
    cols = torch.as_tensor(second - 1)  # the positions that predict them (labels[:, c] is token c + 1)
    with switched_off(hf_ablation.switches(lm, rows)):
        logits = hf_forward.kept_logits(lm, inputs, cols)  # (rows, len(cols), vocab): only those positions'
    log_probs = torch.log_softmax(logits.double(), dim=-1)
    picked = log_probs.gather(-1, labels[:, cols].expand(len(rows), -1)[..., None])[..., 0]
    return -picked.mean(dim=1).numpy()


def check_model(lm: object) -> None:
    """Refuse what the proof cannot score: anything but a causal language model (the translator too)."""
    if not isinstance(lm, hf_model.LoadedModel) or not hf_ablation.has_lm_head(lm) or lm.is_encoder_decoder:
        raise ValueError("the proof needs a causal language model (a next-token head)")


def prove(lm: hf_model.LoadedModel, roles: head_roles.HeadRoles, role: str = "induction", ks=(1, 2, 3, 4, 5),
          draws: int = 8, probes: int = 3, rng_seed: int = 0, progress=None) -> RoleProof:
    """The loss curve of the role's top-k heads off against k random heads off (draws per k), on `probes`
    fresh probes of the same length. Random heads are drawn from the heads outside the role's top max(ks).
    `progress(done, total)`, if given, is called after each probe (the page's progress bar)."""
    check_model(lm)
    if not roles.applies(role):
        raise ValueError(f"the role '{role}' does not apply to this model: {roles.notes[role]}")
    kind = roles.kind or "decoder"
    ranked = tuple(HeadId(kind, h.layer, h.head) for h, _ in roles.top(role, max(ks)))
    pool = [h for h in hf_ablation.all_heads(lm) if h[0] == kind and h not in ranked]
    rng = np.random.default_rng(rng_seed)
    drawn = tuple(tuple(tuple(pool[i] for i in sorted(rng.choice(len(pool), size=k, replace=False)))
                        for _ in range(draws)) for k in ks)
    rows = [frozenset()] + [frozenset(ranked[:k]) for k in ks] + [frozenset(d) for per_k in drawn for d in per_k]
    seeds = tuple(roles.seed + 1 + i for i in range(probes))
    n_words = roles.words or roles.length
    per_probe = []
    for i, s in enumerate(seeds):
        per_probe.append(_repeat_losses(lm, role_probes.text(s, n_words), n_words, rows))
        if progress is not None:
            progress(i + 1, len(seeds))
    losses = np.mean(per_probe, axis=0)
    n = len(ks)
    return RoleProof(role, ranked, tuple(ks), float(losses[0]), losses[1:1 + n], losses[1 + n:].reshape(n, draws),
                     drawn, seeds, roles.length)
