"""One byte budget for what long sites compute when asked (a head's S or A, a site's Z), shared by every
site and every thread of the process, least recently used dropped first (a ByteLRU).

A long site (trace.Site without the model's own weights) keeps only O(n·d) arrays; an n × n of one head
at 8,192 tokens is 256 MiB, so what is computed for a page is kept here, within ATTENTION_HEAD_CACHE_MB
(default 512; the app's settings declare it beside its other budgets, attention/ui/hosting/settings.py),
and made again when it was dropped. numpy only: the contract imports it.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Hashable

import numpy as np

from attention.byte_lru import ByteLRU

DEFAULT_MB = 512
ENV = "ATTENTION_HEAD_CACHE_MB"


def budget() -> int:
    """Bytes the cache may hold (read at each insertion, so a test or a replica can set it)."""
    try:
        return max(0, int(float(os.environ.get(ENV, DEFAULT_MB)) * (1 << 20)))
    except ValueError:
        return DEFAULT_MB << 20


_heads: ByteLRU[Hashable, np.ndarray] = ByteLRU(budget)
_ids = itertools.count()


def new_owner() -> int:
    """A number no other owner (site) of this process has: keys never collide after a site is freed."""
    return next(_ids)


def get(key: Hashable, make: Callable[[], np.ndarray]) -> np.ndarray:
    """The array kept under `key`, else make() kept (when it fits the budget) and returned."""
    return _heads.get_or_make(key, make)


def held() -> int:
    """Bytes held now."""
    return _heads.held


def clear() -> None:
    _heads.clear()
