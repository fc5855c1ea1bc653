"""One BLAS thread for numpy's matrix products, and one torch thread where asked (one_torch_thread).

numpy's OpenBLAS keeps its worker threads spinning for a while after every call, and on a small
machine they take the cores torch's forward pass needs next. Measured on 2 cores
(`python -m bench trace_speed --blas default` against the default run): the trace after a
recomputation took 68–110 ms instead of 30–38 ms at 128 tokens. Our products are one block of
heads at a time (at most 512 × 512), where a second BLAS thread gains nothing.

threadpoolctl is the app's dependency, not the package's: it is imported on first use, and where it
is not installed numpy keeps its threads (the numbers are the same; only the timing differs).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from functools import cache
from typing import TYPE_CHECKING

import numpy as np  # noqa: F401  (loaded first, so the controller finds numpy's BLAS)

if TYPE_CHECKING:
    from threadpoolctl import ThreadpoolController


@cache
def _controller() -> ThreadpoolController | None:
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:  # a core-only install (numpy alone): nothing to limit with
        return None
    return ThreadpoolController()


def one_thread() -> AbstractContextManager:
    """`with one_thread():` numpy's BLAS uses one thread inside the block (about 20 µs to enter).
    The setting is process-wide: threads that overlap such blocks may restore each other's value
    (harmless in the app, which sets one thread for the whole process first)."""
    controller = _controller()
    return nullcontext() if controller is None else controller.limit(limits=1, user_api="blas")


@cache  # once per process: the app calls it on every rerun
def one_thread_for_process() -> None:
    """numpy's BLAS uses one thread from now on in this process (the app's, not a notebook's)."""
    controller = _controller()
    if controller is not None:
        controller.limit(limits=1, user_api="blas")


@contextmanager
def one_torch_thread() -> Iterator[None]:
    """torch on one thread inside the block (torch is imported here, only when called). In the app's
    process the browser and other sessions take the second core, and two threads waiting on each other
    cost more than they share: a written word's step 1.5-2x slower (1,100 tokens: 150-300 ms against
    108-139 ms on one; it is memory bound, `python -m bench lm_step --threads 1`), and the translator's
    small operations far more (Learning's 13 passes 0.4-5 s against 0.15 s). torch keeps the count per
    thread (OpenMP): the calling thread's is set and given back."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(before)
