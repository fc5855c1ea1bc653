"""The query–key map: centring the keys and rescaling leave the model's weights exactly as they were, the
axes are the principal (uncentred) ones, and the map's own faithfulness figures are right."""

import numpy as np
import pytest

import attention
from attention import core
from attention.analysis.qk_space import aligned, qk_space
from attention.plots import explain_figures
from tests.lanes import loads_model

RNG = np.random.default_rng(11)


@pytest.fixture(scope="module")
@loads_model
def site():
    return attention.trace("The black cat drank the milk").site(2)


@pytest.mark.parametrize("head", [0, 5, 11])
def test_centring_the_keys_and_rescaling_leave_the_models_weights_unchanged(site, head):
    q2, k2, scale = aligned(site.q[head], site.k[head])
    np.testing.assert_allclose(core.softmax(q2 @ k2.T * site.scale), site.model_weights[head], atol=1e-5)
    np.testing.assert_allclose(k2.mean(0), 0.0, atol=1e-9)  # the keys' centre is the origin
    assert np.linalg.norm(q2, axis=1).mean() == pytest.approx(np.linalg.norm(k2, axis=1).mean(), rel=1e-9)
    assert scale != 1.0


@pytest.mark.model
def test_the_same_holds_under_the_decoders_mask():
    site = attention.translate("The black cat drank the milk.").trace.site(1, "decoder")
    for head in range(site.n_heads):
        q2, k2, _ = aligned(site.q[head], site.k[head])
        np.testing.assert_allclose(core.softmax(q2 @ k2.T * site.scale + site.mask), site.model_weights[head],
                                   atol=1e-5)
        space = qk_space(site.q[head], site.k[head], site.masked, site.weights[head])
        assert space.top_agree == agreeing_by_hand(space, site.masked, site.weights[head])
        assert space.top_agree >= 1  # the first word sees only itself: its best key is right on any map


def agreeing_by_hand(space, masked: np.ndarray, weights: np.ndarray) -> int:
    """Queries whose best visible key on the map (the largest 2-D dot product among the keys the
    query may see) is the key the model weighted most, counted one query at a time."""
    count = 0
    for i, qi in enumerate(space.queries):
        visible = [j for j in range(space.keys.shape[0]) if not masked[i, j]]
        on_map = max(visible, key=lambda j: qi[0] * space.keys[j, 0] + qi[1] * space.keys[j, 1])
        count += on_map == int(np.argmax(weights[i]))
    return count


def test_a_hidden_key_is_never_a_best_key_on_the_map():
    e1, e2 = np.eye(2)
    q = np.stack([e1, e1])  # both queries point along e1
    k = np.stack([e2, 5 * e1])  # key 1 is far along e1, but query 0 may not see it
    masked = np.array([[False, True], [False, False]])
    weights = np.array([[1.0, 0.0], [0.0, 1.0]])  # what a masked model computes
    space = qk_space(q, k, masked, weights)
    assert space.top_agree == 2  # query 0's best visible key is key 0, on the map as in truth
    assert qk_space(q, k, None, weights).top_agree == 1  # without the mask the map would pick key 1


def test_the_axes_hold_the_largest_share_of_the_squared_length(site):
    space = qk_space(site.q[3], site.k[3])
    q2, k2, _ = aligned(site.q[3], site.k[3])
    both = np.vstack([q2, k2])
    eigen = np.sort(np.linalg.eigvalsh(both.T @ both))[::-1]  # the second-moment matrix, not the SVD
    drawn = np.vstack([space.queries, space.keys])
    np.testing.assert_allclose((drawn**2).sum(axis=0), eigen[:2], rtol=1e-6)
    assert space.kept == pytest.approx(eigen[:2].sum() / eigen.sum(), rel=1e-6)


def test_vectors_in_a_plane_are_drawn_exactly_and_every_best_key_agrees():
    plane = RNG.standard_normal((2, 16))
    q, k = RNG.standard_normal((5, 2)) @ plane, RNG.standard_normal((7, 2)) @ plane + plane[0]
    space = qk_space(q, k)
    assert space.kept == pytest.approx(1.0)
    q2, k2, _ = aligned(q, k)
    np.testing.assert_allclose(space.queries @ space.keys.T, q2 @ k2.T, atol=1e-9)  # 2-D dots are the scores
    assert space.top_agree == 5


def test_agreement_counts_a_best_key_the_map_cannot_show():
    e1, e2, e3 = np.eye(3)
    k = np.stack([10 * e1, 10 * e2, -10 * e1, 0.5 * e3])  # the big spread is in e1, e2
    q = (e3 + 0.01 * e1)[None]  # its best key is the small one along e3 (0.5 against 0.1)
    assert (q @ k.T).argmax() == 3
    space = qk_space(q, k)
    assert space.kept > 0.8 and space.top_agree == 0  # the map holds most of the length, yet gets it wrong


def test_one_word_gives_a_single_point_not_an_error():
    space = qk_space(np.ones((1, 4)), np.ones((1, 4)) * 2)
    assert space.queries.shape == space.keys.shape == (1, 2)
    assert np.isfinite(space.queries).all() and space.top_agree == 1


def test_the_figure_rings_the_query_and_draws_lines_only_to_strong_keys(site):
    space = qk_space(site.q[4], site.k[4], weights=site.weights[4])
    row = site.weights[4, 6]
    fig = explain_figures.qk_figure(space, list(site.query_tokens), list(site.key_tokens), 6, row, ("q", "k"), "t")
    lines = [tr for tr in fig.data if tr.name.startswith("to ")]
    assert 1 <= len(lines) <= 8 and all(row[int(tr.name[3:])] >= 0.05 for tr in lines)
    assert fig.layout.yaxis.scaleanchor == "x"  # equal scale: directions are drawn true
    chosen = next(tr for tr in fig.data if tr.name == "chosen")
    assert (chosen.x[0], chosen.y[0]) == tuple(space.queries[6])
    q_trace = next(tr for tr in fig.data if tr.name == "q")
    written = list(q_trace.text)
    assert written[6] == site.query_tokens[6]  # the chosen query is always named
    assert all(w in ("", tok) for w, tok in zip(written, site.query_tokens, strict=True))  # the rest: named or hover
    assert all(tok in h for h, tok in zip(q_trace.hovertext, site.query_tokens, strict=True))


def test_labels_that_would_overlap_are_left_to_the_hover():
    pts = np.array([[1.0, 1.0], [1.0, 1.0], [-3.0, 2.0]])  # two keys on one spot
    keys, queries = explain_figures.spread_labels(pts, np.array([[1.0, 1.0]]), ["the", "milk", "far"], ["milk"],
                                                   [("q", 0), ("k", 1), ("k", 0), ("k", 2)])
    assert queries == ["milk"] and keys == ["", "milk", "far"]  # the key below the query's label fits; its twin not


def test_long_inputs_are_drawn_without_labels():
    q, k = RNG.standard_normal((100, 8)), RNG.standard_normal((100, 8))
    fig = explain_figures.qk_figure(qk_space(q, k), ["w"] * 100, ["w"] * 100, None, None, ("q", "k"), "t")
    assert all(tr.mode in ("markers", "lines") for tr in fig.data)
