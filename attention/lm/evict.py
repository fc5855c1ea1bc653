"""What if the model forgot? Writing word by word with an evicted KV cache, beside the full cache.

The prompt is read in full (every key seen). From the first written word on, each new query sees only
the keys the policy kept (attention/lm/evict_policies.py); positions are not renumbered. A key/value
head's kept set serves its query heads. Evicting is hiding: the cache keeps every key, and the keys
evicted are masked out of the new query's row (attention_fn.hiding_keys), which is exactly what a
smaller cache computes, since a softmax over the kept keys is the softmax with the others at −∞.

Each word is read once through the evicted cache: the text is its text (the words are chosen from it).
Beside it, the full cache at that same text (attention/lm/evict_full.py) says what every key would have
predicted; it reads the words written since it last read when a step's `.full`, `.kl`, `.same_top` or
`.lost` is first asked for (or `read_full()`), all of them in one pass, as a prompt is read. The words
never depend on it, and its numbers not on when it was asked (up to float rounding, below 1e-5).

    e = start(lm, "…a long prompt…", "streaming", budget=64)
    s = e.step()          # the next word, chosen from the evicted distribution
    s.kl, s.same_top      # KL(full ‖ evicted) in nats, top-1 unchanged
    s.kept[18]            # layer 18's kept positions, one array per key/value head
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import torch

from attention import blas
from attention.lm import sampling
from attention.analysis.token_text import readable
from attention.capture import attention_fn, malloc
from attention.capture.loaded import LoadedModel
from attention.lm import evict_policies as pol
from attention.lm import kv_buffer
from attention.lm.evict_full import FullCache, copied, prompt_weights
from attention.lm.writer import token_scheme
from attention.lm.written import LOCAL, Limits

PREFILL_CHUNK = 256  # prompt tokens read at a time (lean: SDPA); the policies' numbers made per chunk
AHEAD = 64  # words the caches make room for after the prompt (then room doubles, as the writer's)


def log_softmax(logits: np.ndarray) -> np.ndarray:
    x = logits.astype(np.float64)
    x = x - x.max()
    return x - np.log(np.exp(x).sum())


@dataclass(frozen=True, eq=False)
class EvictStep:
    """One written word: the query that predicted it (position `position`), the keys it saw, and both
    distributions (temperature 1, no top-k / top-p: the model's own). What the full cache says (full_logits,
    lost and all read from them) is read when first asked, with every word written before it."""

    index: int
    position: int  # the query whose prediction this is: the prompt's last token, then each written one
    token_id: int
    token: str
    label: str
    seed: int | None
    logits: np.ndarray = field(repr=False)  # (vocab,) with the evicted cache
    kept_mask: dict[int, np.ndarray] = field(repr=False)  # layer -> (kv_heads, position + 1) bool
    rows: dict[int, np.ndarray] = field(repr=False)  # layer -> (heads, position + 1) the evicted row's weights
    run: Eviction = field(repr=False)

    @property
    def full_logits(self) -> np.ndarray:
        """(vocab,) with the full cache at the same text."""
        return self.run.full_of(self.index)[0]

    @property
    def lost(self) -> np.ndarray:
        """(layers, heads): the full cache's weight on the keys evicted from this query."""
        return self.run.full_of(self.index)[1]

    @property
    def probs(self) -> np.ndarray:
        """(vocab,) the distribution with the evicted cache (the word was chosen from it)."""
        return np.exp(log_softmax(self.logits))

    @property
    def full(self) -> np.ndarray:
        """(vocab,) the distribution with the full cache at the same text."""
        return np.exp(log_softmax(self.full_logits))

    @property
    def kl(self) -> float:
        """KL(full ‖ evicted) in nats: what the evicted cache costs the next word."""
        lf, le = log_softmax(self.full_logits), log_softmax(self.logits)
        return float(max(0.0, np.sum(np.exp(lf) * (lf - le))))

    @property
    def same_top(self) -> bool:
        return int(np.argmax(self.logits)) == int(np.argmax(self.full_logits))

    @property
    def kept(self) -> dict[int, tuple[np.ndarray, ...]]:
        """layer -> one array of kept positions per key/value head."""
        return {layer: tuple(np.flatnonzero(g) for g in m) for layer, m in self.kept_mask.items()}

    @property
    def evicted(self) -> int:
        """Keys hidden from this query (per key/value head, the largest count over layers and heads)."""
        return max(int((~m).sum(axis=1).max()) for m in self.kept_mask.values())


@dataclass
class _Layer:
    """One layer's policy state for the current query (position p)."""

    kept: np.ndarray  # (kv_heads, p + 1) bool
    row: np.ndarray  # (heads, p + 1) the current query's weights with the evicted cache
    accumulated: np.ndarray | None = None  # (kv_heads, p + 1) h2o: weights summed over every query so far
    snap: np.ndarray | None = None  # (kv_heads, P) snapkv: the prompt keys kept


class Eviction:
    """A prompt and the words written after it with an evicted cache (a batch of two, see above)."""

    def __init__(self, lm: LoadedModel, prompt: str, policy: str = "streaming", budget: int = 64,
                 sinks: int = pol.SINKS, settings: sampling.Settings | None = None, limits: Limits = LOCAL,
                 ids: list[int] | None = None) -> None:
        if policy not in pol.POLICIES:
            raise ValueError(f"unknown policy {policy!r}: one of {', '.join(pol.POLICIES)}")
        if lm.capture != "registry":
            raise ValueError(f"{lm.name}: eviction needs attention through the registry")
        self.lm, self.prompt, self.policy = lm, prompt, policy
        self.budget, self.sinks = max(2, int(budget)), max(0, int(sinks))
        self.settings = settings or sampling.Settings()
        ids = lm.tokenizer(prompt, add_special_tokens=True)["input_ids"] if ids is None else ids  # ids: as given
        if not ids:
            raise ValueError("The prompt is empty: type at least one word for the model to continue.")
        cap = min(limits.prompt, limits.total - 1, lm.max_tokens - 1)
        self.ids: list[int] = list(ids[:cap])  # cut as the writer cuts (its first tokens are the sinks)
        self.prompt_len = len(self.ids)
        self.total = min(limits.total, lm.max_tokens)
        self.scheme = token_scheme(lm.tokenizer)
        self.steps: list[EvictStep] = []
        self.ended = False
        self.layers: dict[int, _Layer] = {}
        self._read_prompt()

    # -- the prompt, read once in full ---------------------------------------------------------------
    def _read_prompt(self) -> None:
        malloc.fix_threshold()  # a lean read, as the writer's: freed temporaries do not stay in glibc's heap
        room = min(self.total, self.prompt_len + AHEAD)
        cache, tails, sums = kv_buffer.buffered_cache(self.lm.model.config, room, self.total), {}, {}
        for lo in range(0, self.prompt_len, PREFILL_CHUNK):
            with attention_fn.recording(lean=True) as records, torch.inference_mode():
                out = self.lm.model(input_ids=torch.tensor([self.ids[lo: lo + PREFILL_CHUNK]]), cache=cache,
                                    use_cache=True, logits_to_keep=1)
            cache = out.cache
            for rec in records:
                layer = self._layer_of(rec)
                q, k = rec.q[0], rec.shared_k[0]  # (heads, t, d), (kv, lo + t, d)
                weights = prompt_weights(q, k, rec.scale, lo)  # (heads, t, lo + t)
                tails[layer] = _last_rows(tails.get(layer), weights, pol.SNAP_WINDOW)
                if self.policy == "h2o":
                    grouped = _group_sum(weights.sum(dim=1, keepdim=True), k.shape[0])[:, 0]  # (kv, lo + t)
                    old = sums.get(layer)
                    sums[layer] = grouped if old is None else grouped + torch.nn.functional.pad(old, (0, grouped.shape[-1] - old.shape[-1]))
        self._cache = cache
        self._logits = out.logits[0, -1].float().numpy().copy()  # the evicted cache's next word
        n, kv = self.prompt_len, self._kv_heads
        for layer, tail in tails.items():
            row = tail[:, -1].numpy()  # (heads, P) the prompt's last query
            state = _Layer(kept=np.ones((kv, n), bool), row=row)
            if self.policy == "h2o":
                state.accumulated = sums[layer].numpy().astype(np.float64)
            if self.policy == "snapkv":
                state.snap = pol.snapkv(_group_sum(tail, kv).numpy(), self.budget)
            self.layers[layer] = state
        # the prompt's last query read everything: the full cache's first word is the evicted one's
        self._full = FullCache(self.lm, copied(cache, self.lm.model.config, room, self.total), n, self._logits,
                               len(self.layers), self._heads)

    def _layer_of(self, rec: attention_fn.CallRecord) -> int:
        self._heads, self._kv_heads = rec.q.shape[1], rec.shared_k.shape[1]
        return attention_fn.call_layer(rec.module, self.lm.module_names.get(id(rec.module), ""))

    # -- a written word ------------------------------------------------------------------------------
    @property
    def n(self) -> int:
        return len(self.ids)

    def _next_kept(self, state: _Layer, p: int) -> np.ndarray:
        """(kv_heads, p + 1) the keys the query at p will see."""
        kv = state.kept.shape[0]
        if self.policy in ("streaming", "window"):
            keep = pol.streaming(p, self.budget, self.sinks if self.policy == "streaming" else 0)
            return np.broadcast_to(keep, (kv, p + 1)).copy()
        if self.policy == "h2o":
            return pol.h2o(state.kept, state.accumulated, self.budget)
        if self.policy == "tova":
            return np.broadcast_to(pol.tova(state.kept[0], state.row, self.budget), (kv, p + 1)).copy()
        written = np.ones((kv, p + 1 - state.snap.shape[1]), bool)  # snapkv: every written word kept
        return np.concatenate([state.snap, written], axis=1)

    def step(self, seed: int | None = None) -> EvictStep | None:
        """Choose the next word from the evicted distribution (greedy, or drawn with default_rng((seed,
        index)) as the writer does), then read it. None when writing has ended or there is no room."""
        if self.ended or self.n >= self.total:
            return None
        index, evicted = len(self.steps), self._logits
        probs = sampling.distribution(evicted, self.settings)
        token_id = sampling.greedy(probs) if seed is None else sampling.sample(probs, np.random.default_rng((seed, index)))
        raw = self.lm.tokenizer.convert_ids_to_tokens([token_id])[0]
        step = EvictStep(index, self.n - 1, token_id, raw, readable(raw, self.scheme), seed, evicted,
                         {layer: s.kept for layer, s in self.layers.items()},
                         {layer: s.row for layer, s in self.layers.items()}, self)
        self.steps.append(step)
        if token_id == self.lm.tokenizer.eos_token_id:
            self.ended = True
        else:
            self._read(token_id)
        return step

    def _read(self, token_id: int) -> None:
        """The token at position p = n through the evicted cache; the policy's state moves to query p."""
        p = self.n
        kept = {layer: self._next_kept(s, p) for layer, s in self.layers.items()}
        low = torch.finfo(torch.float32).min
        masks = {}
        for layer, keep in kept.items():
            hidden = torch.zeros(1, keep.shape[0], 1, p + 1)
            hidden[0, :, 0].masked_fill_(torch.from_numpy(~keep), low)
            masks[layer] = hidden
        # one torch thread, as the app runs it (the same float sums whenever a link is read again)
        with attention_fn.recording() as records, attention_fn.hiding_keys(masks), torch.inference_mode(), \
                blas.one_torch_thread():
            out = self.lm.model(input_ids=torch.tensor([[token_id]]), cache=self._cache, use_cache=True,
                                logits_to_keep=1)
        self._cache = out.cache
        self.ids.append(token_id)
        for rec in records:
            layer = self._layer_of(rec)
            w = rec.weights[0, :, 0].numpy()  # (heads, p + 1) with the evicted cache
            s, keep = self.layers[layer], kept[layer]
            if s.accumulated is not None:
                grouped = w.reshape(keep.shape[0], -1, p + 1).sum(axis=1)
                s.accumulated = np.pad(s.accumulated, ((0, 0), (0, 1))) + grouped
            s.kept, s.row = keep, w.copy()
        self._logits = out.logits[0, -1].float().numpy().copy()

    # -- the full cache at the same text, read when asked -------------------------------------------
    def read_full(self) -> None:
        """The full cache reads every word written since it last read (what each step's `.full`, `.kl`,
        `.same_top` and `.lost` need): one pass for all of them. Done on first use otherwise; the page
        calls it where it waits its turn for the model."""
        self._full.catch_up([s.token_id for s in self.steps[:-1]], [s.kept_mask for s in self.steps])

    @property
    def full_behind(self) -> int:
        """Written words the full cache has yet to read (0: every step's `.full` is known)."""
        return max(0, len(self.steps) - 1 - self._full.read)

    def full_of(self, index: int) -> tuple[np.ndarray, np.ndarray]:
        """Word `index`'s full-cache logits (vocab,) and what each head lost (layers, heads)."""
        if index > self._full.read:
            self.read_full()
        return self._full.logits[index], self._full.lost[index]

    @property
    def written(self) -> str:
        return self.lm.tokenizer.decode([s.token_id for s in self.steps if s.token_id != self.lm.tokenizer.eos_token_id])

    @property
    def tokens(self) -> list[str]:
        return self.lm.tokenizer.convert_ids_to_tokens(self.ids)


def _group_sum(x: torch.Tensor, kv: int) -> torch.Tensor:
    """(heads, …) → (kv_heads, …): summed over each group's query heads."""
    return x.reshape(kv, x.shape[0] // kv, *x.shape[1:]).sum(dim=1)


def _last_rows(before: torch.Tensor | None, new: torch.Tensor, most: int) -> torch.Tensor:
    """The last `most` query rows (heads, ≤ most, n) of the prompt so far (earlier rows padded with zeros
    to the new keys: they could not see them)."""
    if before is not None:
        before = torch.nn.functional.pad(before, (0, new.shape[-1] - before.shape[-1]))
        new = torch.cat([before, new], dim=1)
    return new[:, -most:].clone()


def start(lm: LoadedModel, prompt: str, policy: str = "streaming", budget: int = 64, sinks: int = pol.SINKS,
          temperature: object = 1.0, top_k: object = None, top_p: object = None, limits: Limits = LOCAL) -> Eviction:
    vocab = int(lm.model.get_output_embeddings().weight.shape[0])
    return Eviction(lm, prompt, policy, budget, sinks, sampling.settings(temperature, top_k, top_p, vocab=vocab), limits)
