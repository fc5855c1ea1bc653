"""What the head views send, kept by bytes and shared by every session: the head view's payload texts, the
detail panels' head data, the long view's pooled pictures, first messages and exact tiles. One ByteLRU within
ATTENTION_VIEW_CACHE_MB (settings.py), least recently used dropped first; keys start with what they hold."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

from attention.byte_lru import ByteLRU
from attention.ui.hosting import settings
from attention.ui.hosting.shelf import nbytes

T = TypeVar("T")


def _size(value: object) -> int:
    if isinstance(value, (str, bytes, bytearray)):
        return len(value)
    return nbytes(value)


views: ByteLRU[Hashable, object] = ByteLRU(settings.view_cache_bytes, size=_size)


def kept(key: Hashable, make: Callable[[], T]) -> T:
    """The value kept under key (a tuple whose first part names what it is), else make() kept and returned."""
    return views.get_or_make(key, make)  # type: ignore[return-value]
