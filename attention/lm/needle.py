"""Find the needle: a fact stated once in a long prompt, asked back at the end, answered greedily, with every
head's top-1 key recorded for each written token (Wu et al. 2024's retrieval heads, attention/analysis/retrieval.py).

The prompt is read through the KV cache with the model's fast attention (SDPA: no n × n made, nothing recorded),
in fixed pieces so a grid can share the start before the needle (needle_prefill.py), its last token alone after
it (recorded: the first written token's query). Each
written token's query row is then recomputed per layer from the very q and cached k the model used (after RoPE,
handed to our attention function): S = q·Kᵀ · scale is (heads, n), one row, O(n) a step whatever the length;
its argmax per head is the head's top key, its softmax summed over the needle the head's weight there. No
n × n per head is ever kept.

Optional, for the proof and the forgetting comparison:
- heads switched off for the whole run (attention/head_mask.py, zero mode): their rows are still computed as
  the model computes them (where they look), only their output is removed;
- a key rule: from the first written word on, layer L's key/value head g sees only the keys kept(L, p)[g]
  (attention_fn.hiding_keys: evicting is hiding, exactly a smaller cache's softmax). The DuoAttention-style
  split is one such rule (retrieval heads' groups keep every key, the others sinks + a window).

    r = run(lm, prompt)          # prompt: needle_prompt.build(...)
    r.answer, r.found, r.retrieval_scores.shape     # text, bool, (layers, heads)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np
import torch
from transformers import DynamicCache

from attention import blas
from attention.analysis import retrieval
from attention.capture import attention_fn, malloc
from attention.capture.loaded import LoadedModel
from attention.head_mask import switched_off
from attention.lm import kv_buffer, needle_prefill, needle_rows
from attention.lm.needle_rows import NeedleRows
from attention.lm.needle_prompt import Prompt, Refused

KV_BYTES = 4  # float32 keys and values

# (layer, query position p, key/value heads) -> (kv_heads, p + 1) bool keys seen, or None for every key
KeyRule = Callable[[int, int, int], "np.ndarray | None"]


@dataclass(frozen=True, eq=False)
class NeedleStep:
    """One written token and, for the query that predicted it (position `position`), every head's top key.

    Attributes:
        token_id, token: the written token (id, and as the tokenizer writes it).
        position: the query's position (the prompt's last for the first token, then each written one's).
        top_key: (layers, heads) ints, each head's top-1 key position (largest attention weight).
        needle_weight: (layers, heads) each head's weight summed over the needle's tokens.
        sink_weight: (layers, heads) each head's weight on the first token.
    """

    token_id: int
    token: str
    position: int
    top_key: np.ndarray = field(repr=False)
    needle_weight: np.ndarray = field(repr=False)
    sink_weight: np.ndarray = field(repr=False)


@dataclass(frozen=True, eq=False)
class NeedleRun:
    """A needle asked back: what was written and where every head looked.

    Attributes:
        answer: the greedy text written (end-of-text excluded).
        found: the answer holds the needle's answer (`expected`; with none, > half the needle's words).
        ids: the prompt's token ids; needle_span: (start, end) the needle's token positions, end excluded.
        steps: one NeedleStep per written token.
        kv_bytes_kept, kv_bytes_full: the keys and values the last written query saw, over every layer and
            key/value head, and what the full cache holds at that point (float32, keys and values).
    """

    needle: str
    question: str
    expected: str | None
    answer: str
    found: bool
    ids: tuple[int, ...]
    needle_span: tuple[int, int]
    depth: float
    steps: tuple[NeedleStep, ...]
    kv_bytes_kept: int
    kv_bytes_full: int
    label: str = "full"  # the run's condition: "full", a policy's name, "duo", "top-k off", …
    rows: NeedleRows | None = field(default=None, repr=False)  # run(keep=True): what the written queries read

    @property
    def written(self) -> list[int]:
        return [s.token_id for s in self.steps]

    @property
    def top_keys(self) -> np.ndarray:
        """(steps, layers, heads) every head's top key per written token."""
        return np.stack([s.top_key for s in self.steps]) if self.steps else np.zeros((0, 0, 0), np.int64)

    @property
    def retrieval_scores(self) -> np.ndarray:
        """(layers, heads) Wu et al.'s score for this run: for each head, the needle tokens it copied (top-1
        key inside the needle AND on the very token written) divided by the needle's length. A run whose
        answer is wrong scores what it scores; retrieval_heads() averages the right runs only."""
        return retrieval.scores(self.top_keys, self.written, self.ids, self.needle_span)

    @property
    def copy_counts(self) -> np.ndarray:
        """(layers, heads) written tokens each head copied from the needle."""
        return retrieval.copy_counts(self.top_keys, self.written, self.ids, self.needle_span)

    @property
    def copyable(self) -> int:
        """Written tokens that occur in the needle (how many copies were possible)."""
        return retrieval.copyable(self.written, self.ids, self.needle_span)


def _row(q: torch.Tensor, k: torch.Tensor, scale: float, hidden: torch.Tensor | None) -> torch.Tensor:
    """(heads, n) softmax(q·kᵀ·scale [+ hidden]) for ONE query. q (heads, d); k (kv_heads, n, d); hidden
    (kv_heads, n) additive or None. A group's query heads read their key/value head."""
    heads, d = q.shape
    kv, n = k.shape[0], k.shape[1]
    s = torch.matmul(q.reshape(kv, heads // kv, d), k.transpose(1, 2)) * scale  # (kv, heads/kv, n)
    if hidden is not None:
        s = s + hidden[:, None, :]
    return torch.softmax(s.reshape(heads, n), dim=-1)


def _looked(records: list, layer_of: Callable, span: tuple[int, int], masks: dict | None,
            shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """From one forward pass's records: the LAST query's (layers, heads) top key, needle weight, sink weight."""
    top = np.zeros(shape, np.int64)
    needle_w, sink_w = np.zeros(shape), np.zeros(shape)
    with blas.one_torch_thread():  # small products: a second thread only waits (and spins on a busy machine)
        for rec in records:
            _one(rec, layer_of(rec), span, masks, top, needle_w, sink_w)
    return top, needle_w, sink_w


def _one(rec, layer: int, span: tuple[int, int], masks: dict | None, top: np.ndarray, needle_w: np.ndarray,
         sink_w: np.ndarray) -> None:
    """One layer's last query row: its top keys, needle and sink weights written into the (layers, heads) arrays."""
    hidden = None if masks is None or layer not in masks else masks[layer][0, :, -1]  # (kv, n)
    w = _row(rec.q[0, :, -1], rec.shared_k[0], rec.scale, hidden)  # (heads, n)
    top[layer] = torch.argmax(w, dim=-1).numpy()
    needle_w[layer] = w[:, span[0]: span[1]].sum(dim=-1).numpy()
    sink_w[layer] = w[:, 0].numpy()


def run(lm: LoadedModel, prompt: Prompt, needle: str, question: str, expected: str | None = None, steps: int = 24,
        off: Iterable[tuple[str, int, int]] = (), rule: KeyRule | None = None, label: str = "full",
        start: tuple[DynamicCache, int] | None = None, keep: bool = False) -> NeedleRun:
    """Write up to `steps` tokens greedily after the prompt; every head's top key for each.

    Args:
        lm: a causal LM read through the registry (attention_fn).
        prompt: the needle prompt (needle_prompt.build).
        needle, question, expected: the fact, the question, the words a right answer holds (None: Wu et al.'s
            rule, more than half of the needle's words).
        steps: tokens to write at most (the end-of-text token stops earlier).
        off: heads (kind, layer, head) switched off for the whole run (zero mode).
        rule: keys each written query sees (None: every key). See KeyRule.
        label: the run's condition, kept on the result.
        start: (a cache with room for len(prompt.ids) + steps + 1 tokens holding the first b, b) where b is an
            end of needle_prefill.boundaries and the keys were read the same way, heads `off` included
            (needle_prefill.Shelf.before_needle): the run reads on from b. None: the whole prompt is read here.
        keep: keep what the written tokens' queries read (`.rows`, needle_rows.NeedleRows), so a head's exact
            rows can be shown later; with no key rule only (a rule's hidden keys are not kept).

    Returns:
        NeedleRun (see its docstring).
    """
    if lm.capture != "registry":
        raise Refused("nd.err.capture", f"{lm.name}: the needle needs attention captured through the registry",
                      model=lm.name)
    from attention.capture import hf_ablation

    ids = list(prompt.ids)
    n_steps = _steps(lm, ids, steps)
    config = lm.model.config
    layers, heads = lm.n_layers, int(config.num_attention_heads)
    kv_heads = int(getattr(config, "num_key_value_heads", heads))
    d_head = int(getattr(config, "head_dim", None) or config.hidden_size // heads)
    off = frozenset(tuple(h) for h in off)
    sw = hf_ablation.switches(lm, [off]) if off else {}

    def layer_of(rec) -> int:
        return attention_fn.call_layer(rec.module, lm.module_names.get(id(rec.module), ""))

    malloc.fix_threshold()
    space = len(ids) + n_steps + 1  # room(): the prompt, the written tokens and one more
    cache, done = start if start is not None else (kv_buffer.buffered_cache(config, space, space), 0)
    eos = lm.tokenizer.eos_token_id
    written: list[NeedleStep] = []
    kept_rows: list[tuple] = []  # keep: each written token's (q, z, scales), every layer
    if keep and rule is not None:
        raise ValueError("keep needs every key: a key rule's hidden keys are not kept")
    seen = kept_keys = len(ids) * layers * kv_heads  # keys the current query sees; the last written one's
    with switched_off(sw), torch.inference_mode():
        if len(ids) > 1:  # all but the last token in fixed pieces (needle_prefill), SDPA, nothing recorded
            cache = needle_prefill.read(lm, ids, needle_prefill.boundaries(len(ids) - 1, prompt.span[0]), cache, done)
        with attention_fn.recording(lean=True) as records:  # the last: its row is the first written token's query
            out = lm.model(input_ids=torch.tensor([ids[-1:]]), cache=cache, use_cache=True, logits_to_keep=1)
        cache = out.cache
        looked = _looked(records, layer_of, prompt.span, None, (layers, heads))  # the prompt's last query
        row = needle_rows.step_rows(records, layer_of, layers) if keep else None
        del records
        p = len(ids) - 1
        for _ in range(n_steps):
            token = int(torch.argmax(out.logits[0, -1]))
            if token == eos:
                break
            written.append(NeedleStep(token, lm.tokenizer.convert_ids_to_tokens([token])[0], p, *looked))
            if row is not None:
                kept_rows.append(row)
            kept_keys = seen
            if len(written) == n_steps:
                break
            p += 1
            masks = _masks(rule, layers, p, kv_heads)
            with attention_fn.recording(lean=True) as records, blas.one_torch_thread(), \
                    attention_fn.hiding_keys(masks or {}):
                out = lm.model(input_ids=torch.tensor([[token]]), cache=cache, use_cache=True, logits_to_keep=1)
            cache = out.cache
            looked = _looked(records, layer_of, prompt.span, masks, (layers, heads))
            row = needle_rows.step_rows(records, layer_of, layers) if keep else None
            seen = _kept_count(masks, layers, kv_heads, p)
            del records
    answer = lm.tokenizer.decode([s.token_id for s in written], skip_special_tokens=True).strip()
    full_keys = (written[-1].position + 1 if written else len(ids)) * layers * kv_heads
    per_key = 2 * d_head * KV_BYTES
    rows = None
    if kept_rows:
        rows = needle_rows.keep([r[0] for r in kept_rows], [r[1] for r in kept_rows], kept_rows[0][2], cache, len(ids) - 1)
    return NeedleRun(needle, question, expected, answer, retrieval.is_right(answer, needle, expected), tuple(ids),
                     prompt.span, prompt.depth, tuple(written), kept_keys * per_key, full_keys * per_key, label, rows)


def _steps(lm: LoadedModel, ids, steps: int) -> int:
    return max(1, min(int(steps), lm.max_tokens - len(ids)))


def room(lm: LoadedModel, prompt: Prompt, steps: int) -> int:
    """Tokens run() makes room for in its cache: the prompt, the written tokens and one more."""
    return len(prompt.ids) + _steps(lm, prompt.ids, steps) + 1


def _masks(rule: KeyRule | None, layers: int, p: int, kv_heads: int) -> dict[int, torch.Tensor] | None:
    """layer -> (1, kv_heads, 1, p + 1) additive masks for the query at p (None: no rule, every key seen)."""
    if rule is None:
        return None
    low = torch.finfo(torch.float32).min
    out = {}
    for layer in range(layers):
        keep = rule(layer, p, kv_heads)
        if keep is None:
            continue
        hidden = torch.zeros(1, kv_heads, 1, p + 1)
        hidden[0, :, 0].masked_fill_(torch.from_numpy(~np.asarray(keep, bool)), low)
        out[layer] = hidden
    return out or None


def _kept_count(masks: dict[int, torch.Tensor] | None, layers: int, kv_heads: int, p: int) -> int:
    """Keys seen by the query at p, summed over layers and key/value heads."""
    if masks is None:
        return (p + 1) * layers * kv_heads
    seen = 0
    for layer in range(layers):
        m = masks.get(layer)
        seen += (p + 1) * kv_heads if m is None else int((m[0, :, 0] == 0).sum())
    return seen
