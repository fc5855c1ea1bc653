"""Imported before Streamlit starts (harness.app_server.streamlit_process(preimport=...)), only by
tests: while the file named by ATTENTION_TEST_HOLD exists, every trace waits for it to go away, so
a test can keep a trace "slow" for exactly as long as it needs, with no sleeps. Each held trace
adds a line to <that file>.held first, so the test knows it is being held. Production code has no
such hook: this wraps the module function from outside."""

from __future__ import annotations

import os
import time

from attention.capture import hf_model

HOLD = os.environ.get("ATTENTION_TEST_HOLD", "")
BOUND_S = 300  # never hold a trace forever, whatever the test does
_trace_batch = hf_model.trace_batch


def held_trace_batch(*args, **kwargs):
    if HOLD and os.path.exists(HOLD):
        with open(HOLD + ".held", "a") as f:
            f.write("held\n")
        deadline = time.monotonic() + BOUND_S
        while os.path.exists(HOLD) and time.monotonic() < deadline:
            time.sleep(0.05)
    return _trace_batch(*args, **kwargs)


hf_model.trace_batch = held_trace_batch
