"""When a page may say what a head writes into a word's logit (direct logit attribution, Write's "What each head
writes"), and what its direct part and the cost of switching it off say together. Pure numpy, beside claims.py."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from attention.analysis.claims import MIN_N

WRITES_Z = 5.0  # a head "writes" a token only when its part lies this many robust spreads from the other heads'
WRITES_FLOOR = 0.5  # logits: and is at least this large (a standout among near-zero parts is no writing)
WRITES_LEAD = 1.5  # … and at least this many times the largest other part (two heads of one size: neither alone)
OPPOSITE_FLOOR = 0.1  # logits and nats: a direct part and a cost this large, of opposite signs, are said
MAD_NORMAL = 1.4826  # the median absolute deviation of a normal spread, in its standard deviations
COMPENSATED = 0.25  # switching off costs less than this share of what the head writes: another path makes up
INDIRECT_FLOOR = 0.5  # nats: a cost this large, with a direct part under COMPENSATED of it, goes through others


def writes(parts: Sequence[float] | np.ndarray, index: int, z: float = WRITES_Z, floor: float = WRITES_FLOOR) -> bool:
    """May a page say that head `index` (of the flattened parts, in logits) writes the token? Only when its part
    is at least `floor` and stands `z` robust spreads (1.4826 × the median absolute deviation) away from the
    median of every other head's part: large against the spread of the others, not merely the largest."""
    return refusal(parts, index, z, floor) is None


def refusal(parts: Sequence[float] | np.ndarray, index: int, z: float = WRITES_Z,
            floor: float = WRITES_FLOOR) -> str | None:
    """Which test of `writes` head `index` fails, first failed first, or None when it writes the token.

    Args:
        parts: (n,) or (L, H) every head's part, in logits.
        index: the head judged, in the flattened parts.
    Returns:
        "few" (fewer than MIN_N other heads), "small" (|part| under `floor`), "lead" (under WRITES_LEAD × the
        largest other part), "spread" (under `z` robust spreads from the others' median), or None."""
    x = np.asarray(parts, dtype=np.float64).reshape(-1)
    if x.size - 1 < MIN_N:
        return "few"
    if abs(x[index]) < floor:
        return "small"
    if abs(x[index]) < WRITES_LEAD * abs(largest_other(x, index)[1]):  # another head writes about as much
        return "lead"
    return None if spreads_away(x, index) >= z else "spread"


def spreads_away(parts: Sequence[float] | np.ndarray, index: int) -> float:
    """How many robust spreads (1.4826 × MAD) of the other parts head `index`'s part lies from their median."""
    x = np.asarray(parts, dtype=np.float64).reshape(-1)
    centre, spread = others_spread(x, index)
    return float(abs(x[index] - centre) / max(spread, 1e-12))


def largest_other(parts: Sequence[float] | np.ndarray, index: int) -> tuple[int, float]:
    """(flat index, part) of the largest |part| but `index`'s: what a head is said to write beside."""
    x = np.abs(np.asarray(parts, dtype=np.float64).reshape(-1))
    x[index] = -1.0
    j = int(np.argmax(x))
    return j, float(np.asarray(parts, dtype=np.float64).reshape(-1)[j])


def direct_and_cost(part: float, drop: float, stands_out: bool) -> str | None:
    """What the direct part (logits) and the cost of switching the head off (nats of log p) say together, or
    None. Were nothing else to change, removing a part of p logits would move log p by about p:
    "compensated": a head that writes the token (stands out, p > 0) but costs under COMPENSATED × p: another
    path makes up for it; "indirect": a cost of INDIRECT_FLOOR nats or more with a direct part under
    COMPENSATED × the cost: the head acts through later heads and MLPs, not by what it writes itself;
    "opposite": a part and a cost both of OPPOSITE_FLOOR or more pointing opposite ways (it writes against the
    word yet switching it off costs it, or the reverse): what it does through later parts outweighs its own."""
    if stands_out and part > 0 and drop < COMPENSATED * part:
        return "compensated"
    if drop >= INDIRECT_FLOOR and abs(part) < COMPENSATED * drop:
        return "indirect"
    if min(abs(part), abs(drop)) >= OPPOSITE_FLOOR and part * drop < 0:
        return "opposite"  # it writes against the word yet helps it (or the reverse): later parts outweigh it
    return None


def others_spread(parts: Sequence[float] | np.ndarray, index: int) -> tuple[float, float]:
    """(median, robust spread 1.4826 × MAD) of every part but `index`: what `writes` judges a part against
    (half of the other parts lie within ±MAD of the median)."""
    others = np.delete(np.asarray(parts, dtype=np.float64).reshape(-1), index)
    centre = float(np.median(others)) if others.size else 0.0
    return centre, MAD_NORMAL * float(np.median(np.abs(others - centre))) if others.size else 0.0
