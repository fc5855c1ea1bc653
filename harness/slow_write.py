"""Imported before Streamlit starts (harness.app_server.streamlit_process(preimport=...)), only by
tests: while the file named by ATTENTION_TEST_HOLD exists, every read of the language model (a prompt, a
written word) waits for it to go away, so a test can keep one writer's turn busy for exactly as long as it
needs, with no sleeps. Each held read adds a line to <that file>.held first. As harness/slow_trace.py, this
wraps the method from outside: production code has no such hook."""

from __future__ import annotations

import os
import time

from attention.lm import writer

HOLD = os.environ.get("ATTENTION_TEST_HOLD", "")
BOUND_S = 300  # never hold a read forever, whatever the test does
_read = writer.Writing._read


def held_read(self, ids):
    if HOLD and os.path.exists(HOLD):
        with open(HOLD + ".held", "a") as f:
            f.write("held\n")
        deadline = time.monotonic() + BOUND_S
        while os.path.exists(HOLD) and time.monotonic() < deadline:
            time.sleep(0.05)
    return _read(self, ids)


writer.Writing._read = held_read
