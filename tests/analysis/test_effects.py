"""The pure parts of ablation: head names, rank correlation (against scipy), words for it."""

import numpy as np
import pytest
from scipy import stats

from attention.analysis.effects import (
    Ablation,
    agreement,
    format_heads,
    parse_heads,
    ranks,
    spearman,
    word_changes,
)


def test_heads_parse_and_format_round_trip():
    heads = parse_heads(" cross.1.2, encoder.0.3 ,")
    assert heads == {("cross", 1, 2), ("encoder", 0, 3)}
    assert format_heads(heads) == "cross.1.2,encoder.0.3"
    assert parse_heads(format_heads(heads)) == heads
    assert parse_heads(None) == parse_heads("") == frozenset()
    assert parse_heads([("decoder", "1", 2)]) == {("decoder", 1, 2)}
    for bad in ("cross.1", "up.0.1", "cross.a.1", "cross.-1.0"):
        with pytest.raises(ValueError):
            parse_heads(bad)


@pytest.mark.parametrize("seed", range(5))
def test_spearman_matches_scipy_with_ties(seed):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 5, size=20).astype(float)  # many ties
    b = a + rng.normal(size=20)
    assert spearman(a, b) == pytest.approx(stats.spearmanr(a, b).statistic, abs=1e-12)


def test_ranks_largest_first_ties_averaged():
    np.testing.assert_array_equal(ranks(np.array([0.1, 0.9, 0.5, 0.5])), [4, 1, 2.5, 2.5])


def test_spearman_edge_cases_and_words():
    assert np.isnan(spearman(np.ones(4), np.arange(4)))
    assert spearman(np.arange(5), np.arange(5)) == pytest.approx(1.0)
    assert spearman(np.arange(5), -np.arange(5)) == pytest.approx(-1.0)
    assert [agreement(r) for r in (0.9, 0.5, 0.2, 0.0, -0.5, float("nan"))] == [
        "strong", "moderate", "weak", "none", "opposite", "unknown"]


def test_ablation_effect_and_word_changes():
    ab = Ablation(heads=(("cross", 0, 1),), mode="zero", measure="log_prob", tokens=("la", "bola"),
                  base_log_probs=np.array([-0.1, -0.2]), ablated_log_probs=np.array([-1.1, -0.2]),
                  base_text="la bola", new_text="la pelota")
    np.testing.assert_allclose(ab.drops, [1.0, 0.0])
    assert ab.effect == pytest.approx(0.5) and ab.changed
    cos = Ablation(heads=(), mode="zero", measure="cosine", tokens=("a",), pooled_cosine=0.75)
    assert cos.effect == pytest.approx(0.25) and cos.changed is None
    assert word_changes("la bola es".split(), "la pelota".split()) == [
        ("la", "la", False), ("bola", "pelota", True), ("es", "", True)]
