"""Head statistics on hand-made heads whose answers are known."""

import numpy as np
import pytest

from attention import core
from attention.analysis import head_stats
from attention.analysis.special_tokens import is_special, special_positions
from attention.trace import Trace, make_site

N = 6


def site_with(weights: np.ndarray, tokens=None, kind="encoder", mask=None, layer=0):
    """A Site whose softmax weights are exactly `weights` (heads, q, k): scores are their logarithms."""
    weights = np.asarray(weights, dtype=np.float64)
    h, n_q, n_k = weights.shape
    tokens = tokens or [f"w{i}" for i in range(n_k)]
    q_tokens = tokens if kind != "cross" else [f"t{i}" for i in range(n_q)]
    # q·kᵀ must equal log(weights): q = log(weights) per query (d = n_k), k = identity rows
    logw = np.log(np.clip(weights, 1e-30, None))
    q = logw
    k = np.broadcast_to(np.eye(n_k), (h, n_k, n_k)).copy()
    v = np.zeros((h, n_k, 2))
    _, recomputed, z = core.attention(q, k, v, scale=1.0, mask=mask)
    return make_site(layer=layer, kind=kind, query_tokens=tuple(q_tokens), key_tokens=tuple(tokens), q=q, k=k,
                     v=v, scale=1.0, mask=mask, model_weights=recomputed, model_z=z)


def one(weights, **kw):
    return head_stats.site_stats(site_with(np.asarray(weights)[None], **kw))[0]


def test_uniform_rows_have_the_maximal_entropy_log_n():
    st = one(np.full((N, N), 1.0 / N))
    assert st.entropy == pytest.approx(np.log(N), abs=1e-6)
    peaked = one(np.eye(N) * 0.9 + 0.1 / N)
    assert peaked.entropy < st.entropy


def test_a_pure_previous_token_head_has_distance_1_and_previous_share_1():
    a = np.zeros((N, N))
    a[0, 1] = 1.0  # the first token has no previous one: it looks one step ahead instead
    for i in range(1, N):
        a[i, i - 1] = 1.0
    st = one(a)
    assert st.distance == pytest.approx(1.0, abs=1e-6)
    assert st.previous_share == pytest.approx(1.0, abs=1e-6)
    assert st.self_share == pytest.approx(0.0, abs=1e-6)
    assert st.entropy == pytest.approx(0.0, abs=1e-5)


def test_the_identity_head_looks_at_itself():
    st = one(np.eye(N))
    assert st.self_share == pytest.approx(1.0, abs=1e-6)
    assert st.distance == pytest.approx(0.0, abs=1e-6)
    assert st.previous_share == pytest.approx(0.0, abs=1e-6)


def test_share_on_special_tokens_and_the_first_token():
    tokens = ["[CLS]", "the", "cat", "[SEP]"]
    a = np.zeros((4, 4))
    a[:, 0], a[:, 3], a[:, 2] = 0.5, 0.25, 0.25
    assert one(a, tokens=tokens).special_share == pytest.approx(0.75, abs=1e-6)
    plain = ["The", "cat", "sat", "down"]  # no markers: the first token still counts as a resting place
    assert one(a, tokens=plain).special_share == pytest.approx(0.5, abs=1e-6)


def test_special_token_detection():
    for t in ["[CLS]", "[SEP]", "<s>", "</s>", "<pad>", "<bos>", "<eos>", "<|endoftext|>", "<unk>"]:
        assert is_special(t), t
    for t in ["the", "##ing", "Ġcat", "▁the", "<", "[", "<b>", "[cls", "CLS", "."]:
        assert not is_special(t), t
    assert special_positions(["a", "[SEP]", "b"]) == [True, True, False]
    assert special_positions(["a", "b"], include_first=False) == [False, False]


def test_cross_attention_has_no_distance_previous_or_self():
    a = np.full((3, 5), 0.2)
    st = one(a, kind="cross")
    assert np.isnan(st.distance) and np.isnan(st.previous_share) and np.isnan(st.self_share)
    assert st.entropy == pytest.approx(np.log(5), abs=1e-6)


def test_causal_rows_average_over_what_each_row_can_see():
    mask = core.causal_mask(N)
    a = np.tril(np.ones((N, N)))
    a /= a.sum(1, keepdims=True)  # uniform over the visible keys
    st = head_stats.site_stats(site_with(a[None], kind="decoder", mask=mask))[0]
    assert st.entropy == pytest.approx(np.mean(np.log(np.arange(1, N + 1))), abs=1e-6)


def test_trace_stats_cover_every_layer_and_head_and_order_by_sorts():
    sites = (site_with(np.stack([np.eye(N), np.full((N, N), 1 / N)]), layer=0),
             site_with(np.stack([np.full((N, N), 1 / N), np.eye(N)]), layer=1))
    tr = Trace(text="x", model_name="m", tokens=tuple(sites[0].key_tokens), sites=sites)
    stats = head_stats.head_stats(tr, "encoder")
    assert [(s.layer, s.head) for s in stats] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert head_stats.order_by(stats, None) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert head_stats.order_by(stats, "self_share") == [(0, 0), (1, 1), (0, 1), (1, 0)]
    assert head_stats.order_by(stats, "entropy", ascending=True)[:2] == [(0, 0), (1, 1)]
    assert set(head_stats.as_records(stats)[0]) >= {"layer", "head", *head_stats.STAT_COLUMNS}
    with pytest.raises(ValueError):
        head_stats.order_by(stats, "nonsense")
