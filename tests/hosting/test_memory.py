"""Memory of a hosted replica: over its budget the cache sheds all but the models; what the Learning
page computes once holds less at its peak in small batches, with the same figures."""

from __future__ import annotations

import numpy as np
import pytest

from attention.ui.hosting import memory
from attention.ui.hosting.shelf import Shelf

pytestmark = pytest.mark.model  # every test here reads a model (tests/lanes.py)


def test_over_its_memory_budget_the_cache_sheds_all_but_the_models() -> None:
    shelf = Shelf(2**30, max_entries=0, rss_budget=1)  # any process is over one byte
    for key in [("model", "minilm"), ("model", "translator"), ("alignment",), ("output", "minilm", "a"),
                ("overview", "minilm", "a")]:
        shelf.get(key, lambda: np.ones(1000), "app.tracing")
    assert shelf.sheds == 1  # before the overview was made: the trace was the one thing to shed
    assert set(shelf.keys()) == {("model", "minilm"), ("model", "translator"), ("alignment",), ("overview", "minilm", "a")}

    roomy = Shelf(2**30, max_entries=0, rss_budget=memory.rss_bytes() + 2**30)
    for text in "abc":
        roomy.get(("output", "minilm", text), lambda: np.ones(1000), "app.tracing")
    assert roomy.sheds == 0 and len(roomy) == 3


def test_resident_memory_is_read_and_release_runs() -> None:
    before = memory.rss_bytes()
    block = np.ones(32 * 2**20 // 8)  # 32 MiB touched
    assert memory.rss_bytes() >= before + 16 * 2**20
    del block
    memory.release()
    assert memory.rss_bytes() > 0


def test_measured_alignment_is_the_same_in_small_batches() -> None:
    from attention.translator import api, snapshots

    snaps = api.read_snapshots()
    steps, whole = snapshots.measure_alignment(snaps, n_pairs=100, batch_size=500)
    steps_small, small = snapshots.measure_alignment(snaps, n_pairs=100, batch_size=30)
    assert steps == steps_small and np.array_equal(whole, small)
