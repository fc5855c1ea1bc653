"""A hosted Writing (lm/written.HOSTED: lean, z checked as read): a class's sessions each hold O(n·d) without
the model's weight blocks or its z, and lose nothing a page shows: the same words, the same rows of A, the
same check."""

import numpy as np
import pytest

from attention.lm import writer
from attention.lm.rows import LayerStore, NewRows
from attention.lm.written import HOSTED, Limits

pytestmark = pytest.mark.model

PROMPT = "The black cat drank the milk because it was thirsty, and then it"


@pytest.fixture(scope="module")
def pair(smollm2):
    """The same text written hosted and lean with z kept (checked lazily, as locally at long lengths)."""
    kept = Limits(prompt=HOSTED.prompt, total=HOSTED.total, lean=True, check_as_read=False)
    out = writer.Writing(smollm2, PROMPT, HOSTED), writer.Writing(smollm2, PROMPT, kept)
    for w in out:
        for _ in range(4):
            w.step()
    return out


def test_a_hosted_writing_keeps_no_weights_and_no_z(pair):
    hosted, kept = pair
    assert hosted.lean and all(s._z.size == 0 and not s.blocks for s in hosted.stores.values())
    assert all(s._z.size > 0 for s in kept.stores.values())
    assert hosted.nbytes() < kept.nbytes() - 0.9 * sum(s._z.nbytes for s in kept.stores.values())


def test_the_check_made_as_read_is_the_check_made_when_shown(pair):
    hosted, kept = pair
    assert hosted.ids == kept.ids
    for layer in (0, 17, 29):
        a, b = hosted.site(layer), kept.site(layer)
        assert np.isfinite(hosted.stores[layer].z_diff).all()
        # every row within the check's bound (the two group rows differently: their float sums differ near 1e-6;
        # that the check sees a wrong z is the next test's)
        assert hosted.stores[layer].z_diff.max() < 1e-5 and kept.stores[layer].z_diff.max() < 1e-5
        assert a.z_diff < 1e-5 and b.z_diff < 1e-5
        np.testing.assert_array_equal(a.pattern(4, slice(None)), b.pattern(4, slice(None)))


def test_a_wrong_z_is_seen_as_it_is_read(pair):
    """The check compares with the z the model gave: a z off by 1e-3 in one head of one row is a 1e-3 row."""
    _, kept = pair
    source = kept.stores[7]
    store = LayerStore(7, source.kind, source.name, source.scale, source.heads, source.kv_heads, source.d_head,
                       check_as_read=True)
    n = source.n
    k, v = source.kv(n)
    z = source._z[:, :n].copy()
    z[2, n - 3, 5] += 1e-3
    store.append(NewRows(q=source._q[:, :n].copy(), k=k.copy(), v=v.copy(), weights=None, z=z))
    assert store._z.size == 0
    assert abs(store.z_diff[n - 3] - 1e-3) < 1e-5 and np.delete(store.z_diff, n - 3).max() < 1e-5


def test_going_back_and_writing_again_is_checked_as_read(smollm2, pair):
    hosted, _ = pair
    w = writer.Writing(smollm2, PROMPT, HOSTED)
    for _ in range(4):
        w.step()
    w.back(1)
    w.step()
    w.step()
    assert w.ids == hosted.ids[: len(w.ids)]
    assert np.isfinite(w.stores[5].z_diff).all() and w.stores[5].z_diff.size == w.n
    assert w.site(5).z_diff < 1e-5
