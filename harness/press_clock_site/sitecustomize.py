"""Put on a replica's PYTHONPATH with ATTENTION_PRESS_CLOCK set (tests/deploy/test_replica_fault.py), this
records each press's stages (harness/press_clock.py) in the replicas that deploy/local.sh starts, which no
test can start with an import of its own. Only in the replica's own process (`attention.ui.hosting.serve`
on its command line): the other small Pythons the script runs are left as they are."""

import os
import sys
from pathlib import Path

try:
    with open("/proc/self/cmdline", "rb") as f:
        _serving = b"attention.ui.hosting.serve" in f.read()
except OSError:
    _serving = False

if _serving and os.environ.get("ATTENTION_PRESS_CLOCK"):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the project, for `harness`
    import harness.press_clock  # noqa: F401 - installs itself
