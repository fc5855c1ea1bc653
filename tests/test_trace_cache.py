"""The app's trace cache is bounded by bytes: long traces push old ones out; nothing over the budget stays."""

import numpy as np
import pytest

import attention
from attention.trace import Trace
from attention.ui import cached


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
    monkeypatch.setattr(cached, "_traces", cached.Shelf(maxsize=budget, getsizeof=Trace.nbytes))
    texts = ["the cat sat on the mat today", "the dog sat on the mat today", "the cow sat on the mat today"]
    first = cached.trace(None, texts[0])
    assert cached.trace(None, texts[0]) is first  # a second click is served from the cache
    for text in texts[1:]:
        cached.trace(None, text)
    kept, limit = cached.cached_trace_bytes()
    assert kept <= limit == budget
    assert cached.trace(None, texts[0]) is not first  # the oldest was pushed out and traced again
    huge = cached.trace(None, "word " * 300)  # over the whole budget: served, not kept
    assert huge.nbytes() > budget and cached.cached_trace_bytes()[0] <= budget
    assert cached.trace(None, "word " * 300) is not huge  # asked again, it is traced again


def test_the_budget_is_smaller_when_hosted_and_can_be_set(monkeypatch):
    from attention import settings

    monkeypatch.delenv("ATTENTION_TRACE_CACHE_MB", raising=False)
    monkeypatch.delenv("ATTENTION_HOSTED", raising=False)
    assert settings.trace_cache_bytes() == 1024 * 2**20
    monkeypatch.setenv("ATTENTION_HOSTED", "1")
    assert settings.trace_cache_bytes() == 128 * 2**20
    monkeypatch.setenv("ATTENTION_TRACE_CACHE_MB", "64")
    assert settings.trace_cache_bytes() == 64 * 2**20
    monkeypatch.setenv("ATTENTION_TRACE_CACHE_MB", "lots")
    assert settings.trace_cache_bytes() == 128 * 2**20  # unreadable: the default


def test_short_traces_count_as_a_share_of_the_budget_so_only_so_many_are_kept(monkeypatch):
    tr = attention.trace("the cat")
    budget = 64 * 10 * 2**20
    assert tr.nbytes() < budget // 64
    assert cached._cost(tr, budget) == budget // cached.MAX_TRACES  # counted as 10 MB: 64 fill the budget
    long = attention.trace("word " * 300)
    assert cached._cost(long, budget) == long.nbytes()
    monkeypatch.setattr(cached, "MAX_TRACES", 3)  # so that four short traces cannot all stay
    roomy = 100 * tr.nbytes()  # by bytes alone, all four would fit
    monkeypatch.setattr(cached, "_traces", cached.Shelf(maxsize=roomy, getsizeof=lambda t: cached._cost(t, roomy)))
    for text in ["the cat", "the dog", "the cow", "the hen"]:
        cached.trace(None, text)
    assert len(cached._traces) == 3  # the fourth pushed the first out, although bytes were left


def test_a_shelf_makes_once_for_racing_sessions_and_draws_no_spinner_on_a_hit(monkeypatch):
    import contextlib
    import threading
    import time

    spinners, makes = [], []
    monkeypatch.setattr(cached.st, "spinner", lambda text: spinners.append(text) or contextlib.nullcontext())

    def make():
        makes.append(1)
        time.sleep(0.2)  # long enough for the other session to arrive while this one makes
        return object()

    shelf = cached.Shelf(maxsize=2, exclusive=True)
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
