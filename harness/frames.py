"""Counting what a page receives over Streamlit's websocket, for the page payload benchmarks.

Only websocket frames are counted: the static front end is cached by the browser after the first
visit, so what a person waits for on each page or click is the frames.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from playwright.sync_api import Browser, BrowserContext, Page, WebSocket, sync_playwright

from harness.app_server import CHROMIUM, CHROMIUM_ARGS, streamlit_server


class FrameCounter:
    """Bytes of every websocket frame received, on whatever sockets the page opens."""

    def __init__(self) -> None:
        self.bytes = 0

    def attach(self, ws: WebSocket) -> None:
        ws.on("framereceived", self._add)

    def _add(self, payload: str | bytes) -> None:
        self.bytes += len(payload) if isinstance(payload, bytes) else len(payload.encode())

    def take(self) -> int:
        """The bytes so far, starting the count again (to measure the next action alone)."""
        n, self.bytes = self.bytes, 0
        return n


def counted_page(browser: Browser) -> tuple[BrowserContext, Page, FrameCounter]:
    """A fresh page whose received frames are counted from its very first request."""
    context = browser.new_context(viewport={"width": 1400, "height": 1400})
    page = context.new_page()
    counter = FrameCounter()
    page.on("websocket", counter.attach)
    return context, page, counter


@contextlib.contextmanager
def app_and_browser() -> Iterator[tuple[str, Browser]]:
    """The real app's URL and a headless Chromium; both stopped afterwards."""
    with streamlit_server() as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield url, browser
        finally:
            browser.close()
