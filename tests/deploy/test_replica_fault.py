"""Two replicas behind nginx (deploy/local.sh), real Chromium sessions, one replica killed.

Each session submits its own sentence (a marker word no other session has) and must see exactly
its own words. Then one replica is killed by its process id (SIGKILL, as a crash): the sessions of
the other replica keep working, the killed one's work again after a reload (their URL restores
their sentence), new sessions keep succeeding, and nginx never answers with its own error page.
Writers too (#43 item 4): sessions that wrote two words on the Write page when a replica is killed carry on
without a reload: their page reconnects to the other replica, which reads the text again from the link (the
prompt and the written ids), shows the same words and no error, and the next word is transformers' own greedy
continuation. The seconds from the kill to that next word drawn are in the timeline, with each such writer's
trail (tests/deploy/fault_writer.py: what its page and the replicas saw of its press).
Loopback only; everything is stopped by process id. The timeline is printed (pytest -s) and kept
in the test's folder as timeline.json.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import threading
import time
import urllib.error
import urllib.request

import pytest

from harness.app_server import CHROMIUM, CHROMIUM_ARGS, run_in_own_loop
from harness.deploy import ROOT, Deployment, alive, local_deployment
from harness.greedy import greedy_ids
from harness.page_timing import HEAD_VIEW_DRAWN, HEAD_VIEW_TOKENS, RESET_T0, TIMING_INIT_SCRIPT
from harness.sentences import tokens_of, unique_sentences
from tests.deploy.fault_writer import ARM, STEP_MS, Writer, trails

SESSIONS = 6  # enough for both replicas to serve some (more are added until they do)
WRITERS = 4
WRITTEN_BEFORE = 2  # words each writer writes before the kill; one more after it
NEW_AFTER_KILL = 3
PAIRS = unique_sentences(2 * SESSIONS + NEW_AFTER_KILL + 10 + 2 * WRITERS + 8, seed=16)
MARKERS = {m for _, m in PAIRS}
# The head view shows `marker` among its words (no timing needed, unlike HEAD_VIEW_DRAWN).
SHOWS = "(m) => { const t = (" + HEAD_VIEW_TOKENS + ")(); return !!t && t.includes(m); }"


class Poller(threading.Thread):
    """GET / through nginx every 0.2 s with no cookie (a new visitor each time): every status seen."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url, self.statuses = url, []
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                with urllib.request.urlopen(self.url, timeout=10) as r:
                    status = r.status
            except urllib.error.HTTPError as exc:
                status = exc.code
            except OSError as exc:
                status = f"no answer: {exc}"
            self.statuses.append((time.monotonic(), status))
            self.stop.wait(0.2)


class Session:
    def __init__(self, index: int, pair: tuple[str, str], second: tuple[str, str]) -> None:
        self.index, (self.text, self.marker), (self.text2, self.marker2) = index, pair, second
        self.context = self.page = None
        self.route = ""

    async def open(self, browser, url: str) -> None:
        self.context = await browser.new_context(viewport={"width": 1400, "height": 1400})
        await self.context.add_init_script(TIMING_INIT_SCRIPT)
        self.page = await self.context.new_page()
        await self.page.goto(url, timeout=STEP_MS)
        await self.page.locator('[data-matrix="A"][data-view]').first.wait_for(timeout=STEP_MS)
        self.route = next(c["value"] for c in await self.context.cookies() if c["name"] == "attn_route")

    async def submit(self, text: str, marker: str) -> None:
        """Type the sentence, submit, and check the head view shows its words and nobody else's."""
        box = self.page.get_by_label("Sentence")
        await box.fill(text)
        await self.page.evaluate(RESET_T0)
        await box.press("Control+Enter")
        await self.page.wait_for_function(HEAD_VIEW_DRAWN, arg=marker, polling=200, timeout=STEP_MS)
        await self.check(text, marker)

    async def check(self, text: str, marker: str) -> None:
        got = await self.page.evaluate(HEAD_VIEW_TOKENS)
        foreign = sorted((MARKERS - {marker}) & set(got or []))
        assert not foreign, f"session {self.index}: MIXED, another session's words {foreign}"
        assert got == tokens_of(text), f"session {self.index}: {got} != the tokens of {text!r}"

    async def reload(self) -> None:
        """Reload (a person pressing F5): the URL must bring its sentence back."""
        await self.page.reload(timeout=STEP_MS)
        await self.page.wait_for_function(SHOWS, arg=self.marker, polling=200, timeout=STEP_MS)
        await self.check(self.text, self.marker)


async def fresh_session(browser, url: str, pair: tuple[str, str]) -> float:
    """A new visitor opens the app and gets its own sentence drawn; returns when it did."""
    s = Session(-1, pair, pair)
    try:
        await s.open(browser, url)
        await s.submit(s.text, s.marker)
        return time.monotonic()
    finally:
        await s.context.close()


async def scenario(dep: Deployment, timeline: dict, cut_off: list[Writer]) -> None:
    from playwright.async_api import async_playwright

    t0 = time.monotonic()
    mark = lambda: round(time.monotonic() - t0, 1)  # noqa: E731 - seconds since the sessions started
    sessions = [Session(i, PAIRS[i], PAIRS[SESSIONS + i]) for i in range(SESSIONS)]
    spare = iter(PAIRS[2 * SESSIONS:])
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            await asyncio.gather(*(s.open(browser, dep.url) for s in sessions))
            timeline["opened_s"] = mark()
            await asyncio.gather(*(s.submit(s.text, s.marker) for s in sessions))
            timeline["all_own_results_s"] = mark()

            served = dep.routes()
            on = {r.addr: [s for s in sessions if served.get(s.route) == r.addr] for r in dep.replicas}
            for _ in range(10):  # ten random routes may all hash to one replica: add sessions until both serve
                if all(on.values()):
                    break
                extra = Session(len(sessions), next(spare), next(spare))
                await extra.open(browser, dep.url)
                await extra.submit(extra.text, extra.marker)
                sessions.append(extra)
                served = dep.routes()
                on = {r.addr: [s for s in sessions if served.get(s.route) == r.addr] for r in dep.replicas}
            assert all(on.values()), f"sessions per replica: { {a: len(v) for a, v in on.items()} }"
            victim, survivor = dep.replicas
            timeline["sessions_per_replica"] = {a: len(v) for a, v in on.items()}

            writers = [Writer(i, next(spare)) for i in range(WRITERS)]
            await asyncio.gather(*(w.open_and_write(browser, dep.url, WRITTEN_BEFORE) for w in writers))
            served = dep.routes()
            for _ in range(8):  # a writer on the replica that will die: add writers until one is
                if any(served.get(w.route) == victim.addr for w in writers):
                    break
                writers.append(Writer(len(writers), next(spare)))
                await writers[-1].open_and_write(browser, dep.url, WRITTEN_BEFORE)
                served = dep.routes()
            cut_off += [w for w in writers if served.get(w.route) == victim.addr]
            assert cut_off, "no writer on the replica to be killed"
            timeline["writers_on_killed_replica"] = len(cut_off)
            timeline["writer_texts"] = {w.index: w.ids for w in cut_off}

            poller = Poller(dep.url + "/")
            poller.start()
            await asyncio.gather(*(w.page.evaluate(ARM) for w in cut_off))
            await asyncio.sleep(1)
            os.kill(victim.pid, signal.SIGKILL)
            t_kill = time.monotonic()
            timeline["killed"] = {"replica": victim.addr, "pid": victim.pid, "at_s": mark(), "wall": time.time()}

            # A new visitor right away, while the survivor's sessions carry on with a new sentence and the
            # killed replica's writers carry on writing, without a reload.
            new_first, *rest = await asyncio.gather(
                fresh_session(browser, dep.url, next(spare)),
                *(w.carry_on(WRITTEN_BEFORE) for w in cut_off),
                *(s.submit(s.text2, s.marker2) for s in on[survivor.addr]))
            timeline["kill_to_first_new_session_s"] = round(new_first - t_kill, 1)
            timeline["kill_to_writers_next_word_s"] = [round(t - t_kill, 1) for t in rest[: len(cut_off)]]
            for w in cut_off:  # the words written on both replicas are transformers' own greedy continuation
                assert w.ids == await asyncio.to_thread(greedy_ids, w.prompt, WRITTEN_BEFORE + 1), f"writer {w.index}"
            moved = {dep.routes().get(w.route) for w in cut_off}
            assert moved == {survivor.addr}, f"the writers' next word was served by {moved}"
            timeline["survivor_sessions_kept_working_s"] = mark()

            # The killed replica's people press reload: their sentence comes back, then a new one works.
            await asyncio.gather(*(s.reload() for s in on[victim.addr]))
            timeline["victim_sessions_restored_by_reload_s"] = mark()
            await asyncio.gather(*(s.submit(s.text2, s.marker2) for s in on[victim.addr]))
            timeline["victim_sessions_new_sentence_s"] = mark()
            served = dep.routes()
            moved = {served.get(s.route) for s in on[victim.addr]}
            assert moved == {survivor.addr}, f"after the reload they were served by {moved}"

            # and new visitors keep getting in, arriving together as the first ones did
            await asyncio.gather(*(fresh_session(browser, dep.url, pair)
                                   for pair in [next(spare) for _ in range(NEW_AFTER_KILL - 1)]))
            timeline["new_sessions_after_kill"] = NEW_AFTER_KILL
            timeline["done_s"] = mark()

            poller.stop.set()
            poller.join(timeout=15)
            bad = [(round(t - t_kill, 2), st) for t, st in poller.statuses if st != 200]
            after = [t - t_kill for t, st in poller.statuses if st == 200 and t > t_kill]
            timeline["poller"] = {"requests": len(poller.statuses), "not_200": bad,
                                  "first_page_served_after_kill_s": round(after[0], 2) if after else None}
            assert len(poller.statuses) > 10 and not bad, f"nginx answered with errors: {bad}"
        finally:
            await browser.close()


@pytest.mark.timeout(1200)
def test_a_replica_dies_and_the_service_goes_on(tmp_path) -> None:
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"Chromium not found at {CHROMIUM}: install Debian's chromium package (see .ci/run)")
    timeline: dict = {}
    cut_off: list[Writer] = []
    clock = tmp_path / "press_clock.jsonl"
    # every replica records its presses' stages (harness/press_clock_site): a lost press shows where it stopped
    clocked = {"ATTENTION_PRESS_CLOCK": str(clock), "ATTENTION_PRESS_CLOCK_SENT": "0",
               "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT / "harness" / "press_clock_site"),
                                                         os.environ.get("PYTHONPATH", "")) if p)}
    with local_deployment(2, tmp_path, extra_env=clocked) as dep:
        try:
            run_in_own_loop(scenario(dep, timeline, cut_off))
            errors = dep.error_statuses()
            assert not errors, f"nginx answered with its error page: {errors[:5]}"
        finally:
            if "killed" in timeline:
                timeline["writer_trails"] = trails(cut_off, clock, timeline["killed"]["wall"])
            timeline["nginx_error_pages"] = len(dep.error_statuses())
            (tmp_path / "timeline.json").write_text(json.dumps(timeline, indent=2))
            print("\nfault timeline:", json.dumps(timeline, indent=2))
        pids = [r.pid for r in dep.replicas] + [dep.nginx_pid]
    assert not any(alive(pid) for pid in pids), "deploy/local.sh left a process running"
