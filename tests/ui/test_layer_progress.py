"""Explore's progress over layers (issue 52): a real model's trace reports each attention layer once per pass
(MiniLM: 6), on the calling thread only; nothing is counted after the block."""

import threading

import pytest

import attention
from attention.ui import layer_progress

pytestmark = pytest.mark.model


def test_each_layer_of_a_real_trace_is_reported_and_only_on_this_thread():
    got: list[tuple[int, int]] = []
    text = "The cat sat on the mat, and the dog sat by the door."
    attention.trace("warm the model up")
    with layer_progress.counting(lambda done, total: got.append((done, total))):
        other = threading.Thread(target=attention.trace, args=("Another session reads another sentence.",))
        other.start()
        other.join()  # its layers are not ours
        assert got == []
        attention.trace(text + " Once more.")
    assert got and all(total == 6 for _, total in got)  # all-MiniLM-L6-v2's six attention layers
    assert [done for done, _ in got] == list(range(1, len(got) + 1)) and len(got) % 6 == 0
    after = len(got)
    attention.trace(text + " And again.")
    assert len(got) == after
