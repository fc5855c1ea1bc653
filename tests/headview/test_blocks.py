"""The head view in blocks (attention/headview/blocks.py): the numbers put together from the blocks are
the single payload's, and a view one row longer sends only the band that changed."""

from __future__ import annotations

import json

import numpy as np
import pytest

from attention import core
from attention.headview import blocks
from attention.headview.payload import MASKED_CODE, decoded, head_payload
from attention.trace import make_site
from harness.random_sites import random_site


@pytest.mark.parametrize("n_query,n_key,kind", [(1, 1, "decoder"), (16, 16, "decoder"), (37, 37, "decoder"),
                                                (20, 33, "cross"), (33, 20, "encoder")])
def test_blocks_print_the_same_numbers_as_the_payload(n_query, n_key, kind):
    site = random_site(n_query, n_key if kind != "decoder" else None, kind=kind, heads=2, seed=n_query)
    for head in range(2):
        desc, texts = blocks.head_blocks(site, head)
        got = blocks.assembled(desc, texts)
        want = decoded(head_payload(site, head))
        d = desc["decimals"]
        np.testing.assert_array_equal(got["S"] / 10.0 ** d["score"], want["S"])
        np.testing.assert_array_equal(got["A"] == MASKED_CODE, want["masked"])
        np.testing.assert_array_equal(np.where(want["masked"], np.nan, got["A"] / 10.0 ** d["weight"]), want["A"])
        np.testing.assert_array_equal(np.where(want["masked"], np.nan, got["scaled"] / 10.0 ** d["scaled"]),
                                      want["scaled"])
        np.testing.assert_array_equal(got["Z"] / 10.0 ** d["z"], want["Z"])


def _written(n: int, full):
    """The first n positions of one causal text: what the Write page shows at that step."""
    q, k, v = (a[:, :n] for a in full)
    mask = core.causal_mask(n, n)
    scale = core.default_scale(q.shape[-1])
    _, weights, z = core.attention(q, k, v, scale=scale, mask=mask)
    toks = tuple(f"w{i}" for i in range(n))
    return make_site(layer=0, kind="decoder", query_tokens=toks, key_tokens=toks, q=q, k=k, v=v, scale=scale,
                     mask=mask, model_weights=weights, model_z=z)


def test_the_next_word_at_1024_tokens_sends_under_50_kb():
    rng = np.random.default_rng(1)
    full = tuple((rng.normal(size=(1, 1026, 64)) * 1.5).astype(np.float32) for _ in range(3))
    extra = {"channel": "wr-head", "palette": "standard"}
    first, texts = blocks.head_blocks(_written(1024, full), 0)
    whole = blocks.message(first, texts, set(), extra)
    second, texts2 = blocks.head_blocks(_written(1025, full), 0)
    word = blocks.message(second, texts2, set(texts), extra)
    assert len(whole) > 1_000_000  # the first draw carries every band
    assert len(word.encode()) <= 50 * 1024, len(word)
    sent = json.loads(word)["blocks"]
    assert list(sent) == [second["bands"][-1]]  # only the band that grew; the 64 others are named
    assert second["bands"][:-1] == first["bands"]
    same, _ = blocks.head_blocks(_written(1025, full), 0)
    assert len(blocks.message(same, texts2, set(texts) | set(texts2), extra)) < 2_000  # nothing new: names only
