"""Which heads decide a causal language model's next word: the ten likeliest next tokens, every head's
first-order estimate (one backward pass through the head switches' `keep`), the best-estimated heads
really switched off alone (attention.lm.why.head_drops), and the leading heads' attention rows over the
prompt. The words said of the numbers are attention.analysis.deciding_heads's.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import torch

from attention import head_mask
from attention.analysis import deciding_heads as dh
from attention.analysis.effects import HeadId
from attention.capture import hf_ablation
from attention.capture.hf_model import LoadedModel
from attention.lm import why

TOP_TOKENS = 10


@dataclass(frozen=True, eq=False)
class Deciding:
    tokens: tuple[str, ...]  # the prompt's tokens, raw
    top_ids: tuple[int, ...]  # the likeliest next tokens, likeliest first
    top_tokens: tuple[str, ...]  # raw
    top_probs: np.ndarray  # (TOP_TOKENS,) their probabilities (temperature 1, nothing cut)
    token_id: int  # the word explained: the likeliest
    log_p: float  # log p(token | prompt), every head on
    heads: tuple[HeadId, ...]  # every head, in the model's order
    estimates: np.ndarray  # (H,) first-order drops
    picked: np.ndarray  # (CANDIDATES,) indices into heads, best estimate first
    drops: np.ndarray  # (CANDIDATES,) measured drops of the picked heads, in picked order
    rows: dict[HeadId, np.ndarray]  # the leading measured heads -> (T,) attention from the last position
    seconds_estimate: float
    seconds_measure: float

    @property
    def confirmed(self) -> list[tuple[HeadId, float]]:
        return dh.confirmed(self.heads, self.picked, self.drops)

    @property
    def shown(self) -> list[tuple[HeadId, float]]:
        return self.confirmed[: dh.SHOWN]


def _ids(lm: LoadedModel, text: str) -> list[int]:
    ids = lm.tokenizer(text, add_special_tokens=True)["input_ids"]
    if not ids:
        raise ValueError("The prompt is empty: type at least one word for the model to continue.")
    return list(ids[: lm.max_tokens - 1])


def estimates(lm: LoadedModel, ids: list[int], token_id: int) -> tuple[tuple[HeadId, ...], np.ndarray, float]:
    """(heads, (H,) ∂ log p(token)/∂ keep_h at keep = 1, log p(token)). The switches live in a context
    variable, never on the shared model; `keep` carries the gradient."""
    heads = hf_ablation.all_heads(lm)
    sites = hf_ablation._sites(lm)
    keeps = {key: torch.ones(1, nh, 1, 1, requires_grad=True) for key, (_, nh, _) in sites.items()}
    switches = {id(module): head_mask.Switch(keeps[key], torch.zeros(1, nh, 1, hs))
                for key, (module, nh, hs) in sites.items()}
    with head_mask.switched_off(switches), torch.enable_grad():
        logits = lm.model(input_ids=torch.tensor([ids]), attention_mask=torch.ones(1, len(ids), dtype=torch.long),
                          logits_to_keep=1).logits
        log_p = torch.log_softmax(logits[0, -1].double(), dim=-1)[token_id]
        order = list(dict.fromkeys((k, L) for k, L, _ in heads))  # the sites, in the heads' order
        grads = torch.autograd.grad(log_p, [keeps[s] for s in order])
    by_site = dict(zip(order, grads, strict=True))
    est = np.array([float(by_site[(k, L)][0, h, 0, 0]) for k, L, h in heads])
    return heads, est, float(log_p.detach())


def decide(lm: LoadedModel, text: str, candidates: int = dh.CANDIDATES, shown: int = dh.SHOWN) -> Deciding:
    """The next word after `text` and the heads that decide it (see the module's docstring)."""
    ids = _ids(lm, text)
    started = time.perf_counter()
    with torch.inference_mode():
        logits = lm.model(input_ids=torch.tensor([ids]), logits_to_keep=1).logits[0, -1].double()
    probs = torch.softmax(logits, dim=-1)
    top = torch.topk(probs, TOP_TOKENS)
    top_ids = tuple(int(i) for i in top.indices)
    token_id = top_ids[0]
    heads, est, log_p = estimates(lm, ids, token_id)
    t_est = time.perf_counter() - started
    picked = dh.candidates(est, candidates)
    started = time.perf_counter()
    _, drops = why.head_drops(lm, ids, token_id, heads=tuple(heads[int(i)] for i in picked))
    t_measure = time.perf_counter() - started
    confirmed = dh.confirmed(heads, picked, drops)[:shown]
    _, rows, _ = why._rows(lm, ids, [h for h, _ in confirmed])
    tok = lm.tokenizer
    return Deciding(tuple(tok.convert_ids_to_tokens(ids)), top_ids, tuple(tok.convert_ids_to_tokens(list(top_ids))),
                    top.values.numpy(), token_id, log_p, heads, est, picked, np.asarray(drops, dtype=np.float64),
                    rows, t_est, t_measure)
