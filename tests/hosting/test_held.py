"""Every session's Writing within one byte budget (attention/ui/hosting/held.py): the least recently used OTHER
sessions' are emptied, never the asking one's nor one a run is reading; a session that ends takes its
slot with it. Threads are synchronised by events; the one timeout below bounds a wait that must NOT end
early, it measures nothing."""

from __future__ import annotations

import gc
import threading

from attention.ui.hosting.held import Held, Slot

BOUND_S = 60  # a safety bound against a hang


class Fake:
    def __init__(self, size: int) -> None:
        self.size = size

    def nbytes(self) -> int:
        return self.size


def test_the_least_recently_used_others_are_emptied_past_the_budget() -> None:
    held, a, b, c = Held(100), Slot(), Slot(), Slot()
    held.keep(a, "ka", Fake(40))
    held.keep(b, "kb", Fake(40))
    held.used(a)  # a wrote again: b is now the least recent
    held.keep(c, "kc", Fake(40))
    assert b.value is None and b.emptied == 1
    assert a.value is not None and c.value is not None and held.nbytes() == 80 and len(held) == 2


def test_the_asking_session_is_kept_even_when_larger_than_the_budget() -> None:
    held, a, b = Held(100), Slot(), Slot()
    held.keep(a, "ka", Fake(30))
    held.keep(b, "kb", Fake(500))
    assert a.value is None and b.value is not None


def test_a_writing_that_grew_is_counted_again_when_used() -> None:
    held, a, b = Held(100), Slot(), Slot()
    grows = Fake(10)
    held.keep(a, "ka", grows)
    held.keep(b, "kb", Fake(50))
    grows.size = 60  # a wrote more words
    held.used(a)
    assert b.value is None and a.value is grows


def test_a_slot_a_run_is_reading_is_passed_over() -> None:
    held, busy, idle, me = Held(100), Slot(), Slot(), Slot()
    held.keep(busy, "k", Fake(60))
    held.keep(idle, "k", Fake(30))
    reading, done = threading.Event(), threading.Event()

    def run() -> None:
        with busy.lock:  # another session's page run reads its Writing
            reading.set()
            done.wait(BOUND_S)

    th = threading.Thread(target=run, daemon=True)
    th.start()
    reading.wait(BOUND_S)
    held.keep(me, "k", Fake(50))  # over by 40: busy is least recent but in use, so idle goes
    assert busy.value is not None and idle.value is None
    done.set()
    th.join(BOUND_S)
    assert held.empty_idle() == 2 and busy.value is None and me.value is None  # over memory: every idle one goes


def test_an_ended_session_takes_its_slot_with_it() -> None:
    held, a = Held(0), Slot()
    held.keep(a, "k", Fake(10))
    assert len(held) == 1
    del a
    gc.collect()
    assert len(held) == 0 and held.nbytes() == 0
