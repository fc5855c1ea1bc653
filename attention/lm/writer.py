"""Writing step by step with the KV cache, every attention call recorded.

The prompt is read first (prefill, PREFILL_CHUNK tokens at a time through the cache): every layer's q,
k, v and the model's own weights for all its tokens. Then each step feeds ONLY the new token with `past_key_values`: the model computes one query
row per layer against the keys and values it cached, and we record that row (q (heads, 1, d), the
new key and value, its weights over the whole context, its z). The keys and values of earlier tokens
are the cache's, not recomputed. `site()` / `trace()` assemble any step's full attention from the
kept rows; tests check it equals the whole text read again in one pass (≤ 1e-5).

    w = start(lm, "The black cat drank the milk because it was")
    w.next.top()                   # [(" the", 0.21), …] the distribution for the next token
    step = w.step()                # greedy (or w.step(seed=7): drawn with a seeded generator)
    step.rows[18].q.shape          # (9, 1, 64): layer 18's new query row
    w.site(18).weights.shape       # (9, n, n): the whole text so far, assembled from the rows
"""

from __future__ import annotations

import os
import random
import threading

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np  # noqa: E402
import torch  # noqa: E402
from transformers import DynamicCache  # noqa: E402

from attention.lm import sampling  # noqa: E402
from attention.analysis.token_text import pending_bytes, piece_labels, readable, scheme_of  # noqa: E402, F401 - readable: part of the API
from attention.capture import attention_fn  # noqa: E402
from attention.capture import hf_forward, malloc  # noqa: E402
from attention.lm import kv_buffer  # noqa: E402
from attention.capture.hf_model import LoadedModel  # noqa: E402
from attention.lm.reading_back import ReadingBack  # noqa: E402
from attention.lm.written_labels import WrittenLabels  # noqa: E402
from attention.lm.rows import LayerStore, NewRows, Recomputed  # noqa: E402
from attention.lm.written import HOSTED, LOCAL, Ahead, Limits, NextToken, Step  # noqa: E402, F401 - part of the API
from attention.trace import Site  # noqa: E402

# The prompt is read this many tokens at a time through the cache. Read at once, every layer's (heads, P, P)
# weights existed together (30 × 9 × 2,048² floats: 4.5 GB for a 2,048-token prompt); in chunks, a chunk's
# rows reach only the keys before them, so what is kept is about half, and the peak is one chunk's.
# Lean too (no weights): a chunk's SDPA temporaries and its recorded q, z are the peak above what is kept. A
# 2,048-token prompt in chunks of 512 / 256 / 128 peaked at 1,583 / 1,525 / 1,461 MiB (VmHWM).
PREFILL_CHUNK = 128
WRITTEN_AHEAD = 64  # words a writing is expected to grow by, when it decides to keep the model's weights or not


class Writing(ReadingBack, WrittenLabels):
    """A prompt and what was written after it, with every layer's rows. One session's: its page runs, and
    one background thread reading the next token ahead; a lock keeps the model's reading to one of them."""

    def __init__(self, lm: LoadedModel, prompt: str, limits: Limits = LOCAL,
                 settings: sampling.Settings | None = None, ids: list[int] | None = None) -> None:
        if lm.capture != "registry":
            raise ValueError(f"{lm.name}: writing needs attention captured through the registry")
        if not prompt and ids is None:
            raise ValueError("The prompt is empty: type at least one word for the model to continue.")
        self.lm, self.prompt, self.limits = lm, prompt, limits
        self.settings = settings or sampling.Settings()
        tok = lm.tokenizer
        ids = tok(prompt, add_special_tokens=True)["input_ids"] if ids is None else ids  # ids: read as given
        if not ids:
            raise ValueError("The prompt is empty: type at least one word for the model to continue.")
        cap = min(limits.prompt, limits.total - 1, lm.max_tokens - 1)
        self.cut = max(0, len(ids) - cap)  # prompt tokens dropped from the end to fit
        self.ids: list[int] = list(ids[:cap])
        self.total = min(limits.total, lm.max_tokens)
        self.tokens: list[str] = tok.convert_ids_to_tokens(self.ids)
        self.scheme = token_scheme(tok)
        self.steps: list[Step] = []
        self.ended = False  # the end-of-text token was chosen: nothing more is written
        self.stores: dict[int, LayerStore] = {}
        self._recomputed: tuple[int, Recomputed] | None = None  # (layer, its rows): see site()
        self._last_site: tuple[int, int, Site] | None = None  # (layer, n, site): asked again, the same object
        self._cache: DynamicCache | None = None
        self._logits: list[np.ndarray] = []  # after the prompt, then after each step
        self._ahead: Ahead | None = None  # the next token read ahead; the cache holds its key and value
        self._lock = threading.RLock()  # held while the model reads (a step, going back, reading ahead)
        # A long prompt is read lean: the model's fast attention (SDPA), no weights made or kept, each row's
        # z checked instead (rows.LayerStore.long_site): O(n) a word.
        # (decided by the prompt and the next WRITTEN_AHEAD words: a short prompt keeps today's check of the weights)
        self.lean = limits.lean if limits.lean is not None else not hf_forward.keeps_weights(
            lm, min(self.total, len(self.ids) + WRITTEN_AHEAD))
        if self.lean:
            malloc.fix_threshold()
        for lo in range(0, len(self.ids), PREFILL_CHUNK):  # the last chunk's logits: after the whole prompt
            rows, logits = self._read(self.ids[lo : lo + PREFILL_CHUNK])
            self._keep(rows)
        self._logits.append(logits)

    # -- reading tokens -------------------------------------------------------------------------------
    def _read(self, ids: list[int]) -> tuple[dict[int, NewRows], np.ndarray]:
        """Feed ids after the cache (which takes their keys and values): every layer's new rows, and the
        last position's logits (vocab,). The stores are left as they were (see _keep)."""
        if self._cache is None:
            self._cache = self._rebuilt_cache()
        with attention_fn.recording(lean=self.lean) as records, torch.inference_mode():
            out = self.lm.model(input_ids=torch.tensor([ids]), cache=self._cache, use_cache=True, logits_to_keep=1)
        self._cache = out.cache
        new_rows = {}
        for rec in records:
            t = rec.q.shape[2]
            new_rows[self._store(rec).layer] = NewRows(
                q=rec.q[0].numpy(), z=rec.z[0].numpy(), weights=None if rec.weights is None else rec.weights[0].numpy(),
                # copies: a view would keep the cache's whole (kv_heads, n, d) tensor alive for one row
                k=np.ascontiguousarray(rec.shared_k[0, :, -t:].numpy()),
                v=np.ascontiguousarray(rec.shared_v[0, :, -t:].numpy()),
            )
        return new_rows, out.logits[0, -1].float().numpy().copy()

    def _keep(self, rows: dict[int, NewRows]) -> None:
        for layer, new in rows.items():
            self.stores[layer].append(new)

    def _store(self, rec: attention_fn.CallRecord) -> LayerStore:
        name = self.lm.module_names.get(id(rec.module), "")
        layer = attention_fn.call_layer(rec.module, name)
        if layer not in self.stores:
            self.stores[layer] = LayerStore(layer, attention_fn.call_kind(rec.module), name, rec.scale,
                                            rec.q.shape[1], rec.shared_k.shape[1], rec.q.shape[-1], most=self.total,
                                            check_as_read=self.lean and self.limits.check_as_read)
            self.stores[layer].reserve(self._room)  # the prompt and the next words: no copies
            index = self.stores[layer].cache_index = int(getattr(rec.module, "layer_idx", layer))  # the cache's layer
            cached = self._cache.layers[index]
            if isinstance(cached, kv_buffer.BufferLayer):
                self.stores[layer].share(cached.buffer)  # k and v: the cache's own memory, not a copy
        return self.stores[layer]

    @property
    def _room(self) -> int:
        return min(self.total, len(self.ids) + WRITTEN_AHEAD)

    def _rebuilt_cache(self) -> DynamicCache:
        """The KV cache over the kept keys and values (at first, and after going back a step): a store that
        shares its buffer with the cache gives it again (no copy), another's are copied in."""
        shared = {store.cache_index: store.buffer for store in self.stores.values() if store.buffer is not None}
        cache = kv_buffer.buffered_cache(self.lm.model.config, self._room, self.total, shared)
        for layer in sorted(self.stores):
            if self.stores[layer].buffer is not None:
                continue
            k, v = self.stores[layer].kv()
            cache.update(torch.from_numpy(np.ascontiguousarray(k))[None],
                         torch.from_numpy(np.ascontiguousarray(v))[None], layer)
        return cache

    # -- the distribution and a step ------------------------------------------------------------------
    @property
    def n(self) -> int:
        return len(self.ids)

    @property
    def prompt_len(self) -> int:
        """Tokens of the prompt (as read, after any cut)."""
        return self.n - len(self.steps)

    @property
    def next(self) -> NextToken:
        """The distribution over the token after everything so far."""
        return self.distribution(len(self.steps))

    def distribution(self, step: int) -> NextToken:
        """What the model predicted before step `step` was written (step = len(steps): the next one)."""
        logits = self._logits[step]
        return self._summary(logits, sampling.distribution(logits, self.settings))

    def _summary(self, logits: np.ndarray, probs: np.ndarray) -> NextToken:
        ids, ps = sampling.top(probs)
        raw = self.lm.tokenizer.convert_ids_to_tokens([int(i) for i in ids])
        return NextToken(logits=logits, settings=self.settings, top_ids=tuple(int(i) for i in ids),
                         top_probs=tuple(float(p) for p in ps), top_tokens=tuple(raw),
                         top_labels=tuple(self.candidate_label(t) for t in raw))

    @property
    def full(self) -> bool:
        """No room left to write (the limit of tokens reached)."""
        return self.n >= self.total

    def _choice(self, seed: int | None, token_id: int | None = None) -> tuple[int, np.ndarray]:
        """The next token as step(seed) chooses it (greedy, or drawn with default_rng((seed, index))) unless
        token_id is given, and the distribution it is chosen from."""
        index = len(self.steps)
        probs = sampling.distribution(self._logits[index], self.settings)  # computed once for both uses
        if token_id is None:
            token_id = sampling.greedy(probs) if seed is None else sampling.sample(probs, np.random.default_rng((seed, index)))
        return token_id, probs

    def _read_ahead(self, token_id: int) -> bool:
        """The token read ahead is this one, after the text as it is now."""
        return self._ahead is not None and (self._ahead.n, self._ahead.token_id) == (self.n, token_id)

    def ahead(self, seed: int | None = None) -> bool:
        """Read the token step(seed) would choose now, without writing it: the model's work of the next
        word done while the learner looks at this one (ui/pages/writing.py runs it in a background thread).
        A step that chooses that token takes these rows; one that chooses another (the settings changed)
        drops them and reads its own. Reading a token does not depend on how it was chosen, so the rows
        are the same either way. True when a token was read."""
        with self._lock:
            if self.ended or self.full:
                return False
            token_id, _ = self._choice(seed)
            if self._read_ahead(token_id):
                return False  # read already
            self._drop_ahead()
            if token_id == self.lm.tokenizer.eos_token_id:
                return False
            rows, logits = self._read([token_id])
            self._ahead = Ahead(self.n, token_id, rows, logits)
            return True

    def _drop_ahead(self) -> None:
        """The token read ahead is not the one written: its key and value leave the cache."""
        if self._ahead is not None:
            if self._cache is not None:
                self._cache.crop(self.n - self._cache.get_seq_length())
            self._ahead = None

    def step(self, seed: int | None = None, token_id: int | None = None) -> Step | None:
        """Choose the next token (greedy with seed None, else drawn with default_rng((seed, index)); or the
        given token_id), read it (or take it as read ahead), keep its rows. None when writing has ended or
        there is no room."""
        with self._lock:
            if self.ended or self.full:
                return None
            index = len(self.steps)
            token_id, probs = self._choice(seed, token_id)
            dist = self._summary(self._logits[index], probs)
            if token_id == self.lm.tokenizer.eos_token_id:
                self.ended = True
                self._drop_ahead()
                return None
            cache_len = self.n
            if self._read_ahead(token_id):
                rows, logits = self._ahead.rows, self._ahead.logits
                self._ahead = None
            else:
                self._drop_ahead()
                rows, logits = self._read([token_id])
            self._keep(rows)
            self._logits = self._logits[: index + 1]
            self._logits.append(logits)
            self.ids.append(token_id)
            raw = self.lm.tokenizer.convert_ids_to_tokens([token_id])[0]
            self.tokens.append(raw)
            step = Step(index=index, token_id=token_id, token=raw, label=self._labels_ending()[-1],
                        probability=float(probs[token_id]), chosen_from=dist, seed=seed, cache_len=cache_len,
                        rows=rows)
            self.steps.append(step)
            self._relabel()
            return step

    def back(self, steps: int) -> None:
        """Keep only the first `steps` written tokens (0: the prompt alone): the page's "go back"."""
        with self._lock:
            steps = max(0, min(steps, len(self.steps)))
            if steps == len(self.steps):
                return
            n = self.n - (len(self.steps) - steps)
            for store in self.stores.values():
                store.cut(n)
            del self.ids[n:], self.tokens[n:], self.steps[steps:], self._logits[steps + 1:]
            self.ended, self._cache, self._last_site, self._ahead = False, None, None, None
            if self._recomputed and self._recomputed[1].n > n:  # its rows past n read tokens now dropped
                self._recomputed = (self._recomputed[0], self._recomputed[1].cut(n))


def token_scheme(tokenizer) -> str:
    """How the tokenizer writes pieces, read from two words it tokenises ("bpe" for byte-level)."""
    ids = tokenizer(" a b\n", add_special_tokens=False)["input_ids"]
    return scheme_of(tokenizer.convert_ids_to_tokens(ids))


def start(lm: LoadedModel, prompt: str, limits: Limits = LOCAL, temperature: object = 1.0, top_k: object = None,
          top_p: object = None) -> Writing:
    """Read the prompt (settings clamped, see lm/sampling.py): a Writing ready for its first step."""
    vocab = int(lm.model.get_output_embeddings().weight.shape[0])
    return Writing(lm, prompt, limits, sampling.settings(temperature, top_k, top_p, vocab=vocab))


def fresh_seed() -> int:
    """A seed to show and reuse (small enough to type)."""
    return random.SystemRandom().randrange(10_000)
