"""The atlas's shares on a hand-made two-layer model whose every weight is known (one-hot rows made by
q·k of 50 against 0, off-target weights e^−50), and what claims.py lets a page call a head."""

from __future__ import annotations

import numpy as np
import pytest

from attention import core
from attention.analysis import atlas_sites, claims
from attention.analysis.atlas import ROLES, role_patterns
from attention.analysis.atlas_map import joint_map
from attention.trace import Trace, make_site

TOKENS = ["a", "b", "c", "a", "b", "c", "x"]  # rows 3, 4, 5 repeat a token seen at 0, 1, 2
BIG = 50.0
D = 8  # d_head: one axis per position (texts of up to 8 tokens)


def _targets(n: int, rule: str) -> list[int | None]:
    if rule == "previous":
        return [max(i - 1, 0) for i in range(n)]
    if rule == "first":
        return [0] * n
    if rule == "induction":  # the key after the earlier occurrence, else itself
        return [next((j + 1 for j in range(i - 1) if TOKENS[j] == TOKENS[i]), i) for i in range(n)]
    return [None] * n  # uniform: q = 0


def _site(layer: int, rules: list[str], tokens: list[str]) -> object:
    n = len(tokens)
    q = np.zeros((len(rules), n, D))
    for h, rule in enumerate(rules):
        for i, j in enumerate(_targets(n, rule)):
            if j is not None:
                q[h, i, j] = BIG
    k = np.broadcast_to(np.eye(n, D), (len(rules), n, D))
    v = k * np.arange(1.0, n + 1)[:, None]  # ‖v_j‖ = j + 1
    return make_site(layer=layer, kind="decoder", query_tokens=tokens, key_tokens=tokens, q=q, k=k, v=v,
                     scale=1.0, mask=core.causal_mask(n), model_weights=None, model_z=None)


def _trace(text: str = "abcabcx", tokens: list[str] = TOKENS) -> Trace:
    sites = (_site(0, ["previous", "first"], tokens), _site(1, ["induction", "uniform"], tokens))
    return Trace(text=text, model_name="hand-made", tokens=tuple(tokens), sites=sites)


def test_role_patterns_mark_the_earlier_occurrences() -> None:
    repeated, induction, duplicate = role_patterns(TOKENS)
    assert repeated.tolist() == [False, False, False, True, True, True, False]
    assert np.flatnonzero(duplicate[3]).tolist() == [0] and np.flatnonzero(induction[3]).tolist() == [1]
    assert not role_patterns(["a", "a"])[0].any()  # j must be < i − 1: the previous token is not a repeat


def test_every_share_on_the_hand_made_model() -> None:
    at = atlas_sites.build([_trace()], 1)
    want = {  # (layer index, head) -> role -> share, worked out by hand from the targets above
        (0, 0): {"previous": 1, "first": 1 / 6, "induction": 0, "duplicate": 0, "local": 1},
        (0, 1): {"previous": 1 / 6, "first": 1, "induction": 0, "duplicate": 1 / 3, "local": 4 / 7},
        (1, 0): {"previous": 0, "first": 0, "induction": 1, "duplicate": 0, "local": 1},
    }
    for (li, h), shares in want.items():
        got = at.head_shares(at.layers[li], h)
        for role, value in shares.items():
            assert got[role] == pytest.approx(value, abs=1e-7), (li, h, role)
        assert got["rest"] == pytest.approx(1 - max(shares.values()), abs=1e-7)
    assert at.rows == {"previous": 6, "first": 6, "induction": 3, "duplicate": 3, "local": 7}
    # a head that spreads evenly takes exactly the even share of every role
    uniform, even = at.head_shares(1, 1), at.head_even(1, 1)
    for role in ROLES:
        assert uniform[role] == pytest.approx(even[role], abs=1e-6)  # float32 weights


def test_claims_name_a_role_only_when_it_is_earned() -> None:
    one = atlas_sites.build([_trace()], 1)  # 3 repeated rows: too few to call any head an induction head
    assert claims.corpus_role(one.head_shares(1, 0), one.head_even(1, 0), one.rows) is None
    at = atlas_sites.build([_trace(), _trace()], 2)
    call = {(layer, h): claims.corpus_role(at.head_shares(layer, h), at.head_even(layer, h), at.rows)
            for layer in at.layers for h in range(2)}
    assert call[(0, 0)] == "previous" and call[(0, 1)] == "first" and call[(1, 0)] == "induction"
    # the even head's largest share (local, 0.86 on 7 tokens) is over half, but no more than chance
    assert max(at.head_shares(1, 1)[r] for r in ROLES) > 0.5
    assert call[(1, 1)] is None
    assert claims.corpus_role({"first": 0.49}, {"first": 0.1}, {"first": 100}) is None  # under half
    assert claims.corpus_role({"first": 0.9}, {"first": 0.1}, {"first": 3}) is None  # too few rows


def test_examples_are_the_largest_value_weighted_share_outside_the_first_token() -> None:
    short = ["a", "b", "c"]
    at = atlas_sites.build([_trace(), _trace("abc", short)], 2)
    # the even head: row 1 sees keys 0, 1 with ‖v‖ 1, 2: key 1 holds 2/3 of the output with weight 1/2
    best = at.examples(1, 1, k=5)
    assert [(e.query, e.key) for e in best] == [(1, 1), (1, 1)]
    assert best[0].share == pytest.approx(2 / 3) and best[0].weight == pytest.approx(0.5)
    assert {e.text for e in best} == {0, 1}
    assert all(e.key >= 1 for layer in at.layers for h in range(2) for e in at.examples(layer, h, 8))


def test_joint_map_keeps_a_measured_agreement() -> None:
    rng = np.random.default_rng(1)
    tokens = [f"w{i}" for i in range(12)]
    q, k, v = (rng.normal(size=(1, 12, 4)) for _ in range(3))
    site = make_site(layer=0, kind="decoder", query_tokens=tokens, key_tokens=tokens, q=q, k=k, v=v, scale=0.5, model_weights=None, model_z=None,
                     mask=core.causal_mask(12))
    at = atlas_sites.build([Trace(text="t", model_name="m", tokens=tuple(tokens), sites=(site,))], 1)
    m = joint_map(at, 0, 0)
    assert m.queries.shape == (12, 2) and m.keys.shape == (12, 2) and 0 < m.kept <= 1
    assert m.agreement is not None and m.agreement.n == 12 * 13 // 2 and -1 <= m.agreement.rho <= 1


def test_a_one_token_text_gives_no_share_and_no_example() -> None:
    at = atlas_sites.build([_trace("a", ["a"])], 1)
    assert at.rows["previous"] == 0 and np.isnan(at.shares["previous"]).all()
    assert at.examples(0, 0, 5) == [] and joint_map(at, 0, 0).agreement is None
