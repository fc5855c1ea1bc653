"""The Overview's thumbnails: faithful downsampling (rows stay distributions)."""

import numpy as np

from attention.analysis import overview_data as od

RNG = np.random.default_rng(5)


def test_downsample_sums_keys_and_averages_queries():
    a = RNG.random((100, 130))
    a /= a.sum(-1, keepdims=True)
    d = od.downsample(a)
    assert d.shape == (48, 48) and d.dtype == np.float32
    np.testing.assert_allclose(d.sum(-1), 1.0, atol=1e-5)  # still a distribution per row
    edges_q, edges_k = od.block_edges(100, 48), od.block_edges(130, 48)
    expected = a[edges_q[0]:edges_q[1], edges_k[0]:edges_k[1]].sum(1).mean()
    assert d[0, 0] == np.float32(expected)
    small = RNG.random((7, 9))
    np.testing.assert_array_equal(od.downsample(small), small.astype(np.float32))  # short inputs unchanged
