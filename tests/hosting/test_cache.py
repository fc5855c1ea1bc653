"""The app's one cache is bounded by bytes: long traces push old ones out; nothing over the budget stays;
models, translations, snapshot traces and overviews live on the same shelf."""

import numpy as np
import pytest

import attention
import attention.capture.hf_model
from attention.trace import Trace
from attention.ui.hosting import cache
from attention.ui.hosting.shelf import MAX_ENTRIES, Shelf, nbytes

pytestmark = pytest.mark.model  # every test here reads a model (tests/lanes.py)


def held_bytes(tr: Trace) -> int:
    """Every array the trace really holds (after its recomputation)."""
    seen = 0
    for s in tr.sites:
        for value in vars(s).values():
            arrays = value if isinstance(value, tuple) else (value,)
            seen += sum(a.nbytes for a in arrays if isinstance(a, np.ndarray))
    return seen + sum(a.nbytes for side in tr.layer_inputs.values() for a in side)


@pytest.mark.parametrize("text", ["The black cat drank the milk", "word " * 200])
def test_nbytes_counts_what_a_recomputed_trace_holds(text):
    tr = attention.trace(text)
    expected = tr.nbytes()
    assert tr.faithful  # every site recomputed and checked
    assert held_bytes(tr) == expected


def test_the_cache_keeps_traces_within_its_byte_budget(monkeypatch):
    budget = int(2.5 * attention.trace("the cat sat on the mat today").nbytes())
    monkeypatch.setattr(cache, "shelf", Shelf(budget, max_entries=0))
    cache.model(None)  # the model is on the shelf too: make room for it
    budget += cache.shelf.cost(cache.model(None))
    monkeypatch.setattr(cache, "shelf", Shelf(budget, max_entries=0))
    texts = ["the cat sat on the mat today", "the dog sat on the mat today", "the cow sat on the mat today"]
    first = cache.trace(None, texts[0])
    assert cache.trace(None, texts[0]) is first  # a second click is served from the cache
    for text in texts[1:]:
        cache.trace(None, text)
    kept, limit = cache.shelf.usage()
    assert kept <= limit == budget
    assert cache.trace(None, texts[0]) is not first  # the oldest was pushed out and traced again
    huge = cache.trace(None, "word " * 300)  # over the whole budget: served, kept alone beside it (locally)
    assert huge.nbytes() > budget and cache.shelf.usage()[0] <= budget
    assert cache.trace(None, "word " * 300) is huge
    cache.trace(None, "word " * 301)  # the next one over the budget takes its place
    assert cache.trace(None, "word " * 300) is not huge  # asked again, it is traced again


def test_the_budget_is_smaller_when_hosted_and_can_be_set(monkeypatch):
    from attention.ui.hosting import settings

    monkeypatch.delenv("ATTENTION_CACHE_MB", raising=False)
    monkeypatch.delenv("ATTENTION_HOSTED", raising=False)
    assert settings.cache_bytes() == 1024 * 2**20
    monkeypatch.setenv("ATTENTION_HOSTED", "1")
    assert settings.cache_bytes() == 256 * 2**20
    monkeypatch.setenv("ATTENTION_CACHE_MB", "64")
    assert settings.cache_bytes() == 64 * 2**20
    monkeypatch.setenv("ATTENTION_CACHE_MB", "lots")
    assert settings.cache_bytes() == 256 * 2**20  # unreadable: the default


def test_short_traces_count_as_a_share_of_the_budget_so_only_so_many_are_kept(monkeypatch):
    tr = attention.trace("the cat")
    budget = 64 * 10 * 2**20
    assert tr.nbytes() < budget // 64
    assert Shelf(budget).cost(tr) == budget // MAX_ENTRIES  # counted as 10 MB: 64 fill the budget
    long = attention.trace("word " * 300)
    assert Shelf(budget).cost(long) == long.nbytes()
    roomy = 100 * tr.nbytes()  # by bytes alone, all four would fit; at most 3 entries
    monkeypatch.setattr(cache, "shelf", Shelf(roomy, max_entries=3))
    monkeypatch.setattr(cache, "model", lambda name: attention.capture.hf_model.load(None))  # not on this shelf
    for text in ["the cat", "the dog", "the cow", "the hen"]:
        cache.trace(None, text)
    assert len(cache.shelf) == 3  # the fourth pushed the first out, although bytes were left


def test_every_kind_of_entry_lives_on_the_one_shelf_and_counts_its_bytes(monkeypatch):
    monkeypatch.setattr(cache, "shelf", Shelf(4 * 2**30))
    out = cache.translation("The ball is blue.")
    v = cache.overview("translator", "The ball is blue.", "cross", False)
    kinds = {key[0] for key in cache.shelf.keys()}
    assert kinds == {"model", "output", "overview"}
    assert nbytes(out) >= out.trace.nbytes() > 0
    assert nbytes(v) >= sum(a.nbytes for a in v.thumbs.values()) > 0
    assert nbytes(cache.translator()) == sum(p.numel() * 4 for p in cache.translator().parameters())


def test_a_shelf_makes_once_for_racing_sessions_and_draws_no_spinner_on_a_hit(monkeypatch):
    import contextlib
    import threading
    import time

    spinners, makes = [], []

    def make():
        makes.append(1)
        time.sleep(0.2)  # long enough for the other session to arrive while this one makes
        return object()

    shelf = Shelf(2**20, busy=lambda what: spinners.append(what) or contextlib.nullcontext())
    got = []
    threads = [threading.Thread(target=lambda: got.append(shelf.get("m", make, "app.loading_model"))) for _ in range(2)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert len(makes) == 1 and got[0] is got[1]  # one model load, both sessions served it
    assert len(spinners) == 1
    shelf.get("m", make, "app.loading_model")
    assert len(spinners) == 1  # a hit starts no spinner


def test_a_model_larger_than_the_whole_budget_is_still_kept_but_a_result_is_not():
    """SmolLM2 (538 MB) on a hosted replica (256 MB of results): kept by count, not loaded on each rerun."""
    shelf = Shelf(1_000, max_entries=0, rss_budget=2**40)
    made = []

    def big():
        made.append(1)
        return np.ones(10_000)

    for _ in range(2):
        shelf.get(("model", "smollm2"), big, "app.loading_model")
        shelf.get(("output", "smollm2", "a"), big, "app.tracing")
    assert len(made) == 3  # the model once, the result twice
    assert ("model", "smollm2") in shelf.keys() and ("output", "smollm2", "a") not in shelf.keys()


def test_locally_the_last_result_larger_than_the_budget_is_kept_alone():
    """An 8,192-token trace (1.8 GB) against the local 1,024 MB: kept, so a page run does not trace it again;
    the next one replaces it, and shedding over an RSS budget drops it."""
    shelf = Shelf(1_000, max_entries=0)
    made = []

    def big():
        made.append(1)
        return np.ones(10_000)

    for _ in range(2):
        shelf.get(("output", "smollm2", "a"), big, "app.tracing")
    assert len(made) == 1 and ("output", "smollm2", "a") in shelf.keys()
    held_while_making = []

    def big_b():  # the kept one is gone before the next of its kind is made: never two at the peak
        held_while_making.append(("output", "smollm2", "a") in shelf.keys())
        return big()

    shelf.get(("output", "smollm2", "b"), big_b, "app.tracing")
    assert held_while_making == [False]
    assert ("output", "smollm2", "a") not in shelf.keys() and ("output", "smollm2", "b") in shelf.keys()
    shelf.rss_budget = 1  # over any RSS budget: shed
    assert shelf.shed_if_over_budget() and ("output", "smollm2", "b") not in shelf.keys()


def test_every_cache_is_one_byte_lru_and_metrics_reports_each_beside_its_budget(monkeypatch):
    """The shelf, the long sites' heads and the head views' payloads are ByteLRUs; /metrics names each
    cache's bytes held and every budget settings declares (a budget missing from it would be invisible)."""
    from attention import head_cache
    from attention.byte_lru import ByteLRU
    from attention.ui.hosting import serve, settings, view_cache

    assert isinstance(cache.shelf._cache, ByteLRU) and isinstance(head_cache._heads, ByteLRU)
    assert isinstance(view_cache.views, ByteLRU)
    monkeypatch.setenv("ATTENTION_VIEW_CACHE_MB", "3")
    monkeypatch.setenv("ATTENTION_HEAD_CACHE_MB", "5")
    assert view_cache.views.budget == 3 << 20 and settings.head_cache_bytes() == 5 << 20  # read when asked
    text = serve.metrics()
    for name in ("cache_bytes", "head_cache_bytes", "view_cache_bytes", *(f"{b}_budget_bytes" for b in settings.budgets())):
        assert f"attention_{name} " in text, name
    assert "attention_view_cache_budget_bytes 3145728\n" in text and "attention_head_cache_budget_bytes 5242880\n" in text
