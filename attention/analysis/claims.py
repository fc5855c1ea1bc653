"""When a sentence may say what the numbers seem to say. Every page that writes a claim from numbers
asks here first; each function answers with what may be said (or None: say nothing of the kind).

The one rule, in four parts:
- an effect smaller than EFFECT_FLOOR nats (or a set of effects that are all tied) means "no head matters
  for this word": no ranks, no correlation;
- a correlation is given with its n, and only when n ≥ MIN_N and both sides spread over at least
  MIN_DISTINCT values;
- a weight is "ahead" only when it is clearly above the even share 1/n (by MARGIN) — never because a
  near-zero rival is smaller; a ratio above FAR times is "far ahead", not a long number;
- a special token (a sink) that takes more weight than the related word is said.
Pure numpy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from attention.analysis.effects import agreement, spearman
from attention.analysis.special_tokens import is_special

EFFECT_FLOOR = 1e-3  # nats: a mean log-probability drop below this is no effect a learner should rank
MIN_N = 5  # pairs: a rank correlation over fewer says nothing
MIN_DISTINCT = 3  # values on each side: a correlation over two levels is a split, not an ordering
MARGIN = 0.5  # "above even" means at least (1 + MARGIN) × 1/n
LEVEL = 1.25  # two weights above even with a ratio under this are level
FAR = 100.0  # a ratio above this is "far ahead"


def heads_matter(effects: Sequence[float] | np.ndarray, floor: float = EFFECT_FLOOR) -> bool:
    """Some head's effect reaches the floor and the effects are not all tied."""
    x = np.asarray(effects, dtype=np.float64)
    return bool(x.size and np.max(np.abs(x)) >= floor and np.unique(x).size > 1)


@dataclass(frozen=True)
class Correlation:
    rho: float
    n: int


def correlation(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray,
                min_n: int = MIN_N) -> Correlation | None:
    """Spearman's ρ with its n, or None when n or the spread of either side does not allow one."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.size < min_n or np.unique(a).size < MIN_DISTINCT or np.unique(b).size < MIN_DISTINCT:
        return None
    rho = spearman(a, b)
    return None if np.isnan(rho) else Correlation(rho, int(a.size))


def even(n: int) -> float:
    """The weight each of n keys would get from an even spread."""
    return 1.0 / max(n, 1)


def above_even(weight: float, n: int, margin: float = MARGIN) -> bool:
    return weight >= (1.0 + margin) * even(n)


def lead(related: float, other: float, n: int, margin: float = MARGIN, level: float = LEVEL) -> str:
    """Which of two keys is ahead, judged against the even share 1/n of n keys:
    "neither" (neither is clearly above even), "level" (both are, about equally), "related" or "other"."""
    hi, lo = max(related, other), min(related, other)
    if not above_even(hi, n, margin):
        return "neither"
    if hi < level * lo:
        return "level"
    return "related" if related > other else "other"


def times(ratio: float, far: float = FAR) -> str | None:
    """A ratio as "3.2" (say "3.2×"), or None when it is above `far` (say "far ahead")."""
    return None if not np.isfinite(ratio) or ratio > far else f"{ratio:.1f}"


def sink_over(row: np.ndarray, tokens: Sequence[str], key: int) -> int | None:
    """The special token ([CLS], [SEP], <s> …) taking the most weight in `row`, when it takes more than
    the key does; else None."""
    specials = [j for j, tok in enumerate(tokens) if is_special(tok) and j != key]
    if not specials:
        return None
    top = max(specials, key=lambda j: row[j])
    return top if row[top] > row[key] else None


def number(value: float, spec: str = ".3f") -> str:
    """A number as the pages write it: with the minus sign (U+2212), never a hyphen."""
    return format(value, spec).replace("-", "\u2212")


def nats(value: float) -> str:
    """An effect in nats with enough digits to be read: 0.00004 is "4.0e-05", never "0.0000"."""
    if value == 0:
        return "0"
    return f"{value:.4f}" if abs(value) >= 1e-3 else f"{value:.1e}"


def ranking(effect: np.ndarray, weight: np.ndarray, share: np.ndarray | None = None) -> list[tuple[str, dict]]:
    """What "Does it matter?" may say of heads ranked by effect beside their attention: (text key, fields).
    Below the floor, no head matters (and nothing is ranked); a ρ only with its n and enough spread."""
    if not heads_matter(effect):
        return [("ablation.no_head_matters", {"max": nats(float(np.max(np.abs(effect)))) if len(effect) else "0",
                                              "floor": nats(EFFECT_FLOOR)})]
    corr = correlation(effect, weight)
    if corr is None:
        return [("ablation.agree.too_few", {"n": len(effect), "min_n": MIN_N})]
    said = [(f"ablation.agree.{agreement(corr.rho)}", {"rho": f"{corr.rho:.2f}", "n": corr.n})]
    vw = None if share is None else correlation(effect, share)
    if vw is not None:
        said.append(("ablation.agree_vw", {"rho": f"{vw.rho:.2f}", "n": vw.n,
                                           "level_key": f"ablation.level.{agreement(vw.rho)}"}))
    return said


ROLE_MIN_DRAWS = 5  # random draws: a spread over fewer is no yardstick
ROLE_SHARE = 0.01  # the rise must also be ≥ 1 % of the base loss


def role_matters(top: float, random: Sequence[float] | np.ndarray, base: float,
                 min_draws: int = ROLE_MIN_DRAWS) -> bool:
    """May the page say "switching off the role's top heads raises the loss more than random heads"?

    Only when the top heads' loss lies above the random draws' mean + 2 sd AND above every draw, the rise
    over the base loss is at least EFFECT_FLOOR nats and ROLE_SHARE of the base, from ≥ min_draws draws."""
    r = np.asarray(random, dtype=np.float64)
    if r.size < min_draws or not np.all(np.isfinite(r)) or not np.isfinite(top) or not np.isfinite(base):
        return False
    rise = top - base
    return bool(top > r.mean() + 2 * r.std(ddof=1) and top > r.max()
                and rise >= EFFECT_FLOOR and rise >= ROLE_SHARE * abs(base))


def first_k_that_matters(ks: Sequence[int], top: Sequence[float], random: np.ndarray, base: float) -> int | None:
    """The smallest k at which role_matters holds (None: at no k)."""
    for i, k in enumerate(ks):
        if role_matters(float(top[i]), random[i], base):
            return int(k)
    return None


CARRIER_MAJORITY = 0.5  # one head alone restores more than half of the change …
CARRIER_LEAD = 2.0  # … and at least twice the next head's share


def carrier(restored: Sequence[float] | np.ndarray, difference: float,
            floor: float = EFFECT_FLOOR) -> tuple[str, dict]:
    """What the Compare page may say of heads patched one at a time (restored shares of a difference
    |M_B − M_A| = `difference`): (text key, fields), `i` the index of the head named.

    - the difference under `floor`, or no finite share: nothing to rank ("compare.claim.none");
    - the top head restores ≥ CARRIER_MAJORITY and ≥ CARRIER_LEAD × the next: it "carries most of the change";
    - the top head is above the even share 1/n (by MARGIN): it carries "the largest share", and no head most;
    - else the change is spread: no head stands out."""
    r = np.asarray(restored, dtype=np.float64)
    finite = np.flatnonzero(np.isfinite(r))
    if not np.isfinite(difference) or abs(difference) < floor or finite.size == 0:
        return "compare.claim.none", {"floor": nats(floor)}
    order = finite[np.argsort(-r[finite], kind="stable")]
    top = int(order[0])
    second = float(r[order[1]]) if order.size > 1 else 0.0
    share = f"{r[top]:.0%}"
    if r[top] >= CARRIER_MAJORITY and r[top] >= CARRIER_LEAD * max(second, 0.0):
        return "compare.claim.carrier", {"i": top, "share": share}
    if above_even(float(r[top]), int(finite.size)):
        return "compare.claim.largest", {"i": top, "share": share, "second": f"{second:.0%}"}
    return "compare.claim.spread", {"i": top, "share": share, "n": int(finite.size)}


def overlapping(restored: Sequence[float] | np.ndarray) -> dict | None:
    """Two single-head shares that add up to more than the whole change (each is measured with that
    head alone patched, so shares overlap): the two largest and their sum, or None when they do not."""
    r = np.asarray(restored, dtype=np.float64)
    r = np.sort(r[np.isfinite(r)])[::-1]
    if r.size < 2 or r[0] + r[1] <= 1.0:
        return None
    return {"first": f"{r[0]:.1%}", "second": f"{r[1]:.1%}", "sum": f"{r[0] + r[1]:.1%}"}


ROLE_HALF = 0.5  # a head is called by a role on real text only when the role takes half its attention or more


def corpus_role(shares: dict[str, float], even: dict[str, float], rows: dict[str, int],
                half: float = ROLE_HALF, margin: float = MARGIN, min_n: int = MIN_N) -> str | None:
    """The role a head may be called by on a corpus (analysis/atlas.py): its largest share, when that share
    is at least `half`, at least (1 + margin) × what an even spread over the same rows gives (a short row
    puts half its weight on the first token by chance), and measured over at least min_n rows; else None."""
    measured = {r: s for r, s in shares.items() if r in even and np.isfinite(s)}
    if not measured:
        return None
    role = max(measured, key=measured.get)
    share = measured[role]
    if share < half or share < (1.0 + margin) * even[role] or rows.get(role, 0) < min_n:
        return None
    return role


KL_BANDS = ((0.1, "same"), (1.0, "small"), (5.0, "large"))  # nats: below each bound, that band; above all, "lost"


def kl_band(kl: float) -> tuple[str, float]:
    """What a KL(full ‖ evicted) in nats means for the next word, as a band and a ratio. exp(KL) is the
    geometric mean, weighted by the full cache's own probabilities, of p_full(w) / p_evicted(w): how many times
    less likely, on average, the evicted cache finds the words the full cache expects. 0.03 → "same" (1.03×),
    0.3 → "small" (1.35×), 3 → "large" (20×), 10 → "lost" (22,026×)."""
    kl = max(0.0, float(kl))
    band = next((name for bound, name in KL_BANDS if kl < bound), "lost")
    return band, float(np.exp(min(kl, 700.0)))


FACT_SURE = 0.5  # the full cache must give the word at least this probability …
FACT_DROP = 10.0  # … and the evicted cache at most 1/FACT_DROP of it


@dataclass(frozen=True)
class Forgotten:
    token_id: int
    full: float  # p_full(word)
    evicted: float  # p_evicted(word)
    positions: tuple[int, ...]  # where the word stands earlier in the text, every one hidden from this query


def forgot_fact(full: np.ndarray, evicted: np.ndarray, ids: Sequence[int], visible: np.ndarray,
                sure: float = FACT_SURE, drop: float = FACT_DROP) -> Forgotten | None:
    """May the page say "the evicted cache forgot a word that stands earlier in the text"? Only when the full
    cache's top word is sure (p ≥ sure, far above an even spread over the vocabulary), the evicted cache gives
    it at most p / drop and writes another word, and that word occurs earlier in the text only at keys this
    query cannot see (in no layer nor head). full, evicted (vocab,) probabilities; ids: the text so far
    (positions 0..p); visible (p + 1,) bool: a key any head of any layer of this query sees."""
    word = int(np.argmax(full))
    p_full, p_ev = float(full[word]), float(evicted[word])
    at = tuple(i for i, x in enumerate(ids) if int(x) == word)
    if p_full < sure or p_ev > p_full / drop or int(np.argmax(evicted)) == word or not at:
        return None
    if any(bool(visible[i]) for i in at if i < visible.shape[0]):
        return None
    return Forgotten(word, p_full, p_ev, at)


MAP_RHO = 0.5  # a map of queries and keys is shown as trusted only when closeness on it follows q·k this well


def map_trusted(agreement: Correlation | None, rho: float = MAP_RHO) -> bool:
    """May the atlas show its q/k map as a picture of what the head does? Only with a correlation (n and
    spread allowed by correlation()) of at least `rho` between q·k and closeness on the map."""
    return agreement is not None and np.isfinite(agreement.rho) and agreement.rho >= rho


RETRIEVAL_SCORE = 0.1  # Wu et al. 2024: a head copying more than a tenth of the needle's tokens …
RETRIEVAL_MIN_COPIED = 10  # … measured over at least this many copyable written tokens (answered right)


def retrieval_head(score: float, copied: int, right_runs: int, threshold: float = RETRIEVAL_SCORE,
                   min_copied: int = RETRIEVAL_MIN_COPIED) -> tuple[str, dict]:
    """What the needle page may say of one head (attention/analysis/retrieval.py's score): (text key, fields).

    - no right answer at all: nothing was retrieved, so no head is called anything ("nd.claim.no_right");
    - fewer than `min_copied` copyable tokens behind the score: too few to call ("nd.claim.too_few");
    - a score above `threshold`: a retrieval head ("nd.claim.retrieval");
    - else not one ("nd.claim.not")."""
    fields = {"score": f"{score:.2f}", "n": int(copied), "runs": int(right_runs), "threshold": f"{threshold:.1f}",
              "min": int(min_copied)}
    if right_runs <= 0:
        return "nd.claim.no_right", fields
    if copied < min_copied or not np.isfinite(score):
        return "nd.claim.too_few", fields
    return ("nd.claim.retrieval" if score > threshold else "nd.claim.not"), fields
