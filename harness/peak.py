"""Peak RSS (the kernel's VmHWM): the memory figure of a benchmark part run in a fresh process.

A benchmark that measures memory runs the part in a child process of its own, so that what the parent
loaded and freed before does not count:

    res = in_fresh_process("bench.head_atlas", ["--texts", "200"])   # in the parent
    report({"seconds": 12.3})                                        # the child's last word

The child is the same module run with `--child` first (`is_child` tells `main`); `report` prints its figures as one line with
`peak_mib` (its own VmHWM at that moment) added, and `in_fresh_process` passes the child's other output
through and returns that line's figures. Only the standard library is imported here, so reading the peak
adds nothing to what it measures.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHILD = "--child"  # the child's first argument: what `main` checks before anything else
RESULT = "peak-report: "  # the line the child's figures are on


def peak_mib() -> float:
    """VmHWM of this process in MiB (NaN where /proc does not say)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def is_child(argv: list[str] | None) -> tuple[bool, list[str]]:
    """(whether this run is the fresh child, its arguments without --child): what `main(argv)` checks first."""
    argv = sys.argv[1:] if argv is None else list(argv)
    return (True, argv[1:]) if argv[:1] == [CHILD] else (False, argv)


def report(result: dict) -> None:
    """In the child: print `result` with this process's peak (`peak_mib`, unless set) as the report line."""
    print(RESULT + json.dumps({"peak_mib": round(peak_mib(), 1), **result}), flush=True)


def in_fresh_process(module: str, args: list[str], env: dict[str, str] | None = None,
                     timeout: float | None = None) -> dict:
    """Run `python -m module --child *args` from the repository's root (on the path, offline Hugging Face),
    print what it prints but its report, and return the report; {"error": its last line of stderr} if it
    failed or reported nothing.

    Args:
        module: the benchmark's module, e.g. "bench.long_context".
        args: the child's own arguments after --child.
        env: extra environment for the child.
        timeout: seconds before the child is killed (subprocess.TimeoutExpired is raised).

    Returns:
        The child's figures, with `peak_mib` (its VmHWM in MiB when it reported).
    """
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    child_env = {**os.environ, "PYTHONPATH": path, "HF_HUB_OFFLINE": "1", **(env or {})}
    done = subprocess.run([sys.executable, "-m", module, CHILD, *args], cwd=ROOT, env=child_env,
                          capture_output=True, text=True, timeout=timeout)
    found = None
    for line in done.stdout.splitlines():
        if line.startswith(RESULT):
            found = json.loads(line[len(RESULT):])
        else:
            print(line, flush=True)
    if done.returncode != 0 or found is None:
        return {"error": (done.stderr.strip().splitlines() or [f"exit {done.returncode}, no report"])[-1]}
    return found
