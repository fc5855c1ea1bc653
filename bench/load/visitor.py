"""One visitor of the load benchmark (bench/load/): its scenario in a real page and the checks that its result is its own."""

from __future__ import annotations

import asyncio
import contextlib
import os
import time

from bench.load.replicas import PAGE_VISITS, page_url, visit
from bench.load.write import write_words
from harness.app_server import wait_idle_async
from harness.head_geometry import point_in
from harness.page_timing import (
    HEAD_VIEW_DRAWN,
    HEAD_VIEW_TOKENS,
    RESET_T0,
    TEXT_SHOWN,
    TIMING_INIT_SCRIPT,
    detail_needle,
    elapsed_ms,
)
from harness.sentences import tokens_of

STEP_TIMEOUT_MS = 300_000  # one step of one session (20 sessions share 2 CPU cores)
HEAD_VIEW_READY = '[data-matrix="A"][data-view]'


async def wait_idle(page, timeout_ms: int = STEP_TIMEOUT_MS) -> None:
    """harness/app_server.wait_idle_async, waiting as long as one step of one session may take."""
    await wait_idle_async(page, timeout_ms)


class Session:
    """One visitor: opens Explore, submits its own sentence, clicks one row of A, and checks that what it
    sees is its own (then, with pages, opens every other page from a link). Failures are collected."""

    def __init__(self, index: int, text: str, marker: str, all_markers: set[str], run_dir: str) -> None:
        self.index, self.text, self.marker, self.run_dir = index, text, marker, run_dir
        self.others = all_markers - {marker}
        self.tokens = tokens_of(text)
        self.row = 1 + index % (len(self.tokens) - 2)  # a word of the sentence, not [CLS] / [SEP]
        if self.row == 1 and len(self.tokens) > 3:
            self.row = 3  # row 1 may already be selected by the page's default
        self.open_s = self.submit_ms = self.click_ms = None
        self.write_ms: list[float] = []
        self.prompt = text  # the Write page's prompt (bench.load.write.long_prompt with --prompt-tokens)
        self.written: list[int] = []  # the token ids its link held after writing
        self.wanted_words = 0  # Next word: click -> page idle, one per word (with --write)
        self.route = ""  # nginx's attn_route cookie: which replica serves it (harness/deploy.py)
        self.errors: list[str] = []

    async def run(self, browser, url: str, barriers: dict[str, asyncio.Barrier], on_meet, pages: bool,
                  words: int = 0, wave: asyncio.Semaphore | None = None) -> None:
        met: set[str] = set()
        self.wanted_words = words
        cancelled = False

        async def meet(name: str) -> None:
            """Everyone submits, then clicks (then opens each page) at the same moment; a failed session
            still shows up. The last to arrive reports the meeting (on_meet: memory after each step)."""
            if name not in met:
                met.add(name)
                if await barriers[name].wait() == barriers[name].parties - 1:
                    on_meet(name)

        context = None
        try:
            context = await browser.new_context(viewport={"width": 1400, "height": 1400})
            await context.add_init_script(TIMING_INIT_SCRIPT)
            page = await context.new_page()
            t0 = time.monotonic()
            await page.goto(url, timeout=STEP_TIMEOUT_MS)
            await wait_idle(page)
            await page.wait_for_selector(HEAD_VIEW_READY, timeout=STEP_TIMEOUT_MS)
            await wait_idle(page)
            self.open_s = time.monotonic() - t0
            self.route = next((c["value"] for c in await context.cookies() if c["name"] == "attn_route"), "")
            await meet("opened")

            box = page.get_by_label("Sentence")
            await box.fill(self.text)
            await page.evaluate(RESET_T0)
            await box.press("Control+Enter")
            handle = await page.wait_for_function(HEAD_VIEW_DRAWN, arg=self.marker, polling="raf",
                                                  timeout=STEP_TIMEOUT_MS)
            self.submit_ms = elapsed_ms(await handle.json_value())
            await wait_idle(page)
            self.check_ticks(await page.evaluate(HEAD_VIEW_TOKENS))
            await meet("submitted")

            a = page.locator('[data-matrix="A"]').first
            x, y = point_in(await a.get_attribute("data-plot"), await a.get_attribute("data-view"),
                            await a.locator(".hv-stage").bounding_box(), self.row, -1)
            await page.evaluate(RESET_T0)
            await page.mouse.click(x, y)
            handle = await page.wait_for_function(TEXT_SHOWN, arg=detail_needle(self.tokens, self.row),
                                                  polling="raf", timeout=STEP_TIMEOUT_MS)
            self.click_ms = elapsed_ms(await handle.json_value())
            await wait_idle(page)
            self.check_ticks(await page.evaluate(HEAD_VIEW_TOKENS))  # still its own sentence after the click
            if pages:
                await meet("explore")
                for name, extra in PAGE_VISITS:
                    await visit(page, page_url(url, name, self.text, extra), wait_idle, STEP_TIMEOUT_MS)
                    await meet(name)
            if words:
                async with wave or contextlib.nullcontext():
                    self.write_ms = await write_words(page, url, self.prompt, self.marker, words, wait_idle,
                                                      STEP_TIMEOUT_MS, self.written)
                await meet("written")
        except asyncio.CancelledError:
            cancelled = True
            raise
        except Exception as exc:  # noqa: BLE001 - every failure is reported per session
            self.errors.append(f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}")
            await self.keep_evidence(context)
        finally:
            if not cancelled:
                await meet("opened")
                await meet("submitted")
                if words:
                    await meet("written")
                if context is not None:
                    await context.close()

    async def keep_evidence(self, context) -> None:
        """A failed session leaves a screenshot and what its detail panel said in bench/results/."""
        if context is None or not context.pages:
            return
        page = context.pages[0]
        try:
            await page.screenshot(path=os.path.join(self.run_dir, f"session_{self.index}_failed.png"), timeout=30_000)
            said = await asyncio.wait_for(page.evaluate(
                "() => Array.from(document.querySelectorAll('[data-testid=\"stMarkdownContainer\"]'),"
                " (e) => e.textContent).filter((t) => t.includes('Query word'))"), 30)  # a hung page must not hang the run
            self.errors.append(f"detail panel said {said}; wanted {detail_needle(self.tokens, self.row)!r}")
        except Exception as exc:  # noqa: BLE001 - evidence is best effort
            self.errors.append(f"(no screenshot: {type(exc).__name__})")

    def check_ticks(self, got: list[str] | None) -> None:
        if got is None:
            self.errors.append("no head view")
            return
        foreign = sorted(self.others & set(got))
        if foreign:
            self.errors.append(f"MIXED: another session's word(s) {foreign} in its head view")
        if self.marker not in got:
            self.errors.append(f"WRONG: its marker {self.marker!r} is missing from its head view")
        if got != self.tokens:
            self.errors.append(f"WRONG: head view words {got} != its tokens {self.tokens}")

    @property
    def ok(self) -> bool:
        return not self.errors and self.submit_ms is not None and self.click_ms is not None and (
            self.wanted_words == len(self.write_ms))
