"""The queue in front of the traces (attention/ui/hosting/admission.py): first come first served, each
waiting run told how many are ahead, nested requests never wait behind themselves, a run that
leaves the queue (a rerun) frees its place. Threads are synchronised by events, not by timing."""

from __future__ import annotations

import threading
import time

from attention.ui.hosting.admission import Gate

BOUND_S = 60  # a safety bound against a hang, not a measurement


def wait_until(condition) -> None:
    deadline = time.monotonic() + BOUND_S
    while not condition():
        assert time.monotonic() < deadline, "the gate never got there"
        time.sleep(0.01)


def start(target, *args) -> threading.Thread:
    th = threading.Thread(target=target, args=args, daemon=True)
    th.start()
    return th


def test_turns_are_taken_in_order_and_each_waiting_run_hears_how_many_are_ahead() -> None:
    gate, inside, release = Gate(1), threading.Event(), threading.Event()
    seen: dict[str, list[int]] = {"b": [], "c": []}
    order: list[str] = []

    def first() -> None:
        with gate.turn():
            inside.set()
            release.wait(BOUND_S)
            order.append("a")

    b_holds = threading.Event()

    def later(name: str) -> None:
        with gate.turn(seen[name].append):
            order.append(name)
            if name == "b":
                b_holds.wait(BOUND_S)

    threads = [start(first)]
    inside.wait(BOUND_S)
    threads.append(start(later, "b"))
    wait_until(lambda: seen["b"] == [1])
    threads.append(start(later, "c"))
    wait_until(lambda: seen["c"] == [2])
    assert order == []  # nobody passed the one running turn
    release.set()
    wait_until(lambda: seen["c"] == [2, 1])  # a is done, b runs: c moved up
    assert order == ["a", "b"]
    b_holds.set()
    for th in threads:
        th.join(BOUND_S)
    assert order == ["a", "b", "c"]
    assert seen == {"b": [1], "c": [2, 1]}


def test_a_limit_of_two_runs_two_at_once() -> None:
    gate, both_in, release = Gate(2), threading.Barrier(3), threading.Event()

    def run() -> None:
        with gate.turn(lambda n: None):
            both_in.wait(BOUND_S)
            release.wait(BOUND_S)

    threads = [start(run), start(run)]
    both_in.wait(BOUND_S)  # both inside at the same time, or this would time out
    release.set()
    for th in threads:
        th.join(BOUND_S)


def test_a_turn_inside_a_turn_does_not_wait_behind_itself() -> None:
    gate, done = Gate(1), threading.Event()

    def nested() -> None:
        with gate.turn(), gate.turn(), gate.turn():  # an overview asking for its trace
            pass
        with gate.turn():  # and the thread's next run takes a turn as usual
            done.set()

    start(nested).join(BOUND_S)
    assert done.is_set()


def test_a_run_that_leaves_the_queue_frees_its_place() -> None:
    gate, inside, release = Gate(1), threading.Event(), threading.Event()
    seen: list[int] = []

    def holder() -> None:
        with gate.turn():
            inside.set()
            release.wait(BOUND_S)

    def rerun(ahead: int) -> None:
        raise RuntimeError("rerun")  # what Streamlit raises in a run whose person changed the sentence

    def leaver() -> None:
        try:
            with gate.turn(rerun):
                raise AssertionError("never admitted")
        except RuntimeError:
            pass

    h = start(holder)
    inside.wait(BOUND_S)
    start(leaver).join(BOUND_S)
    c = start(lambda: gate.turn(seen.append).__enter__())
    wait_until(lambda: seen == [1])  # only the holder is ahead: the leaver's place is gone
    release.set()
    h.join(BOUND_S)
    c.join(BOUND_S)


def test_no_limit_never_waits() -> None:
    gate = Gate(0)
    with gate.turn(lambda n: (_ for _ in ()).throw(AssertionError("waited"))), gate.turn():
        pass


def test_a_free_turn_is_taken_only_when_free_and_never_waits() -> None:
    """Work done ahead of a request (the Write page's next word) takes a turn only if one is free now: it is
    refused at once, without waiting, when the turns are taken or someone waits; taken, it holds a turn."""
    gate, inside, release = Gate(1), threading.Event(), threading.Event()
    with gate.free_turn() as admitted:
        assert admitted and gate.ahead(gate._tickets) == 1  # held: a request now would have one ahead
        with gate.turn(lambda n: (_ for _ in ()).throw(AssertionError("waited behind itself"))):
            pass
    assert gate.ahead(gate._tickets) == 0  # given back

    def holder() -> None:
        with gate.turn():
            inside.set()
            release.wait(BOUND_S)

    h = start(holder)
    inside.wait(BOUND_S)
    with gate.free_turn() as admitted:  # all turns taken: refused at once
        assert not admitted
    seen: list[int] = []
    waiter_in, waiter_out = threading.Event(), threading.Event()

    def waiter() -> None:
        with gate.turn(seen.append):
            waiter_in.set()
            waiter_out.wait(BOUND_S)

    w = start(waiter)
    wait_until(lambda: seen == [1])  # waiting behind the holder
    release.set()
    h.join(BOUND_S)
    waiter_in.wait(BOUND_S)
    with gate.free_turn() as admitted:  # the waiter holds the one turn now
        assert not admitted
    waiter_out.set()
    w.join(BOUND_S)
    with gate.free_turn() as admitted:
        assert admitted
    gate._waiting.append(gate._tickets)  # a request waiting (between its ticket and its turn): it goes first
    with gate.free_turn() as admitted:
        assert not admitted
    with Gate(0).free_turn() as admitted:  # no limit: always
        assert admitted


def test_over_the_memory_budget_a_turn_waits_for_the_running_one_and_an_idle_gate_never_refuses() -> None:
    """Issue #55: a replica whose resident size stayed over its budget after a wave refused every writer while
    idle. Over the budget, a turn waits while another runs (its temporaries go when it ends); with nothing
    running, what can be made again is dropped and the turn starts, whatever the figure then reads."""
    relieved: list[int] = []
    gate, inside, release = Gate(2, over=lambda: True), threading.Event(), threading.Event()  # a turn is free
    gate.relievers.append(lambda: relieved.append(1))
    seen: list[int] = []

    def holder() -> None:
        with gate.turn():
            inside.set()
            release.wait(BOUND_S)

    h = start(holder)
    inside.wait(BOUND_S)
    started = threading.Event()
    w = start(lambda: (gate.turn(seen.append).__enter__(), started.set()))
    wait_until(lambda: seen == [1])  # told it waits, one ahead: memory, not the limit, holds it back
    assert not started.is_set() and gate.memory_waits > 0
    release.set()
    h.join(BOUND_S)
    w.join(BOUND_S)
    assert started.is_set(), "an idle gate over its budget refused (or never started) the next turn"
    assert relieved and gate.over_alone == 2  # both started alone over the budget, after the relievers ran
