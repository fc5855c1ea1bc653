"""What each pupil's page does in the class bench (bench/class_browsers.py): opened on Write with its own
prompt, a press of "Next word", and what the page itself records of it in its own clock (Date.now(), the
same clock as time.time() here): the click as it received it, when the link gained the word, when a notice
that the press waits, is being written or was refused was first shown, when the server's messages arrived,
and how late its own 100 ms watch ran (its renderer busy)."""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlencode, urlparse

OPEN_MS = 600_000
WAITING_KEYS = ("queue.ahead_one", "queue.ahead", "queue.memory", "write.press_waiting", "write.press_waiting_one",
                "write.press_writing", "write.press_writing_one")
REFUSED_KEYS = ("write.press_failed",)
# In the page: what happened after the press, in the page's clock (Date.now(): the same clock as time.time()).
WATCH = """
window.__press = null;
document.addEventListener('click', (e) => {  // the press itself, in the page's clock (the bench sends 30 clicks)
  const p = window.__press;
  if (p && !p.t && e.target.closest('button')) p.t = Date.now();
}, true);
(() => {  // when the server's messages reach the page (the bench's stages: sent -> arrived -> seen)
  const Native = window.WebSocket;
  window.WebSocket = function (...args) {
    const ws = new Native(...args);
    ws.addEventListener('message', () => {
      const p = window.__press;
      if (p && p.t && (p.msgs = p.msgs || []).length < 2000) p.msgs.push(Date.now());
    });
    return ws;
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
})();
let lastTick = 0;
setInterval(() => {
  const p = window.__press;
  if (!p) return;
  const now = Date.now();
  if (lastTick) p.late = Math.max(p.late || 0, now - lastTick - 100);  // the page's own lag (its renderer busy)
  lastTick = now;
  const ids = (new URLSearchParams(location.search).get('ids') || '').split(',').filter(Boolean).length;
  if (ids >= p.want && !p.word) p.word = now;
  const text = Array.from(document.querySelectorAll('[data-testid="stAlert"]')).map(e => e.innerText).join('\\n');
  if (!p.wait && p.waitRe && new RegExp(p.waitRe).test(text)) p.wait = now;
  if (!p.refused && p.refusedRe && new RegExp(p.refusedRe).test(text)) p.refused = now;
}, 100);
"""


def phrases(keys: tuple[str, ...]) -> str:
    """A regular expression matching any of the keys' texts in either language (the longest piece between
    placeholders)."""
    from attention import i18n

    parts = []
    for key in keys:
        for lang in ("en", "zh"):
            text = i18n.STRINGS[key].get(lang) or i18n.STRINGS[key]["en"]
            text = re.sub(r"\{[^}]*\}", "0", text)  # every placeholder (write.press_failed's {why} too)
            head = max(text.split("0"), key=len).strip()  # its longest literal piece: "Your " alone says little
            parts.append(re.escape(head[:40]))
    return "|".join(sorted(set(parts))) or "(?!)"


@dataclass
class Press:
    t0: float
    word: float | None = None
    wait: float | None = None
    refused: float | None = None
    msgs: list[float] = field(default_factory=list)  # when the server's messages reached the page
    late_s: float = 0.0  # the page's 100 ms watch ran this much late at worst (its renderer busy)

    @property
    def outcome(self) -> str:
        if self.word is not None:
            return "answered"
        return "refused shown" if self.refused else "waiting shown" if self.wait else "silent"

    def first_answer(self) -> float | None:
        seen = [t for t in (self.word, self.wait, self.refused) if t is not None]
        return min(seen) - self.t0 if seen else None


@dataclass
class Pupil:
    index: int
    prompt: str
    marker: str
    page: object = None
    presses: list[Press] = field(default_factory=list)
    ids: list[int] = field(default_factory=list)

    def link_ids(self) -> list[int]:
        return [int(i) for i in parse_qs(urlparse(self.page.url).query).get("ids", [""])[0].split(",") if i]


async def idle(page, timeout_ms: int) -> None:
    await page.wait_for_selector('[data-testid="stApp"][data-test-connection-state="CONNECTED"]', timeout=timeout_ms)
    await page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]', timeout=timeout_ms)


async def open_pupil(browser, url: str, p: Pupil) -> None:
    context = await browser.new_context(viewport={"width": 1280, "height": 1000})
    await context.add_init_script(WATCH)
    p.page = await context.new_page()
    await p.page.goto(f"{url}/write?{urlencode({'prompt': p.prompt})}", timeout=OPEN_MS)
    await idle(p.page, OPEN_MS)
    await p.page.get_by_role("button", name="Next word").wait_for(timeout=OPEN_MS)
    if p.marker not in await p.page.get_by_label("Prompt").input_value():
        raise RuntimeError(f"pupil {p.index}: the prompt is not its own")


async def press(p: Pupil, want: int, wait_re: str, refused_re: str) -> None:
    await p.page.evaluate("([w, a, b]) => { window.__press = {want: w, waitRe: a, refusedRe: b}; }",
                          [want, wait_re, refused_re])
    p.presses.append(Press(time.time()))
    await p.page.get_by_role("button", name="Next word").click(timeout=OPEN_MS)


async def settle(p: Pupil, deadline: float) -> None:
    """Wait for the press's word until the deadline; then read what the page recorded."""
    last = p.presses[-1]
    while time.monotonic() < deadline:
        seen = await p.page.evaluate("() => window.__press")
        if seen and seen.get("word"):
            break
        await asyncio.sleep(0.5)
    seen = await p.page.evaluate("() => window.__press") or {}
    last.word, last.wait, last.refused = ((seen.get(k) or 0) / 1000 or None for k in ("word", "wait", "refused"))
    last.msgs = [m / 1000 for m in seen.get("msgs") or []]
    last.late_s = (seen.get("late") or 0) / 1000
    if seen.get("t"):  # the click as the page received it: the bench's own dispatch of 30 clicks not counted
        last.t0 = seen["t"] / 1000
    if last.word is not None:  # the word came: the page finishes drawing it before the next press
        await idle(p.page, OPEN_MS)
    p.ids = p.link_ids()
