"""Each role's score on hand-made weights where one head has the role exactly (no model needed)."""

import numpy as np
import pytest

from attention.analysis import head_roles, role_probes

START, L = 2, 5  # two prefix tokens, then 5 tokens, then the same 5 again
N = START + 2 * L


def _head(pairs, n=N) -> np.ndarray:
    """(n, n) weights: row i all on key pairs[i] (row i on itself when i is not given)."""
    a = np.zeros((n, n))
    for i in range(n):
        a[i, pairs.get(i, i)] = 1.0
    return a


def _scores(*heads: np.ndarray, causal=True) -> dict[str, np.ndarray]:
    return head_roles.scores(np.stack(heads)[None], START, L, causal)  # one layer


PREVIOUS = _head({i: i - 1 for i in range(1, N)})
DUPLICATE = _head({i: i - L for i in range(START + L, N)} | {i: 0 for i in range(1, START + L)})
INDUCTION = _head({i: i - L + 1 for i in range(START + L, N)} | {i: 0 for i in range(1, START + L)})
SINK = _head({i: 0 for i in range(N)})
UNIFORM = np.tril(np.ones((N, N))) / np.arange(1, N + 1)[:, None]  # row i: 1/(i+1) on each key it sees


def test_a_perfect_head_scores_one_on_its_role():
    s = _scores(PREVIOUS, DUPLICATE, INDUCTION, SINK)
    assert s["previous"][0, 0] == 1.0 and s["duplicate"][0, 1] == 1.0
    assert s["induction"][0, 2] == 1.0 and s["sink"][0, 3] == 1.0
    # and not on the others: induction and duplicate look one token apart
    assert s["induction"][0, 1] == 0.0 and s["duplicate"][0, 2] == 0.0 and s["previous"][0, 2] < 0.2


def test_a_uniform_head_scores_the_uniform_share():
    s = _scores(UNIFORM)
    share = 1 / np.arange(1, N + 1)  # row i's weight on any key it sees
    assert s["previous"][0, 0] == pytest.approx(share[START + 1:N].mean())
    assert s["induction"][0, 0] == pytest.approx(share[START + L:N].mean())
    assert s["duplicate"][0, 0] == pytest.approx(share[START + L:N].mean())
    assert s["sink"][0, 0] == pytest.approx(share[1:].mean())  # row 0 has no choice: left out
    assert s["broad"][0, 0] == pytest.approx(1.0)
    assert s["local"][0, 0] == pytest.approx(np.mean([i / 2 for i in range(1, N)]))  # mean of 0..i is i/2


def test_local_is_a_distance_and_broad_an_even_spread():
    s = _scores(PREVIOUS, SINK)
    assert s["local"][0, 0] == pytest.approx(1.0)  # one token back
    assert s["local"][0, 1] == pytest.approx(np.mean(np.arange(1, N)))  # row i looks i tokens back
    assert s["broad"][0, 0] == 0.0 and s["broad"][0, 1] == 0.0  # all on one key
    roles = head_roles.roles(np.stack([PREVIOUS, SINK])[None], ("t",) * N, START, L, seed=0)
    assert roles.top("local", 1)[0].head[1:] == (0, 0)  # the most local head has the LOWEST distance
    assert roles.top("sink", 1)[0].head[1:] == (0, 1)


def test_the_sink_rate_counts_heads_above_epsilon():
    below, above = (w * SINK + (1 - w) * np.eye(N) for w in (0.28, 0.31))  # sink scores 0.28 and 0.31
    a = np.stack([SINK, PREVIOUS, UNIFORM, below, above])[None]
    roles = head_roles.roles(a, ("t",) * N, START, L, seed=0)
    assert roles.scores["sink"][0, 3] == pytest.approx(0.28) and roles.scores["sink"][0, 4] == pytest.approx(0.31)
    assert roles.sink_rate == pytest.approx(2 / 5)  # SINK and `above`: ε = 0.3 exactly decides


def test_without_a_causal_mask_induction_is_not_counted_and_duplicates_look_both_ways():
    twin = {i: i - L for i in range(START + L, N)} | {i: i + L for i in range(START, START + L)}
    enc = _head(twin) * 0.5 + np.full((N, N), 0.5 / N)  # half on the twin, half spread over every key
    assert not head_roles.is_causal(enc[None])
    assert head_roles.is_causal(PREVIOUS[None]) and head_roles.is_causal(UNIFORM[None])
    roles = head_roles.roles(enc[None, None], ("t",) * N, START, L, seed=3)
    assert not roles.causal and not roles.applies("induction") and "causal" in roles.notes["induction"]
    assert np.isnan(roles.scores["induction"]).all() and roles.top("induction") == []
    assert roles.scores["duplicate"][0, 0] == pytest.approx(0.5 + 0.5 / N)
    # every row counts (row 0 has a choice here): 0.5 / N each, and row 0's own 0.5 is on key 0
    assert roles.scores["sink"][0, 0] == pytest.approx((N * 0.5 / N + 0.5) / N)
    assert roles.scores["broad"][0, 0] < 1.0


def test_csv_has_a_row_per_head_and_the_probe():
    a = np.stack([np.stack([PREVIOUS, SINK, UNIFORM])] * 2)  # (2 layers, 3 heads, n, n)
    roles = head_roles.roles(a, tuple(f"w{i}" for i in range(N)), START, L, seed=7, causal=False, model="toy")
    lines = roles.to_csv().splitlines()
    comments = [x for x in lines if x.startswith("#")]
    rows = [x for x in lines if not x.startswith("#")]
    assert "probe seed: 7" in comments[1] and "L: 5" in comments[1] and "w0 w1" in comments[2]
    assert any("induction not measured" in c for c in comments)
    assert rows[0] == "layer,head," + ",".join(head_roles.ROLES)
    assert len(rows) == 1 + 2 * 3 and rows[1].startswith("0,0,1,")
    assert rows[1].split(",")[2 + head_roles.ROLES.index("induction")] == ""  # NaN left empty


def test_bad_shapes_are_refused():
    with pytest.raises(ValueError):
        head_roles.scores(PREVIOUS[None], START, L, True)
    with pytest.raises(ValueError):
        head_roles.scores(PREVIOUS[None, None], START, L + 1, True)  # 2 × 6 tokens do not fit from 2 in 12


def test_the_probe_is_seeded_and_found_in_any_tokenisation():
    assert role_probes.text(4, 6) == role_probes.text(4, 6) != role_probes.text(5, 6)
    drawn = role_probes.words(4, 6)
    assert len(set(drawn)) == 6 and role_probes.text(4, 6).endswith(" ".join(drawn) * 1)
    wordpiece = ("[CLS]", "words", ":", "a", "b", "##c", "a", "b", "##c", "[SEP]")
    assert role_probes.layout(wordpiece, 2) == role_probes.Layout(3, 3)  # a split word: L in tokens is 3
    bpe = ("Words", ":", "Ġa", "Ġb", "Ġa", "Ġb")
    assert role_probes.layout(bpe, 2) == role_probes.Layout(2, 2)
    with pytest.raises(ValueError):
        role_probes.layout(("Words", ":", "a", "Ġb", "Ġa", "Ġb"), 2)  # the first copy read differently
    with pytest.raises(ValueError):
        role_probes.words(0, len(role_probes.WORDS) + 1)
