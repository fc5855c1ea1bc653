"""Start the real app with `streamlit run` on a free local port and drive it in Debian's Chromium."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app.py"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass(frozen=True)
class Server:
    url: str
    pid: int  # the benchmarks read its memory from /proc


@contextlib.contextmanager
def streamlit_process(app: Path = APP, extra_env: dict[str, str] | None = None, start_timeout: float = 120,
                      log_path: str | None = None, preimport: tuple[str, ...] = ()) -> Iterator[Server]:
    """Yield the URL and process id of a freshly started app; stop it (and only it) afterwards.
    `log_path`: write the server's output (tracebacks included) there instead of dropping it.
    `preimport`: modules the server process imports before Streamlit starts (to try out a fix)."""
    port = free_port()
    env = {**os.environ, "HF_HUB_OFFLINE": "1", **(extra_env or {})}
    if not all(m.replace(".", "").replace("_", "").isalnum() for m in preimport):
        raise ValueError(f"not module names: {preimport}")
    launcher = (["-c", f"import {', '.join(preimport)}; from streamlit.web.cli import main; main()"]
                if preimport else ["-m", "streamlit"])
    cmd = [sys.executable, *launcher, "run", str(app), "--server.headless=true",
           f"--server.port={port}", "--server.address=127.0.0.1", "--browser.gatherUsageStats=false",
           "--server.fileWatcherType=none"]
    log = open(log_path, "w") if log_path else subprocess.DEVNULL  # noqa: SIM115 - closed below
    # Its own session, so stopping it stops the whole process group and nothing else.
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + start_timeout
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"streamlit exited with code {proc.returncode}")
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                    if r.read().decode().strip() == "ok":
                        break
            except OSError:
                time.sleep(0.3)
        else:
            raise RuntimeError(f"the app did not answer /_stcore/health within {start_timeout:.0f} s")
        yield Server(url, proc.pid)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=15)
        if log_path:
            log.close()


@contextlib.contextmanager
def streamlit_server(extra_env: dict[str, str] | None = None) -> Iterator[str]:
    """Yield the base URL of a freshly started real app (what the e2e tests need of it)."""
    with streamlit_process(extra_env=extra_env) as server:
        yield server.url


def wait_idle(page, timeout_ms: int = 120_000) -> None:
    """Wait as Streamlit's own e2e tests do: connected, and the script not running."""
    page.wait_for_selector('[data-testid="stApp"][data-test-connection-state="CONNECTED"]', timeout=timeout_ms)
    page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]', timeout=timeout_ms)
    page.wait_for_timeout(300)
    page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]', timeout=timeout_ms)


async def wait_idle_async(page, timeout_ms: int = 120_000) -> None:
    """wait_idle for an async Playwright page (the load benchmark's many sessions, the replica-fault test)."""
    await page.wait_for_selector('[data-testid="stApp"][data-test-connection-state="CONNECTED"]', timeout=timeout_ms)
    await page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]', timeout=timeout_ms)
    await page.wait_for_timeout(300)
    await page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]', timeout=timeout_ms)


def run_in_own_loop(coroutine):
    """asyncio.run in a thread of its own, returning its result: in the whole suite, the e2e tests' sync
    Playwright already runs an event loop in the worker's thread, and asyncio.run refuses a second one there."""
    import asyncio
    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()
