"""Head roles where a model has more than one kind of attention (the built-in translator).

Self-attention (encoder, or masked decoder) is scored by head_roles.roles exactly as any model's: the
encoder has no causal mask, so induction does not apply there (head_roles.NOT_APPLICABLE). Cross-attention
is different: its queries are the target sentence's positions and its keys the source sentence's, so

    sink   mean_i a[i, 0]              every query row (each sees every source key)
    broad  mean_i H(a[i]) / ln(S)      S source keys

and nothing else: "previous", "the same token in the other copy", "the token after the earlier copy" and
a distance |i − j| all compare a query's position with a key's position in ONE sequence, and a Spanish
position and an English position are not on one line (CROSS_NOT_APPLICABLE says so for the page).

The translator's probe uses its own vocabulary (it knows a few hundred words, no sub-words): `probe_words`
draws them. Pure numpy.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from attention import core
from attention.analysis import head_roles

CROSS_ROLES: tuple[str, ...] = ("sink", "broad")
_ACROSS = "its queries are target positions and its keys source positions, two different sentences: "
CROSS_NOT_APPLICABLE = {  # role -> why it is not measured on cross-attention
    "previous": _ACROSS + "there is no token 'just before' a query among the keys",
    "duplicate": _ACROSS + "a key is never the same token as the query (the two sentences are in two languages)",
    "induction": _ACROSS + "the pattern needs the query's own earlier copy among the keys",
    "local": _ACROSS + "a distance |i − j| between a target and a source position means nothing",
}


def cross_scores(weights: np.ndarray) -> dict[str, np.ndarray]:
    """weights (layers, heads, T, S) of cross-attention -> role -> (layers, heads); the roles that do not
    apply (CROSS_NOT_APPLICABLE) are all NaN."""
    a = np.asarray(weights, dtype=np.float64)
    if a.ndim != 4 or a.shape[-1] < 2:
        raise ValueError(f"weights must be (layers, heads, queries, keys ≥ 2), not {a.shape}")
    out = {r: np.full(a.shape[:2], np.nan) for r in head_roles.ROLES}
    out["sink"] = a[..., :, 0].mean(axis=-1)  # (layers, heads)
    out["broad"] = (core.entropy(a) / np.log(a.shape[-1])).mean(axis=-1)
    return out


def cross_roles(weights: np.ndarray, tokens: tuple[str, ...], start: int, length: int, seed: int,
                **about) -> head_roles.HeadRoles:
    """HeadRoles of cross-attention (weights (layers, heads, T, S)); `tokens` the source the keys read."""
    return head_roles.HeadRoles(cross_scores(weights), tuple(tokens), start, length, seed, causal=False,
                                notes=dict(CROSS_NOT_APPLICABLE), **about)


def probe_words(vocabulary: Sequence[str], seed: int, length: int, leave_out: Sequence[str] = ()) -> tuple[str, ...]:
    """`length` distinct words of a word-level vocabulary drawn with numpy's default_rng(seed): only
    tokens made of letters (no specials such as <bos>, no marks such as "."), none of `leave_out`."""
    pool = sorted({w for w in vocabulary if w.isalpha() and w not in set(leave_out)})
    if not 2 <= length <= len(pool):
        raise ValueError(f"length must be 2..{len(pool)} for this vocabulary, not {length}")
    rng = np.random.default_rng(seed)
    return tuple(pool[i] for i in rng.choice(len(pool), size=length, replace=False))
