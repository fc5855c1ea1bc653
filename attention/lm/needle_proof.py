"""Do the retrieval heads matter, and what does forgetting do to the needle?

- The proof (as for head roles): the k best retrieval heads switched off against k random heads with the same
  layers' spread (each top head's stand-in is drawn from its own layer, never a top head), on the same
  prompts: how often the answer stays right, and where the switched-off heads looked when it failed (the
  share of their top keys on the first token, the sink).
- Forgetting: the same prompt through the eviction lab's policies at a budget (attention/lm/evict.py: the
  prompt read in full, each written query sees the kept keys), and a DuoAttention-style split (Xiao et al.
  2024): the key/value groups of the retrieval heads keep every key, the others SINKS sinks + a window, so each
  non-retrieval query sees `budget` keys as the policies' do. Right answer? Keys and values kept?
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from attention.analysis import retrieval
from attention.capture.loaded import LoadedModel
from attention.ids import HeadId
from attention.lm import evict
from attention.lm import evict_policies as pol
from attention.lm import needle as needle_run
from attention.lm.needle import KV_BYTES, NeedleRun, NeedleStep
from attention.lm.needle_prompt import Needle, Prompt

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class NeedleProof:
    """Top-k retrieval heads off against k random heads off (same layers), on the same prompts.

    Attributes:
        top: the heads switched off (the best k); random: per draw, the k heads drawn.
        base_right, top_right: (prompts,) bool, right with every head on / with the top heads off.
        random_right: (draws, prompts) bool with each draw's heads off.
        top_sink: share of (written token, switched-off head) pairs whose top key is the first token, over
            the prompts the top heads' removal got wrong (None: none got wrong).
        answers_top: the answers with the top heads off.
    """

    top: tuple[HeadId, ...]
    random: tuple[tuple[HeadId, ...], ...]
    base_right: np.ndarray
    top_right: np.ndarray
    random_right: np.ndarray
    top_sink: float | None
    answers_top: tuple[str, ...]

    @property
    def random_rate(self) -> float:
        return float(self.random_right.mean()) if self.random_right.size else float("nan")


def same_layer_draw(top: Sequence[HeadId], heads: int, exclude: set[tuple[int, int]],
                    rng: np.random.Generator, layers: int | None = None) -> tuple[HeadId, ...]:
    """One random head per top head, from the same layer, outside `exclude` (layer, head) and not drawn twice;
    where that layer has no head left (many top heads in one layer), from the nearest layer that has one
    (`layers`: how many there are; None: the top heads' own layers only, the head itself when none is left)."""
    out, taken = [], set(exclude)
    for h in top:
        near = [h.layer] if layers is None else sorted(range(layers), key=lambda L: (abs(L - h.layer), L))
        free: list[tuple[int, int]] = []
        for layer in near:
            free = [(layer, j) for j in range(heads) if (layer, j) not in taken]
            if free:
                break
        layer, j = free[int(rng.integers(len(free)))] if free else (h.layer, h.head)
        taken.add((layer, j))
        out.append(HeadId(h.kind, layer, j))
    return tuple(out)


def counted_runs(lm: LoadedModel, steps: int, total: int,
                 progress: Progress | None) -> Callable[[Prompt, Needle, Sequence[HeadId]], NeedleRun]:
    """one(prompt, needle, off): the needle run with heads `off`, and progress(runs done, total) after it."""
    done = 0

    def one(prompt: Prompt, nd: Needle, off: Sequence[HeadId]) -> NeedleRun:
        nonlocal done
        r = needle_run.run(lm, prompt, nd.needle, nd.question, nd.answer, steps, off=off)
        done += 1
        if progress:
            progress(done, total)
        return r

    return one


def prove(lm: LoadedModel, prompts: Sequence[tuple[Prompt, Needle]], top: Sequence[HeadId], draws: int = 3,
          steps: int = 24, seed: int = 0, progress: Progress | None = None) -> NeedleProof:
    """Each prompt with every head on, with `top` off, and with `draws` random same-layer sets off."""
    top = tuple(top)
    heads = int(lm.model.config.num_attention_heads)
    rng = np.random.default_rng(seed)
    exclude = {(h.layer, h.head) for h in top}
    drawn = tuple(same_layer_draw(top, heads, exclude, rng) for _ in range(draws))
    one = counted_runs(lm, steps, len(prompts) * (2 + draws), progress)

    base = [one(p, nd, ()) for p, nd in prompts]
    off_top = [one(p, nd, top) for p, nd in prompts]
    rand = np.array([[one(p, nd, d).found for p, nd in prompts] for d in drawn], bool).reshape(draws, len(prompts))
    failed = [r for r in off_top if not r.found]
    sink = None
    if failed and top:
        pairs = [(h.layer, h.head) for h in top]
        sink = float(np.mean([retrieval.sink_share(r.top_keys, pairs) for r in failed if r.steps] or [0.0]))
    return NeedleProof(top, drawn, np.array([r.found for r in base]), np.array([r.found for r in off_top]), rand,
                       sink, tuple(r.answer for r in off_top))


def from_eviction(e: evict.Eviction, prompt: Prompt, nd: Needle, label: str) -> NeedleRun:
    """An eviction lab run as a NeedleRun: each step's top key and needle weight read from its evicted row."""
    steps, kept = [], 0
    layers = sorted(e.steps[0].rows) if e.steps else []
    span = prompt.span
    d_head = int(getattr(e.lm.model.config, "head_dim", None)
                 or e.lm.model.config.hidden_size // e.lm.model.config.num_attention_heads)
    for s in e.steps:
        if s.token_id == e.lm.tokenizer.eos_token_id:
            break
        rows = np.stack([s.rows[L] for L in layers])  # (layers, heads, p + 1)
        steps.append(NeedleStep(s.token_id, s.token, s.position, rows.argmax(axis=-1),
                                rows[..., span[0]: span[1]].sum(axis=-1), rows[..., 0]))
        kept = sum(int(m.sum()) for m in s.kept_mask.values())
    answer = e.lm.tokenizer.decode([s.token_id for s in steps], skip_special_tokens=True).strip()
    last = steps[-1].position + 1 if steps else len(prompt.ids)
    kv = next(iter(e.steps[0].kept_mask.values())).shape[0] if e.steps else 0
    per_key = 2 * d_head * KV_BYTES
    return NeedleRun(nd.needle, nd.question, nd.answer, answer, retrieval.is_right(answer, nd.needle, nd.answer),
                     tuple(prompt.ids), span, prompt.depth, tuple(steps), kept * per_key,
                     last * len(layers) * kv * per_key, label)


def policy_run(lm: LoadedModel, prompt: Prompt, nd: Needle, policy: str, budget: int, steps: int = 24,
               sinks: int = pol.SINKS) -> NeedleRun:
    """The needle through the eviction lab's `policy` at `budget` keys per written query."""
    e = evict.Eviction(lm, "", policy, budget, sinks, ids=list(prompt.ids))
    for _ in range(steps):
        if e.step() is None or e.ended:
            break
    return from_eviction(e, prompt, nd, policy)


def duo_rule(retrieval_heads: Sequence[HeadId], heads: int, kv_heads: int, budget: int,
             sinks: int = pol.SINKS) -> needle_run.KeyRule:
    """DuoAttention-style keys: a key/value group with a retrieval head among its query heads keeps every key;
    the others see `sinks` sinks and the most recent budget − sinks keys (StreamingLLM's rule)."""
    per_group = heads // kv_heads
    full = {(h.layer, h.head // per_group) for h in retrieval_heads}

    def rule(layer: int, p: int, kv: int) -> np.ndarray:
        keep = np.broadcast_to(pol.streaming(p, budget, sinks), (kv, p + 1)).copy()
        for g in range(kv):
            if (layer, g) in full:
                keep[g] = True
        return keep

    return rule


def forgetting(lm: LoadedModel, prompt: Prompt, nd: Needle, retrieval_heads: Sequence[HeadId], budget: int = 256,
               policies: Sequence[str] = pol.POLICIES, steps: int = 24,
               progress: Progress | None = None) -> list[NeedleRun]:
    """The full cache, each policy at `budget`, and the DuoAttention-style split (label "duo"), in that order."""
    config = lm.model.config
    heads = int(config.num_attention_heads)
    kv = int(getattr(config, "num_key_value_heads", heads))
    total = 2 + len(policies)
    out = [needle_run.run(lm, prompt, nd.needle, nd.question, nd.answer, steps)]
    if progress:
        progress(1, total)
    for i, policy in enumerate(policies):
        out.append(policy_run(lm, prompt, nd, policy, budget, steps))
        if progress:
            progress(2 + i, total)
    out.append(needle_run.run(lm, prompt, nd.needle, nd.question, nd.answer, steps,
                              rule=duo_rule(retrieval_heads, heads, kv, budget), label="duo"))
    if progress:
        progress(total, total)
    return out
