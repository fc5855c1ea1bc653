"""The Overview's summaries of a long site, made in one pass of row tiles, equal those made from the whole
matrices of the same site kept as today's kind (repeated keys, the mask as an array, the weights kept)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from attention import core
from attention.analysis import head_stats, overview_data, streamed
from attention.trace import Trace, make_site


def _pair(n: int, heads: int = 4, groups: int = 2, d: int = 8, seed: int = 0):
    g = torch.Generator().manual_seed(seed)
    q, k, v = (torch.randn(1, h, n, d, generator=g) * 2 for h in (heads, groups, groups))
    z = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
    tokens = [f"w{i}" for i in range(n)]
    common = dict(layer=0, kind="decoder", query_tokens=tokens, key_tokens=tokens, q=q[0].numpy(),
                  scale=d ** -0.5, model_z=z[0].numpy())
    long = make_site(**common, k=k[0].numpy(), v=v[0].numpy(), model_weights=None, causal_offset=0)
    rep = heads // groups
    short = make_site(**common, k=np.repeat(k[0].numpy(), rep, 0), v=np.repeat(v[0].numpy(), rep, 0),
                      mask=core.causal_mask(n), model_weights=long.weights)
    return long, short


@pytest.mark.parametrize("n", [7, 300, 601])  # fewer rows than a tile, one tile and a bit, thumbnails of 48
def test_streamed_summaries_equal_the_whole_matrices(n: int) -> None:
    long, short = _pair(n)
    assert long.is_long and not short.is_long
    thumbs, stats = streamed.summaries(long, overview_data.THUMB_MAX)
    want = head_stats.site_stats(short)
    for got, ref in zip(stats, want, strict=True):
        for name in ("entropy", "distance", "special_share", "previous_share", "self_share"):
            assert getattr(got, name) == pytest.approx(getattr(ref, name), rel=1e-9, abs=1e-12), name
    for h in range(short.n_heads):
        np.testing.assert_allclose(thumbs[h], overview_data.downsample(short.weights[h]), rtol=1e-5, atol=1e-7)
    assert head_stats.site_stats(long) == stats  # head_stats streams a long site itself


def test_a_long_overview_says_it_is_per_token_and_has_no_rollout() -> None:
    long, _ = _pair(60)
    tr = Trace(text="", model_name="m", tokens=long.query_tokens, sites=(long,))
    ov = overview_data.build(tr, "decoder", merge_words=True)
    assert ov.long and not ov.merged and ov.rollout is None and len(ov.stats) == 4
    assert ov.thumbs[(0, 0)].shape == (48, 48)
