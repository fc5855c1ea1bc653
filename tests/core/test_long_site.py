"""A long site (no model weights kept, k and v once per key/value group, the causal rule instead of a mask)
against torch's own attention: its rows, its check, its byte budget. No model: random grouped-query arrays."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from attention import core, head_cache
from attention.trace import Site, make_site

HEADS, GROUPS, D = 6, 2, 16


def _arrays(n_query: int, n_key: int, seed: int = 0):
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(1, HEADS, n_query, D, generator=g) * 2
    k = torch.randn(1, GROUPS, n_key, D, generator=g) * 2
    v = torch.randn(1, GROUPS, n_key, D, generator=g)
    return q, k, v


def _long_site(q, k, v, z, offset: int | None) -> Site:
    n_query, n_key = q.shape[2], k.shape[2]
    return make_site(layer=0, kind="decoder", query_tokens=[f"q{i}" for i in range(n_query)],
                     key_tokens=[f"k{j}" for j in range(n_key)], q=q[0].numpy(), k=k[0].numpy(), v=v[0].numpy(),
                     scale=D ** -0.5, model_weights=None, model_z=z[0].numpy(), causal_offset=offset)


def _torch_rows(q, k, offset: int) -> torch.Tensor:
    """Eager attention in float64, torch's operations: (heads, n_query, n_key)."""
    kk = torch.repeat_interleave(k, HEADS // GROUPS, dim=1).double()
    s = q.double() @ kk.transpose(-1, -2) / math.sqrt(D)
    n_query, n_key = q.shape[2], k.shape[2]
    hidden = torch.arange(n_key)[None, :] > torch.arange(n_query)[:, None] + offset
    return torch.softmax(s.masked_fill(hidden, float("-inf")), dim=-1)[0]


@pytest.mark.parametrize("n_query, n_key", [(37, 37), (5, 29)])  # a whole text; new rows over a cache
def test_rows_match_torch(n_query: int, n_key: int) -> None:
    q, k, v = _arrays(n_query, n_key)
    offset = n_key - n_query
    z = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=n_query == n_key, enable_gqa=True,
                                                         attn_mask=None if n_query == n_key else
                                                         torch.ones(n_query, n_key, dtype=torch.bool).tril(offset))
    site = _long_site(q, k, v, z, offset)
    assert site.is_long and site.model_weights is None and site.k.shape[0] == GROUPS
    want = _torch_rows(q, k, offset).numpy()
    for head in (0, 3, HEADS - 1):
        assert np.abs(site.pattern(head) - want[head]).max() < 1e-6
        rows = [n_query - 1, 0, 2]
        assert np.abs(site.pattern(head, rows) - want[head][rows]).max() < 1e-6
        assert np.array_equal(site.pattern(head, rows), site.pattern(head)[rows])
        assert np.allclose(site.score_rows(head), q[0, head].numpy() @ site.head_k(head).T, atol=1e-5)
    assert site.z_diff < 1e-5 and site.faithful and site.check_diff == site.z_diff
    assert math.isnan(site.weights_diff) and not site.weights_compared
    assert np.array_equal(site.masked, want.sum(0) == 0)
    assert np.array_equal(site.mask_rows() <= core.MASKED / 2, site.masked)
    assert np.allclose(site.weights, want, atol=1e-6) and site.weights.shape == (HEADS, n_query, n_key)
    assert all(np.array_equal(site.weights[h], site.pattern(h)) for h in range(HEADS))  # one way of computing
    assert np.allclose(site.z, z[0].numpy(), atol=1e-5)


def test_a_long_site_equals_one_that_kept_the_weights() -> None:
    """The same q, k, v as a site of today's kind (repeated keys, the mask as an array, the model's weights):
    the long site's rows are that site's rows."""
    q, k, v = _arrays(33, 33, seed=1)
    z = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
    long = _long_site(q, k, v, z, 0)
    rep = HEADS // GROUPS
    short = make_site(layer=0, kind="decoder", query_tokens=long.query_tokens, key_tokens=long.key_tokens,
                      q=long.q, k=np.repeat(long.k, rep, 0), v=np.repeat(long.v, rep, 0), scale=long.scale,
                      mask=core.causal_mask(33), model_weights=_torch_rows(q, k, 0).numpy(), model_z=long.model_z)
    assert not short.is_long and short.faithful
    for head in range(HEADS):
        assert np.abs(long.pattern(head) - short.weights[head]).max() < 1e-6
        assert np.abs(long.score_rows(head) - short.scores[head]).max() < 1e-4
        assert np.array_equal(short.pattern(head, slice(3, 9)), short.weights[head][3:9])
    assert np.allclose(long.scaled(2)[~long.masked], short.scaled(2)[~short.masked])


def test_a_wrong_output_fails_the_check() -> None:
    q, k, v = _arrays(20, 20, seed=2)
    z = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
    z[0, 4, 11, 3] += 1e-3  # one number of one head, far from the others
    site = _long_site(q, k, v, z, 0)
    assert not site.faithful and 9e-4 < site.check_diff < 1.1e-3
    per_row = site.row_z_diff()  # the writer's check, row by row: the wrong row is found
    assert int(np.argmax(per_row)) == 11 and per_row[11] == pytest.approx(site.check_diff, rel=1e-3)
    assert np.delete(per_row, 11).max() < 1e-5 and np.allclose(site.row_z_diff([3, 11]), per_row[[3, 11]], atol=1e-6)


def test_the_budget_holds(monkeypatch) -> None:
    """Heads computed whole are kept within ATTENTION_HEAD_CACHE_MB, the least recently used dropped first."""
    head_cache.clear()
    q, k, v = _arrays(300, 300, seed=3)  # one head's A: 300 × 300 × 4 B = 360 kB
    z = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
    site = _long_site(q, k, v, z, 0)
    monkeypatch.setenv("ATTENTION_HEAD_CACHE_MB", "1")  # room for two heads
    first = site.pattern(0)
    assert site.pattern(0) is first  # kept
    site.pattern(1), site.pattern(2)
    assert head_cache.held() <= 1 << 20
    again = site.pattern(0)
    assert again is not first and np.array_equal(again, first)  # dropped, made again, the same numbers
    monkeypatch.setenv("ATTENTION_HEAD_CACHE_MB", "0")
    assert site.pattern(5) is not site.pattern(5)  # nothing kept
    head_cache.clear()
