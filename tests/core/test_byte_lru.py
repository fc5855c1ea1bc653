"""The one least-recently-used cache by bytes (attention/byte_lru.py), on values whose sizes are known."""

import threading

import numpy as np

from attention.byte_lru import ByteLRU, array_bytes


def test_the_least_recently_used_goes_first_within_the_budget():
    lru = ByteLRU(100, size=len)
    assert lru.put("a", "x" * 40) and lru.put("b", "y" * 40)
    assert lru.get("a") == "x" * 40  # a is now the most recently used
    assert lru.put("c", "z" * 40)  # 120 > 100: b goes, not a
    assert lru.keys() == ["a", "c"] and lru.held == 80 and "b" not in lru


def test_a_value_larger_than_the_budget_is_handed_back_not_kept():
    lru = ByteLRU(10, size=len)
    assert lru.get_or_make("big", lambda: "x" * 11) == "x" * 11 and len(lru) == 0 and lru.held == 0
    assert not lru.put("big", "x" * 11)


def test_replacing_a_key_counts_its_new_size_once():
    lru = ByteLRU(100, size=len)
    lru.put("a", "x" * 30)
    lru.put("a", "x" * 50)
    assert lru.held == 50 and len(lru) == 1 and lru.pop("a") == "x" * 50 and lru.held == 0


def test_the_budget_may_be_read_at_each_insertion():
    budget = [100]
    lru = ByteLRU(lambda: budget[0], size=len)
    lru.put("a", "x" * 60)
    budget[0] = 50
    lru.put("b", "y" * 10)  # over the new budget: a goes
    assert lru.keys() == ["b"] and lru.budget == 50


def test_drop_keeps_what_it_is_told_to_and_arrays_count_their_bytes():
    lru = ByteLRU(1 << 20)
    lru.put(("model", 1), np.zeros(10, np.float32))
    lru.put(("trace", 1), np.zeros(20, np.float32))
    assert lru.drop(keep=lambda k: k[0] == "model") == [("trace", 1)] and lru.held == 40
    assert array_bytes("abc") == 3 and array_bytes(object()) == 0


def test_threads_never_lose_count_of_the_bytes_held():
    lru = ByteLRU(10_000, size=len)

    def work(t: int) -> None:
        for i in range(300):
            lru.put((t, i % 50), "x" * (i % 97))
            lru.get((t, (i * 7) % 50))

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert lru.held == sum(len(lru.get(k)) for k in lru.keys()) <= 10_000
