"""Every session's Writing within one budget: the least recent sessions' are dropped, never the asking
session's, and ended sessions' first."""

from attention.ui.held_writings import HeldWritings


class Fake:
    def __init__(self, size: int) -> None:
        self.size = size

    def nbytes(self) -> int:
        return self.size


def test_the_least_recent_writings_are_dropped_past_the_budget():
    held = HeldWritings(budget=100)
    assert held.put("a", "ka", Fake(40)) == [] and held.put("b", "kb", Fake(40)) == []
    held.get("a")  # a wrote again: b is now the least recent
    assert held.put("c", "kc", Fake(40)) == ["b"]
    assert held.get("b") is None and held.get("a")[0] == "ka" and len(held) == 2 and held.nbytes() == 80


def test_the_asking_session_is_kept_even_when_larger_than_the_budget():
    held = HeldWritings(budget=100)
    held.put("a", "ka", Fake(30))
    assert held.put("b", "kb", Fake(500)) == ["a"]
    assert held.get("b") is not None and len(held) == 1


def test_a_writing_that_grew_is_counted_at_its_new_size():
    held = HeldWritings(budget=100)
    grows = Fake(10)
    held.put("a", "ka", grows)
    held.put("b", "kb", Fake(50))
    grows.size = 60  # a wrote more words
    assert held.put("a", "ka", grows) == ["b"]


def test_ended_sessions_are_dropped_first_whatever_the_budget():
    ended: set[str] = set()
    held = HeldWritings(budget=10**9, alive=lambda s: s not in ended)
    held.put("gone", "k", Fake(1))
    held.put("here", "k", Fake(1))
    ended.add("gone")  # its tab was closed
    assert held.put("me", "k", Fake(1)) == ["gone"] and len(held) == 2
