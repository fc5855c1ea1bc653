"""Why this word: for a causal language model's next token after a prompt, every head switched off alone
(hf_ablation's switches, in batches) scored by that token's log-probability, and gradient × input and
integrated gradients over the prompt's token embeddings. The agreement of the measures is
attention.analysis.why_word's.

    f(x) = log p(w | inputs_embeds x)            x = get_input_embeddings()(ids), (1, T, C)
    gradient × input      a_i = Σ_c x_ic · ∂f/∂x_ic
    integrated gradients  a_i = Σ_c (x_ic − x'_ic) · ∫₀¹ ∂f/∂x_ic (x' + α (x − x')) dα
                          baseline x': the first token's embedding kept, every other position the
                          vocabulary's mean embedding (positions are added inside the model). Not zero:
                          on a Llama model a zero input is a zero hidden state, where RMSNorm divides by
                          almost nothing, and the integral from there was 6× off (gap 621 % on the
                          default prompt, against 1.9 % from this baseline). The first token is kept
                          because most heads park their weight on it (a sink): removing it changes what
                          every head reads, not one word's content. Its attribution is 0 by construction.
                          The midpoint rule over `steps` intervals, all points in one batch.
                          Completeness: Σ_i a_i ≈ f(x) − f(x'); the gap is reported, not hidden.
"""

from __future__ import annotations

from collections.abc import Callable

import time
import warnings
from dataclasses import dataclass

import numpy as np
import torch

from attention.analysis import why_word
from attention.analysis.effects import HeadId
from attention.ids import TopHead, TopRows, head_id
from attention.capture import attention_fn, growing_batch, hf_ablation, hf_forward
from attention.capture.hf_model import LoadedModel

IG_STEPS = 64
TOP_HEADS = 5


@dataclass(frozen=True, eq=False)
class Why:
    """Why the model gives `token` after the prompt: heads, token attributions and their agreement."""

    tokens: tuple[str, ...]  # the prompt's tokens, raw
    token_id: int
    token: str  # raw
    heads: tuple[HeadId, ...]  # every head, in the model's order
    drops: np.ndarray  # (H,) log p(token) with every head on − with that head off, nats
    top: TopRows[TopHead]  # the heads with the largest drops, largest first: y.top[0] or y.top(3)
    rows: dict[HeadId, np.ndarray]  # top head -> (T,) its attention from the last prompt position
    value_rows: dict[HeadId, np.ndarray]  # top head -> (T,) the value-weighted share of that row
    gradient_x_input: np.ndarray  # (T,)
    integrated_gradients: np.ndarray  # (T,)
    f_input: float  # log p(token | prompt)
    f_baseline: float  # log p(token | the baseline x': first token kept, the mean embedding elsewhere)
    ig_steps: int  # the intervals of the integrated gradients' midpoint rule
    seconds_heads: float  # the wall time of switching every head off

    def __post_init__(self) -> None:
        object.__setattr__(self, "heads", tuple(head_id(h) for h in self.heads))

    @property
    def steps(self) -> int:
        """Deprecated name of `ig_steps` (integration intervals; `steps` counts written words elsewhere)."""
        warnings.warn("Why.steps is now Why.ig_steps", DeprecationWarning, stacklevel=2)
        return self.ig_steps

    @property
    def completeness_gap(self) -> float:
        """|Σ IG − (f(x) − f(x'))|: how far the midpoint rule is from the exact integral."""
        return abs(float(self.integrated_gradients.sum()) - (self.f_input - self.f_baseline))

    @property
    def reference(self) -> tuple[str, np.ndarray]:
        """("integrated_gradients", IG) when its completeness gap is small, else ("gradient_x_input", G×I)."""
        return why_word.reference(self.integrated_gradients, self.gradient_x_input, self.completeness_gap,
                                  self.f_input - self.f_baseline)

    @property
    def agreements(self) -> list[why_word.HeadAgreement]:
        """Each top head's rank agreement (Spearman ρ, n) of its rows with |reference|; None where not to
        be said (claims.heads_matter, claims.correlation)."""
        return why_word.agreements(self.top, self.rows, self.value_rows, self.reference[1], self.drops)


def _inputs(ids: list[int], rows: int) -> dict[str, torch.Tensor]:
    t = torch.tensor([ids]).expand(rows, -1).contiguous()
    return {"input_ids": t, "attention_mask": torch.ones_like(t)}


def head_drops(lm: LoadedModel, ids: list[int], token_id: int, mode: str = "zero",
               heads: tuple[HeadId, ...] | None = None,
               progress: Callable[[int, int], None] | None = None,
               grow: bool = True) -> tuple[tuple[HeadId, ...], np.ndarray]:
    """Each head (every head when `heads` is None) off alone, scored by log p(token_id | ids): (heads, (H,)
    drops). The token is appended
    so hf_ablation's measure (each position's next token) scores it at the last prompt position; batches
    as hf_ablation.head_effects sizes them, each with its own every-head-on row 0. `grow`: a batch grows layer
    by layer where the model allows (capture/growing_batch.py; False: whole rows, the same numbers)."""
    heads = tuple(head_id(h) for h in (hf_ablation.all_heads(lm) if heads is None else heads))
    n_pos = len(ids) + 3
    n_heads = max(nh for _, nh, _ in hf_ablation._sites(lm).values())
    per_batch = max(1, min(len(heads), hf_ablation.BATCH_ELEMENTS // (n_heads * n_pos * n_pos) - 1))
    model_order = {h: i for i, h in enumerate(hf_ablation.all_heads(lm))}
    order = sorted(range(len(heads)), key=lambda i: model_order.get(heads[i], len(model_order)))  # rows join in it
    layers = hf_ablation.grown_layers(lm, [heads[i] for i in order]) if grow else None
    drops = np.empty(len(heads))
    for start in range(0, len(heads), per_batch):
        chunk = order[start:start + per_batch]
        rows = [frozenset()] + [frozenset({heads[i]}) for i in chunk]
        with hf_ablation.switched_off(hf_ablation.switches(lm, rows, mode)):
            if layers is None:
                lp = last_log_probs(lm, _inputs(list(ids), len(rows)), int(token_id))  # (rows,)
            else:  # row 0 alone, the others joining at their head's layer
                with growing_batch.growing(layers, growing_batch.counts([heads[i] for i in chunk], layers)):
                    lp = last_log_probs(lm, _inputs(list(ids), 1), int(token_id))  # (rows,)
        drops[chunk] = lp[0] - lp[1:]
        if progress is not None:  # heads done so far, of all: the page's bar (tens of seconds in all)
            progress(min(start + per_batch, len(heads)), len(heads))
    return heads, drops


def last_log_probs(lm: LoadedModel, inputs: dict[str, torch.Tensor], token_id: int) -> np.ndarray:
    """(B,) log p(token_id) after each row's last position, only that position's logits made (hf_forward.kept_logits)."""
    logits = hf_forward.kept_logits(lm, inputs, 1)  # (B, 1, vocab)
    return torch.log_softmax(logits[:, -1].double(), dim=-1)[:, token_id].numpy()


def log_prob_fn(lm: LoadedModel, token_id: int, length: int):
    """f: embeddings (B, T, C) -> (B,) log p(token_id) after the last position, float64."""
    mask = torch.ones((1, length), dtype=torch.long)

    def f(emb: torch.Tensor) -> torch.Tensor:  # the last position's logits alone (a fifth of the work for the rest)
        logits = hf_forward.kept_logits(lm, {"inputs_embeds": emb, "attention_mask": mask.expand(emb.shape[0], -1)}, 1,
                                      grad=True)
        return torch.log_softmax(logits[:, -1].double(), dim=-1)[:, token_id]

    return f


def gradient_x_input(f, x: torch.Tensor) -> np.ndarray:
    """(1, T, C) -> (T,) Σ_c x·∂f/∂x."""
    x = x.detach().clone().requires_grad_(True)
    (grad,) = torch.autograd.grad(f(x).sum(), x)
    return (grad * x).sum(-1)[0].detach().double().numpy()


def integrated_gradients(f, x: torch.Tensor, baseline: torch.Tensor, steps: int = IG_STEPS) -> np.ndarray:
    """(1, T, C) -> (T,) integrated gradients from `baseline` to x, midpoint rule, one batch."""
    alphas = ((torch.arange(steps, dtype=x.dtype) + 0.5) / steps)[:, None, None]  # (steps, 1, 1)
    points = (baseline + alphas * (x - baseline)).detach().requires_grad_(True)  # (steps, T, C)
    (grads,) = torch.autograd.grad(f(points).sum(), points)
    mean_grad = grads.mean(0, keepdim=True)  # (1, T, C) ≈ ∫₀¹ ∂f/∂x dα
    return ((x - baseline) * mean_grad).sum(-1)[0].detach().double().numpy()


def baseline(lm: LoadedModel, x: torch.Tensor) -> torch.Tensor:
    """(1, T, C) -> (1, T, C) x': the first token's embedding kept, the vocabulary's mean embedding at
    every other position."""
    mean = lm.model.get_input_embeddings().weight.detach().float().mean(0)  # (C,)
    out = mean.expand_as(x).clone()
    out[:, 0] = x[:, 0]
    return out


def _rows(lm: LoadedModel, ids: list[int], heads: list[HeadId]):
    """One recorded pass: the last position's logits (V,) and each head's last attention row and
    value-weighted row over the prompt."""
    out, records = hf_forward.run(lm, _inputs(ids, 1))
    by_site = {(attention_fn.call_kind(r.module), attention_fn.call_layer(r.module, lm.module_names.get(id(r.module), ""))): r
               for r in records}
    rows, value_rows = {}, {}
    for kind, layer, h in heads:
        rec = by_site[(kind, layer)]
        w = rec.weights[0, h, -1].double().numpy()  # (T,)
        rows[(kind, layer, h)] = w
        value_rows[(kind, layer, h)] = why_word.value_row(w, rec.v[0, h].double().numpy())
    return out.logits[0, -1].double().numpy(), rows, value_rows


def explain(lm: LoadedModel, ids: list[int], token_id: int | None = None, ig_steps: int = IG_STEPS,
            top: int = TOP_HEADS, progress: Callable[[str, int, int], None] | None = None) -> Why:
    """Why(the model gives token_id after ids); token_id None: its likeliest next token. `progress(stage,
    done, total)`: "heads" after each batch of heads switched off, "gradients" before the integration."""
    if not ids:
        raise ValueError("the prompt has no tokens")
    if token_id is None:
        out, _ = hf_forward.run(lm, _inputs(ids, 1))
        token_id = int(out.logits[0, -1].argmax())
    started = time.perf_counter()
    heads, drops = head_drops(lm, ids, token_id, progress=None if progress is None else
                              (lambda done, total: progress("heads", done, total)))
    if progress is not None:
        progress("gradients", 0, ig_steps)
    seconds = time.perf_counter() - started
    ranked = why_word.top_heads(heads, drops, top)
    _, rows, value_rows = _rows(lm, ids, [h for h, _ in ranked])
    f = log_prob_fn(lm, token_id, len(ids))
    with torch.no_grad():
        x = lm.model.get_input_embeddings()(torch.tensor([ids])).float()  # (1, T, C)
    x_base = baseline(lm, x)
    gxi = gradient_x_input(f, x)
    ig = integrated_gradients(f, x, x_base, ig_steps)
    with torch.no_grad():
        fx, fb = float(f(x)[0]), float(f(x_base)[0])
    tok = lm.tokenizer
    return Why(tuple(tok.convert_ids_to_tokens(list(ids))), int(token_id), tok.convert_ids_to_tokens([int(token_id)])[0],
               heads, drops, ranked, rows, value_rows, gxi, ig, fx, fb, ig_steps, seconds)


def target(writing, step: int) -> tuple[tuple[int, ...], int]:
    """(the ids read before `step`, the token explained): the token written at that step, or after the
    last step the likeliest token of its distribution (after temperature, top-k, top-p)."""
    prompt_n = writing.n - len(writing.steps)
    ids = tuple(writing.ids[:prompt_n + step])
    token_id = writing.steps[step].token_id if step < len(writing.steps) else writing.distribution(step).top_ids[0]
    return ids, int(token_id)


def at_step(writing, step: int, ig_steps: int = IG_STEPS, top: int = TOP_HEADS,
            progress: Callable[[str, int, int], None] | None = None) -> Why:
    """Why for a Writing's step (see target); progress as explain's."""
    ids, token_id = target(writing, step)
    return explain(writing.lm, list(ids), token_id, ig_steps, top, progress)


def head_count(lm: LoadedModel) -> int:
    """How many heads "Why this word" switches off one at a time (SmolLM2: 30 × 9 = 270)."""
    return len(hf_ablation.all_heads(lm))
