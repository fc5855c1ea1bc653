"""One byte budget for what long sites compute when asked (a head's S or A, a site's Z), shared by every
site and every thread of the process, least recently used dropped first.

A long site (trace.Site without the model's own weights) keeps only O(n·d) arrays; an n × n of one head
at 8,192 tokens is 256 MiB, so what is computed for a page is kept here, within ATTENTION_HEAD_CACHE_MB
(default 512), and made again when it was dropped. numpy only: the contract imports it.
"""

from __future__ import annotations

import itertools
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

import numpy as np

_DEFAULT_MB = 512


def budget() -> int:
    """Bytes the cache may hold (read each call, so a test or a replica can set it)."""
    try:
        return max(0, int(float(os.environ.get("ATTENTION_HEAD_CACHE_MB", _DEFAULT_MB)) * (1 << 20)))
    except ValueError:
        return _DEFAULT_MB << 20


_entries: OrderedDict[Hashable, np.ndarray] = OrderedDict()
_held = 0
_lock = threading.Lock()
_ids = itertools.count()


def new_owner() -> int:
    """A number no other owner (site) of this process has: keys never collide after a site is freed."""
    return next(_ids)


def get(key: Hashable, make: Callable[[], np.ndarray]) -> np.ndarray:
    """The array kept under `key`, else make() kept (when it fits the budget) and returned. Two threads
    asking at once may both make it: they make the same numbers, one is kept."""
    global _held
    with _lock:
        found = _entries.get(key)
        if found is not None:
            _entries.move_to_end(key)
            return found
    value = make()
    limit = budget()
    if value.nbytes > limit:
        return value  # larger than the whole budget: given, not kept
    with _lock:
        if key not in _entries:
            _entries[key] = value
            _held += value.nbytes
        while _held > limit and _entries:
            _held -= _entries.popitem(last=False)[1].nbytes
    return value


def held() -> int:
    """Bytes held now."""
    with _lock:
        return _held


def clear() -> None:
    global _held
    with _lock:
        _entries.clear()
        _held = 0
