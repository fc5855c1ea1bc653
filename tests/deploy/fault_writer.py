"""A visitor writing on the Write page when its replica is killed (tests/deploy/test_replica_fault.py): it
carries on without a reload, and its trail says what its page and the replicas saw of its press after the kill
(issue #55: a press after the kill was lost once in six full runs). The trail: its page's connection and
script states, the WebSocket frames it sent and got, and its sessions' events in the replicas' press clock
(harness/press_clock.py, put there by harness/press_clock_site)."""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlparse

from harness.app_server import wait_idle_async
from harness.press_clock import HEAD as PROMPT_HEAD

STEP_MS = 240_000  # one step of one session: ten sessions and two replicas share two busy cores
# A writer's page notes its connection once armed (just before the kill): lost, then back, then a run of its new
# session started and ended. Armed, not from the page's load: the first connection looks like a reconnect, and a
# watch that counted it let a writer press in the half second before its page noticed the dead socket; the press
# went into the closed socket and was lost (issue #55; the trail of that run showed the press sent before the page
# left CONNECTED). Pressing before the new session's first run ended sent the press to a session that did not yet
# hold the writing fragment.
CONNECTION_WATCH = """
window.__conn = {armed: false, lost: false, back: false, ran: false, done: false, log: []};
(function watch() {
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app) { setTimeout(watch, 50); return; }
  new MutationObserver(() => {
    const c = app.getAttribute('data-test-connection-state'), s = app.getAttribute('data-test-script-state');
    const w = window.__conn;
    w.log.push([Date.now() / 1000, c, s]);
    if (!w.armed) return;
    if (c !== 'CONNECTED') { w.lost = true; w.back = w.ran = w.done = false; return; }
    if (!w.lost) return;
    w.back = true;
    if (s === 'running') w.ran = true; else if (w.ran && s === 'notRunning') w.done = true;
  }).observe(app, {attributes: true});
})();
"""
ARM = "() => { window.__conn.armed = true; }"
RECONNECTED = "() => !!window.__conn && window.__conn.done"
# The link holds at least n written ids: the run the press started has drawn its word.
IDS_AT_LEAST = "(n) => (new URLSearchParams(location.search).get('ids') || '').split(',').filter(Boolean).length >= n"


class Writer:
    """A visitor on the Write page with its own prompt."""

    def __init__(self, index: int, pair: tuple[str, str]) -> None:
        self.index, (self.prompt, self.marker) = index, pair
        self.context = self.page = None
        self.route, self.ids = "", []
        self.frames: list[tuple[float, str, int]] = []  # (time.time(), sent | got | open | close, bytes)
        self.pressed_at = self.clicked_at = 0.0  # time.time() when the last click on "Next word" began, ended
        self.states: list = []  # (time, connection state, script state) as the page's stApp changed them

    def watch_socket(self, ws) -> None:
        """Every WebSocket frame the page sends or gets, by time and size (the trail of a lost press)."""
        if "_stcore/stream" not in ws.url:
            return
        self.frames.append((time.time(), "open", 0))
        ws.on("framesent", lambda f: self.frames.append((time.time(), "sent", len(f))))
        ws.on("framereceived", lambda f: self.frames.append((time.time(), "got", len(f))))
        ws.on("close", lambda _: self.frames.append((time.time(), "close", 0)))

    async def open_and_write(self, browser, url: str, words: int) -> None:
        self.context = await browser.new_context(viewport={"width": 1400, "height": 1400})
        await self.context.add_init_script(CONNECTION_WATCH)
        self.page = await self.context.new_page()
        self.page.on("websocket", self.watch_socket)
        await self.page.goto(f"{url}/write?{urlencode({'prompt': self.prompt})}", timeout=STEP_MS)
        await wait_idle_async(self.page, STEP_MS)
        for _ in range(words):
            await self.next_word()
        self.route = next(c["value"] for c in await self.context.cookies() if c["name"] == "attn_route")

    def link_ids(self) -> list[int]:
        return [int(i) for i in parse_qs(urlparse(self.page.url).query).get("ids", [""])[0].split(",") if i]

    async def next_word(self) -> None:
        """Press, then wait for the run the press started to draw its word (not for a page that looks idle: it
        looks idle before that run has begun), then for the page to settle."""
        before = len(self.link_ids())
        self.pressed_at = time.time()
        await self.page.get_by_role("button", name="Next word").click(timeout=STEP_MS)
        self.clicked_at = time.time()
        await self.page.wait_for_function(IDS_AT_LEAST, arg=before + 1, polling=200, timeout=STEP_MS)
        await wait_idle_async(self.page, STEP_MS)
        await self.no_error()
        self.ids = self.link_ids()

    async def no_error(self) -> None:
        errors = self.page.locator('[data-testid="stException"], [data-testid="stAlertContentError"]')
        assert not await errors.count(), f"writer {self.index}: an error on the page: {await errors.all_inner_texts()}"

    async def carry_on(self, words_before: int) -> float:
        """After its replica died, without a reload: the same words back from the link, then one more."""
        try:
            # reconnected to the survivor and the new session's first run done (it holds the writing fragment now)
            await self.page.wait_for_function(RECONNECTED, polling=100, timeout=STEP_MS)
            await wait_idle_async(self.page, STEP_MS)
            await self.no_error()
            prompt = await self.page.get_by_label("Prompt").input_value()
            assert self.marker in prompt, f"writer {self.index}: not its prompt"
            assert self.link_ids() == self.ids and len(self.ids) == words_before, f"writer {self.index}: {self.link_ids()}"
            await self.next_word()
            assert len(self.ids) == words_before + 1
            return time.monotonic()
        finally:  # the page's connection and script states, for the trail (never hiding the test's own error)
            with contextlib.suppress(Exception):
                self.states = await self.page.evaluate("() => window.__conn.log")


def trails(writers: list[Writer], clock: Path, killed_at: float) -> dict[int, dict]:
    """Each cut-off writer's press after the kill, as its page and the replicas saw it (seconds after the
    kill): the frames its page sent (a press is one), the frames it got, and its sessions' clock events."""
    lines = [json.loads(line) for line in clock.read_text().splitlines()] if clock.exists() else []
    out = {}
    for w in writers:
        ours = {e["s"] for e in lines if e.get("prompt") == w.prompt[:PROMPT_HEAD]}
        out[w.index] = {
            "press_s": [round(w.pressed_at - killed_at, 2), round(w.clicked_at - killed_at, 2)],
            "page_states": [[round(t - killed_at, 2), c, st] for t, c, st in w.states if t > killed_at - 1],
            "page_sent_s": [round(t - killed_at, 2) for t, kind, _ in w.frames if kind == "sent" and t > killed_at],
            "page_socket_s": [(round(t - killed_at, 2), kind) for t, kind, _ in w.frames
                              if kind in ("open", "close") and t > killed_at - 1],
            "page_got_frames": sum(kind == "got" and t > killed_at for t, kind, _ in w.frames),
            "server": [[round(e["t"] - killed_at, 2), e["e"]] + [e[k] for k in ("frags", "frag", "held", "triggers")
                                                                 if e.get(k) not in (None, [], "")]
                       for e in lines if e["s"] in ours and e["t"] > killed_at - 1],
        }
    return out
