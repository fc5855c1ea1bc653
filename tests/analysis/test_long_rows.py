"""The long head view's numbers (analysis/pooled.py, analysis/long_rows.py): the pooled picture and its
anchors, a tile, a row and a column, each against Site.pattern. No model: random sites, short and long."""

from __future__ import annotations

import numpy as np
import pytest

from attention.analysis import long_rows
from attention.analysis.pooled import pooled_pattern
from attention.trace import make_site
from harness.random_sites import random_site

HEADS, GROUPS, D = 4, 2, 16


def _long_site(n: int, seed: int = 0):
    """A lean causal site as capture makes them past 512 tokens: k and v once per group, the causal rule."""
    rng = np.random.default_rng(seed)
    q = (rng.normal(size=(HEADS, n, D)) * 2).astype(np.float32)
    q[:, :, 0] += 6.0  # with k[:, 0, 0] large: key 0 a sink, as in the real model
    k = (rng.normal(size=(GROUPS, n, D)) * 2).astype(np.float32)
    k[:, 0, 0] = 8.0
    v = rng.normal(size=(GROUPS, n, D)).astype(np.float32)
    return make_site(layer=0, kind="decoder", query_tokens=[f"q{i}" for i in range(n)],
                     key_tokens=[f"k{j}" for j in range(n)], q=q, k=k, v=v, scale=D ** -0.5, model_weights=None,
                     model_z=np.zeros((HEADS, n, D), np.float32), causal_offset=0)


@pytest.mark.parametrize("site", [_long_site(300), random_site(70, kind="decoder", heads=2, bias=True, softcap=3.0),
                                  random_site(40, 55, kind="cross", heads=2)], ids=["long", "bias-softcap", "cross"])
def test_a_column_from_the_anchors_equals_the_pattern_and_the_pooled_picture_is_the_block_maximum(site):
    for head in (0, site.n_heads - 1):
        a = site.pattern(head)  # small here: the whole head is fine in a test
        pooled = pooled_pattern(site, head, side=16)
        cell = pooled.cell
        assert cell == -(-max(site.shape) // 16)
        i, j = 5 % site.shape[0], 3 % site.shape[1]
        assert pooled.image[i // cell, j // cell] == a[i // cell * cell:(i // cell + 1) * cell,
                                                        j // cell * cell:(j // cell + 1) * cell].max()
        assert np.array_equal(pooled.anchor_key, a.argmax(axis=1))
        assert np.array_equal(pooled.anchor_weight, a.max(axis=1))
        hidden = site.masked
        assert pooled.hidden[0, -1] == hidden[:cell, -cell:].all()  # decoder: the top right corner is the mask
        for key in (0, 1, site.shape[1] // 2, site.shape[1] - 1):
            col = long_rows.column(site, head, key, pooled)
            assert col.shape == (site.shape[0],)
            assert np.abs(col - a[:, key]).max() < 2e-6  # float32 rounding: the stated bound
            assert (col[hidden[:, key]] == 0).all()
        assert np.array_equal(long_rows.row(site, head, 7), a[7])


def test_tile_bounds_snap_to_the_grid_stay_inside_and_never_exceed_the_largest_tile():
    g, m = long_rows.TILE_GRID, long_rows.TILE_MAX
    assert long_rows.tile_bounds(130, 70, 100, (8192, 8192)) == (128, 230, 64, 170)  # covers what was asked
    assert long_rows.tile_bounds(-5, 10**9, 10**9, (1000, 900)) == (0, m - g, 899 // g * g, 900)
    assert long_rows.tile_bounds(999, 0, 0, (1000, 900)) == (999 // g * g, 1000, 0, 1)
    r0, r1, c0, c1 = long_rows.tile_bounds(8191, 8191, m, (8192, 8192))
    assert 0 < r1 - r0 <= m and 0 < c1 - c0 <= m and r1 == c1 == 8192


def test_a_tile_is_the_patterns_cells_and_its_mask():
    site = _long_site(300, seed=1)
    bounds = long_rows.tile_bounds(64, 128, 100, site.shape)
    cells, hidden = long_rows.tile(site, 2, bounds)
    r0, r1, c0, c1 = bounds
    assert np.array_equal(cells, site.pattern(2)[r0:r1, c0:c1])
    assert np.array_equal(hidden, site.masked[r0:r1, c0:c1])
    assert hidden.any() and not hidden.all()
