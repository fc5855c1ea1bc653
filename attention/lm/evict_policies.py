"""Which keys a KV-cache eviction policy keeps: pure numpy, one function per published rule.

Every function answers for ONE new query at position p (0-based; keys 0..p exist, p is its own key) and
returns a boolean mask over keys 0..p: True = kept, the keys this query sees. Semantics shared by all
(attention/lm/evict.py applies them):
- a budget b: a written word's query sees at most b keys, its own among them (so b − 1 come from the
  cache as it stood); a budget at least the text keeps everything;
- candidates are the keys kept for the previous query (all of the prompt, before the first written word):
  what was evicted never comes back, as in a real cache;
- ties keep the more recent key (the later position wins an equal score);
- positions are never renumbered: a kept key keeps its RoPE position (StreamingLLM's own variant shifts
  positions inside the cache; we do not).

The policies:
- streaming (StreamingLLM: Xiao et al. 2023, "Efficient Streaming Language Models with Attention Sinks"):
  the first `sinks` tokens (the attention sinks, 4 by default) and the most recent b − sinks.
- window: the most recent b only, no sinks: the baseline StreamingLLM shows collapsing.
- h2o (H2O: Zhang et al. 2023, "H2O: Heavy-Hitter Oracle for Efficient Generative Inference of Large
  Language Models"): per key/value head, the most recent ⌊b/2⌋ and the b − ⌊b/2⌋ "heavy hitters": the
  kept keys with the largest attention summed over every query so far (the group's query heads summed).
- tova (TOVA: Oren et al. 2024, "Transformers are Multi-State RNNs"): one kept set per layer: the b − 1
  cached keys with the largest weight from the newest query, averaged over the layer's query heads.
- snapkv (SnapKV: Li et al. 2024, "SnapKV: LLM Knows What You are Looking for Before Generation"): once,
  after the prompt, per key/value head: the last w = 32 prompt queries' weights summed (over those queries
  and the group's heads), average-pooled along the keys (kernel 5, as SnapKV's code), choose b − w of the
  earlier prompt keys; the last w prompt keys are kept too. Written words are all kept (SnapKV compresses
  the prompt only), so a written query sees b + its written words: snapkv alone exceeds the budget, by
  one key per word written before it (keys_seen says how many; the Forget page says why).
"""

from __future__ import annotations

import numpy as np

POLICIES = ("streaming", "window", "h2o", "tova", "snapkv")
SINKS = 4
SNAP_WINDOW = 32
SNAP_KERNEL = 5


def keys_seen(policy: str, budget: int, position: int, prompt_len: int) -> int:
    """How many keys the query at `position` sees (per key/value head), as the policies above keep them:
    the prompt's queries see the whole prompt; afterwards every policy holds to min(budget, position + 1),
    except snapkv: min(budget, prompt_len) prompt keys plus every written key, its own included."""
    if position < prompt_len:
        return position + 1
    if policy == "snapkv":
        return min(budget, prompt_len) + position + 1 - prompt_len
    return min(budget, position + 1)


def top_keys(scores: np.ndarray, candidates: np.ndarray, k: int) -> np.ndarray:
    """Bool mask (n,): the k candidates with the largest score, ties to the later position.
    scores (n,) float, candidates (n,) bool."""
    out = np.zeros(scores.shape[0], bool)
    idx = np.flatnonzero(candidates)
    if k >= idx.size:
        out[idx] = True
        return out
    if k <= 0:
        return out
    order = np.lexsort((-idx, -scores[idx]))  # by score descending, then position descending
    out[idx[order[:k]]] = True
    return out


def streaming(p: int, budget: int, sinks: int = SINKS) -> np.ndarray:
    """(p + 1,) bool: keys 0..sinks−1 and the most recent budget − sinks (p among them)."""
    keep = np.zeros(p + 1, bool)
    if budget > p:
        keep[:] = True
        return keep
    sinks = max(0, min(sinks, budget - 1))  # the query always sees itself
    keep[:sinks] = True
    keep[p + 1 - (budget - sinks):] = True
    return keep


def window(p: int, budget: int) -> np.ndarray:
    """(p + 1,) bool: the most recent `budget` keys only."""
    return streaming(p, budget, sinks=0)


def h2o(kept: np.ndarray, accumulated: np.ndarray, budget: int) -> np.ndarray:
    """(kv_heads, p + 1) bool for the new query at p = kept.shape[1].
    kept (kv_heads, p) bool: the previous query's keys; accumulated (kv_heads, p): each key's attention summed
    over every query so far (0 where never seen). The most recent ⌊budget/2⌋ (p among them), then the heavy
    hitters among the other kept keys."""
    kv, p = kept.shape
    out = np.zeros((kv, p + 1), bool)
    recent = max(1, budget // 2)
    out[:, max(0, p + 1 - recent):] = True
    older = np.zeros(p + 1, bool)
    older[: max(0, p + 1 - recent)] = True
    for g in range(kv):
        candidates = older[:p] & kept[g]
        out[g, :p] |= top_keys(accumulated[g], candidates, budget - min(recent, p + 1))
    return out


def tova(kept: np.ndarray, newest: np.ndarray, budget: int) -> np.ndarray:
    """(p + 1,) bool for the new query at p = kept.shape[0]: p itself and the budget − 1 kept keys with the
    largest weight from the previous query, averaged over heads. kept (p,) bool; newest (heads, p) weights."""
    p = kept.shape[0]
    out = np.zeros(p + 1, bool)
    out[:p] = top_keys(newest.mean(axis=0), kept, budget - 1)
    out[p] = True
    return out


def avg_pool(x: np.ndarray, kernel: int = SNAP_KERNEL) -> np.ndarray:
    """1-D average pooling along the last axis, stride 1, zero padding kernel // 2 counted in the average
    (torch's avg_pool1d defaults, as SnapKV's code calls it). (…, n) → (…, n)."""
    pad = kernel // 2
    padded = np.pad(x, [(0, 0)] * (x.ndim - 1) + [(pad, pad)])
    c = np.cumsum(padded, axis=-1, dtype=np.float64)
    c = np.concatenate([np.zeros(x.shape[:-1] + (1,)), c], axis=-1)
    return (c[..., kernel:] - c[..., :-kernel])[..., : x.shape[-1]] / kernel


def snapkv(window_weights: np.ndarray, budget: int, window: int = SNAP_WINDOW,
           kernel: int = SNAP_KERNEL) -> np.ndarray:
    """(kv_heads, P) bool: the prompt keys kept after the prompt. window_weights (kv_heads, w, P): the last w
    prompt queries' weights, already summed over each group's query heads (w ≥ min(window, P))."""
    kv, w_rows, n = window_weights.shape
    out = np.zeros((kv, n), bool)
    if budget >= n:
        out[:] = True
        return out
    w = min(window, budget, w_rows)
    out[:, n - w:] = True  # the observation window itself
    votes = avg_pool(window_weights[:, w_rows - w:, : n - w].sum(axis=1), kernel)  # (kv, P − w)
    prefix = np.ones(n - w, bool)
    for g in range(kv):
        out[g, : n - w] = top_keys(votes[g], prefix, budget - w)
    return out
