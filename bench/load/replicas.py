"""What the load benchmark (bench/load/) adds for a hosted deployment: the app through nginx on N replicas
(deploy/local.sh via harness/deploy.py), every other page visited by every session with its own
sentence, the memory of each replica after each round of pages, and a replica killed at the end
(the time from the kill to the next new visitor served)."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode

from harness.app_server import streamlit_process as app_server
from harness.deploy import local_deployment
from harness.page_timing import HEAD_VIEW_DRAWN, RESET_T0, TIMING_INIT_SCRIPT
from harness.proc_stats import mib, proc_status_kib

# The pages after Explore, each opened from a link carrying the session's own sentence.
PAGE_VISITS = (("translate", {}), ("learning", {}), ("find_heads", {}), ("overview", {"source": "model"}))
HEAD_VIEW_READY = '[data-matrix="A"][data-view]'


def page_url(base: str, page: str, text: str, extra: dict[str, str]) -> str:
    return f"{base}/{page}?{urlencode({'text': text, **extra})}"


async def visit(page, url: str, wait_idle, timeout_ms: int) -> None:
    """Open a page of the app from its link; it must finish its run without an error box."""
    await page.goto(url, timeout=timeout_ms)
    await wait_idle(page, timeout_ms)
    if await page.locator('[data-testid="stException"]').count():
        raise RuntimeError(f"{url.split('?')[0]} showed an error box")


@contextlib.contextmanager
def servers(through: str, replicas: int, run_dir: str, preimport: tuple[str, ...]) -> Iterator[tuple]:
    """(url, {name: pid} of the app processes, the Deployment or None), started and stopped here."""
    if through == "direct":
        with app_server(log_path=os.path.join(run_dir, "server.log"), preimport=preimport) as app:
            yield app.url, {"server": app.pid}, None
    else:
        with local_deployment(replicas, Path(run_dir) / f"replicas_{replicas}") as dep:
            yield dep.url, {r.addr: r.pid for r in dep.replicas}, dep


def rss_mib(pids: dict[str, int]) -> dict[str, float | None]:
    out: dict[str, float | None] = {}
    for name, pid in pids.items():
        try:
            out[name] = round(mib(proc_status_kib(pid)), 1)
        except (OSError, RuntimeError):
            out[name] = None  # gone (killed)
    return out


async def kill_and_time(browser, url: str, victim_pid: int, pairs: list[tuple[str, str]],
                        wait_idle, timeout_ms: int) -> dict:
    """Kill a replica (SIGKILL, as a crash), then new visitors one after another: each opens the app
    and gets its own sentence drawn. Seconds from the kill to each of them served."""
    os.kill(victim_pid, signal.SIGKILL)
    t_kill = time.monotonic()
    served: list[float] = []
    for text, marker in pairs:
        context = await browser.new_context(viewport={"width": 1400, "height": 1400})
        try:
            await context.add_init_script(TIMING_INIT_SCRIPT)
            page = await context.new_page()
            await page.goto(url, timeout=timeout_ms)
            await page.wait_for_selector(HEAD_VIEW_READY, timeout=timeout_ms)
            await wait_idle(page, timeout_ms)
            box = page.get_by_label("Sentence")
            await box.fill(text)
            await page.evaluate(RESET_T0)
            await box.press("Control+Enter")
            await page.wait_for_function(HEAD_VIEW_DRAWN, arg=marker, polling="raf", timeout=timeout_ms)
            served.append(round(time.monotonic() - t_kill, 2))
        finally:
            await context.close()
    return {"killed_pid": victim_pid, "kill_to_new_sessions_s": served}
