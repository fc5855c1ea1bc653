"""This process's resident memory, and handing freed memory back to the system.

A replica on a small hosted tier is killed by its host when it passes its memory limit; the cache
(cache.Shelf) reads rss_bytes() before each computation and sheds what it keeps when over the
budget (settings: ATTENTION_RSS_BUDGET_MB). Freed arrays do not shrink the resident size by
themselves: glibc keeps freed heap pages, so release() asks it to return them (malloc_trim).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import gc
import os


def rss_bytes() -> int:
    """Resident set size now (Linux /proc; 0 where there is none, so nothing is ever shed there)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


@functools.cache
def _libc():
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
    except OSError:
        return None
    return libc if libc is not None and hasattr(libc, "malloc_trim") else None


def trim() -> None:
    """Give free heap pages back to the system (glibc only; elsewhere a no-op). A computation's
    temporary arrays leave tens of MB of them (Learning's alignment: 46 MB)."""
    libc = _libc()
    if libc is not None:
        libc.malloc_trim(0)


def release() -> None:
    """Collect garbage, then trim()."""
    gc.collect()
    trim()
