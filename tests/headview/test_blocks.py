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


def test_band_edges_put_the_prompt_in_bands_and_each_written_word_alone():
    assert blocks.band_edges(0) == [0]
    assert blocks.band_edges(40) == [0, 16, 32, 40]
    assert blocks.band_edges(40, grown_from=35) == [0, 16, 32, 35, 36, 37, 38, 39, 40]
    assert blocks.band_edges(41, grown_from=35)[:-1] == blocks.band_edges(40, grown_from=35)  # one more edge
    assert blocks.band_edges(10, grown_from=99) == [0, 10]


@pytest.mark.parametrize("prompt,written", [(1000, 24), (1024, 1), (1017, 7)])
def test_the_next_word_at_1024_tokens_sends_one_row_and_names_the_rest(prompt, written):
    rng = np.random.default_rng(1)
    full = tuple((rng.normal(size=(1, prompt + written + 2, 64)) * 1.5).astype(np.float32) for _ in range(3))
    extra = {"channel": "wr-head", "palette": "standard"}
    n = prompt + written
    first, texts = blocks.head_blocks(_written(n, full), 0, grown_from=prompt)
    whole = blocks.message(first, texts, set(), extra)
    second, texts2 = blocks.head_blocks(_written(n + 1, full), 0, grown_from=prompt)
    word = blocks.message(second, texts2, set(texts), extra, previous=first["bands"])
    assert len(whole) > 1_000_000  # the first draw carries every band
    assert len(word.encode()) <= 12 * 1024, len(word)  # one row and one column of three integers each
    sent = json.loads(word)
    assert list(sent["blocks"]) == [second["bands"][-1]]  # only the new word's band
    assert second["bands"][:-1] == first["bands"]
    assert sent["head"]["keep"] == len(first["bands"]) and sent["head"]["bands"] == second["bands"][-1:]
    assert sent["head"]["of"] == blocks.bands_id(first["bands"]) != sent["head"]["list"]
    # The browser's numbers are the single payload's. The bands kept from the shorter text were computed
    # there: a float32 product that lands on a rounding edge may print one unit apart, nothing more.
    got = blocks.assembled(second, {**texts, **texts2})
    want = decoded(head_payload(_written(n + 1, full), 0))
    np.testing.assert_array_equal(got["A"] == MASKED_CODE, want["masked"])
    for name in ("S", "A"):
        unit = 10.0 ** -second["decimals"]["score" if name == "S" else "weight"]
        diff = np.abs(np.where(want["masked"], 0, got[name] * unit - np.nan_to_num(want[name])))
        assert diff.max() <= unit * 1.001 and (diff > unit / 2).mean() < 1e-3, (name, diff.max())
    same, _ = blocks.head_blocks(_written(n + 1, full), 0, grown_from=prompt)
    again = blocks.message(same, texts2, set(texts) | set(texts2), extra, previous=second["bands"])
    assert len(again) < 1_000  # nothing new: the list is kept whole, no block is sent


def test_a_head_that_shares_no_band_with_the_last_sends_its_whole_list():
    rng = np.random.default_rng(2)
    full = tuple(rng.normal(size=(2, 40, 8)).astype(np.float32) for _ in range(3))
    first, _ = blocks.head_blocks(_written(40, full), 0, grown_from=30)
    other, texts = blocks.head_blocks(_written(40, full), 1, grown_from=30)
    head = json.loads(blocks.message(other, texts, set(), {}, previous=first["bands"]))["head"]
    assert "keep" not in head and head["bands"] == other["bands"]


def test_last_seen_is_the_last_key_each_query_sees():
    rng = np.random.default_rng(3)
    masked = rng.random((9, 7)) < 0.6
    masked[2] = True  # a query that sees nothing
    masked[4] = False  # one that sees everything
    want = [max((j for j in range(7) if not masked[i, j]), default=-1) for i in range(9)]
    assert blocks.last_seen(masked).tolist() == want
    assert blocks.last_seen(core.is_masked(core.causal_mask(5), (5, 5))).tolist() == [0, 1, 2, 3, 4]
