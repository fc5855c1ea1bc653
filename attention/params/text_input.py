"""What we accept as text: control characters dropped, the length capped, blank text refused
(the pages say why in the chosen language)."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

MAX_CHARS = 64_000  # SmolLM2's 8,192 tokens are about 40,000 characters of English; bounds tokenising a pasted book


@dataclass(frozen=True)
class CheckedText:
    text: str  # what goes to the model ("" when nothing usable was given)
    cut_chars: int = 0  # characters cut off the end to fit max_chars


def check_text(raw: str | None, max_chars: int = MAX_CHARS) -> CheckedText:
    """Drop control characters (keeping ordinary white space), cap the length, refuse blank text."""
    raw = raw or ""
    cleaned = "".join(
        ch for ch in raw if ch in "\n\t " or unicodedata.category(ch) not in ("Cc", "Cs")
    )
    if not cleaned.strip():
        return CheckedText("")
    cut = max(0, len(cleaned) - max_chars)
    if cut:
        return CheckedText(cleaned[:max_chars], cut)
    return CheckedText(cleaned)
