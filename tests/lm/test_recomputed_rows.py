"""The Write page's recomputation grown a row at a time (lm/rows.py Recomputed): the same numbers as
recomputing the whole text, for every step, after going back, and with the model's differences kept."""

import numpy as np
import pytest

from attention.lm import rows
from attention.lm.rows import LayerStore, NewRows
from attention import core

pytestmark = pytest.mark.filterwarnings("ignore")


def _store(n_prompt: int, written: int, seed: int = 0) -> LayerStore:
    """A grouped-query layer (4 query heads, 2 key/value heads) fed a prompt then one token at a time,
    with the model's weights made by core.attention itself, one of them nudged to show a difference."""
    rng = np.random.default_rng(seed)
    heads, kv, d, n = 4, 2, 8, n_prompt + written
    q = rng.normal(size=(heads, n, d)).astype(np.float32)
    k, v = (rng.normal(size=(kv, n, d)).astype(np.float32) for _ in range(2))
    store = LayerStore(0, "decoder", "decoder", d ** -0.5, heads, kv, d)
    kr, vr = np.repeat(k, 2, axis=0), np.repeat(v, 2, axis=0)
    for lo, hi in [(0, n_prompt), *[(i, i + 1) for i in range(n_prompt, n)]]:
        _, w, z = core.attention(q[:, lo:hi], kr[:, :hi], vr[:, :hi], scale=store.scale, mask=core.causal_mask(hi - lo, hi))
        if lo == n_prompt + 1:
            w = w.copy()
            w[1, 0, 0] += 1e-3  # the model's own weight of one written row differs from ours
        store.append(NewRows(q=q[:, lo:hi], k=k[:, lo:hi], v=v[:, lo:hi], weights=w, z=z))
    return store


def _whole(store: LayerStore, n: int):
    site = store.site(tuple(f"t{i}" for i in range(store.n)), n)
    return site.scores, site.weights, site.z, site.weights_diff, site.z_diff


def test_rows_grown_a_word_at_a_time_equal_the_whole_text_recomputed():
    store = _store(7, 5)
    tokens = tuple(f"t{i}" for i in range(store.n))
    kept = None
    for n in range(7, 13):
        kept = rows.recomputed(store, n, kept)
        got = kept.site_for(store, tokens, n)
        want = _whole(store, n)
        for a, b in zip((got.scores, got.weights, got.z), want[:3]):
            np.testing.assert_allclose(a, b, atol=1e-6)
        assert got.weights_diff == pytest.approx(want[3], abs=1e-6) and got.z_diff == pytest.approx(want[4], abs=1e-6)
    assert kept.weights_diff[8] == pytest.approx(1e-3, rel=0.01)  # the nudged row is found, and only it
    assert kept.weights_diff[:8].max() < 1e-6 and kept.weights_diff[9:].max() < 1e-6
    earlier = rows.recomputed(store, 8, kept).site_for(store, tokens, 8)  # an earlier step: a slice
    np.testing.assert_allclose(earlier.weights, _whole(store, 8)[1], atol=1e-6)
    assert earlier.weights_diff < 1e-6  # the nudged row 8 is not part of it


def test_the_writing_keeps_one_layer_and_goes_back(smollm2):
    from attention.lm.writer import Writing

    w = Writing(smollm2, "The black cat drank the milk because it was")
    for _ in range(3):
        w.step()
        w.site(18)
    assert w._recomputed[0] == 18 and w._recomputed[1].n == w.n
    fresh = w.stores[18].site(tuple(w.tokens), w.n)
    np.testing.assert_allclose(w.site(18).weights, fresh.weights, atol=1e-6)
    np.testing.assert_allclose(w.site(18, step=1).scores, w.stores[18].site(tuple(w.tokens), w.n - 2).scores, atol=1e-5)
    w.back(1)
    assert w._recomputed[1].n == w.n
    w.step(token_id=int(smollm2.tokenizer.convert_tokens_to_ids("Ġhappy")))
    np.testing.assert_allclose(w.site(18).weights, w.stores[18].site(tuple(w.tokens), w.n).weights, atol=1e-6)
    assert w.site(18).faithful


def test_a_store_never_makes_room_past_the_most_it_will_hold():
    store = LayerStore(0, "decoder", "decoder", 1.0, 2, 1, 4, most=20)
    rng = np.random.default_rng(3)
    for t in (12, 1, 1, 1, 1, 1, 1, 1, 1):
        n = store.n + t
        store.append(NewRows(q=rng.normal(size=(2, t, 4)).astype(np.float32), k=rng.normal(size=(1, t, 4)).astype(np.float32),
                             v=rng.normal(size=(1, t, 4)).astype(np.float32), weights=np.zeros((2, t, n), np.float32),
                             z=np.zeros((2, t, 4), np.float32)))
    assert store.n == 20 and store._q.shape[1] == 20  # doubling 12 would have made room for 24
