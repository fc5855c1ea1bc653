"""When the needle page may say that the retrieval heads matter: the proof curve (attention/lm/needle_curve.py),
the top k heads switched off against k random heads from the same layers, judged against the random draws.
Pure numpy, beside claims.py.

The sentence is earned at the smallest k where switching off the top k leaves at most `top_most` of the counted
prompts right (the answer broken) while EVERY random draw of k keeps at least `random_least` of them right: the
gap is then not a draw's bad luck, and its size is said. Never from fewer than MIN_PROMPTS prompts answered right
with every head on (one prompt is one coin: 100 % or 0 %), nor from fewer than MIN_DRAWS random draws of k. When
some random draw also lost answers at any k, the sentence says so ("nd.curve.matter_but"): it is never hidden.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from attention.analysis import claims

MIN_DRAWS = 3  # random draws of k behind a comparison
MIN_PROMPTS = 3  # prompts answered right with every head on (the share right is out of these)
TOP_MOST = 0.5  # the top k off leave at most this share right …
RANDOM_LEAST = 0.5  # … while each random draw of k leaves at least this share right


def heads_matter(ks: Sequence[int], top_rate: np.ndarray, random_rates: np.ndarray, counted: int,
                 top_most: float = TOP_MOST, random_least: float = RANDOM_LEAST) -> tuple[str, dict]:
    """What the page may say of the proof curve: (text key, fields).

    Args:
        ks: (K,) heads switched off.
        top_rate: (K,) share of the counted prompts right with the top k off.
        random_rates: (K, draws) the same for each random draw of k.
        counted: prompts answered right with every head on.

    Returns:
        ("nd.curve.no_right", …) none was right to begin with; ("nd.curve.too_few", …) fewer than MIN_PROMPTS
        prompts or MIN_DRAWS draws (fields n, draws, min_prompts, min_draws); ("nd.curve.matter", …) at the
        smallest such k, the top k break the answer and no draw does (fields k, top, random, worst, gap);
        ("nd.curve.matter_but", …) the same, while some random draw lost answers at the ks in `broke`;
        ("nd.curve.not", …) at no k (fields kmax, top, random).
    """
    rates = np.asarray(random_rates, dtype=np.float64).reshape(len(ks), -1)
    top = np.asarray(top_rate, dtype=np.float64)
    fields: dict = {"n": int(counted), "draws": int(rates.shape[1]), "kmax": int(ks[-1]) if len(ks) else 0,
                    "top": _pct(top[-1]) if len(ks) else "", "random": _pct(rates[-1].mean()) if len(ks) else "",
                    "min_prompts": MIN_PROMPTS, "min_draws": MIN_DRAWS}
    if counted <= 0:
        return "nd.curve.no_right", fields
    if counted < MIN_PROMPTS or rates.shape[1] < MIN_DRAWS or not len(ks):
        return "nd.curve.too_few", fields
    broke = [int(k) for k, row in zip(ks, rates) if float(row.min()) < 1.0]  # a random draw lost answers too
    for a, k in enumerate(ks):
        worst = float(rates[a].min())
        if top[a] <= top_most and worst >= random_least:
            said = "nd.curve.matter_but" if broke else "nd.curve.matter"
            return said, fields | {"k": int(k), "top": _pct(top[a]), "random": _pct(rates[a].mean()),
                                   "worst": _pct(worst), "gap": _pct(rates[a].mean() - top[a]),
                                   "broke": ", ".join(map(str, broke))}
    return "nd.curve.not", fields


def _pct(x: float) -> str:
    return f"{float(x):.0%}"


def one_head(score: float, needle_tokens: int, copyable: int, right_runs: int) -> tuple[str, dict]:
    """What the page may say of one head in ONE run, with the score's own numerator and denominator: (text key,
    fields). The decision is claims.retrieval_head's; the fields add `hits` (needle tokens the head copied) and
    `length` (the needle's tokens), so that hits ÷ length is the score shown.

    Args:
        score: the head's retrieval score in this run (retrieval.scores: copies ÷ the needle's length).
        needle_tokens: the needle's length in tokens (the score's denominator).
        copyable: written tokens that occur in the needle (the steps at which any head could copy).
        right_runs: 1 when this run's answer was right, else 0.

    Returns:
        (claims.retrieval_head's key, its fields + hits, length).
    """
    key, fields = claims.retrieval_head(score, copyable, right_runs)
    length = max(1, int(needle_tokens))
    return key, fields | {"hits": int(round(float(score) * length)), "length": length}
