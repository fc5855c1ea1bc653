"""The server process and the browser-side helpers the browser benchmarks share.

Servers come from harness/app_server.py's streamlit_process (the e2e tests' own starter, which
also yields the process id, to read its memory), for any app file: the real app.py or
bench/trivial_app.py. In the page: timing in the page's own clock, waiting for charts, clicking a
row label.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Self

from playwright.sync_api import Browser, Page

from harness.app_server import streamlit_process as app_server  # noqa: F401 - the benchmarks' name
from harness.app_server import wait_idle

TRIVIAL_APP = Path(__file__).resolve().parent / "trivial_app.py"


def proc_status_kib(pid: int, field: str = "VmRSS") -> int:
    """A memory field of /proc/<pid>/status in KiB (VmRSS: now; VmHWM: the kernel's peak RSS)."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"{field} not in /proc/{pid}/status")


class RssSampler:
    """Sample a process's VmRSS every `interval` seconds in a thread; keeps the peak."""

    def __init__(self, pid: int, interval: float = 0.5) -> None:
        self.pid, self.interval = pid, interval
        self.peak_kib = 0
        self.samples = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.peak_kib = max(self.peak_kib, proc_status_kib(self.pid))
                self.samples += 1
            except (OSError, RuntimeError):
                return
            self._stop.wait(self.interval)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(timeout=5)


def proc_cpu_s(pid: int) -> float:
    """CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _children_map() -> dict[int, list[int]]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    return children


class BrowserCpuSampler:
    """CPU seconds used by this script's child processes (Playwright's driver, Chromium and its
    renderers), except the app server's: every descendant is sampled each `interval` s and its last
    reading kept, so processes that end in between (closed pages) still count, nearly in full."""

    def __init__(self, exclude_pid: int, interval: float = 0.5) -> None:
        self.exclude_pid, self.interval = exclude_pid, interval
        self._last: dict[tuple[int, str], float] = {}  # (pid, start time) -> CPU seconds
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _sample(self) -> None:
        children = _children_map()
        todo = [c for c in children.get(os.getpid(), []) if c != self.exclude_pid]
        seen = 0
        while todo and seen < 10_000:  # bounded walk of the process tree
            pid = todo.pop()
            seen += 1
            todo.extend(children.get(pid, []))
            try:
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            self._last[(pid, fields[19])] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def _run(self) -> None:
        while not self._stop.is_set():
            self._sample()
            self._stop.wait(self.interval)

    @property
    def cpu_s(self) -> float:
        return sum(self._last.values())

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(timeout=10)


def mib(kib: int) -> float:
    return kib / 1024


# --- in the page: time from the user's action to the result, in the browser's own clock ------------

# Installed before any page script: the first Enter keydown or mousedown after __benchT0 is reset
# to null stamps it with performance.now(); predicates below return the elapsed milliseconds.
TIMING_INIT_SCRIPT = """
window.__benchT0 = undefined;
const stamp = (e) => {
  if (window.__benchT0 !== null) return;
  if (e.type === 'mousedown' || e.key === 'Enter') window.__benchT0 = performance.now();
};
window.addEventListener('keydown', stamp, true);
window.addEventListener('mousedown', stamp, true);
"""

RESET_T0 = "() => { window.__benchT0 = null; }"


def timed_page(browser: Browser, url: str) -> Page:
    """A fresh page at `url` with the timing script installed, once the app has run its script."""
    context = browser.new_context(viewport={"width": 1400, "height": 1400})
    context.add_init_script(TIMING_INIT_SCRIPT)
    page = context.new_page()
    page.goto(url)
    wait_idle(page)
    return page


APP_ERROR = "APP_ERROR"  # what the predicates return when the page shows an error box instead


class AppErrorOnPage(RuntimeError):
    """The app showed an exception box (details are in the server's output, not in the browser)."""


def elapsed_ms(value) -> float:
    """A predicate's result: the elapsed milliseconds, or AppErrorOnPage if the app showed an error."""
    if value == APP_ERROR:
        raise AppErrorOnPage("the app showed an error box instead of the result")
    return float(value)

# The head view (attention/headview) lives in a component's shadow root: find its host and the view on it.
_FIND_VIEW = """
const findView = () => {
  const walk = (root) => {
    for (const host of root.querySelectorAll('.hv-host')) { const v = host.hvState && host.hvState.view; if (v) return v; }
    for (const el of root.querySelectorAll('*')) { if (el.shadowRoot) { const v = walk(el.shadowRoot); if (v) return v; } }
    return null;
  };
  return walk(document);
};
"""

# The head view is drawn with `marker` among its key words.
HEAD_VIEW_DRAWN = """
(marker) => {
  if (typeof window.__benchT0 !== 'number') return false;
  if (document.querySelector('[data-testid="stException"]')) return 'APP_ERROR';
""" + _FIND_VIEW + """
  const v = findView();
  if (!v || !v.p.key_tokens.includes(marker)) return false;
  return performance.now() - window.__benchT0;
}
"""

# Some markdown block names `needle` (e.g. the detail panel's "Query word: cat (position 3)").
TEXT_SHOWN = """
(needle) => {
  if (typeof window.__benchT0 !== 'number') return false;
  if (document.querySelector('[data-testid="stException"]')) return 'APP_ERROR';
  for (const el of document.querySelectorAll('[data-testid="stMarkdownContainer"]')) {
    if (el.textContent.includes(needle)) return performance.now() - window.__benchT0;
  }
  return false;
}
"""

# The key words the head view shows (None before it is drawn).
HEAD_VIEW_TOKENS = "() => {" + _FIND_VIEW + "const v = findView(); return v ? Array.from(v.p.key_tokens) : null; }"


def detail_needle(tokens: list[str], row: int) -> str:
    """What the detail panel says once the word beside `row` is the query word."""
    return f"Query word: {tokens[row]} (position {row})"


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100) of a non-empty list."""
    s = sorted(values)
    k = max(0, min(len(s) - 1, int(-(-p * len(s) // 100)) - 1))
    return s[k]
