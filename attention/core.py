"""The maths of one attention call, one pure numpy function per step.

    S = Q·Kᵀ              raw_scores      the "factor matrix"
    S' = S·scale / T       scale_scores    scale = 1/√d_k, T = softmax temperature
    S' = c·tanh(S' / c)    softcap_scores  Gemma-2's cap c; most models have none
    S' = S' + B                            B: an additive position bias (T5), when the model has one
    S' = S' + M            add_mask        M is 0 where allowed, a huge negative where hidden
    S' from S              logits          the four steps above, chained in this order (the only place)
    A = softmax(S')        softmax         each row sums to 1 (less with a sink: GPT-OSS's extra
                                           per-head logit takes a share of weight and has no value)
    Z = A·V                weighted_sum    each query's output: a weighted sum of value rows

and two measures read off them: cosine (of a q and a k) and entropy (of a row of A).

Shapes: leading dimensions (heads, batch, ...) broadcast; the last two are (query_pos, key_pos)
or (pos, d_head). No torch and no Streamlit here: a notebook can call these on any arrays.
"""

from __future__ import annotations

import numpy as np

# The additive value that hides a position. Models use finfo(float32).min; anything at or below
# half of it counts as "masked" when we read a mask back.
MASKED = float(np.finfo(np.float32).min)


def raw_scores(q: np.ndarray, k: np.ndarray) -> np.ndarray:
    """S = Q·Kᵀ.  q (..., query_pos, d_k), k (..., key_pos, d_k) -> (..., query_pos, key_pos)."""
    return q @ np.swapaxes(k, -1, -2)


def default_scale(d_k: int) -> float:
    """The scale of "Attention Is All You Need": 1/√d_k keeps the variance of scores near 1."""
    return 1.0 / float(np.sqrt(d_k))


def scale_scores(scores: np.ndarray, scale: float, temperature: float = 1.0) -> np.ndarray:
    """S·scale / T. Temperature 1 is the model; T > 1 flattens the softmax, T < 1 sharpens it."""
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    return scores * (scale / temperature)


def softcap_scores(scores: np.ndarray, softcap: float | None) -> np.ndarray:
    """Gemma-2 style capping: softcap·tanh(S/softcap); None leaves the scores as they are."""
    if softcap is None:
        return scores
    return np.tanh(scores / softcap) * softcap


def causal_mask(query_len: int, key_len: int | None = None) -> np.ndarray:
    """Additive mask (query_pos, key_pos): query i may see keys 0..i (aligned at the end when the
    keys are longer, as with a cache). 0 where allowed, MASKED where hidden."""
    key_len = query_len if key_len is None else key_len
    offset = key_len - query_len
    allowed = np.arange(key_len)[None, :] <= np.arange(query_len)[:, None] + offset
    return np.where(allowed, 0.0, MASKED)


def padding_mask(key_is_real: np.ndarray, query_len: int) -> np.ndarray:
    """Additive mask (query_pos, key_pos) that hides padded keys. key_is_real: (key_pos,) bools."""
    row = np.where(np.asarray(key_is_real, dtype=bool), 0.0, MASKED)
    return np.broadcast_to(row, (query_len, row.shape[0])).copy()


def combine_masks(*masks: np.ndarray | None) -> np.ndarray | None:
    """Add masks, keeping the sum from overflowing below MASKED (None means "nothing hidden")."""
    present = [m for m in masks if m is not None]
    if not present:
        return None
    total = np.zeros(np.broadcast_shapes(*(m.shape for m in present)))
    for m in present:
        total = total + m
    return np.maximum(total, MASKED)


def add_mask(scores: np.ndarray, mask: np.ndarray | None) -> np.ndarray:
    """S + M; M broadcasts over heads. None: nothing hidden."""
    if mask is None:
        return scores
    return scores + mask


def logits(
    scores: np.ndarray,
    scale: float,
    softcap: float | None = None,
    bias: np.ndarray | None = None,
    mask: np.ndarray | None = None,
    temperature: float = 1.0,
    out: np.ndarray | None = None,
) -> np.ndarray:
    """What the softmax sees: softcap(S·scale / T) + bias + M, in the order the models apply them
    (Gemma-2's softcap before T5's position bias, the mask last). bias and M broadcast; None: absent.

    With `out` (an array of the result's shape) every step is written into it, so its dtype holds
    throughout, as attention() needs; without, a new array in the promoted dtype."""
    s = softcap_scores(scale_scores(scores, scale, temperature), softcap)  # a new array: ours to change
    if out is None:
        for extra in (bias, mask):
            if extra is not None:
                s = s + extra
        return s
    out[...] = s
    for extra in (bias, mask):
        if extra is not None:
            out += extra
    return out


def is_masked(mask: np.ndarray | None, shape: tuple[int, ...]) -> np.ndarray:
    """Boolean (…, query_pos, key_pos): True where the mask hides the key from the query."""
    if mask is None:
        return np.zeros(shape, dtype=bool)
    return np.broadcast_to(mask <= MASKED / 2, shape)


def softmax(scores: np.ndarray, axis: int = -1) -> np.ndarray:
    """Numerically stable softmax: subtracting the row maximum changes nothing mathematically
    but keeps exp() from overflowing. A row that is all −inf comes out all zero; a row hidden
    entirely with MASKED (finite, as the models use) comes out uniform, as it does in the models."""
    return softmax_(np.array(scores, dtype=np.result_type(scores, np.float32)), axis)


def softmax_(scores: np.ndarray, axis: int = -1) -> np.ndarray:
    """softmax() computed in place in `scores` (a float array the caller owns), which it returns:
    no temporary the size of the matrix, which matters at heads × 512 × 512."""
    peak = np.max(scores, axis=axis, keepdims=True)
    peak[~np.isfinite(peak)] = 0.0
    scores -= peak
    np.exp(scores, out=scores)
    total = np.sum(scores, axis=axis, keepdims=True)
    total[total == 0] = 1.0  # a row that was all −inf: it is all 0 already
    scores /= total
    return scores


def softmax_with_sink_(scores: np.ndarray, sink: np.ndarray) -> np.ndarray:
    """softmax() in place over each row of `scores` and one more logit per row, `sink` (shape
    scores.shape[:-1] or broadcastable to it), which is left out of the result: the row then sums
    to 1 − the sink's share, exp(sink) / (Σ exp(S') + exp(sink))."""
    sink = np.broadcast_to(np.asarray(sink, dtype=scores.dtype)[..., None], (*scores.shape[:-1], 1))
    peak = np.maximum(np.max(scores, axis=-1, keepdims=True), sink)
    scores -= peak
    np.exp(scores, out=scores)
    total = np.sum(scores, axis=-1, keepdims=True) + np.exp(sink - peak)
    scores /= total
    return scores


def weighted_sum(weights: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Z = A·V.  weights (..., query_pos, key_pos), v (..., key_pos, d_v) -> (..., query_pos, d_v)."""
    return weights @ v


# Elements (1 MiB of float32) in one block of score matrices: attention() runs every step on one
# block of heads at a time, so the block stays in the CPU's cache from Q·Kᵀ to A·V. At
# 12 heads × 512 × 512 that is about 1.4× faster than passing over whole arrays step by step.
BLOCK_ELEMENTS = 1 << 18


def attention(
    q: np.ndarray,
    k: np.ndarray,
    v: np.ndarray,
    scale: float | None = None,
    mask: np.ndarray | None = None,
    bias: np.ndarray | None = None,
    softcap: float | None = None,
    temperature: float = 1.0,
    sinks: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The whole formula, step by step, in the order the models apply it.

    Returns (scores, weights, z): raw Q·Kᵀ (…, query_pos, key_pos), softmax weights (same shape)
    and Z (…, query_pos, d_v). `bias` is an additive per-head term such as T5's relative
    position bias, added before the mask. `sinks` (…heads,) are per-head sink logits (GPT-OSS): each
    row of weights then sums to less than 1.
    """
    scale = default_scale(q.shape[-1]) if scale is None else scale
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    n_query, n_key = q.shape[-2], k.shape[-2]
    lead = np.broadcast_shapes(*(a.shape[:-2] for a in (q, k, v, bias, mask) if a is not None))
    dtype = np.result_type(q, k, np.float32)
    scores = np.empty((*lead, n_query, n_key), dtype)
    weights = np.empty_like(scores)
    z = np.empty((*lead, n_query, v.shape[-1]), np.result_type(dtype, v))

    n = int(np.prod(lead, dtype=np.int64))  # matrices in all (not -1 in reshape: a side may be 0 long)

    def blocks(a: np.ndarray, tail: tuple[int, ...]) -> np.ndarray:  # (*lead, *tail) -> (n, *tail)
        return np.broadcast_to(a, (*lead, *tail)).reshape(n, *tail)

    q_, k_, v_ = blocks(q, q.shape[-2:]), blocks(k, k.shape[-2:]), blocks(v, v.shape[-2:])
    bias_, mask_ = (None if x is None else blocks(x, (n_query, n_key)) for x in (bias, mask))
    sinks_ = None if sinks is None else np.broadcast_to(
        np.asarray(sinks, dtype)[..., None, None], (*lead, 1, 1)).reshape(n, 1)  # (n, 1): one per matrix

    def part(x: np.ndarray | None, b: slice) -> np.ndarray | None:
        return None if x is None else x[b]

    s_, w_, z_ = (a.reshape(n, *a.shape[-2:]) for a in (scores, weights, z))  # views: written in place
    step = max(1, BLOCK_ELEMENTS // max(1, n_query * n_key))
    for start in range(0, n, step):
        b = slice(start, start + step)
        s_[b] = raw_scores(q_[b], k_[b])
        w = logits(s_[b], scale, softcap, part(bias_, b), part(mask_, b), temperature, out=w_[b])
        if sinks_ is None:
            softmax_(w)
        else:
            softmax_with_sink_(w, sinks_[b])
        z_[b] = weighted_sum(w, v_[b])
    return scores, weights, z


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    """cos of the angle between two vectors (a q and a k): their alignment whatever their lengths;
    0 when either is all zero. Computed in float64."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    norm = float(np.linalg.norm(a) * np.linalg.norm(b))
    return float(a @ b) / norm if norm else 0.0


def entropy(weights: np.ndarray) -> np.ndarray:
    """−Σ_j a_j·ln a_j over the last axis (0·ln 0 = 0), in nats, float64: 0 when one key takes
    everything, ln(n) when n keys share evenly. (..., key_pos) -> (...); one row gives a 0-d array."""
    a = np.asarray(weights, dtype=np.float64)
    logs = np.log(a, out=np.zeros_like(a), where=a > 0)
    return -np.sum(a * logs, axis=-1)


def dot_product_terms(q_row: np.ndarray, k_row: np.ndarray) -> np.ndarray:
    """The per-dimension products q_d·k_d whose sum is one cell of S. (d_k,) -> (d_k,)."""
    return q_row * k_row


def weighted_value_terms(weights_row: np.ndarray, v: np.ndarray) -> np.ndarray:
    """The contributions a_j·V_j of every key j to one query's output row; their sum over j is
    that row of Z. weights_row (key_pos,), v (key_pos, d_v) -> (key_pos, d_v)."""
    return weights_row[:, None] * v
