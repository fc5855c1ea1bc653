"""Two sessions tracing different sentences at the same moment each get their own result."""

import threading

import pytest

import attention
from attention.capture import hf_model

pytestmark = pytest.mark.model  # every test here reads a model (tests/lanes.py)

SENTENCES = ["The black cat drank the milk", "A ball is blue", "Colourless green ideas sleep furiously today",
             "I saw her duck"]


def test_concurrent_traces_do_not_mix():
    hf_model.load()  # load once before the race, as the app does
    results: dict[int, attention.Trace] = {}
    errors: list[BaseException] = []
    barrier = threading.Barrier(len(SENTENCES) * 2)

    def work(i: int) -> None:
        try:
            barrier.wait()
            results[i] = attention.trace(SENTENCES[i % len(SENTENCES)])
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(SENTENCES) * 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for i, tr in results.items():
        alone = attention.trace(SENTENCES[i % len(SENTENCES)])
        assert tr.tokens == alone.tokens
        assert len(tr.sites) == 6
        for mine, ref in zip(tr.sites, alone.sites, strict=True):
            assert mine.query_tokens == tr.tokens
            assert mine.weights.shape == ref.weights.shape
            assert abs(mine.weights - ref.weights).max() < 1e-5
