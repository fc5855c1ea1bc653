"""This process's peak RSS (the kernel's VmHWM): the memory figure every bench run in a fresh process prints.
Nothing else is imported here, so reading it adds nothing to what it measures."""

from __future__ import annotations


def peak_mib() -> float:
    """VmHWM of this process in MiB (NaN where /proc does not say)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")
