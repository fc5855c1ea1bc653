"""KVBuffer, the one memory of a layer's keys and values shared by the KV cache and the writer's store."""

import numpy as np

from attention.lm.kv_buffer import KVBuffer


def _rows(t: int, start: float) -> np.ndarray:
    return (start + np.arange(2 * t * 3, dtype=np.float32)).reshape(2, t, 3)


def test_writes_grow_the_room_but_never_past_most_and_keep_what_was_written():
    buf = KVBuffer(kv_heads=2, d_head=3, capacity=2, most=5)
    a, b = _rows(2, 0), _rows(2, 100)
    buf.write(a, -a)
    buf.write(b, -b)  # doubled to 4
    assert buf.k.shape[1] == 4 and buf.n == 4
    buf.write(_rows(1, 200), _rows(1, 200))  # 8 would pass most: 5
    assert buf.k.shape[1] == 5
    assert np.array_equal(buf.k[:, :4], np.concatenate([a, b], axis=1))
    assert np.array_equal(buf.v[:, :2], -a)


def test_fresh_keeps_the_first_rows_in_new_memory():
    buf = KVBuffer(kv_heads=2, d_head=3, capacity=8)
    buf.write(_rows(4, 0), _rows(4, 0))
    old = buf.k[:, :4]
    kept = old.copy()
    buf.fresh(2)
    buf.write(_rows(2, 500), _rows(2, 500))
    assert buf.n == 4 and np.array_equal(old, kept)  # a view taken before never sees the new rows
    assert np.array_equal(buf.k[:, :2], kept[:, :2]) and not np.shares_memory(old, buf.k)
