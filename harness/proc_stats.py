"""What the memory and CPU figures of other processes are read from: /proc/<pid>/status and /proc/<pid>/stat
(the app servers a benchmark starts, and the browsers driving them)."""

from __future__ import annotations

import os
import threading
from typing import Self


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


def children_cpu_s(exclude_pid: int) -> float:
    """CPU seconds used so far by this script's live descendants (Chromium and its renderers), except the app
    server's: read before and after a stretch of work, the difference is what the browsers spent on it."""
    sampler = BrowserCpuSampler(exclude_pid)
    sampler._sample()
    return sampler.cpu_s


def mib(kib: int) -> float:
    return kib / 1024
