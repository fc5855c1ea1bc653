"""The explanations add up: on the real MiniLM, against the model's own numbers."""

import numpy as np
import pytest
import torch

import attention
from attention import core
from attention.analysis import anatomy
from attention.analysis.head_links import rank_heads
from attention.capture import hf_model, projections

pytestmark = pytest.mark.model  # every test here reads a model (tests/lanes.py)

TEXT = "The black cat drank the milk"
MILK, DRANK, BLACK = 6, 4, 2


@pytest.fixture(scope="module")
def tr():
    return attention.trace(TEXT)


def test_dimension_products_sum_to_the_cell_of_s(tr):
    for site in tr.sites:
        for head in (0, 7, 11):
            an = anatomy.dot_anatomy(site, head, MILK, DRANK)
            assert abs(an.terms.sum() - site.scores[head, MILK, DRANK]) <= 1e-5 * max(1, abs(an.total))
            assert an.total == pytest.approx(float(site.scores[head, MILK, DRANK]), rel=1e-5, abs=1e-5)
            assert sorted(an.order(True)) == list(range(site.d_head))
            assert an.terms[an.order(True)][0] == an.terms.max()


def test_dot_terms_are_exact_against_float64_q_and_k(tr):
    site = tr.sites[3]
    an = anatomy.dot_anatomy(site, 2, MILK, BLACK)
    q, k = site.q[2, MILK].astype(np.float64), site.k[2, BLACK].astype(np.float64)
    assert abs(an.total - float(q @ k)) <= 1e-6


def test_weighted_contributions_sum_to_the_row_of_z(tr):
    for site in tr.sites:
        an = anatomy.sum_anatomy(site, 5, MILK)
        np.testing.assert_allclose(an.contributions.sum(0), site.z[5, MILK], atol=1e-6)
        np.testing.assert_allclose(an.total, site.model_z[5, MILK], atol=1e-5)  # the model's own output row


def test_temperature_one_is_the_models_own_row_and_others_are_not(tr):
    site = tr.sites[1]
    for head in range(site.n_heads):
        row = anatomy.row_pipeline(site, head, MILK, 1.0)
        np.testing.assert_allclose(row.weights, site.model_weights[head, MILK], atol=1e-6)
        np.testing.assert_allclose(row.z, site.model_z[head, MILK], atol=1e-5)
    hot, cold = anatomy.row_pipeline(site, 0, MILK, 4.0), anatomy.row_pipeline(site, 0, MILK, 0.25)
    assert core.entropy(hot.weights) > core.entropy(row.weights) > core.entropy(cold.weights)
    np.testing.assert_allclose(hot.weights.sum(), 1.0, atol=1e-6)


def test_q_k_v_rebuilt_from_the_input_and_learned_weights(tr):
    lm = hf_model.load()
    for site in tr.sites[:3]:
        origin = projections.origin(lm, tr, site, head=4, pos=MILK)
        assert origin is not None and origin.max_diff <= 1e-4
        np.testing.assert_allclose(origin.recomputed["q"], site.q[4, MILK], atol=1e-4)
    first = projections.origin(lm, tr, tr.sites[0], head=0, pos=MILK)
    emb = lm.model.embeddings
    parts = torch.from_numpy(first.embedding.token + first.embedding.position + first.embedding.segment)
    with torch.no_grad():
        x = emb.LayerNorm(parts).numpy()
    np.testing.assert_allclose(x, first.x, atol=1e-5)  # layer 0's input = LayerNorm(token + position + segment)


def test_relevance_ranks_every_head_and_points_at_the_strongest(tr):
    links = rank_heads(tr, "encoder", MILK, DRANK)
    assert len(links) == 6 * 12
    weights = [link.weight for link in links]
    assert weights == sorted(weights, reverse=True)
    best = links[0]
    assert best.weight == pytest.approx(float(tr.site(best.layer).weights[best.head, MILK, DRANK]))
    by_score = rank_heads(tr, "encoder", MILK, DRANK, by="score")
    assert by_score[0].score == max(link.score for link in links)
    assert all(1 <= link.rank <= len(tr.tokens) for link in links)


def test_relevance_between_whole_words_uses_the_merged_weights():
    from attention.analysis import word_merge

    tr = attention.trace("the unbelievably black cat drank the milk")  # un ##bel ##ie ##va ##bly
    site = tr.site(2)
    groups = word_merge.word_groups(site.query_tokens)
    words = word_merge.word_labels(site.query_tokens, groups)
    q, k = words.index("unbelievably"), words.index("cat")
    links = rank_heads(tr, "encoder", q, k, merge_words=True)
    assert len(links) == 72
    pieces = list(range(2, 7))  # un ##bel ##ie ##va ##bly, by hand
    assert [site.query_tokens[i] for i in pieces] == ["un", "##bel", "##ie", "##va", "##bly"] and groups[q] == pieces
    assert site.key_tokens[8] == "cat" and groups[k] == [8]
    link = next(x for x in links if x.layer == 2 and x.head == 5)
    # the key word's pieces summed (cat is one piece), the query word's rows averaged
    assert link.weight == pytest.approx(float(np.mean(site.weights[5, 2:7, 8])), rel=1e-6)
    assert link.score == pytest.approx(float(site.scores[5][np.ix_(groups[q], groups[k])].mean()), rel=1e-5)
    assert 1 <= link.rank <= len(words)
