"""Large arrays straight from the kernel, so a long trace's memory is what it keeps, not what glibc's heap
holds in between.

glibc raises its mmap threshold each time a large block is freed (up to 32 MiB), and then serves the
next large blocks from its heap, where the forward pass's freed temporaries of the same sizes leave
holes. Measured on SmolLM2 at 8,192 tokens (peak RSS of a fresh process, `python -m bench long_context`):
2.7–3.4 GB with the moving threshold, 2.5 GB with it fixed at 1 MiB. Elsewhere (no glibc) nothing is done.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools

_M_MMAP_THRESHOLD = -3  # glibc's malloc.h
THRESHOLD = 1 << 20


@functools.cache
def fix_threshold() -> bool:
    """Fix glibc's mmap threshold at THRESHOLD for this process (once); False where there is no glibc."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        return bool(libc.mallopt(_M_MMAP_THRESHOLD, THRESHOLD))
    except (OSError, AttributeError):
        return False
